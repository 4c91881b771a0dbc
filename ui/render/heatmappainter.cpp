#include "heatmappainter.h"

#include "hatch.h"
#include "lessons/notation.h"

#include <QCoreApplication>
#include <QPaintDevice>
#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <cmath>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("HeatmapPainter", text);
}

} // namespace

void HeatmapPainter::setSnapshot(SnapshotPtr snapshot)
{
    if (snapshot == m_snapshot)
        return;
    m_snapshot = std::move(snapshot);
    // The snapshot's tokens are labelled already (attn::tokenLabels); shared, not copied.
    m_rowLabels = m_snapshot ? m_snapshot->rowTokens : QStringList();
    m_columnLabels = m_snapshot ? m_snapshot->columnTokens : QStringList();
    updateValues();
}

void HeatmapPainter::setColorScale(const ColorScale &scale)
{
    if (scale == m_colorScale)
        return;
    m_colorScale = scale;
    updateRange();
}

void HeatmapPainter::setHead(std::optional<int> head)
{
    if (head == m_head)
        return;
    m_head = head;
    updateValues();
}

std::optional<int> HeatmapPainter::effectiveHead() const
{
    if (!hasResult() || !m_head || *m_head < 0 || *m_head >= int(m_snapshot->result->heads.size()))
        return std::nullopt;
    return m_head;
}

void HeatmapPainter::setShowScores(bool scores)
{
    if (scores == m_showScores)
        return;
    m_showScores = scores;
    updateValues();
}

bool HeatmapPainter::isMasked(int row, int column) const
{
    return hasResult() && m_snapshot->result->isMasked(row, column);
}

const attn::AttentionMatrix *HeatmapPainter::values() const
{
    if (!m_hasValues)
        return nullptr;
    if (m_ownsValues)
        return &m_average;
    if (m_snapshotAverage)
        return &m_snapshot->result->meanWeights;
    const attn::HeadResult &head = m_snapshot->result->heads[std::size_t(effectiveHead().value_or(0))];
    return m_showScores ? &head.scores : &head.weights;
}

void HeatmapPainter::updateValues()
{
    ++m_generation;
    m_imageDirty = true;
    m_hasValues = m_ownsValues = m_snapshotAverage = false;
    m_average = {};
    if (!hasResult() || m_snapshot->result->heads.empty())
        return;
    const attn::AttentionResult &result = *m_snapshot->result;
    m_hasValues = true;
    // One head, or the average of a single head: read it in place.
    // The average weights come with the result (the forward pass sums them).
    if (!effectiveHead() && result.heads.size() > 1) {
        m_snapshotAverage = !m_showScores && result.meanWeights.size() > 0;
        m_ownsValues = !m_snapshotAverage;
        if (m_ownsValues)
            m_average = m_showScores ? attn::averageScores(result) : attn::averageWeights(result);
    }
    // The range covers what is drawn: masked cells are hatched, not coloured.
    const attn::AttentionMatrix &v = *values();
    double largest = 0.0;
    if (v.pooled()) {
        largest = v.pooled()->largestMagnitude; // weights are never negative: the largest weight
    } else {
        for (int r = 0; r < rows(); ++r) {
            const int visible = result.causal ? std::min(columns(), r + 1) : columns();
            largest = std::max(largest, v.largestInRow(r, visible, m_showScores));
        }
    }
    if (!(largest > 0.0) || !std::isfinite(largest))
        largest = 1.0;
    m_dataMax = largest;
    updateRange();
}

void HeatmapPainter::updateRange()
{
    ++m_generation; // the tick labels' width is part of the layout
    m_imageDirty = true;
    double top = m_dataMax;
    if (m_showScores && m_colorScale.fixedScores)
        top = m_colorScale.scoreLimit > 0 ? m_colorScale.scoreLimit : ColorScale::roundLimitAbove(m_dataMax);
    else if (!m_showScores && m_colorScale.fixedWeights)
        top = 1.0;
    m_rangeMax = top;
    m_rangeMin = m_showScores ? -top : 0.0;
}

QColor HeatmapPainter::colorFor(double value) const
{
    // (Outside a fixed range the colour functions clamp: the end colours.)
    return m_showScores ? divergingColor(value / m_rangeMax) : sequentialColor(m_colorMap, value / m_rangeMax);
}

qreal HeatmapPainter::widestLabel(const QStringList &labels, const QFontMetricsF &metrics, const QString &fontKey,
                                  qreal cap) const
{
    if (fontKey != m_labelWidthsFont || m_labelWidths.size() > 20000) {
        m_labelWidths.clear();
        m_labelWidthsFont = fontKey;
    }
    qreal widest = 0;
    for (const QString &label : labels) {
        auto it = m_labelWidths.constFind(label);
        if (it == m_labelWidths.constEnd())
            it = m_labelWidths.insert(label, metrics.horizontalAdvance(label));
        widest = std::max(widest, *it);
        if (widest >= cap)
            return cap;
    }
    return widest;
}

