#include "exercises.h"

#include "notation.h"
#include "prng.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Exercises", text);
}

int uniformInt(SplitMix64 &rng, int lo, int hi) // inclusive
{
    return lo + int(rng.next() % std::uint64_t(hi - lo + 1));
}

QString listText(const QStringList &items)
{
    if (items.size() < 2)
        return items.join(QString());
    return tr("%1 and %2").arg(items.mid(0, items.size() - 1).join(QStringLiteral(", ")), items.last());
}

QString quoted(const QString &token)
{
    return QStringLiteral("“%1”").arg(token);
}

int argmax(const std::vector<double> &v)
{
    return int(std::max_element(v.begin(), v.end()) - v.begin());
}

// Weights and scores listed per token, for the reveal.
QString weightsList(const QStringList &tokens, const std::vector<double> &weights)
{
    QStringList parts;
    for (int i = 0; i < tokens.size(); ++i)
        parts << QStringLiteral("%1 %2").arg(quoted(tokens[i]), formatNumber(weights[std::size_t(i)]));
    return parts.join(QStringLiteral(", "));
}

} // namespace

long long comparisonCount(int tokens, bool causal)
{
    const long long n = tokens;
    return causal ? n * (n + 1) / 2 : n * n;
}

std::optional<double> parseLenientNumber(const QString &text)
{
    QString s = text.trimmed();
    if (s.startsWith(QLatin1Char('=')))
        s = s.mid(1).trimmed();
    s.replace(QChar(0x2212), QLatin1Char('-')).remove(QLatin1Char(' '));
    // A lone comma is a decimal comma ("7,6"); with a dot present it would be
    // a thousands separator, which no answer here needs.
    if (s.count(QLatin1Char(',')) == 1 && !s.contains(QLatin1Char('.')))
        s.replace(QLatin1Char(','), QLatin1Char('.'));
    bool ok = false;
    const double value = s.toDouble(&ok); // QString::toDouble always uses the C locale
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

Exercise weightedOutputExercise(const std::vector<double> &weights, const std::vector<double> &values)
{
    Exercise e;
    e.kind = ExerciseKind::WeightedOutput;
    e.weights = weights;
    e.values = values;
    QStringList w, v, products, partials;
    double total = 0.0;
    for (std::size_t i = 0; i < weights.size() && i < values.size(); ++i) {
        w << formatNumber(weights[i]);
        v << formatNumber(values[i]);
        products << QStringLiteral("%1×%2").arg(formatNumber(weights[i]), formatNumber(values[i]));
        partials << formatNumber(weights[i] * values[i]);
        total += weights[i] * values[i];
    }
    e.answer = total;
    e.question = tr("%1 tokens carry the value numbers %2. The query gives them the attention weights %3, in the "
                    "same order. What number does the weighted sum hand on?")
                     .arg(values.size())
                     .arg(listText(v), listText(w));
    e.working = tr("Multiply each value by its weight and add: %1 = %2 = %3.")
                    .arg(products.join(QStringLiteral(" + ")), partials.join(QStringLiteral(" + ")),
                         formatNumber(total));
    return e;
}

Exercise weightedOutputExercise(std::uint64_t seed)
{
    SplitMix64 rng(seed ^ 0x5745494748544544ull);
    const int count = uniformInt(rng, 3, 4);
    // Weights in twentieths, each at least 0.10, so they are easy to multiply.
    std::vector<int> parts(std::size_t(count), 2);
    for (int left = 20 - 2 * count; left > 0; --left)
        ++parts[std::size_t(uniformInt(rng, 0, count - 1))];
    std::vector<double> weights, values;
    for (int p : parts) {
        weights.push_back(p / 20.0);
        values.push_back(uniformInt(rng, 1, 12));
    }
    return weightedOutputExercise(weights, values);
}

Exercise comparisonsExercise(int tokens, bool causal)
{
    Exercise e;
    e.kind = ExerciseKind::Comparisons;
    e.tokens = tokens;
    e.causal = causal;
    e.answer = double(comparisonCount(tokens, causal));
    e.tolerance = 1e-9; // a count: only the exact number will do
    e.question = causal
        ? tr("A text generator reads a sentence of %1 tokens with a causal mask: each token, as a query, is compared "
             "with itself and the tokens before it, never with later ones. How many query-key comparisons does one "
             "attention layer make?").arg(tokens)
        : tr("A sentence has %1 tokens. In one self-attention layer every token, as a query, is compared with every "
             "token, itself included. How many query-key comparisons is that?").arg(tokens);
    e.working = causal ? tr("Query 1 sees 1 key, query 2 sees 2, … query %1 sees %1: 1 + 2 + … + %1 = %1×%2÷2 = %3.")
                             .arg(tokens).arg(tokens + 1).arg(comparisonCount(tokens, true))
                       : tr("%1 queries, each compared with %1 keys: %1×%1 = %2.")
                             .arg(tokens).arg(comparisonCount(tokens, false));
    return e;
}

Exercise comparisonsExercise(std::uint64_t seed)
{
    SplitMix64 rng(seed ^ 0x434f4d5041524553ull);
    const int tokens = uniformInt(rng, 3, 12);
    return comparisonsExercise(tokens, rng.next() % 2 == 0);
}

Exercise predictionExercise(const QStringList &queryTokens, const QStringList &keyTokens,
                            const AttentionResult &result, int query, int head)
{
    Exercise e;
    e.kind = ExerciseKind::PredictWeight;
    if (result.heads.empty())
        return e;
    head = std::clamp(head, 0, int(result.heads.size()) - 1);
    query = std::clamp(query, 0, int(result.inputs.rows()) - 1);
    const AttentionMatrix &w = result.heads[std::size_t(head)].weights;
    for (Eigen::Index j = 0; j < w.cols(); ++j) {
        e.choices << keyTokens.value(int(j));
        e.choiceWeights.push_back(w(query, j));
    }
    const int best = argmax(e.choiceWeights);
    e.answer = best;
    e.question = tr("Which token will the query %1 give the largest attention weight?").arg(quoted(queryTokens.value(query)));
    if (result.heads.size() > 1)
        e.question += QLatin1Char(' ') + tr("(Head %1.)").arg(head + 1);
    e.working = tr("Softmax keeps the order of the scores, so the key with the largest score wins: %1 (token %2). "
                   "The weights: %3.")
                    .arg(quoted(e.choices.value(best)))
                    .arg(best + 1)
                    .arg(weightsList(e.choices, e.choiceWeights));
    return e;
}

Exercise predictionExercise(std::uint64_t seed)
{
    static const char *const words[] = {"the", "cat", "sat", "on", "a", "warm", "mat", "dog", "ran", "home",
                                        "red", "ball", "we", "read", "books", "sun", "rose", "early"};
    constexpr int wordCount = int(sizeof words / sizeof words[0]);
    SplitMix64 rng(seed ^ 0x5052454449435421ull);
    for (int attempt = 0;; ++attempt) {
        const int n = uniformInt(rng, 3, 4);
        QStringList tokens;
        while (tokens.size() < n) {
            const QString word = QString::fromLatin1(words[uniformInt(rng, 0, wordCount - 1)]);
            if (!tokens.contains(word))
                tokens << word;
        }
        // Two numbers per token, in tenths: dot products anyone can do by hand.
        Eigen::MatrixXd x(n, 2);
        for (int i = 0; i < n; ++i)
            for (int d = 0; d < 2; ++d)
                x(i, d) = uniformInt(rng, -10, 10) / 10.0;
        const int query = uniformInt(rng, 0, n - 1);
        AttentionConfig config;
        config.mode = Mode::Simplified;
        config.headDim = 2;
        config.scale = false;
        const AttentionResult result = computeAttention(x, config);
        Exercise e = predictionExercise(tokens, tokens, result, query, 0);
        std::vector<double> sorted = e.choiceWeights;
        std::sort(sorted.rbegin(), sorted.rend());
        // A clear winner, so the question has one answer; give up being picky
        // after many tries rather than loop for ever.
        if (sorted[0] - sorted[1] < 0.05 && attempt < 50)
            continue;
        QStringList vectors;
        for (int i = 0; i < n; ++i)
            vectors << QStringLiteral("%1 = [%2, %3]").arg(quoted(tokens[i]), formatNumber(x(i, 0)), formatNumber(x(i, 1)));
        e.question = tr("Simplified attention (no trainable matrices, no scaling) on the tokens %1, with these "
                        "vectors:\n%2\nWhich token will %3 give the largest weight?")
                         .arg(listText(tokens), vectors.join(QLatin1Char('\n')), quoted(tokens[query]));
        QStringList scores;
        for (int j = 0; j < n; ++j)
            scores << QStringLiteral("%1·%2 = %3").arg(tokens[query], tokens[j],
                                                          formatNumber(result.heads[0].scores(query, j)));
        e.working = tr("Scores: %1. ").arg(scores.join(QStringLiteral(", "))) + e.working;
        return e;
    }
}

Exercise randomExercise(std::uint64_t seed)
{
    switch (SplitMix64(seed).next() % 3) {
    case 0: return weightedOutputExercise(seed);
    case 1: return comparisonsExercise(seed);
    default: return predictionExercise(seed);
    }
}

AnswerCheck checkChoice(const Exercise &exercise, int choice)
{
    AnswerCheck check;
    if (choice < 0 || choice >= exercise.choices.size()) {
        check.message = tr("Pick one of the %1 tokens.").arg(exercise.choices.size());
        return check;
    }
    check.understood = true;
    check.correct = choice == int(exercise.answer);
    check.message = check.correct ? tr("Correct! %1").arg(exercise.working)
                                  : tr("Not this time: %1 is not the largest. %2")
                                        .arg(quoted(exercise.choices.value(choice)), exercise.working);
    return check;
}

AnswerCheck checkAnswer(const Exercise &exercise, const QString &text)
{
    if (exercise.isMultipleChoice()) {
        const int byName = exercise.choices.indexOf(text.trimmed(), 0);
        if (byName >= 0)
            return checkChoice(exercise, byName);
        const std::optional<double> number = parseLenientNumber(text);
        if (number && *number == std::floor(*number))
            return checkChoice(exercise, int(*number) - 1);
        return checkChoice(exercise, -1);
    }
    AnswerCheck check;
    const std::optional<double> value = parseLenientNumber(text);
    if (!value) {
        check.message = tr("Type a number, for example 3.5.");
        return check;
    }
    check.understood = true;
    check.correct = std::abs(*value - exercise.answer) <= exercise.tolerance + 1e-12;
    check.message = check.correct ? tr("Correct: %1. %2").arg(formatNumber(exercise.answer), exercise.working)
                                  : tr("Not quite: you wrote %1, the answer is %2. %3")
                                        .arg(formatNumber(*value), formatNumber(exercise.answer), exercise.working);
    return check;
}

} // namespace attn
