#include "tokenizerparsing.h"

#include "formats/messagetext.h"

#include "bytelevel.h"

#include <QJsonDocument>
#include <cmath>

namespace attn::tokenizerparsing {

QString quoted(const QString &text)
{
    return QLatin1Char('"') + textInMessage(text) + QLatin1Char('"');
}

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("true/false");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("a list");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

bool parseJsonObject(const QByteArray &json, const QString &name, QJsonObject *out, QString *error)
{
    if (json.trimmed().isEmpty()) {
        *error = name + QStringLiteral(": empty");
        return false;
    }
    // Qt's parser drops a U+FEFF that starts a string (a byte-order mark, it
    // thinks), and Mistral's vocabulary has that character as a token:
    // written as an escape, it is kept.
    QByteArray text = json;
    const QByteArray bom("\xEF\xBB\xBF");
    if (text.contains(bom)) {
        if (text.startsWith(bom))
            text.remove(0, 3);
        text.replace(bom, QByteArray("\\ufeff"));
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1: not valid JSON at byte %2: %3").arg(name).arg(parseError.offset).arg(parseError.errorString());
        return false;
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: expected an object, got %2").arg(name, doc.isArray() ? QStringLiteral("a list") : QStringLiteral("a value"));
        return false;
    }
    *out = doc.object();
    return true;
}

std::vector<VocabEntry> entriesOf(const QJsonObject &object)
{
    std::vector<VocabEntry> entries;
    entries.reserve(size_t(object.size()));
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        entries.push_back({it.key(), it.value()});
    return entries;
}

bool idTable(const std::vector<VocabEntry> &entries, const QString &where, QStringList *vocab, QString *error)
{
    const qsizetype n = qsizetype(entries.size());
    if (n == 0) {
        *error = where + QStringLiteral(": no tokens");
        return false;
    }
    if (n > kMaxVocabulary) {
        *error = QStringLiteral("%1: more than %2 tokens").arg(where).arg(kMaxVocabulary);
        return false;
    }
    std::vector<int> owner(size_t(n), -1);
    for (qsizetype i = 0; i < n; ++i) {
        const VocabEntry &e = entries[size_t(i)];
        const auto at = [&] { return QStringLiteral("%1: %2: ").arg(where, quoted(e.token)); }; // only for a message
        if (!e.id.isDouble()) {
            *error = at() + QStringLiteral("expected an integer id, got ") + typeName(e.id);
            return false;
        }
        const double d = e.id.toDouble();
        if (d != std::floor(d)) {
            *error = at() + QStringLiteral("expected an integer id, got %1").arg(d);
            return false;
        }
        if (d < 0 || d >= double(n)) {
            *error = at() + QStringLiteral("id %1 out of range (%2 tokens need ids 0 to %3)").arg(std::abs(d) < 1e15 ? QString::number(qint64(d)) : QString::number(d, 'g', 6)).arg(n).arg(n - 1);
            return false;
        }
        int &first = owner[size_t(d)];
        if (first >= 0) {
            *error = QStringLiteral("%1: %2 and %3 both have id %4")
                         .arg(where, quoted(entries[size_t(first)].token), quoted(e.token)).arg(qint64(d));
            return false;
        }
        first = int(i);
    }
    // n entries, n distinct ids in 0 … n-1: every id is used.
    vocab->clear();
    vocab->reserve(n);
    for (qsizetype id = 0; id < n; ++id)
        vocab->append(entries[size_t(owner[size_t(id)])].token);
    return true;
}

QHash<QString, int> lookupTable(const QStringList &vocab)
{
    QHash<QString, int> ids;
    ids.reserve(vocab.size());
    for (qsizetype i = 0; i < vocab.size(); ++i)
        ids.insert(vocab[i], int(i));
    return ids;
}

bool buildBpe(const QStringList &vocab, const std::vector<MergeText> &merges, const QString &where, const QString &vocabName,
              std::array<int, 256> *byteIds, std::vector<BpeTokenizer::Merge> *out, QString *error)
{
    const QHash<QString, int> ids = lookupTable(vocab);
    return checkByteAlphabet(ids, vocabName, byteIds, error) && resolveMerges(ids, merges, where, vocabName, out, error);
}

bool checkByteAlphabet(const QHash<QString, int> &ids, const QString &vocabName, std::array<int, 256> *byteIds, QString *error)
{
    for (int b = 0; b < 256; ++b) {
        const QString symbol{QChar(bytelevel::byteToChar(uchar(b)))};
        const auto it = ids.constFind(symbol);
        if (it == ids.constEnd()) {
            *error = QStringLiteral("%1: no token for byte 0x%2 (%3), which byte-level BPE needs")
                         .arg(vocabName, QString::number(b, 16).toUpper().rightJustified(2, QLatin1Char('0')), quoted(symbol));
            return false;
        }
        (*byteIds)[size_t(b)] = *it;
    }
    return true;
}

bool resolveMerges(const QHash<QString, int> &ids, const std::vector<MergeText> &merges, const QString &where,
                   const QString &vocabName, std::vector<BpeTokenizer::Merge> *out, QString *error)
{
    out->clear();
    out->reserve(merges.size());
    QString joined;
    for (const MergeText &m : merges) {
        joined.resize(0);
        joined.append(m.left).append(m.right);
        const auto left = ids.constFind(m.left), right = ids.constFind(m.right), merged = ids.constFind(joined);
        const bool found[3] = {left != ids.constEnd(), right != ids.constEnd(), merged != ids.constEnd()};
        for (int k = 0; k < 3; ++k) {
            if (!found[k]) {
                const QString part = k == 0 ? m.left : k == 1 ? m.right : joined;
                *error = QStringLiteral("%1: %2%3 is not in %4")
                             .arg(where.arg(m.place), quoted(part), k == 2 ? QStringLiteral(" (the merged pair)") : QString(), vocabName);
                return false;
            }
        }
        out->push_back({*left, *right, *merged});
    }
    return true;
}

bool JsonContext::fail(const QString &path, const QString &message) const
{
    *error = QStringLiteral("%1: %2: %3").arg(name, path, message);
    return false;
}

bool JsonContext::wrongType(const QString &path, const char *expected, const QJsonValue &v) const
{
    return fail(path, QStringLiteral("expected %1, got %2").arg(QLatin1String(expected), typeName(v)));
}

bool JsonContext::optionalBool(const QJsonObject &o, const QString &path, const char *key, bool fallback, bool *out) const
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) {
        *out = fallback;
        return true;
    }
    if (!v.isBool())
        return wrongType(path + QLatin1Char('.') + QLatin1String(key), "true/false", v);
    *out = v.toBool();
    return true;
}

bool JsonContext::optionalString(const QJsonObject &o, const QString &path, const char *key, QString *out) const
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isString())
        return wrongType(path + QLatin1Char('.') + QLatin1String(key), "a string", v);
    *out = v.toString();
    return true;
}

bool JsonContext::typeOf(const QJsonValue &v, const QString &path, const QStringList &known, QString *type) const
{
    if (!v.isObject())
        return wrongType(path, "an object", v);
    const QJsonValue t = v.toObject().value(QStringLiteral("type"));
    if (t.isString() && known.contains(t.toString())) {
        *type = t.toString();
        return true;
    }
    QStringList names;
    for (const QString &k : known)
        names << QLatin1Char('"') + k + QLatin1Char('"');
    return fail(path + QStringLiteral(".type"), QStringLiteral("%1 is not supported (expected %2)")
                                                     .arg(t.isString() ? quoted(t.toString()) : typeName(t), names.join(QStringLiteral(", "))));
}

} // namespace attn::tokenizerparsing
