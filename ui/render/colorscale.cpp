#include "colorscale.h"

#include <QSettings>
#include <cmath>

namespace {

const QString kWeightKey = QStringLiteral("view/weightScale");
const QString kScoreKey = QStringLiteral("view/scoreScale");
const QString kLimitKey = QStringLiteral("view/scoreLimit");

} // namespace

double ColorScale::roundLimitAbove(double largest)
{
    if (!std::isfinite(largest) || !(largest > 0.0))
        return 1.0;
    const double decade = std::pow(10.0, std::floor(std::log10(largest)));
    for (const double step : {1.0, 2.0, 5.0, 10.0}) {
        // A hair of slack: 2.0000000001 computed from 2 is still "2".
        if (largest <= step * decade * (1 + 1e-9))
            return step * decade;
    }
    return 10.0 * decade;
}

ColorScale ColorScale::fromSettings(const QSettings &settings)
{
    ColorScale scale;
    scale.fixedWeights = settings.value(kWeightKey).toString() == QLatin1String("fixed");
    scale.fixedScores = settings.value(kScoreKey).toString() == QLatin1String("fixed");
    const double limit = settings.value(kLimitKey, 0.0).toDouble();
    // A hand-edited file may hold anything: only a finite positive R is kept.
    scale.scoreLimit = std::isfinite(limit) && limit > 0.0 ? limit : 0.0;
    return scale;
}

void ColorScale::save(QSettings &settings) const
{
    settings.setValue(kWeightKey, fixedWeights ? "fixed" : "fit");
    settings.setValue(kScoreKey, fixedScores ? "fixed" : "fit");
    settings.setValue(kLimitKey, scoreLimit);
}
