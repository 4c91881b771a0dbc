// The heatmap of a switched-off head: its weights are what it computed, but
// the layer adds none of its context. A veil over the cells and a banner
// say so, on screen and in every export alike.

#include "heatmappainter.h"

#include "modelgridpainter.h"

#include <QCoreApplication>
#include <QPainter>
#include <algorithm>

bool HeatmapPainter::shownHeadSwitchedOff() const
{
    const std::optional<int> head = effectiveHead();
    const int heads = hasResult() ? int(m_snapshot->result->heads.size()) : 0;
    // A single head is "the average" of one: effectiveHead() then names none.
    const int shown = head ? *head : heads == 1 ? 0 : -1;
    return shown >= 0 && m_snapshot->isSwitchedOff(shown);
}

QString HeatmapPainter::switchedOffText() const
{
    if (!shownHeadSwitchedOff())
        return {};
    const int head = effectiveHead().value_or(0);
    return m_snapshot->modelLayer >= 0
        ? QCoreApplication::translate("HeatmapPainter", "Head %1 of layer %2 is switched off: its output is zero")
              .arg(head).arg(m_snapshot->modelLayer)
        : QCoreApplication::translate("HeatmapPainter", "Head %1 is switched off: its output is zero").arg(head);
}

void HeatmapPainter::paintSwitchedOffVeil(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const
{
    if (!shownHeadSwitchedOff())
        return;
    const QRectF cells = l.cellArea();
    if (m_compact) { // a tile: the mark the layers × heads grid gives
        paintSwitchedOff(p, cells, palette);
        return;
    }
    QColor veil = palette.color(QPalette::Window);
    veil.setAlpha(kSwitchedOffVeilAlpha);
    p.fillRect(cells, veil);
    // The banner: the sentence in a box in the middle of the cells.
    p.save();
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    const QFontMetricsF metrics(bold, p.device());
    const QString text = switchedOffText();
    const qreal width = std::min(cells.width() - 16, metrics.horizontalAdvance(text) + 24);
    const QRectF bounds = metrics.boundingRect(QRectF(0, 0, width - 24, 1e6), Qt::TextWordWrap | Qt::AlignCenter, text);
    QRectF box(0, 0, width, bounds.height() + 16);
    box.moveCenter(cells.center());
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(palette.color(QPalette::Text), 1.5));
    p.setBrush(palette.color(QPalette::Base));
    p.drawRoundedRect(box, 6, 6);
    p.drawText(box.adjusted(12, 8, -12, -8), Qt::TextWordWrap | Qt::AlignCenter, text);
    p.restore();
}
