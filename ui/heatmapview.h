#pragma once
// The interactive heatmap: queries down, keys across. Fed through setters;
// what the user picks leaves as signals. Drawing is HeatmapPainter's job.

#include "colormap.h"
#include "heatmappainter.h"
#include "snapshot.h"

#include <QImage>
#include <QWidget>
#include <optional>
#include <utility>

class HeatmapView : public QWidget
{
    Q_OBJECT
public:
    explicit HeatmapView(QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int row);
    void setHead(int head); // -1: the average over heads
    void setShowScores(bool scores);
    void setColorMap(ColorMap map);
    // Outlines the cells (row, column) for each column: what the walkthrough is talking about.
    void setHighlightedCells(int row, const QList<int> &columns);

    SnapshotPtr snapshot() const { return m_painter.snapshot(); }
    int query() const { return m_painter.query(); }
    int head() const { return m_painter.head(); }
    bool showScores() const { return m_painter.showScores(); }
    ColorMap colorMap() const { return m_painter.colorMap(); }
    // What is drawn, configured as on screen: copy it to export the same picture.
    const HeatmapPainter &painter() const { return m_painter; }
    // The key column the keyboard cursor is on (Left/Right), -1 before any.
    int focusedColumn() const { return m_focusColumn; }

    // Widget coordinates of a cell, and the cell under a point.
    QRectF cellRect(int row, int column) const;
    std::optional<std::pair<int, int>> cellAt(const QPointF &pos) const;
    // The tooltip of a cell: tokens, score, scaled score, weight and q·k spelled out.
    QString tooltipText(int row, int column) const;

    QSize sizeHint() const override { return {480, 420}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

signals:
    void querySelected(int row);
    void cellHovered(int row, int column); // -1, -1 when the pointer leaves the cells

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void invalidate();
    void setHover(int row, int column);
    void updateAccessibleText();
    const HeatmapLayout &currentLayout() const;

    HeatmapPainter m_painter;
    int m_focusColumn = -1;
    QImage m_cache; // everything but the hover ring, at the device pixel ratio
    bool m_cacheDirty = true;
};
