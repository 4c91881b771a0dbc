#pragma once
// Which values a heatmap's colours span. Fitted to the matrix shown, the scale
// moves with every edit and colours cannot be compared between two results;
// fixed, the same weight (or score) is the same colour in every picture.

#include <QString>

class QSettings;

struct ColorScale
{
    bool fixedWeights = false; // weights over [0, 1] instead of [0, largest weight]
    bool fixedScores = false;  // scores over [-scoreLimit, scoreLimit] instead of ±largest |score|
    double scoreLimit = 0.0;   // R of the fixed score range; 0 until chosen

    bool operator==(const ColorScale &o) const
    {
        return fixedWeights == o.fixedWeights && fixedScores == o.fixedScores && scoreLimit == o.scoreLimit;
    }
    bool operator!=(const ColorScale &o) const { return !(*this == o); }

    // The fixed score range chosen for a result whose largest |score| is
    // `largest`: the next 1, 2 or 5 times a power of ten, so ±R reads as a
    // round number and small edits stay inside it.
    static double roundLimitAbove(double largest);

    // Remembered as the colour map is: keys view/weightScale, view/scoreScale
    // ("fit" or "fixed") and view/scoreLimit.
    static ColorScale fromSettings(const QSettings &settings);
    void save(QSettings &settings) const;
};
