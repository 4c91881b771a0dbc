#include "learn/tasks.h"

#include "learn/pronountask.h"

#include <algorithm>
#include <set>

namespace attn {
namespace {

// Printable one-byte symbols, so sequences read as text in every view and the
// saved byte-level tokenizer needs no merges.
const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<>?@[]^_{|}~";
constexpr int kAlphabetSize = int(sizeof(kAlphabet)) - 1;
constexpr unsigned char kSeparator = '=';

} // namespace

std::optional<TrainingTask> TrainingTask::synthetic(TaskKind kind, int symbols, QString *error)
{
    if (kind == TaskKind::Text) {
        *error = QStringLiteral("the text task needs a text file");
        return std::nullopt;
    }
    if (kind == TaskKind::Pronoun) {
        if (symbols != 0) {
            *error = QStringLiteral("--vocab %1: the pronoun task has its own %2 words")
                         .arg(symbols)
                         .arg(pronoun::vocabulary().size());
            return std::nullopt;
        }
        TrainingTask task;
        task.m_kind = kind;
        task.m_symbols = pronoun::vocabulary();
        return task;
    }
    if (symbols < 2 || symbols > kAlphabetSize) {
        *error = QStringLiteral("--vocab %1: a synthetic task has 2 to %2 symbols").arg(symbols).arg(kAlphabetSize);
        return std::nullopt;
    }
    TrainingTask task;
    task.m_kind = kind;
    for (int i = 0; i < symbols; ++i)
        task.m_symbols.push_back(QByteArray(1, kAlphabet[i]));
    if (kind != TaskKind::Induction)
        task.m_symbols.push_back(QByteArray(1, char(kSeparator)));
    return task;
}

std::optional<TrainingTask> TrainingTask::fromText(const QByteArray &text, const QString &name, QString *error)
{
    if (text.size() < 2) {
        *error = QStringLiteral("%1: too short to learn from (%2 bytes)").arg(name).arg(text.size());
        return std::nullopt;
    }
    TrainingTask task;
    task.m_kind = TaskKind::Text;
    const std::set<unsigned char> bytes(text.cbegin(), text.cend());
    int idOf[256] = {};
    for (const unsigned char b : bytes) {
        idOf[b] = int(task.m_symbols.size());
        task.m_symbols.push_back(QByteArray(1, char(b)));
    }
    task.m_text.reserve(std::size_t(text.size()));
    for (const char c : text)
        task.m_text.push_back(idOf[static_cast<unsigned char>(c)]);
    return task;
}

TrainingTask TrainingTask::startingWith(const QByteArray &token) const
{
    TrainingTask task = *this;
    if (task.m_beginning < 0) {
        task.m_beginning = vocab();
        task.m_symbols.push_back(token);
    }
    return task;
}

TrainingTask TrainingTask::countingEveryToken() const
{
    TrainingTask task = *this;
    task.m_everyToken = true;
    return task;
}

double TrainingTask::chance() const
{
    // Every token counted: a uniform guess among the task's own symbols.
    if (m_everyToken)
        return 1.0 / double(ownSymbols());
    // Copy, reverse and sort never ask for the separator.
    if (m_kind == TaskKind::Pronoun)
        return 1.0 / double(pronoun::ownVerbCount()); // only the verb after a pronoun counts
    const bool separator = m_kind == TaskKind::Copy || m_kind == TaskKind::Reverse || m_kind == TaskKind::Sort;
    return 1.0 / double(ownSymbols() - (separator ? 1 : 0));
}

int TrainingTask::maxLength() const
{
    // A sequence holds the beginning token and length - 1 of the text's, which need `length` of it.
    return m_kind == TaskKind::Text ? int(m_text.size()) - (m_beginning >= 0 ? 0 : 1) : 1 << 20;
}

TrainingBatch TrainingTask::batch(SplitMix64 &rng, int sequences, int length) const
{
    TrainingBatch b;
    b.sequences = sequences;
    b.length = length;
    const std::size_t total = std::size_t(sequences) * std::size_t(length);
    b.inputs.resize(total);
    b.targets.resize(total);
    b.weights.resize(total);
    for (int s = 0; s < sequences; ++s) {
        const std::size_t at = std::size_t(s) * std::size_t(length);
        fill(rng, length, b.inputs.data() + at, b.targets.data() + at, b.weights.data() + at);
    }
    return b;
}

void TrainingTask::fill(SplitMix64 &rng, int length, int *inputs, int *targets, float *weights) const
{
    // One sequence of length + 1 tokens; counts[t] says whether token t is a target that counts.
    // With a beginning token, it comes first and the task fills the rest.
    std::vector<int> sequence(std::size_t(length) + 1);
    std::vector<float> counts(sequence.size(), 0.0f);
    const int first = m_beginning >= 0 ? 1 : 0, own = length - first;
    std::vector<int> tokens(std::size_t(own) + 1);
    std::vector<float> tokenCounts(tokens.size(), 0.0f);
    if (m_kind == TaskKind::Text) {
        const int start = uniformInt(rng, int(m_text.size()) - own);
        std::copy_n(m_text.begin() + start, tokens.size(), tokens.begin());
        std::fill(tokenCounts.begin() + 1, tokenCounts.end(), 1.0f);
    } else if (m_kind == TaskKind::Induction) {
        fillInduction(rng, tokens, tokenCounts);
    } else if (m_kind == TaskKind::Pronoun) {
        pronoun::fillSentences(rng, tokens, tokenCounts);
    } else {
        fillSequenceTask(rng, own, tokens, tokenCounts);
    }
    if (m_everyToken) // the same tokens, drawn by the same calls: only what counts changes
        std::fill(tokenCounts.begin() + 1, tokenCounts.end(), 1.0f);
    if (first)
        sequence[0] = m_beginning;
    std::copy(tokens.begin(), tokens.end(), sequence.begin() + first);
    std::copy(tokenCounts.begin(), tokenCounts.end(), counts.begin() + first);
    for (int i = 0; i < length; ++i) {
        inputs[i] = sequence[std::size_t(i)];
        targets[i] = sequence[std::size_t(i) + 1];
        weights[i] = counts[std::size_t(i) + 1];
    }
}

void TrainingTask::fillInduction(SplitMix64 &rng, std::vector<int> &sequence, std::vector<float> &counts) const
{
    const int n = int(sequence.size());
    for (int &t : sequence)
        t = uniformInt(rng, ownSymbols());
    // The stretch's length and the distance between its two copies are both
    // drawn over a wide range (lengths n/16 to n/2, distances from the length
    // to n - length, the pair anywhere): a head that looks a fixed distance
    // back, or at fixed positions, predicts few of the repeated tokens; only
    // finding the earlier occurrence of the current token and reading what
    // followed it predicts them all.
    const int longest = std::max(1, n / 2), shortest = std::min(longest, std::max(2, n / 16));
    const int stretch = shortest + uniformInt(rng, longest - shortest + 1);
    const int distance = stretch + uniformInt(rng, n - 2 * stretch + 1);
    const int first = uniformInt(rng, n - distance - stretch + 1), second = first + distance;
    std::copy_n(sequence.begin() + first, stretch, sequence.begin() + second);
    // The repeat's first token cannot be predicted; the rest can, by looking back.
    std::fill(counts.begin() + second + 1, counts.begin() + second + stretch, 1.0f);
}

void TrainingTask::fillSequenceTask(SplitMix64 &rng, int length, std::vector<int> &sequence,
                                    std::vector<float> &counts) const
{
    // x_1 ... x_k = y_1 ... y_k, padded with "=" when length is odd.
    const int separator = ownSymbols() - 1, k = length / 2;
    std::fill(sequence.begin(), sequence.end(), separator);
    for (int i = 0; i < k; ++i)
        sequence[std::size_t(i)] = uniformInt(rng, separator);
    auto x = sequence.begin(), y = sequence.begin() + k + 1;
    std::copy_n(x, k, y);
    if (m_kind == TaskKind::Reverse)
        std::reverse(y, y + k);
    else if (m_kind == TaskKind::Sort)
        std::sort(y, y + k);
    std::fill(counts.begin() + k + 1, counts.begin() + 2 * k + 1, 1.0f);
}

std::optional<TaskKind> TrainingTask::kindFromName(const QString &name)
{
    for (TaskKind k : {TaskKind::Induction, TaskKind::Copy, TaskKind::Reverse, TaskKind::Sort, TaskKind::Pronoun,
                       TaskKind::Text})
        if (TrainingTask::name(k) == name)
            return k;
    return std::nullopt;
}

QString TrainingTask::name(TaskKind kind)
{
    switch (kind) {
    case TaskKind::Induction: return QStringLiteral("induction");
    case TaskKind::Copy: return QStringLiteral("copy");
    case TaskKind::Reverse: return QStringLiteral("reverse");
    case TaskKind::Sort: return QStringLiteral("sort");
    case TaskKind::Pronoun: return QStringLiteral("pronoun");
    case TaskKind::Text: return QStringLiteral("text");
    }
    return {};
}

} // namespace attn
