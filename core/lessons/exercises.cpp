#include "lessons/exercises.h"

#include "lessons/modernblockexercises.h"
#include "lessons/notation.h"
#include "runtime/prng.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace attn {

namespace {

QString tr(const char *text, int n = -1)
{
    return QCoreApplication::translate("Exercises", text, nullptr, n);
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

// Every choice with the largest weight: a word that occurs twice with the same
// vector (no positional encoding) ties with itself, and either pick is right.
std::vector<int> bestChoices(const std::vector<double> &weights)
{
    std::vector<int> best;
    if (weights.empty())
        return best;
    const double top = weights[std::size_t(argmax(weights))];
    for (std::size_t i = 0; i < weights.size(); ++i)
        if (weights[i] >= top - 1e-12 * std::max(1.0, std::abs(top)))
            best.push_back(int(i));
    return best;
}

// "“cat” (token 1)", or "“the₀” (token 0) and “the₃” (token 3)" for a tie.
QString bestChoicesText(const Exercise &e)
{
    QStringList names;
    for (int i : bestChoices(e.choiceWeights))
        names << QStringLiteral("%1 (token %2)").arg(quoted(e.choiceLabels.value(i))).arg(i);
    return listText(names);
}

// Weights listed per token, for the solution: all of a short sentence, the
// largest few of a long one (a hundred numbers would bury the answer).
QString weightsList(const QStringList &labels, const std::vector<double> &weights)
{
    constexpr int allUpTo = 8, largest = 5;
    std::vector<int> order(std::size_t(labels.size()));
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    const bool cut = labels.size() > allUpTo;
    if (cut)
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return weights[std::size_t(a)] > weights[std::size_t(b)]; });
    QStringList parts;
    for (std::size_t k = 0; k < order.size() && (!cut || k < std::size_t(largest)); ++k)
        parts << QStringLiteral("%1 %2").arg(quoted(labels[order[k]]), formatNumber(weights[std::size_t(order[k])], 4));
    const QString list = parts.join(QStringLiteral(", "));
    return cut ? tr("the largest %1, … (%2 more)").arg(list).arg(labels.size() - largest) : list;
}

bool near(double a, double b, double tolerance)
{
    return std::abs(a - b) <= tolerance + 1e-12;
}

// What a wrong number most likely came from, named without giving the answer;
// the exercise's general hint when it matches no known slip.
QString mistakeHint(const Exercise &e, double value)
{
    if (e.kind == ExerciseKind::WeightedOutput && !e.values.empty()) {
        double sum = 0.0;
        for (double v : e.values)
            sum += v;
        const double heaviest = e.values[std::size_t(argmax(e.weights))];
        if (near(value, sum / double(e.values.size()), e.tolerance))
            return tr("That is the plain average of the values; here each value counts as much as its weight. ")
                + e.hint;
        if (near(value, sum, e.tolerance))
            return tr("That adds the values without their weights. ") + e.hint;
        if (near(value, heaviest, e.tolerance))
            return tr("That is only the value with the largest weight; the other tokens hand on their share too. ")
                + e.hint;
    }
    if (e.kind == ExerciseKind::Comparisons) {
        const double n = e.tokens;
        if (e.causal && value == n * n)
            return tr("That counts every pair, but with a causal mask a query is never compared with later "
                      "tokens. ") + e.hint;
        if (!e.causal && value == n * (n + 1) / 2)
            return tr("That leaves out the later tokens, as a causal mask would; there is no mask here. ") + e.hint;
        if (value == n * (n - 1) || (e.causal && value == n * (n - 1) / 2))
            return tr("Each token is compared with itself too. ") + e.hint;
        if (!e.causal && value == n * (n - 1) / 2)
            return tr("Both orders count: query a with key b and query b with key a are two comparisons, and each "
                      "token meets itself too. ") + e.hint;
        if (value == n)
            return tr("That is the keys of one query; every token is a query. ") + e.hint;
    }
    if (e.kind == ExerciseKind::KeyValueCount)
        return detail::modernBlockMistake(e, {value});
    return e.hint;
}

