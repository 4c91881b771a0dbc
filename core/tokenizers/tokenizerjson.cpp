// Hugging Face's tokenizer.json (the "fast" tokenizers' single file).

#include "tokenizerloader.h"

#include "bpetokenizer.h"
#include "tokenizerjsonscan.h"
#include "tokenizerjsonsteps.h"
#include "tokenizerparsing.h"
#include "wordpiecetokenizer.h"

#include <QJsonArray>
#include <QSet>
#include <cmath>

namespace attn {

using namespace tokenizerparsing;

namespace {

// An added token as tokenizer.json lists it.
struct AddedEntry
{
    AddedTokens::Entry entry;
    bool normalized = false;
    bool special = false;
};

bool isId(const QJsonValue &v)
{
    const double d = v.toDouble(-1);
    return v.isDouble() && d >= 0 && d <= 2147483647.0 && d == std::floor(d);
}

// model.vocab plus the added tokens (which may extend it) as one id table.
bool readVocab(const JsonContext &c, const QJsonObject &root, const QJsonObject &model, ScannedModel *scanned,
               QStringList *vocab, std::vector<AddedEntry> *added)
{
    const QJsonValue vocabValue = model.value(QStringLiteral("vocab"));
    if (!vocabValue.isObject())
        return c.wrongType(QStringLiteral("model.vocab"), "an object of token -> id", vocabValue);
    std::vector<VocabEntry> entries = scanned ? std::move(scanned->vocab) : entriesOf(vocabValue.toObject());
    // The vocabulary's token of each id the added tokens use (few).
    QHash<qint64, QString> byId;
    const QJsonArray addedIdsList = root.value(QStringLiteral("added_tokens")).toArray();
    QSet<qint64> wanted;
    for (const QJsonValue &t : addedIdsList)
        if (isId(t.toObject().value(QStringLiteral("id"))))
            wanted.insert(qint64(t.toObject().value(QStringLiteral("id")).toDouble()));
    for (const VocabEntry &e : entries)
        if (!wanted.isEmpty() && isId(e.id) && wanted.contains(qint64(e.id.toDouble())))
            byId.insert(qint64(e.id.toDouble()), e.token);

    const QJsonValue list = root.value(QStringLiteral("added_tokens"));
    if (!list.isUndefined() && !list.isNull() && !list.isArray())
        return c.wrongType(QStringLiteral("added_tokens"), "a list", list);
    const QJsonArray addedList = list.toArray();
    for (qsizetype i = 0; i < addedList.size(); ++i) {
        const QString path = QStringLiteral("added_tokens[%1]").arg(i);
        if (!addedList[i].isObject())
            return c.wrongType(path, "an object", addedList[i]);
        const QJsonObject t = addedList[i].toObject();
        const QJsonValue content = t.value(QStringLiteral("content"));
        const QJsonValue id = t.value(QStringLiteral("id"));
        if (!content.isString() || content.toString().isEmpty())
            return c.wrongType(path + QStringLiteral(".content"), "a non-empty string", content);
        if (!isId(id))
            return c.wrongType(path + QStringLiteral(".id"), "an id (an integer from 0)", id);
        AddedEntry a;
        if (!c.optionalBool(t, path, "special", false, &a.special) || !c.optionalBool(t, path, "lstrip", false, &a.entry.lstrip)
            || !c.optionalBool(t, path, "rstrip", false, &a.entry.rstrip)
            || !c.optionalBool(t, path, "single_word", false, &a.entry.singleWord)
            || !c.optionalBool(t, path, "normalized", !a.special, &a.normalized))
            return false;
        const qint64 n = qint64(id.toDouble());
        const QString text = withoutLoneSurrogates(content.toString());
        if (byId.contains(n) && byId.value(n) != text)
            return c.fail(path, QStringLiteral("id %1 is %2 in model.vocab, not %3").arg(n).arg(quoted(byId.value(n)), quoted(text)));
        if (!byId.contains(n)) {
            byId.insert(n, text);
            entries.push_back({text, id});
        }
        a.entry.content = text;
        a.entry.id = int(n);
        added->push_back(a);
    }
    return idTable(entries, c.name + QStringLiteral(": model.vocab"), vocab, c.error);
}

AddedTokens allAdded(const std::vector<AddedEntry> &added)
{
    AddedTokens out;
    for (const AddedEntry &a : added)
        out.add(a.entry);
    return out;
}

bool readMerges(const JsonContext &c, const QJsonObject &model, ScannedModel *scanned, std::vector<MergeText> *merges)
{
    const QJsonValue mergesValue = model.value(QStringLiteral("merges"));
    if (!mergesValue.isArray())
        return c.wrongType(QStringLiteral("model.merges"), "a list", mergesValue);
    if (scanned) {
        *merges = std::move(scanned->merges);
        return true;
    }
    const QJsonArray list = mergesValue.toArray();
    if (list.size() > kMaxMerges)
        return c.fail(QStringLiteral("model.merges"), QStringLiteral("more than %1 merges").arg(kMaxMerges));
    merges->reserve(size_t(list.size()));
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonValue v = list[i];
        QStringList parts;
        if (v.isString()) {
            parts = v.toString().split(QLatin1Char(' '));
        } else if (v.isArray() && v.toArray().size() == 2 && v.toArray()[0].isString() && v.toArray()[1].isString()) {
            parts = QStringList{v.toArray()[0].toString(), v.toArray()[1].toString()};
        }
        if (parts.size() != 2 || parts[0].isEmpty() || parts[1].isEmpty())
            return c.fail(QStringLiteral("model.merges[%1]").arg(i), QStringLiteral("expected \"a b\" or [\"a\", \"b\"], got ")
                                                                       + (v.isString() ? quoted(v.toString()) : typeName(v)));
        merges->push_back({parts[0], parts[1], i});
    }
    return true;
}

// The model's options (models/bpe/serialization.rs). Dropout would make the
// tokens random; a subword prefix or suffix is not used by these models.
bool readModelOptions(const JsonContext &c, const QJsonObject &model, const QHash<QString, int> &ids, BpeVocabulary *v)
{
    const QJsonValue dropout = model.value(QStringLiteral("dropout"));
    if (!dropout.isUndefined() && !dropout.isNull() && !(dropout.isDouble() && dropout.toDouble() == 0))
        return c.fail(QStringLiteral("model.dropout"), QStringLiteral("random merges (dropout) are not supported"));
    for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        const QJsonValue x = model.value(QLatin1String(key));
        if (!x.isUndefined() && !x.isNull() && !(x.isString() && x.toString().isEmpty()))
            return c.fail(QStringLiteral("model.") + QLatin1String(key), QStringLiteral("not supported"));
    }
    const QString path = QStringLiteral("model");
    QString unk;
    if (!c.optionalBool(model, path, "ignore_merges", false, &v->ignoreMerges) || !c.optionalBool(model, path, "byte_fallback", false, &v->byteFallback)
        || !c.optionalBool(model, path, "fuse_unk", false, &v->fuseUnknown) || !c.optionalString(model, path, "unk_token", &unk))
        return false;
    if (!unk.isEmpty()) {
        v->unknownId = ids.value(unk, -1);
        if (v->unknownId < 0)
            return c.fail(QStringLiteral("model.unk_token"), QStringLiteral("%1 is not in model.vocab").arg(quoted(unk)));
    }
    return true;
}

