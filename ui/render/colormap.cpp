#include "colormap.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace {

// 17 evenly spaced samples of matplotlib's 256-entry tables (_cm_listed.py),
// interpolated linearly: the error against the full table stays below 1/255.
constexpr std::array<QRgb, 17> kViridis = {
    0x440154, 0x48186a, 0x472d7b, 0x424086, 0x3b528b, 0x33638d, 0x2c728e, 0x26828e, 0x21918c,
    0x1f9f88, 0x27ad81, 0x3dbc74, 0x5cc863, 0x81d34d, 0xaadc32, 0xd5e21a, 0xfde725};
constexpr std::array<QRgb, 17> kCividis = {
    0x00224e, 0x002e6a, 0x1a386f, 0x32436d, 0x434e6c, 0x535a6d, 0x61656f, 0x6f7073, 0x7d7c78,
    0x8b8778, 0x9a9376, 0xaaa073, 0xbbad6d, 0xccba64, 0xddc858, 0xefd748, 0xfee838};
constexpr std::array<QRgb, 17> kMagma = {
    0x000004, 0x0a0822, 0x1d1147, 0x36106b, 0x51127c, 0x6a1c81, 0x832681, 0x9c2e7f, 0xb73779,
    0xcf4070, 0xe55064, 0xf4695c, 0xfb8761, 0xfea571, 0xfec287, 0xfde0a1, 0xfcfdbf};
// ColorBrewer RdBu (11 classes) from blue (-1) to red (+1); #f7f7f7 in the middle.
constexpr std::array<QRgb, 11> kDiverging = {
    0x053061, 0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7,
    0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b, 0x67001f};

template<std::size_t N>
QColor interpolate(const std::array<QRgb, N> &anchors, double t)
{
    if (!(t >= 0.0)) // also catches NaN
        t = 0.0;
    t = std::min(t, 1.0);
    const double pos = t * double(N - 1);
    const std::size_t i = std::min(std::size_t(pos), N - 2);
    const double f = pos - double(i);
    const QRgb a = anchors[i];
    const QRgb b = anchors[i + 1];
    auto mix = [f](int x, int y) { return int(std::lround(x + (y - x) * f)); };
    return QColor(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

double linearChannel(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

} // namespace

QColor sequentialColor(ColorMap map, double t)
{
    switch (map) {
    case ColorMap::Viridis:
        return interpolate(kViridis, t);
    case ColorMap::Cividis:
        return interpolate(kCividis, t);
    case ColorMap::Magma:
        return interpolate(kMagma, t);
    case ColorMap::Grayscale:
        break;
    }
    const int v = int(std::lround(255.0 * std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0)));
    return QColor(v, v, v);
}

QColor divergingColor(double t)
{
    if (std::isnan(t))
        t = 0.0;
    return interpolate(kDiverging, (std::clamp(t, -1.0, 1.0) + 1.0) / 2.0);
}

QString colorMapName(ColorMap map)
{
    switch (map) {
    case ColorMap::Viridis:
        return QStringLiteral("viridis");
    case ColorMap::Cividis:
        return QStringLiteral("cividis");
    case ColorMap::Magma:
        return QStringLiteral("magma");
    case ColorMap::Grayscale:
        return QStringLiteral("grayscale");
    }
    return {};
}

std::optional<ColorMap> colorMapFromName(const QString &name)
{
    const QString wanted = name.trimmed().toLower();
    for (ColorMap map : allColorMaps()) {
        if (colorMapName(map) == wanted)
            return map;
    }
    if (wanted == QLatin1String("greyscale") || wanted == QLatin1String("gray") || wanted == QLatin1String("grey"))
        return ColorMap::Grayscale;
    return std::nullopt;
}

QList<ColorMap> allColorMaps()
{
    return {ColorMap::Viridis, ColorMap::Cividis, ColorMap::Magma, ColorMap::Grayscale};
}

double relativeLuminance(const QColor &color)
{
    const QColor rgb = color.toRgb();
    return 0.2126 * linearChannel(rgb.redF()) + 0.7152 * linearChannel(rgb.greenF())
        + 0.0722 * linearChannel(rgb.blueF());
}

QColor contrastingTextColor(const QColor &background)
{
    // WCAG contrast ratio (L1 + 0.05) / (L2 + 0.05) against black and white;
    // they are equal at L = 0.179.
    const double l = relativeLuminance(background);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? QColor(Qt::black) : QColor(Qt::white);
}
