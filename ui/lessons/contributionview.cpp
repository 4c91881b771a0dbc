#include "contributionview.h"

#include <QEvent>
#include <QPainter>

ContributionView::ContributionView(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_painter.setFont(font());
}

void ContributionView::setSnapshot(SnapshotPtr snapshot)
{
    m_painter.setSnapshot(std::move(snapshot));
    update();
}

void ContributionView::setQuery(int query)
{
    m_painter.setQuery(query);
    update();
}

void ContributionView::setHead(int head)
{
    m_painter.setHead(head);
    update();
}

void ContributionView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    m_painter.paint(painter, QRectF(rect()), palette());
}

void ContributionView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        m_painter.setFont(font());
    QWidget::changeEvent(event);
}
