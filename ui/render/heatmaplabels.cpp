// The heatmap's text and legend: title, axis titles, token labels and the
// colour bar. HeatmapPainter's other half; the cells are in heatmappainter.cpp.
#include "heatmappainter.h"

#include "lessons/notation.h"

#include <QCoreApplication>
#include <QLinearGradient>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("HeatmapPainter", text);
}

} // namespace

QRectF HeatmapPainter::titleArea(const HeatmapLayout &l) const
{
    const QRectF row = l.titleRect();
    const qreal inset = std::min(m_titleInset, row.width() / 2);
    return row.adjusted(inset, 0, -inset, 0);
}

QString HeatmapPainter::title() const
{
    // Cross-attention changes what every column is: said first, so no elision hides it.
    const bool cross = hasResult() && m_snapshot->result->sourceInputs.rows() > 0;
    QString text = cross ? (m_showScores ? tr("Cross-attention scores ω: keys and values from the source")
                                         : tr("Cross-attention weights α: keys and values from the source"))
                         : m_showScores ? tr("Raw scores ω") : tr("Attention weights α");
    // Said at once, so no elision hides it: these are not the weights computed.
    if (showsFirstTokenAside())
        text += QStringLiteral(", ") + tr("first token set aside, rows renormalised");
    if (m_snapshot && m_snapshot->modelLayer >= 0)
        text += QStringLiteral(" · ") + tr("layer %1").arg(m_snapshot->modelLayer);
    const int heads = hasResult() ? int(m_snapshot->result->heads.size()) : 0;
    if (heads > 1) {
        const std::optional<int> head = effectiveHead();
        // Heads are numbered from 0, as in files and on the command line.
        text += QStringLiteral(" · ")
            + (head ? tr("%1 (heads 0–%2)").arg(attn::headName(*head)).arg(heads - 1)
                         : tr("average of %1 heads").arg(heads));
    }
    if (hasResult() && m_snapshot->result->window > 0)
        text += QStringLiteral(" · ") + tr("window %1").arg(m_snapshot->result->window);
    if (shownHeadSwitchedOff())
        text += QStringLiteral(" · ") + tr("switched off");
    return text;
}

QString HeatmapPainter::colorBarTitle() const
{
    // Says which scale is in force: fitted colours cannot be compared between edits.
    QString text;
    if (m_showScores) {
        text = m_colorScale.fixedScores ? tr("scores ω, fixed scale ±%1").arg(formatTick(m_rangeMax))
                                        : tr("scores ω, scale ±max %1").arg(formatTick(m_dataMax));
    } else {
        const QString name = showsFirstTokenAside() ? tr("renormalised weights α (first token aside)")
                             : m_valueName.isEmpty() ? tr("weights α") : m_valueName;
        text = m_colorScale.fixedWeights ? tr("%1, fixed scale 0–1").arg(name)
                                         : tr("%1, scale 0–max %2").arg(name, formatTick(m_dataMax));
    }
    // Said first, so an elided title keeps it: why the lower left is hatched.
    return outsideWindowText().isEmpty() ? text : tr("hatched: %1 · %2").arg(outsideWindowText(), text);
}

QString HeatmapPainter::colorBarTitleFitting(const QFontMetricsF &metrics, qreal length) const
{
    // The scale's extremes are the bar's own tick labels: when the whole title
    // does not fit, its name alone says what the colours are, uncut.
    const QString whole = colorBarTitle();
    if (metrics.horizontalAdvance(whole) <= length)
        return whole;
    const QString name = m_showScores            ? tr("scores ω")
                         : showsFirstTokenAside() ? tr("renormalised weights α (first token aside)")
                         : m_valueName.isEmpty()  ? tr("weights α")
                                                  : m_valueName;
    return metrics.elidedText(name, Qt::ElideRight, length);
}

QString HeatmapPainter::formatTick(double value) const
{
    // Two significant digits of the largest value, at least two decimals;
    // powers of ten for the very large and very small (1e300 has 301 digits).
    const double largest = std::abs(m_rangeMax);
    if (largest >= 1e6 || (largest > 0 && largest < 1e-4))
        return QString::number(value, 'g', 2);
    const int decimals = largest >= 100 ? 0 : std::max(2, 1 - int(std::floor(std::log10(largest))));
    return QString::number(value, 'f', decimals);
}

