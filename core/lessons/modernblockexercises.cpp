#include "lessons/modernblockexercises.h"

#include "lessons/notation.h"
#include "runtime/prng.h"
#include "attention/rotarypositions.h"

#include <QCoreApplication>
#include <cmath>

namespace attn {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("Exercises", text); }

bool near(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance + 1e-12; }

bool nearPair(const std::vector<double> &typed, double first, double second, double tolerance)
{
    return typed.size() == 2 && near(typed[0], first, tolerance) && near(typed[1], second, tolerance);
}

// "0.6" or "(−0.2)" as a factor inside a product.
QString factor(double v)
{
    const QString text = formatNumber(v);
    return text.startsWith(QChar(0x2212)) ? QStringLiteral("(%1)").arg(text) : text;
}

// Shapes (query heads, key/value heads, head_dim) of today's models, as
// their config.json files give them.
struct Shape
{
    int heads, kvHeads, headDim;
};
constexpr Shape kShapes[] = {
    {32, 8, 128}, // Llama 3 8B, Mistral 7B
    {64, 8, 128}, // Llama 2 70B
    {32, 8, 64},  // Llama 3.2 1B
    {24, 8, 128}, // Llama 3.2 3B
    {32, 4, 64},  // TinyLlama 1.1B
    {14, 2, 64},  // Qwen2.5 0.5B
    {12, 2, 128}, // Qwen2.5 1.5B
    {28, 4, 128}, // Qwen2.5 7B
    {9, 3, 64},   // SmolLM2 135M
    {15, 5, 64},  // SmolLM2 360M
    {8, 4, 256},  // Gemma 2 2B
};

} // namespace

Exercise rotatePairExercise(const std::vector<double> &pair, int position)
{
    Exercise e;
    e.kind = ExerciseKind::RotatePair;
    e.pair = pair;
    e.position = position;
    const double angle = double(position); // one pair, frequency theta^0 = 1
    const RotatedPair turned = rotatePair(pair[0], pair[1], angle);
    e.answers = {turned.first, turned.second};
    e.answer = turned.first;
    e.tolerance = 0.01;
    const double c = std::cos(angle), s = std::sin(angle);
    e.question = tr("Rotary positions turn a query q = [%1, %2] that stands at position %3. With head_dim 2 there "
                    "is one pair, (q₀, q₁), and it turns by %3 × θ⁰ = %3 radians, whatever θ is (cos %3 = %4, "
                    "sin %3 = %5). What is q after the turn? Type its two numbers.")
                     .arg(formatNumber(pair[0]), formatNumber(pair[1]))
                     .arg(position)
                     .arg(formatFixed(c), formatFixed(s));
    e.working = tr("(a·cos − b·sin, b·cos + a·sin) = (%1×%2 − %3×%4, %3×%2 + %1×%4) = (%5, %6).")
                    .arg(factor(pair[0]), factor(c), factor(pair[1]), factor(s), formatFixed(turned.first),
                         formatFixed(turned.second));
    e.hint = tr("A pair (a, b) turned by an angle becomes (a·cos − b·sin, b·cos + a·sin): the first number loses "
                "b·sin, the second gains a·sin.");
    return e;
}

Exercise rotatePairExercise(std::uint64_t seed)
{
    SplitMix64 rng(seed ^ 0x524f544154452121ull);
    // Tenths from -1 to 1, neither 0 (a turn of [0, 0] is no exercise).
    const auto tenth = [&] {
        for (;;) {
            const int v = int(rng.next() % 21) - 10;
            if (v != 0)
                return v / 10.0;
        }
    };
    const double a = tenth(), b = tenth();
    const int position = 1 + int(rng.next() % 5);
    return rotatePairExercise({a, b}, position);
}

Exercise keyValueCountExercise(int heads, int kvHeads, int headDim)
{
    Exercise e;
    e.kind = ExerciseKind::KeyValueCount;
    e.heads = heads;
    e.kvHeads = kvHeads;
    e.headDim = headDim;
    e.answer = 2.0 * kvHeads;
    e.tolerance = 1e-9;
    e.wholeNumber = true;
    e.question = tr("A layer of a text generator has %1 query heads that share %2 key/value heads (grouped-query "
                    "attention), each head %3 numbers wide. While it writes, it keeps the keys and values of every "
                    "token it has read. How many vectors (keys and values together) does this layer keep per "
                    "token?")
                     .arg(heads)
                     .arg(kvHeads)
                     .arg(headDim);
    e.working = tr("Each group of %1 ÷ %2 = %3 query heads reads one key and one value, so the layer keeps %2 keys "
                   "+ %2 values = %4 vectors per token (%4 × %5 = %6 numbers), where one key and value per query "
                   "head would be %7.")
                    .arg(heads)
                    .arg(kvHeads)
                    .arg(heads / kvHeads)
                    .arg(2 * kvHeads)
                    .arg(headDim)
                    .arg(2 * kvHeads * headDim)
                    .arg(2 * heads);
    e.hint = tr("Count the key/value heads, not the query heads, and remember that a token keeps a key and a value "
                "in each of them. Queries are not kept.");
    return e;
}

Exercise keyValueCountExercise(std::uint64_t seed)
{
    SplitMix64 rng(seed ^ 0x4b56434f554e5421ull);
    const Shape shape = kShapes[rng.next() % (sizeof kShapes / sizeof kShapes[0])];
    return keyValueCountExercise(shape.heads, shape.kvHeads, shape.headDim);
}

namespace detail {

QString modernBlockMistake(const Exercise &e, const std::vector<double> &typed)
{
    if (e.kind == ExerciseKind::RotatePair && typed.size() == 2 && e.pair.size() == 2) {
        const double a = e.pair[0], b = e.pair[1], angle = double(e.position), t = e.tolerance;
        const RotatedPair backwards = rotatePair(a, b, -angle);
        if (nearPair(typed, a, b, t))
            return tr("That is q before its turn; at position %1 it turns by %1 radians. ").arg(e.position) + e.hint;
        if (nearPair(typed, backwards.first, backwards.second, t))
            return tr("That turns the pair the other way round (by −%1 radians): the first number is "
                      "a·cos − b·sin, with a minus. ").arg(e.position) + e.hint;
        if (nearPair(typed, e.answers[1], e.answers[0], t))
            return tr("Those are the right numbers in the wrong order: q₀'s comes first. ") + e.hint;
        if (near(typed[0], e.answers[0], t) != near(typed[1], e.answers[1], t))
            return tr("One of the two numbers is right; check the other. ") + e.hint;
    }
    if (e.kind == ExerciseKind::KeyValueCount && typed.size() == 1) {
        const double v = typed[0];
        if (v == 2.0 * e.heads)
            return tr("That is a key and a value for every query head; here each group of %1 query heads shares "
                      "one of each. ").arg(e.heads / e.kvHeads) + e.hint;
        if (v == e.kvHeads)
            return tr("That counts the keys only: each key/value head keeps a value too. ") + e.hint;
        if (v == e.heads)
            return tr("That counts the query heads, whose queries are not kept. ") + e.hint;
        if (v == 2.0 * e.kvHeads * e.headDim || v == 2.0 * e.heads * e.headDim)
            return tr("That counts numbers, not vectors: each vector is %1 numbers wide. ").arg(e.headDim) + e.hint;
        if (v == double(e.heads / e.kvHeads))
            return tr("That is how many query heads share one key/value head. ") + e.hint;
    }
    return e.hint;
}

} // namespace detail

} // namespace attn
