#pragma once
// How the learning features write numbers and indices, so the walkthrough,
// the exercises and the demos all read the same.

#include <QString>
#include <vector>

namespace attn {

// Rounded to at most `decimals` decimals without trailing zeros, with a real
// minus sign: 0.55 -> "0.55", 0.95440001 -> "0.9544", -0.5 -> "−0.5".
QString formatNumber(double value, int decimals = 4);
// "[0.55, 0.87, 0.66]", at most maxTerms numbers, then "… (+N more)".
QString formatVector(const std::vector<double> &values, int maxTerms, int decimals = 4);
// 1-based index notation: subscript("21") -> "₂₁", superscript(2) -> "⁽²⁾".
QString subscriptDigits(const QString &digits);
QString superscriptIndex(int oneBased);

} // namespace attn