// The answer as written in a verdict or a solution: "7.6", or "(0.4200, −0.1700)".
QString answerText(const Exercise &exercise)
{
    if (exercise.answers.empty())
        return formatNumber(exercise.answer);
    QStringList parts;
    for (double v : exercise.answers)
        parts << formatFixed(v);
    return QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

// Which choice a typed text names: its label, a token that occurs once, or
// its 0-based position; -1 when none, -2 when the token occurs more than once.
int typedChoice(const Exercise &e, const QString &typed)
{
    const QString text = typed.trimmed();
    const int byLabel = e.choiceLabels.indexOf(text);
    if (byLabel >= 0)
        return byLabel;
    const int count = int(e.choices.count(text));
    if (count == 1)
        return e.choices.indexOf(text);
    if (count > 1)
        return -2;
    const std::optional<double> number = parseLenientNumber(text);
    if (number && *number == std::floor(*number) && *number >= 0 && *number < e.choices.size())
        return int(*number);
    return -1;
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

std::optional<std::vector<double>> parseLenientNumbers(const QString &text)
{
    QString s = text.trimmed();
    if (s.startsWith(QLatin1Char('=')))
        s = s.mid(1).trimmed();
    for (const QChar bracket : {u'(', u')', u'[', u']'})
        s.remove(bracket);
    s = s.trimmed();
    // A semicolon separates; else spaces do (a comma just before one goes
    // with it); else commas, when nothing else does ("0.5,-0.3").
    QStringList parts;
    if (s.contains(QLatin1Char(';'))) {
        parts = s.split(QLatin1Char(';'));
    } else {
        static const QRegularExpression spaces(QStringLiteral(",?\\s+"));
        parts = s.split(spaces, Qt::SkipEmptyParts);
        if (parts.size() == 1)
            parts = s.split(QLatin1Char(','));
    }
    std::vector<double> numbers;
    for (const QString &part : parts) {
        // A minus sign on its own belongs to the number after it ("− 0.3").
        const std::optional<double> value = parseLenientNumber(part);
        if (!value)
            return std::nullopt;
        numbers.push_back(*value);
    }
    if (numbers.empty())
        return std::nullopt;
    return numbers;
}

int answerDecimals(const Exercise &exercise)
{
    if (exercise.wholeNumber || exercise.isMultipleChoice())
        return 0;
    // The fewest decimals whose last digit is no coarser than the tolerance.
    return std::clamp(int(std::ceil(-std::log10(exercise.tolerance) - 1e-9)), 1, 6);
}

QString answerExample(const Exercise &exercise)
{
    const int decimals = answerDecimals(exercise);
    if (decimals == 0)
        return QString();
    const QString example = QStringLiteral("0.") + QStringLiteral("428571").left(decimals);
    if (exercise.answerCount() == 2)
        return example + QStringLiteral(", −0.") + QStringLiteral("173205").left(decimals);
    return example;
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
    e.hint = tr("Multiply each value by its weight, then add the products. The weights already sum to 1, so "
                "there is nothing to divide by.");
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
    e.wholeNumber = true;
    e.question = causal
        ? tr("A text generator reads a sentence of %1 tokens with a causal mask: each token, as a query, is compared "
             "with itself and the tokens before it, never with later ones. How many query-key comparisons does one "
             "attention layer make?").arg(tokens)
        : tr("A sentence has %1 tokens. In one self-attention layer every token, as a query, is compared with every "
             "token, itself included. How many query-key comparisons is that?").arg(tokens);
    // Positions are numbered from 0, as everywhere in the app: query i sees i + 1 keys.
    e.working = causal ? tr("Query 0 sees 1 key, query 1 sees 2, … query %1 sees %2: 1 + 2 + … + %2 = %2×%3÷2 = %4.")
                             .arg(tokens - 1).arg(tokens).arg(tokens + 1).arg(comparisonCount(tokens, true))
                       : tr("%1 queries, each compared with %1 keys: %1×%1 = %2.")
                             .arg(tokens).arg(comparisonCount(tokens, false));
    e.hint = causal ? tr("Count per query and add: token 0 is compared with itself only, token 1 with two tokens, "
                         "and so on up to the last token.")
                    : tr("Every query meets every key, itself included: multiply the number of queries by the "
                         "number of keys.");
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
    e.choiceLabels = tokenLabels(e.choices);
    e.query = query;
    const int best = argmax(e.choiceWeights);
    e.answer = best;
    // In cross-attention the keys are the source's tokens, numbered on their own.
    e.question = queryTokens != keyTokens
        ? tr("Cross-attention: which source token will the query %1 (token %2 of the sentence) give the largest "
             "attention weight?").arg(quoted(tokenLabel(queryTokens, query))).arg(query)
        : tr("Which token will the query %1 (token %2) give the largest attention weight?")
              .arg(quoted(tokenLabel(queryTokens, query)))
              .arg(query);
    if (result.heads.size() > 1)
        e.question += QLatin1Char(' ') + tr("(In %1.)").arg(headName(head));
    const QString weights = weightsList(e.choiceLabels, e.choiceWeights);
    e.working = bestChoices(e.choiceWeights).size() > 1
        ? tr("Softmax keeps the order of the scores, so the keys with the largest score win: %1 tie (the same "
             "vector gives the same score). The weights: %2.").arg(bestChoicesText(e), weights)
        : tr("Softmax keeps the order of the scores, so the key with the largest score wins: %1. The weights: %2.")
              .arg(bestChoicesText(e), weights);
    e.hint = tr("The largest weight goes to the key with the largest score q·k: softmax keeps the order of the "
                "scores. Look at the scores of this query's row, not at what the words mean.");
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
        QStringList names;
        for (const QString &t : tokens)
            names << quoted(t);
        e.question = tr("Simplified attention (no trainable matrices, no scaling) on the tokens %1, with these "
                        "vectors:\n%2\nWhich token will %3 give the largest weight?")
                         .arg(listText(names), vectors.join(QLatin1Char('\n')), quoted(tokens[query]));
        QStringList scores;
        for (int j = 0; j < n; ++j)
            scores << QStringLiteral("%1·%2 = %3").arg(tokens[query], tokens[j],
                                                          formatNumber(result.heads[0].scores(query, j), 4));
        e.working = tr("Scores: %1. ").arg(scores.join(QStringLiteral(", "))) + e.working;
        e.hint = tr("Work out the score of %1 with each token: multiply their first numbers, multiply their second "
                    "numbers, and add. Softmax keeps the order of the scores, so the largest score wins.")
                     .arg(quoted(tokens[query]));
        return e;
    }
}

Exercise randomExercise(std::uint64_t seed)
{
    switch (SplitMix64(seed).next() % 5) {
    case 0: return weightedOutputExercise(seed);
    case 1: return comparisonsExercise(seed);
    case 2: return rotatePairExercise(seed);
    case 3: return keyValueCountExercise(seed);
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
    const std::vector<int> best = bestChoices(exercise.choiceWeights);
    check.correct = choice == int(exercise.answer) || std::find(best.begin(), best.end(), choice) != best.end();
    check.message = check.correct ? tr("Correct! %1").arg(exercise.working)
                                  : tr("Not quite: %1 does not get the largest weight. %2")
                                        .arg(quoted(exercise.choiceLabels.value(choice)), exercise.hint);
    return check;
}

AnswerCheck checkAnswer(const Exercise &exercise, const QString &text)
{
    if (exercise.isMultipleChoice()) {
        const int choice = typedChoice(exercise, text);
        if (choice == -2) {
            AnswerCheck ambiguous;
            ambiguous.message = tr("%1 occurs more than once: name it by its position, such as %2.")
                                    .arg(quoted(text.trimmed()),
                                         quoted(exercise.choiceLabels.value(int(exercise.choices.indexOf(text.trimmed())))));
            return ambiguous;
        }
        return checkChoice(exercise, choice);
    }
    AnswerCheck check;
    if (exercise.answerCount() > 1) {
        // Several numbers (a turned pair): right only when each of them is.
        const std::optional<std::vector<double>> values = parseLenientNumbers(text);
        if (!values || int(values->size()) != exercise.answerCount()) {
            check.message = tr("Type the %1 numbers, separated by a comma and a space, for example %2.")
                                .arg(exercise.answerCount())
                                .arg(answerExample(exercise));
            return check;
        }
        check.understood = true;
        check.correct = true;
        for (std::size_t i = 0; i < values->size(); ++i)
            check.correct = check.correct && near((*values)[i], exercise.answers[i], exercise.tolerance);
        check.message = check.correct ? tr("Correct: %1. %2").arg(answerText(exercise), exercise.working)
                                      : tr("Not quite. %1").arg(detail::modernBlockMistake(exercise, *values));
        return check;
    }
    const std::optional<double> value = parseLenientNumber(text);
    if (exercise.wholeNumber && (!value || *value != std::floor(*value))) {
        check.message = tr("Type a whole number, without decimals.");
        return check;
    }
    if (!value) {
        check.message = tr("Type a number, for example %1.").arg(answerExample(exercise));
        return check;
    }
    check.understood = true;
    check.correct = near(*value, exercise.answer, exercise.tolerance);
    check.message = check.correct ? tr("Correct: %1. %2").arg(formatNumber(exercise.answer), exercise.working)
                                  : tr("Not quite. %1").arg(mistakeHint(exercise, *value));
    return check;
    return check;
}

QString solutionText(const Exercise &exercise)
{
    if (exercise.isMultipleChoice())
        return tr("Solution: %1. %2").arg(exercise.choiceWeights.empty()
                                                ? quoted(exercise.choiceLabels.value(int(exercise.answer)))
                                                : bestChoicesText(exercise),
                                            exercise.working);
    return tr("Solution: %1. %2").arg(answerText(exercise), exercise.working);
}

PracticeScore::Outcome PracticeScore::answered(bool correct)
{
    if (settled())
        return m_current;
    ++m_attempts;
    if (!correct)
        return m_current;
    m_current = m_attempts == 1 ? Outcome::Right : Outcome::RightAfterRetry;
    ++(m_attempts == 1 ? m_right : m_afterRetry);
    return m_current;
}

PracticeScore::Outcome PracticeScore::solutionShown()
{
    if (!settled()) {
        m_current = Outcome::Shown;
        ++m_shown;
    }
    return m_current;
}

void PracticeScore::nextExercise()
{
    if (!settled() && m_attempts > 0)
        ++m_unsolved;
    m_current = Outcome::Open;
    m_attempts = 0;
}

QString PracticeScore::text() const
{
    if (m_right + m_afterRetry + m_shown + m_unsolved == 0)
        return tr("none yet");
    QStringList parts{tr("%n right", m_right)};
    if (m_afterRetry > 0)
        parts << tr("%n after a retry", m_afterRetry);
    if (m_shown > 0)
        parts << tr("%n shown", m_shown);
    if (m_unsolved > 0)
        parts << tr("%n not solved", m_unsolved);
    return parts.join(QStringLiteral(", "));
}

} // namespace attn
