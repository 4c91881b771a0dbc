// The heatmap of weights with the first token set aside (AttentionSnapshot::
// firstTokenAside): the first column is not a weight any more, so it is
// covered and named; the title and the colour bar say the rest are
// renormalised (heatmaplabels.cpp). On screen and in every export alike.

#include "heatmappainter.h"

#include "hatch.h"

#include <QCoreApplication>
#include <QPainter>
#include <algorithm>

bool HeatmapPainter::showsFirstTokenAside() const
{
    // Scores are no distribution: they are shown as computed.
    return hasResult() && m_snapshot->firstTokenAside && !m_showScores && columns() > 0;
}

QString HeatmapPainter::firstTokenAsideText()
{
    return QCoreApplication::translate("HeatmapPainter", "set aside");
}

void HeatmapPainter::paintFirstTokenAside(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const
{
    if (!showsFirstTokenAside())
        return;
    const auto [r0, visibleEnd] = l.visibleRows();
    // Only the rows that see the first token: past a sliding window it is masked, not set aside.
    const int window = m_snapshot->result->window;
    const int r1 = window > 0 ? std::min(visibleEnd, window) : visibleEnd;
    if (r1 <= r0)
        return;
    const QRectF column = l.cellRect(r0, 0).united(l.cellRect(r1 - 1, 0)).intersected(l.cellArea());
    if (column.isEmpty())
        return;
    p.save();
    // Crossed, where the mask's hatch runs one way: set aside is not masked.
    // Line segments, not a pattern brush: slides drop SVG patterns (hatch.h).
    paintCrossHatchedRect(p, column, maskedBackground(palette), maskedHatch(palette), l.contentRect().topLeft());
    p.setPen(QPen(palette.color(QPalette::Text), 1));
    p.drawLine(column.topRight(), column.bottomRight());
    // The words, down the column, where they fit.
    const QFontMetricsF metrics(p.font(), p.device());
    const QString text = firstTokenAsideText();
    if (!m_compact && column.width() >= metrics.height() + 2 && column.height() >= metrics.horizontalAdvance(text) + 8) {
        p.translate(column.center());
        p.rotate(-90);
        const QRectF box(-metrics.horizontalAdvance(text) / 2 - 3, -metrics.height() / 2,
                         metrics.horizontalAdvance(text) + 6, metrics.height());
        p.fillRect(box, palette.color(QPalette::Base));
        p.drawText(box, Qt::AlignCenter, text);
    }
    p.restore();
}
