#include "devicepixels.h"

#include <QPaintEngine>
#include <QPainter>
#include <algorithm>

QSize boundedToPixels(const QPainter &p, const QRectF &area, const QSize &limit)
{
    const QPaintEngine *engine = p.paintEngine();
    if (!engine || engine->type() != QPaintEngine::Raster)
        return limit;
    // The device transform includes the screen's pixel ratio.
    const QRectF pixels = p.deviceTransform().mapRect(area);
    return limit.boundedTo(QSize(std::max(1, int(pixels.width())), std::max(1, int(pixels.height()))));
}
