// Hugging Face's tokenizer.json (the "fast" tokenizers' single file).

#include "tokenizerloader.h"

#include "bpetokenizer.h"
#include "tokenizerparsing.h"
#include "wordpiecetokenizer.h"

#include <QJsonArray>
#include <cmath>

namespace attn {

using namespace tokenizerparsing;

namespace {

struct Context
{
    QString name; // the file name, first in every message
    QString *error;

    bool fail(const QString &path, const QString &message) const
    {
        *error = QStringLiteral("%1: %2: %3").arg(name, path, message);
        return false;
    }
    bool wrongType(const QString &path, const char *expected, const QJsonValue &v) const
    {
        return fail(path, QStringLiteral("expected %1, got %2").arg(QLatin1String(expected), typeName(v)));
    }
};

// model.vocab plus the added tokens (which may extend it) as one id table.
bool readVocab(const Context &c, const QJsonObject &root, const QJsonObject &model, QStringList *vocab, AddedTokens *added,
               QHash<QString, int> *addedIds)
{
    const QJsonValue vocabValue = model.value(QStringLiteral("vocab"));
    if (!vocabValue.isObject())
        return c.wrongType(QStringLiteral("model.vocab"), "an object of token -> id", vocabValue);
    std::vector<VocabEntry> entries = entriesOf(vocabValue.toObject());
    QHash<qint64, QString> byId;
    const auto isId = [](const QJsonValue &v) {
        const double d = v.toDouble(-1);
        return v.isDouble() && d >= 0 && d <= 2147483647.0 && d == std::floor(d);
    };
    for (const VocabEntry &e : entries)
        if (isId(e.id))
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
        const qint64 n = qint64(id.toDouble());
        const QString text = withoutLoneSurrogates(content.toString());
        if (byId.contains(n) && byId.value(n) != text)
            return c.fail(path, QStringLiteral("id %1 is %2 in model.vocab, not %3").arg(n).arg(quoted(byId.value(n)), quoted(text)));
        if (!byId.contains(n)) {
            byId.insert(n, text);
            entries.push_back({text, id});
        }
        added->add({text, int(n), t.value(QStringLiteral("lstrip")).toBool(), t.value(QStringLiteral("rstrip")).toBool()});
        addedIds->insert(text, int(n));
    }
    return idTable(entries, c.name + QStringLiteral(": model.vocab"), vocab, c.error);
}

TokenizerPtr readBpe(const Context &c, const QJsonObject &root, const QJsonObject &model)
{
    const QJsonValue pre = root.value(QStringLiteral("pre_tokenizer"));
    const QJsonObject preObject = pre.toObject();
    if (preObject.value(QStringLiteral("type")).toString() != QLatin1String("ByteLevel")) {
        c.fail(QStringLiteral("pre_tokenizer"), QStringLiteral("only GPT-2's ByteLevel pre-tokenizer is supported, got %1")
                                                    .arg(pre.isObject() ? quoted(preObject.value(QStringLiteral("type")).toString()) : typeName(pre)));
        return nullptr;
    }
    if (preObject.value(QStringLiteral("add_prefix_space")).toBool()) {
        c.fail(QStringLiteral("pre_tokenizer.add_prefix_space"), QStringLiteral("true is not supported"));
        return nullptr;
    }
    for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        const QJsonValue v = model.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isNull() && !(v.isString() && v.toString().isEmpty())) {
            c.fail(QStringLiteral("model.") + QLatin1String(key), QStringLiteral("not supported for byte-level BPE"));
            return nullptr;
        }
    }
    QStringList vocab;
    AddedTokens added;
    QHash<QString, int> addedIds;
    if (!readVocab(c, root, model, &vocab, &added, &addedIds))
        return nullptr;

    const QJsonValue mergesValue = model.value(QStringLiteral("merges"));
    if (!mergesValue.isArray()) {
        c.wrongType(QStringLiteral("model.merges"), "a list", mergesValue);
        return nullptr;
    }
    const QJsonArray list = mergesValue.toArray();
    if (list.size() > kMaxMerges) {
        c.fail(QStringLiteral("model.merges"), QStringLiteral("more than %1 merges").arg(kMaxMerges));
        return nullptr;
    }
    std::vector<MergeText> merges;
    merges.reserve(size_t(list.size()));
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString where = QStringLiteral("%1: model.merges[%2]").arg(c.name).arg(i);
        const QJsonValue v = list[i];
        QStringList parts;
        if (v.isString()) {
            parts = v.toString().split(QLatin1Char(' '));
        } else if (v.isArray() && v.toArray().size() == 2 && v.toArray()[0].isString() && v.toArray()[1].isString()) {
            parts = QStringList{v.toArray()[0].toString(), v.toArray()[1].toString()};
        }
        if (parts.size() != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            *c.error = where + QStringLiteral(": expected \"a b\" or [\"a\", \"b\"], got ")
                + (v.isString() ? quoted(v.toString()) : typeName(v));
            return nullptr;
        }
        merges.push_back({parts[0], parts[1], i});
    }
    std::array<int, 256> byteIds{};
    std::vector<BpeTokenizer::Merge> resolved;
    if (!buildBpe(vocab, merges, c.name + QStringLiteral(": model.merges[%1]"), QStringLiteral("model.vocab"), &byteIds, &resolved, c.error))
        return nullptr;
    SpecialTokenIds special;
    special.bos = special.eos = addedIds.value(QStringLiteral("<|endoftext|>"), -1);
    return std::make_shared<BpeTokenizer>(vocab, byteIds, resolved, added, special);
}

TokenizerPtr readWordPiece(const Context &c, const QJsonObject &root, const QJsonObject &model)
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
    AddedTokens added;
    QHash<QString, int> addedIds;
    if (!readVocab(c, root, model, &vocab, &added, &addedIds))
        return nullptr;
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

TokenizerPtr parseTokenizerJson(const QByteArray &json, QString *error, const QString &name)
{
    QJsonObject root;
    if (!parseJsonObject(json, name, &root, error))
        return nullptr;
    const Context c{name, error};
    const QJsonValue model = root.value(QStringLiteral("model"));
    if (!model.isObject()) {
        c.wrongType(QStringLiteral("model"), "an object", model);
        return nullptr;
    }
    const QJsonValue type = model.toObject().value(QStringLiteral("type"));
    if (type.toString() == QLatin1String("BPE"))
        return readBpe(c, root, model.toObject());
    if (type.toString() == QLatin1String("WordPiece"))
        return readWordPiece(c, root, model.toObject());
    c.fail(QStringLiteral("model.type"), QStringLiteral("expected \"BPE\" or \"WordPiece\", got %1")
                                             .arg(type.isString() ? quoted(type.toString()) : typeName(type)));
    return nullptr;
}

} // namespace attn
