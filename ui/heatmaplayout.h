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

struct HeatmapLayoutOptions
{
    bool showTitle = true;
    bool compact = false;      // cells only: no labels, titles or colour bar (the heads grid)
    qreal maxLabelWidth = 110; // longer token labels are elided to this
    QString widestValueText = QStringLiteral("-0.00"); // sizes the colour bar's tick labels
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
    QRectF cellArea() const { return m_cells; }
    qreal cellWidth() const { return m_cellWidth; }
    qreal cellHeight() const { return m_cellHeight; }
    QRectF cellRect(int row, int column) const;
    QRectF rowRect(int row) const; // one row across every column
    // The cell under `pos`, or nothing outside the cell area.
    std::optional<std::pair<int, int>> cellAt(const QPointF &pos) const;

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
    // When cells are thinner than a line of text only every k-th label is drawn.
    int rowLabelStep() const { return m_rowStep; }
    int columnLabelStep() const { return m_columnStep; }
    bool isRowLabelShown(int row) const;
    bool isColumnLabelShown(int column) const;

    QRectF colorBarRect() const { return m_bar; }             // the gradient; empty when compact
    QRectF colorBarLabelArea() const { return m_barLabels; }  // min, mid and max values
    QRectF colorBarTitleRect() const { return m_barTitle; }   // drawn rotated

    // Whether a value with two decimals fits inside every cell.
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
};
