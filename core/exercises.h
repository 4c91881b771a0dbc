#pragma once
// Practice exercises with fresh numbers from a seed (the same seed gives the
// same exercise, for tests), and the checking of typed answers. No widgets.

#include "attention.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace attn {

enum class ExerciseKind { WeightedOutput, Comparisons, PredictWeight };

struct Exercise
{
    ExerciseKind kind = ExerciseKind::WeightedOutput;
    QString question;
    QString working; // how to get the right answer, shown after a wrong one or on reveal
    double answer = 0.0; // the number, or the 0-based index of the right choice
    double tolerance = 0.01;

    // WeightedOutput: the weights and the value numbers they mix.
    std::vector<double> weights, values;
    // Comparisons: the sentence length and whether a causal mask applies.
    int tokens = 0;
    bool causal = false;
    // PredictWeight: the choices (key tokens) and, for the reveal, their weights.
    QStringList choices;
    std::vector<double> choiceWeights;

    bool isMultipleChoice() const { return kind == ExerciseKind::PredictWeight; }
};

struct AnswerCheck
{
    bool understood = false; // the text could be read as an answer at all
    bool correct = false;
    QString message;         // what to tell the learner, with the working when wrong
};

// Query-key comparisons in one self-attention layer: n² without a mask,
// n(n+1)/2 with a causal mask (query i compares with keys 1..i).
long long comparisonCount(int tokens, bool causal);

// "7.6", " 7,6 ", "7.60", "+7.6", "−7.6", "= 7.6": the number, or nothing.
std::optional<double> parseLenientNumber(const QString &text);

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
// 1-based choice number or the token itself.
AnswerCheck checkAnswer(const Exercise &exercise, const QString &text);
AnswerCheck checkChoice(const Exercise &exercise, int choice);

// One of the three kinds, picked by the seed.
Exercise randomExercise(std::uint64_t seed);

} // namespace attn
