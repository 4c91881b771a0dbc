#pragma once
// Checks shared by the tokenizer loaders (internal to core/tokenizers).
// Every function returns false and sets `error` to "WHERE: what is wrong".

#include "bpetokenizer.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <vector>

namespace attn::tokenizerparsing {

// Far above any real model (GPT-2: 50,257 tokens and 50,000 merges; the
// largest vocabularies about 256,000), low enough to bound what a file can cost.
constexpr qsizetype kMaxVocabulary = 1024 * 1024;
constexpr qsizetype kMaxMerges = 1024 * 1024;

// A user's text quoted in a one-line message: short, control characters made
// visible.
QString quoted(const QString &text);
QString typeName(const QJsonValue &v);

// Parses a JSON object: "NAME: not valid JSON at byte N: reason",
// "NAME: expected an object, got a list".
bool parseJsonObject(const QByteArray &json, const QString &name, QJsonObject *out, QString *error);

struct VocabEntry
{
    QString token;
    QJsonValue id;
};

// Ids must be integers 0 … n-1, each used once. `where` starts the message
// ("vocab.json" or "tokenizer.json: model.vocab"). Fills vocab[id] = token.
bool idTable(const std::vector<VocabEntry> &entries, const QString &where, QStringList *vocab, QString *error);
std::vector<VocabEntry> entriesOf(const QJsonObject &object);

struct MergeText
{
    QString left;
    QString right;
    qsizetype place; // line number or list index, for messages
};

// Byte-level BPE: every byte's stand-in is a token; both sides of every merge
// and the merged string are tokens. Messages name the merge by `where`
// ("merges.txt: line %1") and the vocabulary by `vocabName`.
bool buildBpe(const QStringList &vocab, const std::vector<MergeText> &merges, const QString &where, const QString &vocabName,
              std::array<int, 256> *byteIds, std::vector<BpeTokenizer::Merge> *out, QString *error);
// The same checks, apart: the byte symbols, and the merges' tokens.
bool checkByteAlphabet(const QHash<QString, int> &ids, const QString &vocabName, std::array<int, 256> *byteIds, QString *error);
bool resolveMerges(const QHash<QString, int> &ids, const std::vector<MergeText> &merges, const QString &where,
                   const QString &vocabName, std::vector<BpeTokenizer::Merge> *out, QString *error);

QHash<QString, int> lookupTable(const QStringList &vocab);

// Messages about one JSON file: "NAME: PATH: what is wrong", PATH the place
// in the file ("pre_tokenizer.pretokenizers[0].pattern.Regex").
struct JsonContext
{
    QString name;
    QString *error;

    bool fail(const QString &path, const QString &message) const;
    bool wrongType(const QString &path, const char *expected, const QJsonValue &v) const;
    // A field that may be missing or null (then `fallback`), else of its type.
    bool optionalBool(const QJsonObject &o, const QString &path, const char *key, bool fallback, bool *out) const;
    bool optionalString(const QJsonObject &o, const QString &path, const char *key, QString *out) const;
    // An object's "type": one of `known`, else a message listing them.
    bool typeOf(const QJsonValue &v, const QString &path, const QStringList &known, QString *type) const;
};

} // namespace attn::tokenizerparsing
