#pragma once
// How many pixels a picture of cells needs. Scaled down onto fewer pixels, an
// image drops whole rows and columns, and with them a lone peak (a
// previous-token head's one-cell diagonal at 2000 tokens in 560 pixels); the
// painters pool their cells to the pixels instead, the strongest of a block
// winning.

#include <QRectF>
#include <QSize>

class QPainter;

// `limit` no larger than the device pixels `area` covers when `p` paints on
// pixels (a widget, a PNG), rounded down so that stretching the image over
// the area drops none of its pixels; `limit` itself on vector output (SVG,
// PDF), which a viewer may zoom into.
QSize boundedToPixels(const QPainter &p, const QRectF &area, const QSize &limit);
