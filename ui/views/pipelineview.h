#pragma once
// Shows the pipeline of one query through one head; rows and numbers are cut
// to what the widget's height can hold.

#include "pipelinepainter.h"
#include "snapshot.h"

#include <QWidget>

class PipelineView : public QWidget
{
    Q_OBJECT
public:
    explicit PipelineView(QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setQuery(int query);
    void setHead(int head);

    const PipelinePainter &pipelinePainter() const { return m_painter; }
    // What is on screen now: the rows and numbers that fit this widget.
    PipelineModel currentModel() const { return m_painter.model(QRectF(rect())); }
    PipelineLayout currentLayout() const { return m_painter.layout(QRectF(rect())); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    PipelinePainter m_painter;
};
