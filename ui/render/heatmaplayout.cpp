#include "heatmaplayout.h"

#include <algorithm>
#include <cmath>

namespace {

constexpr qreal kPad = 4;
constexpr qreal kBarGap = 12;  // between the cells and the colour bar
constexpr qreal kBarWidth = 12;
constexpr qreal kTickGap = 4;
// Labels may take at most this share of the room, so cells never vanish.
constexpr qreal kMaxLabelShare = 0.3;
// Zooming stops when cells are this big: enough for a number and a label.
constexpr qreal kMaxCellPixels = 120;

// The widest label, but no wider than `cap`: stops measuring once the cap is met.
qreal widestLabel(const QStringList &labels, const QFontMetricsF &metrics, qreal cap)
{
    qreal widest = 0;
    for (const QString &label : labels) {
        widest = std::max(widest, metrics.horizontalAdvance(label));
        if (widest >= cap)
            return cap;
    }
    return widest;
}

int labelStep(qreal cellSize, qreal lineHeight)
{
    if (cellSize <= 0)
        return 1;
    return std::max(1, int(std::ceil(lineHeight / cellSize - 1e-9)));
}

} // namespace

HeatmapLayout::HeatmapLayout(const QRectF &bounds, int rows, int columns, const QStringList &rowLabels,
                             const QStringList &columnLabels, const QFontMetricsF &metrics,
                             const HeatmapLayoutOptions &options)
    : m_bounds(bounds), m_rows(std::max(0, rows)), m_columns(std::max(0, columns)), m_lineHeight(metrics.height()),
      m_compact(options.compact)
{
    if (m_rows == 0 || m_columns == 0)
        return;
    if (m_compact) {
        m_cells = bounds.adjusted(1, 1, -1, -1);
    } else {
        const qreal line = metrics.height();
        const QRectF inner = bounds.adjusted(kPad, kPad, -kPad, -kPad);
        qreal top = inner.top();
        if (options.showTitle) {
            m_title = QRectF(inner.left(), top, inner.width(), line);
            top += line + kPad;
        }

        // Horizontal budget: axis title, row labels, cells, colour bar.
        const qreal tickWidth = metrics.horizontalAdvance(options.widestValueText);
        const qreal barTotal = kBarGap + kBarWidth + kTickGap + tickWidth + kTickGap + line;
        const qreal widthForLabels = std::max<qreal>(0, inner.width() - line - barTotal) * kMaxLabelShare;
        // 25% extra: the query's label is drawn in bold, which is that much wider in some fonts.
        const qreal rowLabelWidth =
            std::min((options.rowLabelsWidth >= 0 ? options.rowLabelsWidth
                                                  : widestLabel(rowLabels, metrics, options.maxLabelWidth))
                         * 1.25,
                     widthForLabels)
            + kLabelGap;
        const qreal cellLeft = inner.left() + line + rowLabelWidth;
        const qreal cellRight = std::max(cellLeft + 1, inner.right() - barTotal);
        m_cellWidth = (cellRight - cellLeft) / m_columns;

        // Column labels lie flat when the widest fits in a cell, else stand up.
        const qreal heightForLabels = std::max<qreal>(0, inner.bottom() - top - line) * kMaxLabelShare;
        const qreal widestColumn = options.columnLabelsWidth >= 0
                                       ? options.columnLabelsWidth
                                       : widestLabel(columnLabels, metrics, options.maxLabelWidth);
        m_columnsRotated = widestColumn + 4 > m_cellWidth;
        const qreal columnLabelHeight =
            (m_columnsRotated ? std::min(widestColumn, heightForLabels) : line) + kLabelGap;

        m_columnTitle = QRectF(cellLeft, top, cellRight - cellLeft, line);
        m_columnLabels = QRectF(cellLeft, top + line, cellRight - cellLeft, columnLabelHeight);
        const qreal cellTop = m_columnLabels.bottom();
        const qreal cellBottom = std::max(cellTop + 1, inner.bottom());
        m_cells = QRectF(QPointF(cellLeft, cellTop), QPointF(cellRight, cellBottom));
        m_rowTitle = QRectF(inner.left(), cellTop, line, m_cells.height());
        m_rowLabels = QRectF(inner.left() + line, cellTop, rowLabelWidth, m_cells.height());

        m_bar = QRectF(cellRight + kBarGap, cellTop, kBarWidth, m_cells.height());
        m_barLabels = QRectF(m_bar.right() + kTickGap, cellTop, tickWidth, m_cells.height());
        m_barTitle = QRectF(m_barLabels.right() + kTickGap, cellTop, line, m_cells.height());
        m_topLeft = QRectF(inner.topLeft(), QPointF(cellLeft, cellTop));
        m_topRight = QRectF(QPointF(cellRight + kPad, inner.top()), QPointF(inner.right(), cellTop));
    }
    m_fitCellWidth = m_cells.width() / m_columns;
    m_fitCellHeight = m_cells.height() / m_rows;
    m_maxZoom = std::max<qreal>(1, kMaxCellPixels / std::max<qreal>(1e-9, std::min(m_fitCellWidth, m_fitCellHeight)));
    const qreal factor = std::clamp<qreal>(std::isfinite(options.zoom.factor) ? options.zoom.factor : 1, 1, m_maxZoom);
    const QPointF centre = options.zoom.centre;
    const QPointF wanted(std::isfinite(centre.x()) ? centre.x() * m_cells.width() * factor - m_cells.width() / 2 : 0,
                         std::isfinite(centre.y()) ? centre.y() * m_cells.height() * factor - m_cells.height() / 2 : 0);
    m_offset = clampedOffset(factor, wanted);
    m_zoom = stateForOffset(factor, m_offset);
    m_cellWidth = m_fitCellWidth * factor;
    m_cellHeight = m_fitCellHeight * factor;
    if (!m_compact) {
        const qreal line = metrics.height();
        m_rowStep = labelStep(m_cellHeight, line);
        m_columnStep = m_columnsRotated ? labelStep(m_cellWidth, line) : 1;
        m_numbersFit = m_cellWidth >= std::max<qreal>(34, metrics.horizontalAdvance(options.cellValueText) + 6)
            && m_cellHeight >= std::max<qreal>(16, line + 2);
    }
}

