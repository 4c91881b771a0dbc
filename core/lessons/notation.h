#pragma once
// How the learning features write numbers and indices, so the walkthrough,
// the exercises and the demos all read the same.

#include <QString>
#include <QStringList>
#include <vector>

namespace attn {

// Rounded to at most `decimals` decimals without trailing zeros, with a real
// minus sign: 0.55 -> "0.55", 0.95440001 -> "0.9544", -0.5 -> "−0.5".
QString formatNumber(double value, int decimals = 4);
// How every view writes a weight, a score or a vector entry: fixed
// decimals (4) so columns line up and the same number reads the same in the
// heatmap, its tooltip, the pipeline and the walkthrough; a real minus sign,
// no "−0.0000"; powers of ten beyond ±1e5.
constexpr int kShownDecimals = 4;
QString formatFixed(double value, int decimals = kShownDecimals);

// "[0.5500, 0.8700, 0.6600]" (formatFixed's decimals, as every view writes a
// vector entry), at most maxTerms numbers, then "… (+N more)".
QString formatVector(const std::vector<double> &values, int maxTerms, int decimals = 4);
// Index notation: subscriptDigits("21") -> "₂₁", superscriptIndex(2) -> "⁽²⁾".
QString subscriptDigits(const QString &digits);
QString superscriptIndex(int index);

// How every view names token i: the token itself, with its 0-based position
// as a subscript when the same text occurs more than once ("over₇"), so
// repeated words in a long sentence can be told apart.
QString tokenLabel(const QStringList &tokens, int index);
QStringList tokenLabels(const QStringList &tokens);

// Positions, heads, layers and dimensions are numbered from 0 everywhere
// (window, pictures, file names, command line), as the contract and the
// field do: "head 0", "L0H3", "d0".
QString headName(int head);              // "head 3"
QString layerHeadName(int layer, int head); // "L0H3"

} // namespace attn
