#pragma once
// The cached image a painted view draws from: the widget's size at its device
// pixel ratio (crisp on high-DPI screens) and at its logical DPI (so text in
// the cache measures as in the widget's hit tests).

#include <QImage>
#include <QWidget>
#include <cmath>

// Makes `cache` fit `widget`, new and unpainted, when `dirty` or when the size
// or pixel ratio changed; returns true when the caller must paint it again.
inline bool refitWidgetCache(QImage &cache, const QWidget &widget, bool dirty)
{
    const qreal dpr = widget.devicePixelRatioF();
    const QSize pixels = (QSizeF(widget.size()) * dpr).toSize();
    if (!dirty && cache.size() == pixels && cache.devicePixelRatio() == dpr)
        return false;
    cache = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
    cache.setDevicePixelRatio(dpr);
    cache.setDotsPerMeterX(int(std::lround(widget.logicalDpiX() / 0.0254)));
    cache.setDotsPerMeterY(int(std::lround(widget.logicalDpiY() / 0.0254)));
    return true;
}
