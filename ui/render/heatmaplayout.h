#pragma once
// Where every part of a heatmap goes, computed without widgets or painting so
// tests can check the geometry, and the view, the export and the hit testing
// share one answer. Building it is O(rows + columns): labels are measured once.

#include <QFontMetricsF>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <optional>
#include <utility>

// A view's zoom: how many times larger than "fit" the cells are, and which
// point of the matrix sits in the middle of the cell area, as fractions of
// the matrix's width and height (so it survives a resize or an edit).
// View state only: it is never saved with the session nor undone.
struct HeatmapZoom
{
    qreal factor = 1.0; // 1: the whole matrix fits
    QPointF centre{0.5, 0.5};

    bool isFit() const { return factor <= 1.0; }
    bool operator==(const HeatmapZoom &o) const { return factor == o.factor && centre == o.centre; }
    bool operator!=(const HeatmapZoom &o) const { return !(*this == o); }
};

struct HeatmapLayoutOptions
{
    bool showTitle = true;
    bool compact = false;      // cells only: no labels, titles or colour bar (the heads grid)
    qreal maxLabelWidth = 110; // longer token labels are elided to this
    QString widestValueText = QStringLiteral("-0.00"); // sizes the colour bar's tick labels
    QString cellValueText = QStringLiteral("0.00"); // the numbers in cells: they show when this fits
    // The widest row and column labels, capped at maxLabelWidth, when the
    // caller measured them already (-1: the layout measures them).
    qreal rowLabelsWidth = -1, columnLabelsWidth = -1;
    HeatmapZoom zoom = {};
};

class HeatmapLayout
{
public:
    HeatmapLayout() = default;
    HeatmapLayout(const QRectF &bounds, int rows, int columns, const QStringList &rowLabels,
                  const QStringList &columnLabels, const QFontMetricsF &metrics,
                  const HeatmapLayoutOptions &options = {});

    int rows() const { return m_rows; }
    int columns() const { return m_columns; }
    QRectF bounds() const { return m_bounds; }
    bool isCompact() const { return m_compact; }

    QRectF titleRect() const { return m_title; } // empty when there is no title
    // Where cells are drawn on screen; zoomed in, a window onto contentRect().
    QRectF cellArea() const { return m_cells; }
    // The whole matrix at the current zoom: larger than cellArea() and shifted by the pan.
    QRectF contentRect() const;
    qreal cellWidth() const { return m_cellWidth; }
    qreal cellHeight() const { return m_cellHeight; }
    // Cells may lie partly or wholly outside cellArea() when zoomed: painters clip.
    QRectF cellRect(int row, int column) const;
    QRectF rowRect(int row) const; // one row across the visible columns
    // The cell under `pos`, or nothing outside the cell area.
    std::optional<std::pair<int, int>> cellAt(const QPointF &pos) const;
    // The corners above the row labels and above the colour bar, title row
    // included: free of cells and labels (the view puts its buttons there).
    QRectF topLeftCorner() const { return m_topLeft; }
    QRectF topRightCorner() const { return m_topRight; }

    // Zoom and pan. The state is clamped: never smaller than fit, never past
    // maxZoom(), never panned beyond the matrix's edges.
    HeatmapZoom zoom() const { return m_zoom; }
    qreal maxZoom() const { return m_maxZoom; }
    QPointF panOffset() const { return m_offset; } // content pixels scrolled out above and left
    // Rows and columns at least partly visible: [first, end).
    std::pair<int, int> visibleRows() const;
    std::pair<int, int> visibleColumns() const;
    bool isCellVisible(int row, int column) const;
    // The state after zooming by `factor` about `anchor` (widget coordinates):
    // the matrix point under the anchor stays under it (unless an edge stops it).
    HeatmapZoom zoomedAbout(const QPointF &anchor, qreal factor) const;
    // The state after dragging the matrix by `delta` pixels.
    HeatmapZoom pannedBy(const QPointF &delta) const;
    // The state that shows the cell with the least movement; -1 leaves that axis alone.
    HeatmapZoom scrolledTo(int row, int column) const;

    QRectF rowAxisTitleRect() const { return m_rowTitle; }       // "query", drawn rotated
    QRectF columnAxisTitleRect() const { return m_columnTitle; } // "key"
    QRectF rowLabelArea() const { return m_rowLabels; }
    QRectF columnLabelArea() const { return m_columnLabels; }
    bool columnLabelsRotated() const { return m_columnsRotated; }
    // Room for one label's text along its baseline: elide to this.
    qreal rowLabelLength() const { return m_rowLabels.width() - kLabelGap; }
    qreal columnLabelLength() const;
    QRectF rowLabelRect(int row) const;       // left of the row, centred on it, at least a line tall
    QRectF columnLabelRect(int column) const; // above the column, as wide as the column
    // When cells are thinner than a line of text only every k-th label is
    // drawn; zooming in brings the others in as the cells grow.
    int rowLabelStep() const { return m_rowStep; }
    int columnLabelStep() const { return m_columnStep; }
    bool isRowLabelShown(int row) const;
    bool isColumnLabelShown(int column) const;

    QRectF colorBarRect() const { return m_bar; }             // the gradient; empty when compact
    QRectF colorBarLabelArea() const { return m_barLabels; }  // min, mid and max values
    QRectF colorBarTitleRect() const { return m_barTitle; }   // drawn rotated

    // Whether a value with two decimals fits inside every cell (at this zoom).
    bool numbersFit() const { return m_numbersFit; }

    static constexpr qreal kLabelGap = 6; // between a label and the cells

private:
    QRectF m_bounds, m_title, m_cells, m_rowTitle, m_columnTitle, m_rowLabels, m_columnLabels;
    QRectF m_bar, m_barLabels, m_barTitle;
    int m_rows = 0;
    int m_columns = 0;
    qreal m_cellWidth = 0;
    qreal m_cellHeight = 0;
    qreal m_lineHeight = 0;
    int m_rowStep = 0;
    int m_columnStep = 0;
    bool m_compact = false;
    bool m_columnsRotated = false;
    bool m_numbersFit = false;
    QRectF m_topLeft, m_topRight;
    HeatmapZoom m_zoom;
    qreal m_maxZoom = 1;
    QPointF m_offset;
    qreal m_fitCellWidth = 0;
    qreal m_fitCellHeight = 0;

    HeatmapZoom stateForOffset(qreal factor, const QPointF &offset) const;
    QPointF clampedOffset(qreal factor, const QPointF &offset) const;
};
