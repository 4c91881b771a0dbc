#pragma once
// Colours derived from a palette that keep their contrast on light and dark themes.

#include <QColor>
#include <QPalette>

// Text and bar colours that work on light and dark palettes.
QColor barColor(const QPalette &palette);
QColor faintTextColor(const QPalette &palette);
// `a` blended towards `b` by t in [0, 1].
QColor mixColors(const QColor &a, const QColor &b, double t);
