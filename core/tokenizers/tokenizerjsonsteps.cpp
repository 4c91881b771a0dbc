#include "tokenizerjsonsteps.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

namespace attn::tokenizerparsing {
namespace {

// Sequences inside sequences: real files nest one level; a file cannot make
// the readers recurse without bound.
constexpr int kMaxDepth = 8;

QString at(const QString &path, const char *key) { return path + QLatin1Char('.') + QLatin1String(key); }
QString at(const QString &path, qsizetype i) { return path + QStringLiteral("[%1]").arg(i); }

bool listOf(const JsonContext &c, const QJsonObject &o, const QString &path, const char *key, QJsonArray *out)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isArray())
        return c.wrongType(at(path, key), "a list", v);
    *out = v.toArray();
    return true;
}

// {"String": " "} or {"Regex": "…"}: the literal or pattern, and which.
bool patternOf(const JsonContext &c, const QJsonObject &o, const QString &path, QString *text, bool *regex)
{
    const QJsonValue p = o.value(QStringLiteral("pattern"));
    const QJsonObject po = p.toObject();
    if (p.isObject() && po.size() == 1 && po.contains(QStringLiteral("String")) && po.value(QStringLiteral("String")).isString()) {
        *text = po.value(QStringLiteral("String")).toString();
        *regex = false;
        return true;
    }
    if (p.isObject() && po.size() == 1 && po.contains(QStringLiteral("Regex")) && po.value(QStringLiteral("Regex")).isString()) {
        *text = po.value(QStringLiteral("Regex")).toString();
        *regex = true;
        return true;
    }
    return c.wrongType(at(path, "pattern"), "{\"String\": …} or {\"Regex\": …}", p);
}

bool normalizerStep(const JsonContext &c, const QJsonValue &v, const QString &path, int depth, TextNormalizer *out)
{
    QString type;
    if (!c.typeOf(v, path, {QStringLiteral("NFC"), QStringLiteral("NFD"), QStringLiteral("NFKC"), QStringLiteral("NFKD"),
                            QStringLiteral("Prepend"), QStringLiteral("Replace"), QStringLiteral("Sequence")}, &type))
        return false;
    const QJsonObject o = v.toObject();
    using K = TextNormalizer::Step::Kind;
    if (type == QLatin1String("Sequence")) {
        QJsonArray list;
        if (depth >= kMaxDepth)
            return c.fail(path, QStringLiteral("sequences nested more than %1 deep").arg(kMaxDepth));
        if (!listOf(c, o, path, "normalizers", &list))
            return false;
        for (qsizetype i = 0; i < list.size(); ++i)
            if (!normalizerStep(c, list[i], at(at(path, "normalizers"), i), depth + 1, out))
                return false;
        return true;
    }
    if (type == QLatin1String("Prepend")) {
        const QJsonValue p = o.value(QStringLiteral("prepend"));
        if (!p.isString())
            return c.wrongType(at(path, "prepend"), "a string", p);
        out->append({K::Prepend, p.toString(), {}});
        return true;
    }
    if (type == QLatin1String("Replace")) {
        QString pattern;
        bool regex = false;
        if (!patternOf(c, o, path, &pattern, &regex))
            return false;
        if (regex)
            return c.fail(at(at(path, "pattern"), "Regex"), QStringLiteral("only a String pattern is supported here"));
        const QJsonValue content = o.value(QStringLiteral("content"));
        if (!content.isString())
            return c.wrongType(at(path, "content"), "a string", content);
        out->append({K::Replace, pattern, content.toString()});
        return true;
    }
    const K kind = type == QLatin1String("NFC") ? K::Nfc : type == QLatin1String("NFD") ? K::Nfd
                 : type == QLatin1String("NFKC") ? K::Nfkc : K::Nfkd;
    out->append({kind, {}, {}});
    return true;
}

bool behaviorOf(const JsonContext &c, const QJsonObject &o, const QString &path, PreTokenizer::Behavior *out)
{
    using B = PreTokenizer::Behavior;
    const QJsonValue v = o.value(QStringLiteral("behavior"));
    const QString s = v.toString();
    if (s == QLatin1String("Removed")) *out = B::Removed;
    else if (s == QLatin1String("Isolated")) *out = B::Isolated;
    else if (s == QLatin1String("MergedWithPrevious")) *out = B::MergedWithPrevious;
    else if (s == QLatin1String("MergedWithNext")) *out = B::MergedWithNext;
    else if (s == QLatin1String("Contiguous")) *out = B::Contiguous;
    else
        return c.fail(at(path, "behavior"), QStringLiteral("expected \"Removed\", \"Isolated\", \"MergedWithPrevious\", "
                                                           "\"MergedWithNext\" or \"Contiguous\", got %1")
                                                .arg(v.isString() ? quoted(s) : typeName(v)));
    return true;
}