const HeatmapLayout &HeatmapPainter::layout(const QRectF &rect, const QFont &font, const QPaintDevice *device) const
{
    const QString key = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 ")
                            .arg(rect.x()).arg(rect.y()).arg(rect.width()).arg(rect.height())
                            .arg(font.key()).arg(device ? device->logicalDpiY() : 0)
                            .arg(m_generation).arg(m_compact).arg(m_showTitle)
        + QStringLiteral("%1 %2 %3").arg(m_zoom.factor, 0, 'g', 17).arg(m_zoom.centre.x(), 0, 'g', 17)
              .arg(m_zoom.centre.y(), 0, 'g', 17);
    if (key != m_layoutKey) {
        HeatmapLayoutOptions options;
        options.compact = m_compact;
        options.showTitle = m_showTitle;
        const QString low = formatTick(m_rangeMin), high = formatTick(m_rangeMax);
        options.widestValueText = low.size() > high.size() ? low : high;
        options.zoom = m_compact ? HeatmapZoom() : m_zoom;
        options.cellValueText = attn::formatFixed(m_showScores ? -0.5 : 0.5, cellDecimals());
        const QFontMetricsF metrics = device ? QFontMetricsF(font, device) : QFontMetricsF(font);
        const QString fontKey = font.key() + QString::number(device ? device->logicalDpiY() : 0);
        if (!m_compact) {
            options.rowLabelsWidth = widestLabel(m_rowLabels, metrics, fontKey, options.maxLabelWidth);
            options.columnLabelsWidth = m_columnLabels == m_rowLabels
                                            ? options.rowLabelsWidth
                                            : widestLabel(m_columnLabels, metrics, fontKey, options.maxLabelWidth);
        }
        m_layout = HeatmapLayout(rect, rows(), columns(), m_rowLabels, m_columnLabels, metrics, options);
        m_layoutKey = key;
    }
    return m_layout;
}

void HeatmapPainter::paint(QPainter &p, const QRectF &rect, const QPalette &palette) const
{
    paintBase(p, rect, palette);
    paintHover(p, rect, palette);
}

void HeatmapPainter::paintBase(QPainter &p, const QRectF &rect, const QPalette &palette) const
{
    p.save();
    if (!m_compact)
        p.fillRect(rect, palette.color(QPalette::Base));
    if (!m_hasValues) {
        p.setPen(palette.color(QPalette::Text));
        const QString message = m_snapshot && !m_snapshot->error.isEmpty() ? m_snapshot->error : tr("No attention to show");
        if (!m_compact)
            p.drawText(rect.adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, message);
        p.restore();
        return;
    }
    const HeatmapLayout &l = layout(rect, p.font(), p.device());
    p.save();
    p.setClipRect(l.cellArea(), Qt::IntersectClip); // zoomed in, cells reach past it
    paintCells(p, l, palette);
    paintMask(p, l, palette);
    paintFirstTokenAside(p, l, palette);
    if (m_query >= 0 && m_query < rows()) {
        p.setPen(QPen(palette.color(QPalette::Highlight), 2.5));
        p.setBrush(Qt::NoBrush);
        // Inside a tall row; around a row too thin to hold an outline.
        const QRectF row = l.rowRect(m_query);
        p.drawRect(row.height() > 6 ? row.adjusted(1.25, 1.25, -1.25, -1.25) : row.adjusted(0, -1.25, 0, 1.25));
    }
    if (!m_compact)
        paintNumbers(p, l);
    paintSwitchedOffVeil(p, l, palette);
    p.restore();
    if (!m_compact) {
        paintLabels(p, l, palette);
        paintColorBar(p, l, palette);
    }
    p.restore();
}

void HeatmapPainter::paintHover(QPainter &p, const QRectF &rect, const QPalette &palette) const
{
    if (m_hasValues && m_highlightRow >= 0 && m_highlightRow < rows() && !m_highlightColumns.isEmpty()) {
        const HeatmapLayout &l = layout(rect, p.font(), p.device());
        p.save();
        p.setClipRect(l.cellArea(), Qt::IntersectClip);
        for (int column : m_highlightColumns)
            if (column >= 0 && column < columns()) {
                const QColor cell = isMasked(m_highlightRow, column) ? maskedBackground(palette)
                                                                     : colorFor(valueAt(m_highlightRow, column));
                paintStepOutline(p, l.cellRect(m_highlightRow, column).adjusted(3, 3, -3, -3), cell, palette);
            }
        p.restore();
    }
    if (!m_hasValues || m_hoverRow < 0 || m_hoverRow >= rows() || m_hoverColumn < 0 || m_hoverColumn >= columns())
        return;
    const HeatmapLayout &l = layout(rect, p.font(), p.device());
    // Two rings, so the outline shows on dark and light cells alike.
    const QRectF cell = l.cellRect(m_hoverRow, m_hoverColumn);
    p.save();
    p.setClipRect(l.cellArea().adjusted(-2, -2, 2, 2), Qt::IntersectClip);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(palette.color(QPalette::Base), 3));
    p.drawRect(cell.adjusted(1.5, 1.5, -1.5, -1.5));
    p.setPen(QPen(palette.color(QPalette::Text), 1.5));
    p.drawRect(cell.adjusted(1.5, 1.5, -1.5, -1.5));
    p.restore();
}