void HeatmapPainter::paintLabels(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const
{
    const QColor text = palette.color(QPalette::Text);
    const QFont normal = p.font();
    QFont bold = normal;
    bold.setBold(true);
    const QFontMetricsF metrics(normal, p.device());
    const QFontMetricsF boldMetrics(bold, p.device());
    p.setPen(text);
    if (m_showTitle && !l.titleRect().isEmpty()) {
        p.setFont(bold);
        const QRectF area = titleArea(l);
        p.drawText(area, Qt::AlignCenter, boldMetrics.elidedText(title(), Qt::ElideRight, area.width()));
    }
    p.setFont(normal);
    p.drawText(l.columnAxisTitleRect(), Qt::AlignCenter, tr("key"));
    const QRectF rowTitle = l.rowAxisTitleRect();
    p.save();
    p.translate(rowTitle.center());
    p.rotate(-90);
    p.drawText(QRectF(-rowTitle.height() / 2, -rowTitle.width() / 2, rowTitle.height(), rowTitle.width()),
               Qt::AlignCenter, tr("query"));
    p.restore();

    // Only every k-th label when cells are thinner than a line, and only the
    // visible ones when zoomed in: O(visible / k) text. Half a line of slack
    // so the edge labels of a fitted matrix are not cut.
    const qreal line = metrics.height();
    const auto firstShown = [](int first, int step) { return (first + step - 1) / step * step; };
    const auto [r0, r1] = l.visibleRows();
    p.save();
    p.setClipRect(l.rowLabelArea().adjusted(0, -line / 2, 0, line / 2), Qt::IntersectClip);
    for (int r = firstShown(r0, l.rowLabelStep()); r < r1 && r < m_rowLabels.size(); r += l.rowLabelStep()) {
        const bool isQuery = r == m_query;
        p.setFont(isQuery ? bold : normal);
        const QFontMetricsF &m = isQuery ? boldMetrics : metrics;
        p.drawText(l.rowLabelRect(r), Qt::AlignRight | Qt::AlignVCenter,
                   m.elidedText(m_rowLabels[r], Qt::ElideRight, l.rowLabelLength()));
    }
    p.restore();
    p.setFont(normal);
    const auto [c0, c1] = l.visibleColumns();
    p.save();
    p.setClipRect(l.columnLabelArea().adjusted(-line / 2, 0, line / 2, 0), Qt::IntersectClip);
    for (int c = firstShown(c0, l.columnLabelStep()); c < c1 && c < m_columnLabels.size(); c += l.columnLabelStep()) {
        const QString label = metrics.elidedText(m_columnLabels[c], Qt::ElideRight, l.columnLabelLength());
        const QRectF slot = l.columnLabelRect(c);
        if (!l.columnLabelsRotated()) {
            p.drawText(slot, Qt::AlignHCenter | Qt::AlignBottom, label);
            continue;
        }
        // Rotated to read upwards, starting next to the cells.
        p.save();
        p.translate(slot.center().x(), slot.bottom());
        p.rotate(-90);
        p.drawText(QRectF(0, -metrics.height() / 2, slot.height(), metrics.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, label);
        p.restore();
    }
    p.restore();
}

void HeatmapPainter::paintColorBar(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const
{
    const QRectF bar = l.colorBarRect();
    if (bar.isEmpty())
        return;
    // A gradient, not an image: SVG and PDF keep it as a vector shading.
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    constexpr int kStops = 32;
    for (int i = 0; i <= kStops; ++i) {
        const double t = double(i) / kStops;
        gradient.setColorAt(t, m_showScores ? divergingColor(2 * t - 1) : sequentialColor(m_colorMap, t));
    }
    p.setPen(QPen(palette.color(QPalette::Mid), 1));
    p.setBrush(gradient);
    p.drawRect(bar);
    p.setBrush(Qt::NoBrush);

    p.setPen(palette.color(QPalette::Text));
    const QRectF labels = l.colorBarLabelArea();
    const qreal line = QFontMetricsF(p.font(), p.device()).height();
    p.drawText(labels, Qt::AlignLeft | Qt::AlignTop, formatTick(m_rangeMax));
    p.drawText(labels, Qt::AlignLeft | Qt::AlignBottom, formatTick(m_rangeMin));
    if (labels.height() >= 4 * line)
        p.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, formatTick((m_rangeMin + m_rangeMax) / 2));

    const QRectF titleRect = l.colorBarTitleRect();
    p.save();
    p.translate(titleRect.center());
    p.rotate(-90);
    const QFontMetricsF metrics(p.font(), p.device());
    p.drawText(QRectF(-titleRect.height() / 2, -titleRect.width() / 2, titleRect.height(), titleRect.width()),
               Qt::AlignCenter, colorBarTitleFitting(metrics, titleRect.height()));
    p.restore();
}
