#pragma once
// How far apart two colours are: the sum of the differences of their
// channels (0-765). One step of a colour map is a few units.

#include <QColor>
#include <cstdlib>

inline int colorDistance(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
}