void HeatmapPainter::paintStepOutline(QPainter &p, const QRectF &cell, const QColor &cellColor, const QPalette &palette)
{
    p.save();
    p.setBrush(Qt::NoBrush);
    // The highlight colour alone vanished on cells of a similar colour (blue on viridis' teal).
    p.setPen(QPen(contrastingTextColor(cellColor), 3.0, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(cell);
    QPen dashes(palette.color(QPalette::Highlight), 3.0, Qt::CustomDashLine, Qt::FlatCap, Qt::MiterJoin);
    dashes.setDashPattern({2.0, 2.0}); // in pen widths: 6 px of highlight, 6 px of the ring
    p.setPen(dashes);
    p.drawRect(cell);
    p.restore();
}

void HeatmapPainter::paintMask(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const
{
    const attn::AttentionResult &result = *m_snapshot->result;
    if (!result.causal)
        return;
    // The masked keys (column > row) of the visible rows form a staircase:
    // one polygon, O(visible rows).
    const QRectF area = l.cellArea();
    const auto [r0, r1] = l.visibleRows();
    if (r1 <= r0)
        return;
    std::vector<StairStep> steps;
    steps.reserve(std::size_t(r1 - r0));
    for (int r = r0; r < r1; ++r) {
        const QRectF diagonal = l.cellRect(r, r);
        steps.push_back({diagonal.top(), diagonal.bottom(), std::clamp(diagonal.right(), area.left(), area.right())});
    }
    paintHatchedStaircase(p, steps, area.right(), maskedBackground(palette), maskedHatch(palette),
                          l.contentRect().topLeft());
    // A sliding window hides the keys before it too: a staircase from the
    // left edge, keys 0 ... row - window of every row past the window.
    if (result.window <= 0 || r1 - 1 < result.window)
        return;
    std::vector<LeftStairStep> band;
    for (int r = std::max(r0, result.window); r < r1; ++r) {
        const QRectF lastHidden = l.cellRect(r, r - result.window);
        band.push_back({lastHidden.top(), lastHidden.bottom(), std::clamp(lastHidden.right(), area.left(), area.right())});
    }
    paintHatchedLeftStaircase(p, band, area.left(), maskedBackground(palette), maskedHatch(palette),
                              l.contentRect().topLeft());
    // The band says why, where it has room: the window, not the order, hides these keys.
    if (m_compact)
        return;
    const QString text = outsideWindowText();
    const QFontMetricsF metrics(p.font(), p.device());
    const int last = r1 - 1, hidden = last - result.window + 1; // keys the last row does not see
    const QRectF room = l.cellRect(last, 0).united(l.cellRect(last, hidden - 1)).intersected(area);
    if (room.width() >= metrics.horizontalAdvance(text) + 8 && room.height() >= metrics.height()) {
        const QRectF box(room.left() + 3, room.center().y() - metrics.height() / 2,
                         metrics.horizontalAdvance(text) + 6, metrics.height());
        p.save();
        p.fillRect(box, palette.color(QPalette::Base));
        p.setPen(palette.color(QPalette::Text));
        p.drawText(box, Qt::AlignCenter, text);
        p.restore();
    }
}

QString HeatmapPainter::outsideWindowText() const
{
    const int window = hasResult() ? m_snapshot->result->window : 0;
    return window > 0 ? tr("outside the window of %1").arg(window) : QString();
}

int HeatmapPainter::cellDecimals() const
{
    // The decimals every view writes weights and scores with, so a cell reads
    // as its tooltip and the pipeline do; cells too narrow for them show none.
    return attn::kShownDecimals;
}

void HeatmapPainter::paintNumbers(QPainter &p, const HeatmapLayout &l) const
{
    if (!l.numbersFit())
        return;
    const QFontMetricsF metrics(p.font(), p.device());
    const auto [r0, r1] = l.visibleRows();
    const auto [c0, c1] = l.visibleColumns();
    const int decimals = cellDecimals();
    for (int r = r0; r < r1; ++r) {
        for (int c = c0; c < c1; ++c) {
            if (isMasked(r, c) || (c == 0 && showsFirstTokenAside()))
                continue;
            const double v = valueAt(r, c);
            const QString text = attn::formatFixed(v, decimals);
            if (metrics.horizontalAdvance(text) > l.cellWidth() - 4)
                continue; // a large score: skip it rather than spill over
            p.setPen(contrastingTextColor(colorFor(v)));
            p.drawText(l.cellRect(r, c), Qt::AlignCenter, text);
        }
    }
}
