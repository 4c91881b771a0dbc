#include "palettecolors.h"

QColor mixColors(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QColor barColor(const QPalette &palette)
{
    // Okabe-Ito blue, lighter on a dark base so it keeps its contrast.
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x72, 0xB2);
}

QColor faintTextColor(const QPalette &palette)
{
    return mixColors(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.4);
}
