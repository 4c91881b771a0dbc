#include "gguftokenizer.h"

#include "bpetokenizer.h"
#include "ggufpretokenizer.h"
#include "sentencepiecetokenizer.h"

#include "io/gguffile.h"
#include "io/tensorinfo.h"
#include "model/modelconfig.h"

#include <QSet>
#include <climits>

namespace attn {
namespace {

struct Refusal
{
    QString message;
};

[[noreturn]] void refuse(const QString &message) { throw Refusal{message}; }

QString keyOf(const char *name) { return QStringLiteral("tokenizer.ggml.") + QLatin1String(name); }

QString typeOf(const GgufValue &v)
{
    return v.type == GgufType::Array ? QStringLiteral("ARRAY of ") + ggufTypeName(v.elementType) : ggufTypeName(v.type);
}

bool isIntegerType(GgufType type)
{
    GgufValue v;
    v.type = type;
    return v.isInteger();
}

// The tokenizer keys of one file, each read with its type checked.
class Keys
{
public:
    explicit Keys(const GgufFile &file) : m_file(file) {}

    const GgufValue *find(const char *name) const { return m_file.find(keyOf(name)); }

    QString string(const char *name, const QString &fallback) const
    {
        const GgufValue *v = find(name);
        if (!v)
            return fallback;
        if (v->type != GgufType::String)
            refuse(QStringLiteral("%1 is %2, not a string").arg(keyOf(name), typeOf(*v)));
        return v->text;
    }

    bool boolean(const char *name, bool fallback) const
    {
        const GgufValue *v = find(name);
        if (!v)
            return fallback;
        if (v->type != GgufType::Bool)
            refuse(QStringLiteral("%1 is %2, not BOOL").arg(keyOf(name), typeOf(*v)));
        return v->integer != 0;
    }

    // A token id: `fallback` when absent (and dropped, as llama.cpp drops a
    // default, when it is not in the vocabulary); refused outside it when given.
    int id(const char *name, int fallback, int vocab) const
    {
        const GgufValue *v = find(name);
        if (!v)
            return fallback < vocab ? fallback : -1;
        if (!v->isInteger())
            refuse(QStringLiteral("%1 is %2, not an integer").arg(keyOf(name), typeOf(*v)));
        if (v->integer < 0 || v->integer >= vocab)
            refuse(QStringLiteral("%1 is %2, not a token of the %3 in tokenizer.ggml.tokens")
                       .arg(keyOf(name)).arg(v->integer).arg(vocab));
        return int(v->integer);
    }

    QStringList strings(const char *name) const
    {
        const GgufValue *v = find(name);
        if (!v)
            refuse(QStringLiteral("%1 is missing").arg(keyOf(name)));
        if (v->type != GgufType::Array || v->elementType != GgufType::String)
            refuse(QStringLiteral("%1 is %2, not an array of strings").arg(keyOf(name), typeOf(*v)));
        QString error;
        std::optional<QStringList> list = m_file.strings(*v, keyOf(name), &error);
        if (!list)
            throw Refusal{error}; // already names the file
        return std::move(*list);
    }

