#pragma once
// The training tasks: generators of batches of token sequences, each with the
// targets (the next token) and which positions the loss and accuracy count.
// Deterministic from the generator they are given (core/runtime/prng.h).

#include "runtime/prng.h"

#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

namespace attn {

enum class TaskKind { Induction, Copy, Reverse, Sort, Pronoun, Text };

// The beginning-of-text token of the Llama-style models the trainer makes (Llama 3's name for it).
inline constexpr char kBeginningOfText[] = "<|begin_of_text|>";

// `sequences` rows of `length` tokens one after another.
struct TrainingBatch
{
    int sequences = 0;
    int length = 0;
    std::vector<int> inputs;    // sequences * length token ids
    std::vector<int> targets;   // the token after each input
    std::vector<float> weights; // 1 where the loss counts, 0 where the target cannot be predicted
};

class TrainingTask
{
public:
    // A synthetic task over `symbols` tokens (copy, reverse and sort add one
    // separator token "="; pronoun has its own words and takes 0). Nothing for
    // Text: use fromText.
    static std::optional<TrainingTask> synthetic(TaskKind kind, int symbols, QString *error);
    // Character-level (one token per byte) next-token prediction on `text`.
    static std::optional<TrainingTask> fromText(const QByteArray &text, const QString &name, QString *error);

    // This task with `token` before every sequence, as a tokenizer that adds a
    // beginning-of-sequence token hands a model its text: the token is the
    // last id, every sequence starts with it, and the task's own tokens follow
    // (one fewer of them). Its only target that counts is none: what follows
    // the beginning is the task's first token, which nothing predicts.
    TrainingTask startingWith(const QByteArray &token) const;
    // The id every sequence starts with; -1 when none.
    int beginning() const { return m_beginning; }

    // This task with every next token counted, as a language model is
    // trained, instead of only the task's answers (the verb after a pronoun,
    // the repeat, the copy): the model must also learn what can be predicted
    // of the rest, and its heads only help where they find something. The
    // first of the task's own tokens stays uncounted, as in the text task:
    // nothing before it says which it is. The sequences are the task's own.
    TrainingTask countingEveryToken() const;
    bool countsEveryToken() const { return m_everyToken; }

    TaskKind kind() const { return m_kind; }
    int vocab() const { return int(m_symbols.size()); }
    // The text each token id stands for, in bytes (the saved tokenizer's
    // vocabulary): one byte in the character-level tasks, a word in pronoun.
    const std::vector<QByteArray> &symbols() const { return m_symbols; }
    // The accuracy a model that guesses uniformly would reach.
    double chance() const;
    // The longest input a batch can hold (Text: the file's length - 1).
    int maxLength() const;

    // `sequences` sequences of `length` input tokens.
    TrainingBatch batch(SplitMix64 &rng, int sequences, int length) const;

    static std::optional<TaskKind> kindFromName(const QString &name);
    static QString name(TaskKind kind);

private:
    void fill(SplitMix64 &rng, int length, int *inputs, int *targets, float *weights) const;
    // The symbols the task itself draws from (without the beginning token).
    int ownSymbols() const { return vocab() - (m_beginning >= 0 ? 1 : 0); }
    void fillInduction(SplitMix64 &rng, std::vector<int> &sequence, std::vector<float> &counts) const;
    void fillSequenceTask(SplitMix64 &rng, int length, std::vector<int> &sequence, std::vector<float> &counts) const;

    TaskKind m_kind = TaskKind::Induction;
    std::vector<QByteArray> m_symbols;
    std::vector<int> m_text; // Text: the whole file as token ids
    int m_beginning = -1;
    bool m_everyToken = false;
};

// A uniform integer in [0, n).
inline int uniformInt(SplitMix64 &rng, int n) { return int(rng.nextUnit() * n); }

} // namespace attn
