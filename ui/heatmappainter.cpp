#include "heatmappainter.h"

#include "notation.h"
#include "twothreads.h"

#include <QCoreApplication>
#include <QPaintDevice>
#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <cmath>
#include <vector>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("HeatmapPainter", text);
}

constexpr int kLutSize = 1024;

} // namespace

void HeatmapPainter::setSnapshot(SnapshotPtr snapshot)
{
    if (snapshot == m_snapshot)
        return;
    m_snapshot = std::move(snapshot);
    m_rowLabels = m_snapshot ? attn::tokenLabels(m_snapshot->rowTokens) : QStringList();
    // Self-attention names both axes alike: label them once.
    m_columnLabels = !m_snapshot                                           ? QStringList()
        : m_snapshot->columnTokens == m_snapshot->rowTokens ? m_rowLabels
                                                            : attn::tokenLabels(m_snapshot->columnTokens);
    updateValues();
}

void HeatmapPainter::setColorScale(const ColorScale &scale)
{
    if (scale == m_colorScale)
        return;
    m_colorScale = scale;
    updateRange();
}

void HeatmapPainter::setHead(int head)
{
    if (head == m_head)
        return;
    m_head = head;
    updateValues();
}

int HeatmapPainter::effectiveHead() const
{
    if (!hasResult())
        return -1;
    return m_head >= 0 && m_head < int(m_snapshot->result->heads.size()) ? m_head : -1;
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
    const attn::HeadResult &head = m_snapshot->result->heads[std::max(0, effectiveHead())];
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
    if (effectiveHead() < 0 && result.heads.size() > 1) {
        m_snapshotAverage = !m_showScores && result.meanWeights.size() > 0;
        m_ownsValues = !m_snapshotAverage;
        if (m_ownsValues)
            m_average = m_showScores ? attn::averageScores(result) : attn::averageWeights(result);
    }
    // The range covers what is drawn: masked cells are hatched, not coloured.
    const attn::AttentionMatrix &v = *values();
    double largest = 0.0;
    for (int r = 0; r < rows(); ++r) {
        const int visible = result.causal ? std::min(columns(), r + 1) : columns();
        largest = std::max(largest, v.largestInRow(r, visible, m_showScores));
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
        options.cellValueText = QString::number(0.0, 'f', cellDecimals());
        const QFontMetricsF metrics = device ? QFontMetricsF(font, device) : QFontMetricsF(font);
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
    if (m_query >= 0 && m_query < rows()) {
        p.setPen(QPen(palette.color(QPalette::Highlight), 2.5));
        p.setBrush(Qt::NoBrush);
        // Inside a tall row; around a row too thin to hold an outline.
        const QRectF row = l.rowRect(m_query);
        p.drawRect(row.height() > 6 ? row.adjusted(1.25, 1.25, -1.25, -1.25) : row.adjusted(0, -1.25, 0, 1.25));
    }
    if (!m_compact)
        paintNumbers(p, l);
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
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(palette.color(QPalette::Highlight), 2.0, Qt::DashLine));
        for (int column : m_highlightColumns)
            if (column >= 0 && column < columns())
                p.drawRect(l.cellRect(m_highlightRow, column).adjusted(3, 3, -3, -3));
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

QRect HeatmapPainter::wantedImageCells(const HeatmapLayout &l) const
{
    // One image of every cell, unless a pooled matrix is zoomed in: then the
    // visible cells get their own image, one pixel per cell again once they
    // are few enough, so a zoomed cell shows its own colour, not its block's.
    if ((rows() <= m_maxImageSize && columns() <= m_maxImageSize) || l.zoom().isFit())
        return allCells();
    const auto [r0, r1] = l.visibleRows();
    const auto [c0, c1] = l.visibleColumns();
    return r1 > r0 && c1 > c0 ? QRect(c0, r0, c1 - c0, r1 - r0) : allCells();
}

void HeatmapPainter::rebuildImage(QRgb masked, const QRect &cells) const
{
    const int w = std::min(cells.width(), m_maxImageSize);
    const int h = std::min(cells.height(), m_maxImageSize);
    m_image = QImage(w, h, QImage::Format_RGB32);
    std::vector<QRgb> lut(kLutSize);
    for (int i = 0; i < kLutSize; ++i) {
        const double t = double(i) / (kLutSize - 1);
        lut[i] = (m_showScores ? divergingColor(2 * t - 1) : sequentialColor(m_colorMap, t)).rgb();
    }
    // Scores map [-max, max] and weights [0, max] onto the whole table.
    const double offset = m_showScores ? m_rangeMax : 0.0;
    const double scale = (kLutSize - 1) / (m_showScores ? 2 * m_rangeMax : m_rangeMax);
    const bool causal = m_snapshot->result->causal;
    const attn::AttentionMatrix &values = *this->values();
    const int nColumns = columns();
    // The columns each pixel covers, once rather than per row.
    std::vector<int> firstColumn(std::size_t(w) + 1);
    for (int x = 0; x <= w; ++x)
        firstColumn[std::size_t(x)] = cells.x() + int(qint64(x) * cells.width() / w);
    uchar *const bits = m_image.bits();
    const qsizetype bytesPerLine = m_image.bytesPerLine();
    // Image lines [y0, y1), reading the matrix row by row: a large result
    // derives its weights a whole row at a time.
    const bool single = values.isSinglePrecision();
    const auto paintLines = [&](int y0, int y1) {
        // Double-precision matrices are read in double: scores of 1e300 are
        // valid there and would be infinite in float.
        Eigen::RowVectorXf rowF(nColumns);
        Eigen::RowVectorXd row(nColumns);
        std::vector<double> best(std::size_t(w), 0.0);
        std::vector<char> any(std::size_t(w), 0);
        for (int y = y0; y < y1; ++y) {
            // A block of rows/columns per pixel; the strongest unmasked value wins
            // so a lone peak stays visible when 4096 tokens share 600 pixels.
            const int r0 = cells.y() + int(qint64(y) * cells.height() / h);
            const int r1 = cells.y() + int(qint64(y + 1) * cells.height() / h);
            std::fill(any.begin(), any.end(), 0);
            for (int r = r0; r < r1; ++r) {
                if (single) {
                    values.rowInto(r, rowF);
                    row = rowF.cast<double>();
                } else {
                    row = values.row(r);
                }
                const int visibleEnd = causal ? std::min(nColumns, r + 1) : nColumns;
                for (std::size_t x = 0; x < std::size_t(w); ++x) {
                    const int cEnd = std::min(firstColumn[x + 1], visibleEnd);
                    for (int c = firstColumn[x]; c < cEnd; ++c) {
                        if (!any[x] || std::abs(row[c]) > std::abs(best[x]))
                            best[x] = row[c];
                        any[x] = 1;
                    }
                }
            }
            auto *line = reinterpret_cast<QRgb *>(bits + y * bytesPerLine);
            for (std::size_t x = 0; x < std::size_t(w); ++x) {
                const int index = int((best[x] + offset) * scale + 0.5); // values are >= -offset
                line[x] = any[x] ? lut[std::size_t(std::clamp(index, 0, kLutSize - 1))] : masked;
            }
        }
    };
    // Both cores for a large matrix (4096 tokens: 16 M cells); the causal mask
    // leaves more cells in the lower lines, so the split is not at the middle.
    if (qint64(cells.height()) * cells.width() < (qint64(1) << 20)) {
        paintLines(0, h);
    } else {
        const int split = causal ? int(h * 0.7071) : h / 2;
        attn::runBoth([&] { paintLines(0, split); }, [&] { paintLines(split, h); });
    }
    m_imageMasked = masked;
    m_imageCells = cells;
    m_imageDirty = false;
}

bool HeatmapPainter::needsImage(const QPalette &palette) const
{
    if (!m_hasValues || (m_vectorCells && qint64(rows()) * columns() <= kMaxVectorCells))
        return false;
    return m_imageDirty || m_imageMasked != maskedBackground(palette).rgb() || m_imageCells != allCells();
}

void HeatmapPainter::prepareImage(const QPalette &palette) const
{
    if (needsImage(palette))
        rebuildImage(maskedBackground(palette).rgb(), allCells());
}

void HeatmapPainter::paintCells(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const
{
    const QColor masked = maskedBackground(palette);
    const auto [r0, r1] = l.visibleRows();
    const auto [c0, c1] = l.visibleColumns();
    if (m_vectorCells && qint64(rows()) * columns() <= kMaxVectorCells) {
        for (int r = r0; r < r1; ++r) {
            for (int c = c0; c < c1; ++c)
                p.fillRect(l.cellRect(r, c), isMasked(r, c) ? masked : colorFor(valueAt(r, c)));
        }
    } else {
        const QRect wanted = wantedImageCells(l);
        if (m_imageDirty || m_imageMasked != masked.rgb() || m_imageCells != wanted)
            rebuildImage(masked.rgb(), wanted);
        // Only the image pixels over visible cells, each stretched exactly over
        // the cells it stands for (pixel x starts at column firstColumn(x)).
        const QRect &ic = m_imageCells;
        const int w = m_image.width(), h = m_image.height();
        const auto columnOf = [&](int x) { return ic.x() + int(qint64(x) * ic.width() / w); };
        const auto rowOf = [&](int y) { return ic.y() + int(qint64(y) * ic.height() / h); };
        // Rounding down may start a pixel early; the clip hides the extra.
        const int x0 = std::clamp(int(qint64(c0 - ic.x()) * w / ic.width()), 0, w);
        const int x1 = std::clamp(int((qint64(c1 - ic.x()) * w + ic.width() - 1) / ic.width()) + 1, x0, w);
        const int y0 = std::clamp(int(qint64(r0 - ic.y()) * h / ic.height()), 0, h);
        const int y1 = std::clamp(int((qint64(r1 - ic.y()) * h + ic.height() - 1) / ic.height()) + 1, y0, h);
        const QPointF origin = l.contentRect().topLeft();
        const QRectF target(QPointF(origin.x() + columnOf(x0) * l.cellWidth(), origin.y() + rowOf(y0) * l.cellHeight()),
                            QPointF(origin.x() + columnOf(x1) * l.cellWidth(), origin.y() + rowOf(y1) * l.cellHeight()));
        // Nearest neighbour: a cell is a flat block of colour, never a blur.
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        if (x1 > x0 && y1 > y0)
            p.drawImage(target, m_image, QRectF(x0, y0, x1 - x0, y1 - y0));
    }
    // Thin gaps between big cells make single cells easy to tell apart.
    if (!m_compact && l.cellWidth() >= 14 && l.cellHeight() >= 14) {
        p.setPen(QPen(palette.color(QPalette::Base), 1));
        const QRectF area = l.cellArea();
        for (int c = std::max(1, c0); c < c1; ++c) {
            const qreal x = l.cellRect(0, c).left();
            p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        }
        for (int r = std::max(1, r0); r < r1; ++r) {
            const qreal y = l.cellRect(r, 0).top();
            p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
        }
    }
}

void HeatmapPainter::paintMask(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const
{
    if (!m_snapshot->result->causal)
        return;
    // The masked keys (column > row) of the visible rows form a staircase:
    // one polygon, O(visible rows).
    const QRectF area = l.cellArea();
    const auto [r0, r1] = l.visibleRows();
    if (r1 <= r0)
        return;
    QPolygonF stairs;
    stairs.reserve(2 * (r1 - r0) + 2);
    stairs << QPointF(area.right(), l.cellRect(r0, 0).top());
    for (int r = r0; r < r1; ++r) {
        const QRectF diagonal = l.cellRect(r, r);
        const qreal x = std::clamp(diagonal.right(), area.left(), area.right());
        stairs << QPointF(x, diagonal.top()) << QPointF(x, diagonal.bottom());
    }
    stairs << QPointF(area.right(), l.cellRect(r1 - 1, 0).bottom());
    p.save();
    p.setPen(Qt::NoPen);
    p.setBrush(maskedBackground(palette));
    p.drawPolygon(stairs);
    p.setBrushOrigin(l.contentRect().topLeft());
    p.setBrush(QBrush(maskedHatch(palette), Qt::BDiagPattern));
    p.drawPolygon(stairs);
    p.restore();
}

int HeatmapPainter::cellDecimals() const
{
    // Two significant digits of the largest value: 2000 tokens share weights
    // of about 0.0005, which two decimals would all show as "0.00".
    return m_dataMax >= 100 ? 0 : std::clamp(1 - int(std::floor(std::log10(m_dataMax))), 2, 6);
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
            if (isMasked(r, c))
                continue;
            const double v = valueAt(r, c);
            const QString text = QString::number(v, 'f', decimals);
            if (metrics.horizontalAdvance(text) > l.cellWidth() - 4)
                continue; // a large score: skip it rather than spill over
            p.setPen(contrastingTextColor(colorFor(v)));
            p.drawText(l.cellRect(r, c), Qt::AlignCenter, text);
        }
    }
}