    // An optional array of at least `count` numbers: integers, or (when
    // `floats`) FLOAT32 and FLOAT64 too.
    std::vector<double> numbers(const char *name, bool floats, qint64 count) const
    {
        const GgufValue *v = find(name);
        if (!v)
            return {};
        const bool fits = v->type == GgufType::Array
            && (isIntegerType(v->elementType)
                || (floats && (v->elementType == GgufType::Float32 || v->elementType == GgufType::Float64)));
        if (!fits)
            refuse(QStringLiteral("%1 is %2, not an array of %3").arg(keyOf(name), typeOf(*v),
                                                                      floats ? QStringLiteral("numbers") : QStringLiteral("integers")));
        if (v->count < count)
            refuse(QStringLiteral("%1 holds %2 values for %3 tokens").arg(keyOf(name)).arg(v->count).arg(count));
        QString error;
        std::optional<std::vector<double>> list = m_file.numbers(*v, keyOf(name), &error);
        if (!list)
            throw Refusal{error};
        return std::move(*list);
    }

private:
    const GgufFile &m_file;
};

using TokenType = SentencePieceVocabulary::TokenType;

std::vector<TokenType> tokenTypes(const Keys &keys, qsizetype count)
{
    const std::vector<double> raw = keys.numbers("token_type", false, count);
    std::vector<TokenType> types(std::size_t(count), TokenType::Normal);
    for (std::size_t i = 0; i < raw.size() && i < types.size(); ++i)
        types[i] = raw[i] >= 0 && raw[i] <= 6 ? TokenType(int(raw[i])) : TokenType::Undefined;
    return types;
}

// "LEFT RIGHT", split at the first space at or after its second byte
// (llama-vocab.cpp); each rank's pair once, at its first rank, as
// llama.cpp's bpe_ranks.emplace keeps it.
std::vector<BpeMerge> mergesOf(const QStringList &merges, const QHash<QString, int> &ids)
{
    std::vector<BpeMerge> out;
    out.reserve(std::size_t(merges.size()));
    QSet<quint64> seen;
    const auto idOf = [&](const QString &token, qsizetype rank, const QString &merge) {
        const auto it = ids.constFind(token);
        if (it == ids.constEnd())
            refuse(QStringLiteral("%1: entry %2 (%3) names %4, which is not a token")
                       .arg(keyOf("merges")).arg(rank).arg(quotedForMessage(merge), quotedForMessage(token)));
        return *it;
    };
    for (qsizetype rank = 0; rank < merges.size(); ++rank) {
        const QString &merge = merges[rank];
        const qsizetype space = merge.indexOf(QLatin1Char(' '), 1);
        if (space < 0)
            refuse(QStringLiteral("%1: entry %2 (%3) is not two tokens with a space between them")
                       .arg(keyOf("merges")).arg(rank).arg(quotedForMessage(merge)));
        const QString left = merge.left(space), right = merge.mid(space + 1);
        BpeMerge m{idOf(left, rank, merge), idOf(right, rank, merge), idOf(left + right, rank, merge)};
        const quint64 pair = (quint64(quint32(m.left)) << 32) | quint32(m.right);
        if (seen.contains(pair))
            continue;
        seen.insert(pair);
        out.push_back(m);
    }
    return out;
}

TokenizerPtr bytePairTokenizer(const Keys &keys, const QStringList &tokens, const QHash<QString, int> &ids)
{
    const QString preName = keys.string("pre", QString());
    GgufPreTokenizer pre;
    QString why;
    if (!ggufPreTokenizer(preName, &pre, &why))
        refuse(why);
    const int vocab = int(tokens.size());
    const std::vector<TokenType> types = tokenTypes(keys, vocab);
    BpeVocabulary vocabulary;
    vocabulary.alphabet = BpeVocabulary::Alphabet::Bytes;
    vocabulary.merges = mergesOf(keys.strings("merges"), ids);
    vocabulary.ignoreMerges = pre.ignoreMerges;
    vocabulary.tokens = tokens;
    vocabulary.index = ids;
    TokenizerSteps steps;
    steps.preTokenizer = pre.preTokenizer;
    for (int id = 0; id < vocab; ++id) {
        const TokenType type = types[std::size_t(id)];
        if (type == TokenType::Control || type == TokenType::UserDefined) {
            steps.added.add({tokens[id], id});
            steps.addedIds.insert(id, type == TokenType::Control);
        }
    }
    // llama.cpp's defaults for BPE vocabularies (11 is a placeholder that only
    // counts when it is a token: always read the keys).
    steps.special.bos = keys.id("bos_token_id", 11, vocab);
    steps.special.eos = keys.id("eos_token_id", 11, vocab);
    steps.special.unk = keys.id("unknown_token_id", -1, vocab);
    steps.special.pad = keys.id("padding_token_id", -1, vocab);
    if (keys.boolean("add_bos_token", pre.addBos) && steps.special.bos >= 0)
        steps.prefix.push_back(steps.special.bos);
    if (keys.boolean("add_eos_token", false) && steps.special.eos >= 0)
        steps.suffix.push_back(steps.special.eos);
    return std::make_shared<BpeTokenizer>(std::move(vocabulary), std::move(steps));
}

TokenizerPtr sentencePieceTokenizer(const Keys &keys, const QStringList &tokens)
{
    const int vocab = int(tokens.size());
    SentencePieceVocabulary v;
    v.tokens = tokens;
    v.types = tokenTypes(keys, vocab);
    const std::vector<double> scores = keys.numbers("scores", true, vocab);
    v.scores.assign(scores.begin(), scores.end());
    v.special.bos = keys.id("bos_token_id", 1, vocab);
    v.special.eos = keys.id("eos_token_id", 2, vocab);
    v.special.unk = keys.id("unknown_token_id", 0, vocab);
    v.special.pad = keys.id("padding_token_id", -1, vocab);
    v.addBos = keys.boolean("add_bos_token", true) && v.special.bos >= 0;
    v.addEos = keys.boolean("add_eos_token", false) && v.special.eos >= 0;
    v.addSpacePrefix = keys.boolean("add_space_prefix", true);
    return std::make_shared<SentencePieceTokenizer>(std::move(v));
}

int embeddingRows(const GgufFile &file)
{
    const GgufTensor *embedding = file.findTensor(QStringLiteral("token_embd.weight"));
    return embedding && embedding->dims.size() == 2 ? int(std::min<qint64>(embedding->dims[1], INT_MAX)) : -1;
}

// An empty vocabulary, or one of another size than the embedding.
void checkVocabularySize(const GgufFile &file, int modelVocab)
{
    const GgufValue *list = file.find(keyOf("tokens"));
    if (!list || list->type != GgufType::Array || list->elementType != GgufType::String)
        return; // missing or of another type: named when read
    if (list->count == 0)
        refuse(QStringLiteral("%1 is empty").arg(keyOf("tokens")));
    if (list->count > kMaxModelVocab)
        refuse(QStringLiteral("%1 holds %2 tokens, more than %3").arg(keyOf("tokens")).arg(list->count).arg(kMaxModelVocab));
    const int rows = modelVocab >= 0 ? modelVocab : embeddingRows(file);
    if (rows >= 0 && list->count != rows)
        refuse(QStringLiteral("%1 holds %2 tokens, but token_embd.weight has %3 rows (one per token)")
                   .arg(keyOf("tokens")).arg(list->count).arg(rows));
}

} // namespace

QString ggufVocabularyProblem(const GgufFile &file, int modelVocab)
{
    try {
        checkVocabularySize(file, modelVocab);
    } catch (const Refusal &r) {
        return file.fail(r.message);
    }
    return {};
}

TokenizerPtr tokenizerFromGguf(const GgufFile &file, QString *error, int modelVocab)
{
    try {
        const Keys keys(file);
        if (!keys.find("model"))
            refuse(QStringLiteral("%1 is missing: the file carries no tokenizer").arg(keyOf("model")));
        const QString model = keys.string("model", QString());
        if (model != QLatin1String("gpt2") && model != QLatin1String("llama"))
            refuse(QStringLiteral("%1 %2 is not a tokenizer this program reads (gpt2, llama)")
                       .arg(keyOf("model"), quotedForMessage(model.left(60))));
        checkVocabularySize(file, modelVocab);
        const QStringList tokens = keys.strings("tokens");
        if (model == QLatin1String("llama"))
            return sentencePieceTokenizer(keys, tokens);
        QHash<QString, int> ids;
        ids.reserve(tokens.size());
        for (int id = 0; id < tokens.size(); ++id)
            ids.insert(tokens[id], id);
        return bytePairTokenizer(keys, tokens, ids);
    } catch (const Refusal &r) {
        if (error)
            *error = r.message.startsWith(file.name() + QLatin1String(": ")) ? r.message : file.fail(r.message);
        return nullptr;
    } catch (const std::bad_alloc &) {
        if (error)
            *error = file.fail(QStringLiteral("not enough memory for the tokenizer"));
        return nullptr;
    }
}

} // namespace attn