bool preTokenizerStep(const JsonContext &c, const QJsonValue &v, const QString &path, int depth, PreTokenizer *out)
{
    QString type;
    if (!c.typeOf(v, path, {QStringLiteral("ByteLevel"), QStringLiteral("Split"), QStringLiteral("Metaspace"),
                            QStringLiteral("Digits"), QStringLiteral("Sequence")}, &type))
        return false;
    const QJsonObject o = v.toObject();
    if (out->hasByteLevel())
        return c.fail(path, QStringLiteral("a step after ByteLevel is not supported (ByteLevel must come last)"));
    if (type == QLatin1String("Sequence")) {
        QJsonArray list;
        if (depth >= kMaxDepth)
            return c.fail(path, QStringLiteral("sequences nested more than %1 deep").arg(kMaxDepth));
        if (!listOf(c, o, path, "pretokenizers", &list))
            return false;
        for (qsizetype i = 0; i < list.size(); ++i)
            if (!preTokenizerStep(c, list[i], at(at(path, "pretokenizers"), i), depth + 1, out))
                return false;
        return true;
    }
    if (type == QLatin1String("ByteLevel")) {
        bool prefix = false, useRegex = true;
        if (!c.optionalBool(o, path, "add_prefix_space", false, &prefix) || !c.optionalBool(o, path, "use_regex", true, &useRegex))
            return false;
        out->appendByteLevel(prefix, useRegex);
        return true;
    }
    if (type == QLatin1String("Digits")) {
        bool individual = false;
        if (!c.optionalBool(o, path, "individual_digits", false, &individual))
            return false;
        out->appendDigits(individual);
        return true;
    }
    if (type == QLatin1String("Split")) {
        QString pattern;
        bool regex = false, invert = false;
        PreTokenizer::Behavior behavior;
        if (!patternOf(c, o, path, &pattern, &regex) || !behaviorOf(c, o, path, &behavior)
            || !c.optionalBool(o, path, "invert", false, &invert))
            return false;
        if (!regex) {
            out->appendLiteralSplit(pattern, behavior, invert);
            return true;
        }
        QString why;
        return out->appendSplit(pattern, behavior, invert, &why) || c.fail(at(at(path, "pattern"), "Regex"), why);
    }
    // Metaspace (pre_tokenizers/metaspace.rs): prepend_scheme "always" unless
    // said; the older add_prefix_space false means "never".
    const QJsonValue replacement = o.value(QStringLiteral("replacement"));
    if (!replacement.isString() || replacement.toString().isEmpty() || replacement.toString().toUcs4().size() != 1)
        return c.wrongType(at(path, "replacement"), "one character", replacement);
    QString scheme = QStringLiteral("always");
    bool addPrefix = true, split = true;
    if (!c.optionalString(o, path, "prepend_scheme", &scheme) || !c.optionalBool(o, path, "add_prefix_space", true, &addPrefix)
        || !c.optionalBool(o, path, "split", true, &split))
        return false;
    PreTokenizer::Prepend prepend;
    if (scheme == QLatin1String("always")) prepend = PreTokenizer::Prepend::Always;
    else if (scheme == QLatin1String("first")) prepend = PreTokenizer::Prepend::First;
    else if (scheme == QLatin1String("never")) prepend = PreTokenizer::Prepend::Never;
    else
        return c.fail(at(path, "prepend_scheme"), QStringLiteral("expected \"always\", \"first\" or \"never\", got %1").arg(quoted(scheme)));
    if (!addPrefix)
        prepend = PreTokenizer::Prepend::Never;
    out->appendMetaspace(replacement.toString(), prepend, split);
    return true;
}

bool idIn(const QJsonValue &v, int vocabSize)
{
    const double d = v.toDouble(-1);
    return v.isDouble() && d >= 0 && d < vocabSize && d == std::floor(d);
}

