#pragma once
// Value -> colour: perceptual sequential maps for weights, a diverging map for
// signed scores, and the text colour that stays readable on top of either.

#include <QColor>
#include <QList>
#include <QString>
#include <optional>

enum class ColorMap { Viridis, Cividis, Magma, Grayscale };

// t in [0, 1] (clamped); NaN maps to 0. Lightness rises with t for every map.
QColor sequentialColor(ColorMap map, double t);

// t in [-1, 1] (clamped): blue below 0, a neutral light grey at 0, red above 0
// (ColorBrewer RdBu, reversed so that "more" reads as warmer).
QColor divergingColor(double t);

// Stable lowercase names, as used on the command line and in settings.
QString colorMapName(ColorMap map);
std::optional<ColorMap> colorMapFromName(const QString &name);
QList<ColorMap> allColorMaps();

// WCAG relative luminance in [0, 1] of an sRGB colour.
double relativeLuminance(const QColor &color);

// Black or white, whichever contrasts more with `background`.
QColor contrastingTextColor(const QColor &background);
