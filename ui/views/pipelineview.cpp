#include "pipelineview.h"

#include <QEvent>
#include <QPainter>

PipelineView::PipelineView(QWidget *parent) : QWidget(parent)
{
    m_painter.setFont(font());
    setAttribute(Qt::WA_OpaquePaintEvent); // the painter fills every pixel
}

void PipelineView::setSnapshot(SnapshotPtr snapshot)
{
    m_painter.setSnapshot(std::move(snapshot));
    update();
}

void PipelineView::setQuery(int query)
{
    if (query == m_painter.query())
        return;
    m_painter.setQuery(query);
    update();
}

void PipelineView::setHead(int head)
{
    if (head == m_painter.head())
        return;
    m_painter.setHead(head);
    update();
}

QSize PipelineView::sizeHint() const
{
    return {640, 330};
}

QSize PipelineView::minimumSizeHint() const
{
    return m_painter.minimumSize().toSize();
}

// Text only, a few dozen strings: painting directly is cheaper than keeping
// an image cache in step with size, palette and font.
void PipelineView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    m_painter.paint(painter, QRectF(rect()), palette());
}

void PipelineView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        m_painter.setFont(font());
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        update();
    QWidget::changeEvent(event);
}