QRectF HeatmapLayout::contentRect() const
{
    return QRectF(m_cells.topLeft() - m_offset, QSizeF(m_cellWidth * m_columns, m_cellHeight * m_rows));
}

QRectF HeatmapLayout::cellRect(int row, int column) const
{
    // Edges from the same formula on both sides, so neighbours share them exactly.
    const QPointF origin = m_cells.topLeft() - m_offset;
    return QRectF(QPointF(origin.x() + column * m_cellWidth, origin.y() + row * m_cellHeight),
                  QPointF(origin.x() + (column + 1) * m_cellWidth, origin.y() + (row + 1) * m_cellHeight));
}

QRectF HeatmapLayout::rowRect(int row) const
{
    const qreal top = m_cells.top() - m_offset.y();
    return QRectF(QPointF(m_cells.left(), top + row * m_cellHeight),
                  QPointF(m_cells.right(), top + (row + 1) * m_cellHeight));
}

std::optional<std::pair<int, int>> HeatmapLayout::cellAt(const QPointF &pos) const
{
    if (m_rows == 0 || m_columns == 0 || m_cellWidth <= 0 || m_cellHeight <= 0)
        return std::nullopt;
    if (pos.x() < m_cells.left() || pos.x() > m_cells.right() || pos.y() < m_cells.top()
        || pos.y() > m_cells.bottom())
        return std::nullopt;
    const QPointF inContent = pos - m_cells.topLeft() + m_offset;
    const int column = std::clamp(int(std::floor(inContent.x() / m_cellWidth)), 0, m_columns - 1);
    const int row = std::clamp(int(std::floor(inContent.y() / m_cellHeight)), 0, m_rows - 1);
    return std::make_pair(row, column);
}

qreal HeatmapLayout::columnLabelLength() const
{
    return m_columnsRotated ? m_columnLabels.height() - kLabelGap : m_cellWidth - 2;
}

QRectF HeatmapLayout::rowLabelRect(int row) const
{
    // Never thinner than a line: text in a thinner rect would be clipped away.
    const qreal height = std::max(m_cellHeight, m_lineHeight);
    const qreal centre = m_cells.top() - m_offset.y() + (row + 0.5) * m_cellHeight;
    return QRectF(m_rowLabels.left(), centre - height / 2, m_rowLabels.width() - kLabelGap, height);
}

