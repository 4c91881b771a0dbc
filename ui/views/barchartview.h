#pragma once
// Compares the query token's embedding with its context vector, one group of
// bars per dimension, with the values in a tooltip.

#include "barchartpainter.h"
#include "snapshot.h"

#include <QImage>
#include <QWidget>

class BarChartView : public QWidget
{
    Q_OBJECT
public:
    explicit BarChartView(QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int query);

    const BarChartPainter &chartPainter() const { return m_painter; }
    const BarChartModel &model() const { return m_painter.model(); }
    BarChartLayout currentLayout() const { return m_painter.layout(QRectF(rect())); }
    // "d2: embedding 0.66, context 0.5683"; empty for a dimension out of range.
    QString tooltipText(int dim) const;
    int hoveredDimension() const { return m_hoverDim; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void dimensionHovered(int dim); // -1 when the mouse leaves the bars

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void invalidate();
    void setHoveredDimension(int dim);

    BarChartPainter m_painter;
    QImage m_cache; // the chart without the hover band
    bool m_dirty = true;
    int m_hoverDim = -1;
};
