#pragma once
// The painted part of the Compare dock: ComparisonPainter on screen, with a
// cached picture; a click on a head of the change grid leaves as a signal.

#include "comparisonpainter.h"

#include <QImage>
#include <QWidget>

class CompareCanvas : public QWidget
{
    Q_OBJECT
public:
    explicit CompareCanvas(QWidget *parent = nullptr);

    void setData(std::shared_ptr<const ComparisonData> data);
    void setColorMap(ColorMap map);
    const ComparisonPainter &painter() const { return m_painter; }
    // Where the painter draws inside the widget.
    QRectF contentRect() const;

    QSize sizeHint() const override { return {960, 620}; }

signals:
    void tileClicked(int layer, int head);
    void exportRequested();

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    ComparisonPainter m_painter;
    mutable QImage m_cache;
    mutable bool m_dirty = true;
};
