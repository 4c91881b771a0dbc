#pragma once
// The interactive heatmap: queries down, keys across. Fed through setters;
// what the user picks leaves as signals. Drawing is HeatmapPainter's job, the
// zoom maths HeatmapLayout's; this class turns input into both.
//
// Zoom: Ctrl+wheel or pinch about the pointer, Ctrl+= / Ctrl+- about the
// keyboard cursor, Ctrl+0 or the Fit button to see everything. Pan: the wheel
// (Shift for sideways), or drag with the middle button or with Space held.

#include "colormap.h"
#include "colorscale.h"
#include "heatmappainter.h"
#include "snapshot.h"

#include <QImage>
#include <QWidget>
#include <optional>
#include <utility>

class QAction;
class QMenu;
class QToolButton;

class HeatmapView : public QWidget
{
    Q_OBJECT
public:
    explicit HeatmapView(QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int row);
    void setHead(std::optional<int> head); // nullopt: the average over heads
    void setHead(int) = delete; // say std::optional<int>: no number stands for the average
    void setShowScores(bool scores);
    void setColorMap(ColorMap map);
    // Fitted or fixed colours; emits colorScaleChanged when it changes.
    void setColorScale(const ColorScale &scale);
    // Outlines the cells (row, column) for each column: what the walkthrough is talking about.
    void setHighlightedCells(int row, const QList<int> &columns);

    // View state, not part of the session: clamped to the matrix, emits zoomChanged.
    void setZoom(const HeatmapZoom &zoom);
    HeatmapZoom zoom() const { return currentLayout().zoom(); }
    void zoomBy(qreal factor, const QPointF &anchor); // about a point in widget coordinates
    void zoomIn();  // about the keyboard cursor, or the middle
    void zoomOut();
    void fitToView();

    SnapshotPtr snapshot() const { return m_painter.snapshot(); }
    int query() const { return m_painter.query(); }
    std::optional<int> head() const { return m_painter.head(); }
    bool showScores() const { return m_painter.showScores(); }
    ColorMap colorMap() const { return m_painter.colorMap(); }
    ColorScale colorScale() const { return m_painter.colorScale(); }
    // What is drawn, configured as on screen: copy it to export the same picture.
    const HeatmapPainter &painter() const { return m_painter; }
    // The geometry at the current size and zoom (visible rows, label steps, ...).
    const HeatmapLayout &currentLayout() const;
    // The key column the keyboard cursor is on (Left/Right), -1 before any.
    int focusedColumn() const { return m_focusColumn; }
    QToolButton *fitButton() const { return m_fitButton; }
    QToolButton *scaleButton() const { return m_scaleButton; }
    // The scale menu's choices (checkable): weights fitted / fixed 0–1, scores fitted / fixed ±R.
    QAction *weightsFitAction() const { return m_weightsFit; }
    QAction *weightsFixedAction() const { return m_weightsFixed; }
    QAction *scoresFitAction() const { return m_scoresFit; }
    QAction *scoresFixedAction() const { return m_scoresFixed; }

    // Widget coordinates of a cell, and the cell under a point.
    QRectF cellRect(int row, int column) const;
    std::optional<std::pair<int, int>> cellAt(const QPointF &pos) const;
    // The tooltip of a cell: positions and tokens, score, scaled score, weight and q·k spelled out.
    QString tooltipText(int row, int column) const;

    QSize sizeHint() const override { return {480, 420}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

    static constexpr qreal kZoomStep = 1.25; // one wheel notch or key press
    static constexpr qreal kTitleGap = 6; // between the title and a button beside it

signals:
    void querySelected(int row);
    void cellHovered(int row, int column); // -1, -1 when the pointer leaves the cells
    void colorScaleChanged(const ColorScale &scale);
    void zoomChanged(const HeatmapZoom &zoom);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void keyReleaseEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void invalidate();
    void setHover(int row, int column);
    void updateAccessibleText();
    void buildButtons();
    void placeButtons();
    void refreshScaleMenu();
    void chooseScoreLimit();
    double largestScore() const;
    bool handleZoomKey(const QKeyEvent *event);
    QPointF keyboardAnchor() const;

    HeatmapPainter m_painter;
    int m_focusColumn = -1;
    QImage m_cache; // everything but the hover ring, at the device pixel ratio
    bool m_cacheDirty = true;
    QToolButton *m_fitButton = nullptr;
    QToolButton *m_scaleButton = nullptr;
    QMenu *m_scaleMenu = nullptr;
    QAction *m_weightsFit = nullptr;
    QAction *m_weightsFixed = nullptr;
    QAction *m_scoresFit = nullptr;
    QAction *m_scoresFixed = nullptr;
    bool m_spaceHeld = false;
    bool m_panning = false;
    QPointF m_panFrom;
};
