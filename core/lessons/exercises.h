#pragma once
// Practice exercises with fresh numbers from a seed (the same seed gives the
// same exercise, for tests), the checking of typed answers and the score of a
// practice session. No widgets.

#include "attention/attention.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace attn {

enum class ExerciseKind { WeightedOutput, Comparisons, PredictWeight, RotatePair, KeyValueCount };

struct Exercise
{
    ExerciseKind kind = ExerciseKind::WeightedOutput;
    QString question;
    QString working; // the worked solution, shown after a right answer or on "Show solution"
    QString hint;    // the method without the number, for a wrong answer
    double answer = 0.0; // the number, or the 0-based index of the right choice
    // More than one number (a turned pair): each must be within the tolerance;
    // `answer` is then the first of them.
    std::vector<double> answers;
    double tolerance = 0.01;
    bool wholeNumber = false; // a count: only whole numbers are answers

    // WeightedOutput: the weights and the value numbers they mix.
    std::vector<double> weights, values;
    // Comparisons: the sentence length and whether a causal mask applies.
    int tokens = 0;
    bool causal = false;
    // PredictWeight: the query's 0-based position, the choices (key tokens),
    // their labels as every view shows them ("over₇" for a repeated word) and,
    // for the solution, their weights.
    int query = -1;
    QStringList choices, choiceLabels;
    std::vector<double> choiceWeights;
    // RotatePair: the pair before its turn, its position (the angle in radians
    // with head_dim 2) and the turned pair in `answers`.
    std::vector<double> pair;
    int position = 0;
    // KeyValueCount: query heads, key/value heads and each head's width.
    int heads = 0, kvHeads = 0, headDim = 0;

    bool isMultipleChoice() const { return kind == ExerciseKind::PredictWeight; }
    int answerCount() const { return answers.empty() ? 1 : int(answers.size()); }
};

struct AnswerCheck
{
    bool understood = false; // the text could be read as an answer at all
    bool correct = false;
    QString message;         // what to tell the learner: a wrong answer gets the hint, never the number
};

// Query-key comparisons in one self-attention layer: n² without a mask,
// n(n+1)/2 with a causal mask (query i compares with keys 0..i).
long long comparisonCount(int tokens, bool causal);

// "7.6", " 7,6 ", "7.60", "+7.6", "−7.6", "= 7.6": the number, or nothing.
std::optional<double> parseLenientNumber(const QString &text);
// Several numbers: "0.5, −0.3", "(0.5, −0.3)", "[0.5 −0.3]", "0,5; −0,3" or
// "0,5 −0,3" (decimal commas need a space or a semicolon between numbers).
// Nothing when a part is not a number.
std::optional<std::vector<double>> parseLenientNumbers(const QString &text);

// Decimals a typed answer needs: 0 for a whole number, else as many as the
// tolerance resolves (0.01 -> 2).
int answerDecimals(const Exercise &exercise);
// A made-up number in the answer's format, for the input hint: "0.42" for two
// decimals, "0.4" for one; empty for whole numbers (an example could be the answer).
QString answerExample(const Exercise &exercise);

// A token mixes value numbers with its weights (sum 1, in steps of 0.05).
Exercise weightedOutputExercise(std::uint64_t seed);
Exercise weightedOutputExercise(const std::vector<double> &weights, const std::vector<double> &values);
// How many query-key comparisons for a sentence of n tokens.
Exercise comparisonsExercise(std::uint64_t seed);
Exercise comparisonsExercise(int tokens, bool causal);
// Which key a query weights most, on a small generated example (simplified
// attention, short vectors the learner can multiply in their head).
Exercise predictionExercise(std::uint64_t seed);
// The same question on a computed result: the answer is the argmax of the
// query's weights row in that head.
Exercise predictionExercise(const QStringList &queryTokens, const QStringList &keyTokens,
                            const AttentionResult &result, int query, int head);

// Numeric kinds read the text as a number; multiple choice accepts the
// 0-based position, the token's label ("over₇") or a token that occurs once.
AnswerCheck checkAnswer(const Exercise &exercise, const QString &text);
AnswerCheck checkChoice(const Exercise &exercise, int choice);
// The answer and its worked solution, for "Show solution".
QString solutionText(const Exercise &exercise);

// Rotary positions: a 2-dimensional q = pair at `position` turns by
// `position` radians (head_dim 2 has one pair, whose frequency is θ⁰ = 1);
// the answer is the turned pair.
Exercise rotatePairExercise(std::uint64_t seed);
Exercise rotatePairExercise(const std::vector<double> &pair, int position);
// Shared key/value heads: how many key and value vectors one layer keeps per
// token with `heads` query heads and `kvHeads` key/value heads (2·kvHeads).
Exercise keyValueCountExercise(std::uint64_t seed);
Exercise keyValueCountExercise(int heads, int kvHeads, int headDim);

// One of the generated kinds, picked by the seed.
Exercise randomExercise(std::uint64_t seed);

// The score of a practice session. An exercise counts once, when it settles:
// right at the first try, right after a retry, or its solution shown; one that
// was tried and left unsolved counts when the learner moves on.
class PracticeScore
{
public:
    enum class Outcome { Open, Right, RightAfterRetry, Shown };

    // A readable answer to the current exercise; after it settled, answers
    // change nothing.
    Outcome answered(bool correct);
    Outcome solutionShown();
    void nextExercise();

    Outcome current() const { return m_current; }
    bool settled() const { return m_current != Outcome::Open; }
    int attempts() const { return m_attempts; } // readable answers to the current exercise
    int right() const { return m_right; }
    int rightAfterRetry() const { return m_afterRetry; }
    int shown() const { return m_shown; }
    int unsolved() const { return m_unsolved; }
    // "2 right, 1 after a retry, 1 shown" ("none yet" at first); the parts
    // after "right" only when they are not 0.
    QString text() const;

private:
    Outcome m_current = Outcome::Open;
    int m_attempts = 0;
    int m_right = 0;
    int m_afterRetry = 0;
    int m_shown = 0;
    int m_unsolved = 0;
};

} // namespace attn
