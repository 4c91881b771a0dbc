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
            std::min(widestLabel(rowLabels, metrics, options.maxLabelWidth) * 1.25, widthForLabels) + kLabelGap;
        const qreal cellLeft = inner.left() + line + rowLabelWidth;
        const qreal cellRight = std::max(cellLeft + 1, inner.right() - barTotal);
        m_cellWidth = (cellRight - cellLeft) / m_columns;

        // Column labels lie flat when the widest fits in a cell, else stand up.
        const qreal heightForLabels = std::max<qreal>(0, inner.bottom() - top - line) * kMaxLabelShare;
        const qreal widestColumn = widestLabel(columnLabels, metrics, options.maxLabelWidth);
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
    }
    m_cellWidth = m_cells.width() / m_columns;
    m_cellHeight = m_cells.height() / m_rows;
    if (!m_compact) {
        const qreal line = metrics.height();
        m_rowStep = labelStep(m_cellHeight, line);
        m_columnStep = m_columnsRotated ? labelStep(m_cellWidth, line) : 1;
        m_numbersFit = m_cellWidth >= std::max<qreal>(34, metrics.horizontalAdvance(QStringLiteral("0.00")) + 6)
            && m_cellHeight >= std::max<qreal>(16, line + 2);
    }
}

QRectF HeatmapLayout::cellRect(int row, int column) const
{
    // Edges from the same formula on both sides, so neighbours share them exactly.
    const qreal left = m_cells.left() + column * m_cellWidth;
    const qreal top = m_cells.top() + row * m_cellHeight;
    return QRectF(QPointF(left, top), QPointF(m_cells.left() + (column + 1) * m_cellWidth,
                                              m_cells.top() + (row + 1) * m_cellHeight));
}

QRectF HeatmapLayout::rowRect(int row) const
{
    return QRectF(QPointF(m_cells.left(), m_cells.top() + row * m_cellHeight),
                  QPointF(m_cells.right(), m_cells.top() + (row + 1) * m_cellHeight));
}

std::optional<std::pair<int, int>> HeatmapLayout::cellAt(const QPointF &pos) const
{
    if (m_rows == 0 || m_columns == 0 || m_cellWidth <= 0 || m_cellHeight <= 0)
        return std::nullopt;
    if (pos.x() < m_cells.left() || pos.x() > m_cells.right() || pos.y() < m_cells.top()
        || pos.y() > m_cells.bottom())
        return std::nullopt;
    const int column = std::clamp(int((pos.x() - m_cells.left()) / m_cellWidth), 0, m_columns - 1);
    const int row = std::clamp(int((pos.y() - m_cells.top()) / m_cellHeight), 0, m_rows - 1);
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
    const qreal centre = m_cells.top() + (row + 0.5) * m_cellHeight;
    return QRectF(m_rowLabels.left(), centre - height / 2, m_rowLabels.width() - kLabelGap, height);
}

QRectF HeatmapLayout::columnLabelRect(int column) const
{
    return QRectF(m_cells.left() + column * m_cellWidth, m_columnLabels.top(), m_cellWidth,
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