TokenizerPtr readBpe(const JsonContext &c, const QJsonObject &root, const QJsonObject &model, const TokenizerConfigFile &config,
                     ScannedModel *scanned)
{
    BpeVocabulary vocabulary;
    TokenizerSteps steps;
    if (!readNormalizer(c, root.value(QStringLiteral("normalizer")), QStringLiteral("normalizer"), &steps.normalizer)
        || !readPreTokenizer(c, root.value(QStringLiteral("pre_tokenizer")), QStringLiteral("pre_tokenizer"), &steps.preTokenizer))
        return nullptr;
    std::vector<AddedEntry> added;
    std::vector<MergeText> merges;
    if (!readVocab(c, root, model, scanned, &vocabulary.tokens, &added) || !readMerges(c, model, scanned, &merges))
        return nullptr;
    vocabulary.index = lookupTable(vocabulary.tokens);
    const QHash<QString, int> &ids = vocabulary.index;
    if (ids.size() != vocabulary.tokens.size())
        return c.fail(QStringLiteral("model.vocab"), QStringLiteral("a token is listed twice")), nullptr;
    if (!readModelOptions(c, model, ids, &vocabulary))
        return nullptr;
    // Byte level when the pre-tokenizer ends in it; SentencePiece's
    // characters otherwise.
    vocabulary.alphabet = steps.preTokenizer.hasByteLevel() ? BpeVocabulary::Alphabet::Bytes : BpeVocabulary::Alphabet::Characters;
    std::array<int, 256> byteIds{};
    if (vocabulary.alphabet == BpeVocabulary::Alphabet::Bytes
        && !checkByteAlphabet(ids, c.name + QStringLiteral(": model.vocab"), &byteIds, c.error))
        return nullptr;
    if (!resolveMerges(ids, merges, c.name + QStringLiteral(": model.merges[%1]"), QStringLiteral("model.vocab"), &vocabulary.merges, c.error))
        return nullptr;
    for (const AddedEntry &a : added) {
        AddedTokens::Entry e = a.entry;
        if (a.normalized) {
            e.content = steps.normalizer.apply(e.content);
            steps.addedNormalized.add(e);
        } else {
            steps.added.add(e);
        }
        steps.addedIds.insert(e.id, a.special);
    }
    PostTemplate fromJson;
    if (!readPostProcessor(c, root.value(QStringLiteral("post_processor")), QStringLiteral("post_processor"),
                           int(vocabulary.tokens.size()), &fromJson)
        || !applyTokenizerConfig(config, ids, fromJson, &steps, c.error))
        return nullptr;
    steps.special.unk = vocabulary.unknownId;
    return std::make_shared<BpeTokenizer>(std::move(vocabulary), std::move(steps));
}