QRectF HeatmapLayout::columnLabelRect(int column) const
{
    return QRectF(m_cells.left() - m_offset.x() + column * m_cellWidth, m_columnLabels.top(), m_cellWidth,
                  m_columnLabels.height() - kLabelGap);
}

bool HeatmapLayout::isRowLabelShown(int row) const
{
    return m_rowStep > 0 && row >= 0 && row < m_rows && row % m_rowStep == 0;
}

bool HeatmapLayout::isColumnLabelShown(int column) const
{
    return m_columnStep > 0 && column >= 0 && column < m_columns && column % m_columnStep == 0;
}

QPointF HeatmapLayout::clampedOffset(qreal factor, const QPointF &offset) const
{
    const qreal maxX = m_cells.width() * (factor - 1), maxY = m_cells.height() * (factor - 1);
    return QPointF(std::clamp<qreal>(offset.x(), 0, std::max<qreal>(0, maxX)),
                   std::clamp<qreal>(offset.y(), 0, std::max<qreal>(0, maxY)));
}

HeatmapZoom HeatmapLayout::stateForOffset(qreal factor, const QPointF &offset) const
{
    HeatmapZoom state;
    state.factor = factor;
    if (m_cells.width() > 0 && m_cells.height() > 0)
        state.centre = QPointF((offset.x() + m_cells.width() / 2) / (m_cells.width() * factor),
                               (offset.y() + m_cells.height() / 2) / (m_cells.height() * factor));
    return state;
}

namespace {

// The cells [first, end) that a window [from, from + length) of a line of
// `count` cells of `size` touches.
std::pair<int, int> visibleSpan(qreal from, qreal length, qreal size, int count)
{
    if (count <= 0 || size <= 0)
        return {0, 0};
    // A sliver of 1e-6 of a cell at the edge is rounding, not a visible cell.
    const int first = std::clamp(int(std::floor(from / size + 1e-6)), 0, count);
    const int end = std::clamp(int(std::ceil((from + length) / size - 1e-6)), first, count);
    return {first, end};
}

} // namespace

std::pair<int, int> HeatmapLayout::visibleRows() const
{
    return visibleSpan(m_offset.y(), m_cells.height(), m_cellHeight, m_rows);
}

std::pair<int, int> HeatmapLayout::visibleColumns() const
{
    return visibleSpan(m_offset.x(), m_cells.width(), m_cellWidth, m_columns);
}

bool HeatmapLayout::isCellVisible(int row, int column) const
{
    const auto [r0, r1] = visibleRows();
    const auto [c0, c1] = visibleColumns();
    return row >= r0 && row < r1 && column >= c0 && column < c1;
}

HeatmapZoom HeatmapLayout::zoomedAbout(const QPointF &anchor, qreal factor) const
{
    if (m_rows == 0 || m_columns == 0 || !std::isfinite(factor) || factor <= 0)
        return m_zoom;
    const qreal next = std::clamp<qreal>(m_zoom.factor * factor, 1, m_maxZoom);
    const qreal ratio = next / m_zoom.factor;
    // The anchor's matrix point, in content pixels, scales with the zoom; the
    // offset moves so that it stays at the same place on screen.
    const QPointF a(std::clamp<qreal>(anchor.x() - m_cells.left(), 0, m_cells.width()),
                    std::clamp<qreal>(anchor.y() - m_cells.top(), 0, m_cells.height()));
    return stateForOffset(next, clampedOffset(next, (a + m_offset) * ratio - a));
}

HeatmapZoom HeatmapLayout::pannedBy(const QPointF &delta) const
{
    return stateForOffset(m_zoom.factor, clampedOffset(m_zoom.factor, m_offset - delta));
}

HeatmapZoom HeatmapLayout::scrolledTo(int row, int column) const
{
    QPointF offset = m_offset;
    const auto scroll = [](qreal &at, qreal cellStart, qreal cellSize, qreal window) {
        if (cellStart < at)
            at = cellStart;
        else if (cellStart + cellSize > at + window)
            at = std::min(cellStart, cellStart + cellSize - window); // a cell wider than the window: its start
    };
    if (column >= 0 && column < m_columns)
        scroll(offset.rx(), column * m_cellWidth, m_cellWidth, m_cells.width());
    if (row >= 0 && row < m_rows)
        scroll(offset.ry(), row * m_cellHeight, m_cellHeight, m_cells.height());
    return stateForOffset(m_zoom.factor, clampedOffset(m_zoom.factor, offset));
}
