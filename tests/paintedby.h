#pragma once
// A painter's picture at `size` on white, with the default palette: the
// painters of the views and exports all draw through paint(p, rect, palette).

#include <QImage>
#include <QPainter>
#include <QPalette>

template<typename Painter>
QImage paintedBy(const Painter &painter, QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white); // not every painter fills its background
    QPainter p(&image);
    painter.paint(p, QRectF(QPointF(0, 0), size), QPalette());
    return image;
}