bool templateOf(const JsonContext &c, const QJsonObject &o, const QString &path, int vocabSize, PostTemplate *out)
{
    QJsonArray single;
    if (!listOf(c, o, path, "single", &single))
        return false;
    const QJsonValue specials = o.value(QStringLiteral("special_tokens"));
    if (!specials.isObject())
        return c.wrongType(at(path, "special_tokens"), "an object", specials);
    bool seenText = false;
    for (qsizetype i = 0; i < single.size(); ++i) {
        const QString itemPath = at(at(path, "single"), i);
        const QJsonObject item = single[i].toObject();
        if (item.contains(QStringLiteral("Sequence")) && item.size() == 1) {
            if (seenText)
                return c.fail(itemPath, QStringLiteral("the text appears twice"));
            seenText = true;
            continue;
        }
        const QJsonValue name = item.value(QStringLiteral("SpecialToken")).toObject().value(QStringLiteral("id"));
        if (item.size() != 1 || !name.isString())
            return c.wrongType(itemPath, "{\"SpecialToken\": {\"id\": …}} or {\"Sequence\": …}", single[i]);
        const QString specialPath = at(path, "special_tokens") + QLatin1Char('.') + name.toString();
        const QJsonValue ids = specials.toObject().value(name.toString()).toObject().value(QStringLiteral("ids"));
        if (!ids.isArray())
            return c.fail(specialPath, QStringLiteral("no ids for %1").arg(quoted(name.toString())));
        const QJsonArray list = ids.toArray();
        for (qsizetype k = 0; k < list.size(); ++k) {
            if (!idIn(list[k], vocabSize))
                return c.wrongType(at(at(specialPath, "ids"), k), "an id of the vocabulary", list[k]);
            (seenText ? out->suffix : out->prefix).push_back(list[k].toInt());
        }
    }
    if (!seenText)
        return c.fail(at(path, "single"), QStringLiteral("no {\"Sequence\": …} for the text"));
    return true;
}

bool postStep(const JsonContext &c, const QJsonValue &v, const QString &path, int depth, int vocabSize, PostTemplate *out)
{
    QString type;
    if (!c.typeOf(v, path, {QStringLiteral("ByteLevel"), QStringLiteral("TemplateProcessing"), QStringLiteral("RobertaProcessing"),
                            QStringLiteral("BertProcessing"), QStringLiteral("Sequence")}, &type))
        return false;
    const QJsonObject o = v.toObject();
    if (type == QLatin1String("ByteLevel"))
        return true; // offsets only
    if (type == QLatin1String("Sequence")) {
        QJsonArray list;
        if (depth >= kMaxDepth)
            return c.fail(path, QStringLiteral("sequences nested more than %1 deep").arg(kMaxDepth));
        if (!listOf(c, o, path, "processors", &list))
            return false;
        for (qsizetype i = 0; i < list.size(); ++i)
            if (!postStep(c, list[i], at(at(path, "processors"), i), depth + 1, vocabSize, out))
                return false;
        return true;
    }
    if (type == QLatin1String("TemplateProcessing")) {
        *out = {};
        return templateOf(c, o, path, vocabSize, out);
    }
    // ["<s>", 0]: cls before the text, sep after.
    int found[2];
    const char *keys[2] = {"cls", "sep"};
    for (int k = 0; k < 2; ++k) {
        const QJsonArray pair = o.value(QLatin1String(keys[k])).toArray();
        if (pair.size() != 2 || !pair[0].isString() || !idIn(pair[1], vocabSize))
            return c.wrongType(at(path, keys[k]), "[token, id of the vocabulary]", o.value(QLatin1String(keys[k])));
        found[k] = pair[1].toInt();
    }
    *out = {{found[0]}, {found[1]}};
    return true;
}

} // namespace

bool readNormalizer(const JsonContext &c, const QJsonValue &v, const QString &path, TextNormalizer *out)
{
    return v.isNull() || v.isUndefined() || normalizerStep(c, v, path, 0, out);
}

bool readPreTokenizer(const JsonContext &c, const QJsonValue &v, const QString &path, PreTokenizer *out)
{
    return v.isNull() || v.isUndefined() || preTokenizerStep(c, v, path, 0, out);
}

bool readPostProcessor(const JsonContext &c, const QJsonValue &v, const QString &path, int vocabSize, PostTemplate *out)
{
    *out = {};
    return v.isNull() || v.isUndefined() || postStep(c, v, path, 0, vocabSize, out);
}

} // namespace attn::tokenizerparsing