TokenizerPtr readWordPiece(const JsonContext &c, const QJsonObject &root, const QJsonObject &model)
{
    BasicTokenizerOptions options;
    options.lowerCase = false;
    options.accents = BasicTokenizerOptions::Accents::Keep;
    options.spaceOutChinese = false;
    const QJsonValue normalizer = root.value(QStringLiteral("normalizer"));
    if (normalizer.isObject()) {
        const QJsonObject n = normalizer.toObject();
        if (n.value(QStringLiteral("type")).toString() != QLatin1String("BertNormalizer")) {
            c.fail(QStringLiteral("normalizer.type"), QStringLiteral("only \"BertNormalizer\" is supported, got %1")
                                                          .arg(quoted(n.value(QStringLiteral("type")).toString())));
            return nullptr;
        }
        options.lowerCase = n.value(QStringLiteral("lowercase")).toBool(true);
        options.spaceOutChinese = n.value(QStringLiteral("handle_chinese_chars")).toBool(true);
        const QJsonValue accents = n.value(QStringLiteral("strip_accents"));
        options.accents = accents.isBool() ? (accents.toBool() ? BasicTokenizerOptions::Accents::Strip : BasicTokenizerOptions::Accents::Keep)
                                           : BasicTokenizerOptions::Accents::FollowLowerCase;
    } else if (!normalizer.isUndefined() && !normalizer.isNull()) {
        c.wrongType(QStringLiteral("normalizer"), "an object", normalizer);
        return nullptr;
    }
    const QJsonValue prefix = model.value(QStringLiteral("continuing_subword_prefix"));
    const QJsonValue unk = model.value(QStringLiteral("unk_token"));
    const QJsonValue maxChars = model.value(QStringLiteral("max_input_chars_per_word"));
    if (!prefix.isUndefined() && !prefix.isString()) {
        c.wrongType(QStringLiteral("model.continuing_subword_prefix"), "a string", prefix);
        return nullptr;
    }
    if (!unk.isUndefined() && !unk.isString()) {
        c.wrongType(QStringLiteral("model.unk_token"), "a string", unk);
        return nullptr;
    }
    const double limit = maxChars.toDouble(100);
    if (!maxChars.isUndefined() && (!maxChars.isDouble() || limit < 1 || limit > 1e6 || limit != double(int(limit)))) {
        c.wrongType(QStringLiteral("model.max_input_chars_per_word"), "a whole number from 1 to 1000000", maxChars);
        return nullptr;
    }
    QStringList vocab;
    std::vector<AddedEntry> addedEntries;
    if (!readVocab(c, root, model, nullptr, &vocab, &addedEntries))
        return nullptr;
    const AddedTokens added = allAdded(addedEntries);
    const QHash<QString, int> ids = lookupTable(vocab);
    SpecialTokenIds special;
    const QString unkName = unk.toString(QStringLiteral("[UNK]"));
    special.unk = ids.value(unkName, -1);
    special.cls = ids.value(QStringLiteral("[CLS]"), -1);
    special.sep = ids.value(QStringLiteral("[SEP]"), -1);
    special.mask = ids.value(QStringLiteral("[MASK]"), -1);
    special.pad = ids.value(QStringLiteral("[PAD]"), -1);
    const std::pair<int, QString> required[3] = {{special.unk, unkName}, {special.cls, QStringLiteral("[CLS]")},
                                                 {special.sep, QStringLiteral("[SEP]")}};
    for (const auto &[id, token] : required) {
        if (id < 0) {
            c.fail(QStringLiteral("model.vocab"), QStringLiteral("no %1 token").arg(quoted(token)));
            return nullptr;
        }
    }
    return std::make_shared<WordPieceTokenizer>(vocab, options, added, special, prefix.toString(QStringLiteral("##")), int(limit));
}

} // namespace

TokenizerPtr parseTokenizerJson(const QByteArray &json, QString *error, const QString &name, const QByteArray &configJson,
                                const QString &configName)
{
    // The large fields read fast when they can be; Qt's parser reads the
    // rest, or everything when the scan gives up.
    ScannedModel scanned;
    const bool fast = scanTokenizerJson(json, &scanned);
    QJsonObject root;
    if (!parseJsonObject(fast ? scanned.rest : json, name, &root, error))
        return nullptr;
    TokenizerConfigFile config;
    if (!configJson.isNull() && !readTokenizerConfig(configJson, configName, &config, error))
        return nullptr;
    const JsonContext c{name, error};
    const QJsonValue model = root.value(QStringLiteral("model"));
    if (!model.isObject()) {
        c.wrongType(QStringLiteral("model"), "an object", model);
        return nullptr;
    }
    const QJsonValue type = model.toObject().value(QStringLiteral("type"));
    if (type.toString() == QLatin1String("BPE"))
        return readBpe(c, root, model.toObject(), config, fast ? &scanned : nullptr);
    if (type.toString() == QLatin1String("WordPiece"))
        return readWordPiece(c, root, model.toObject());
    c.fail(QStringLiteral("model.type"), QStringLiteral("expected \"BPE\" or \"WordPiece\", got %1")
                                             .arg(type.isString() ? quoted(type.toString()) : typeName(type)));
    return nullptr;
}

} // namespace attn
