#include "session/sessionio.h"

#include "formats/messagetext.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QVariant>
#include <algorithm>
#include <cmath>

namespace attn {
namespace {

// A field that is wrong: where it is in the document, and what is wrong with it.
struct FieldError
{
    QString path;
    QString message;
};

// Qt's parser refuses a number beyond the range of a double as "illegal
// number", without saying where it is. parseJson() puts such a literal back
// as a string that starts with this marker, so the field can be named.
const QLatin1String kTooLargeMarker("\x01" "attention-explorer:number-too-large:");

bool isTooLarge(const QJsonValue &v) { return v.isString() && v.toString().startsWith(kTooLargeMarker); }

QString typeName(const QJsonValue &v)
{
    if (isTooLarge(v))
        return QStringLiteral("a number too large to represent");
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

QString shown(const QString &text) { return textInMessage(text); }

[[noreturn]] void fail(const QString &path, const QString &message) { throw FieldError{path, message}; }

[[noreturn]] void wrongType(const QString &path, const char *expected, const QJsonValue &v)
{
    fail(path, QStringLiteral("expected %1, got %2").arg(QLatin1String(expected), typeName(v)));
}

QString index(const QString &parent, qsizetype i) { return QStringLiteral("%1[%2]").arg(parent).arg(i); }

QJsonArray toArray(const QJsonValue &v, const QString &path)
{
    if (!v.isArray())
        wrongType(path, "a list", v);
    return v.toArray();
}

QJsonObject toObject(const QJsonValue &v, const QString &path)
{
    if (!v.isObject())
        wrongType(path, "an object", v);
    return v.toObject();
}

QString toString(const QJsonValue &v, const QString &path)
{
    if (!v.isString() || isTooLarge(v))
        wrongType(path, "a string", v);
    return v.toString();
}

bool toBool(const QJsonValue &v, const QString &path)
{
    if (!v.isBool())
        wrongType(path, "true or false", v);
    return v.toBool();
}

double toFinite(const QJsonValue &v, const QString &path)
{
    if (isTooLarge(v))
        fail(path, QStringLiteral("expected a finite number, got %1, too large to represent")
                       .arg(v.toString().mid(kTooLargeMarker.size()).left(40)));
    if (!v.isDouble())
        wrongType(path, "a number", v);
    const double d = v.toDouble();
    if (!std::isfinite(d))
        fail(path, QStringLiteral("expected a finite number, got one too large to represent"));
    return d;
}

qint64 toInteger(const QJsonValue &v, const QString &path)
{
    const double d = toFinite(v, path);
    // Qt keeps a whole number that fits in 64 bits exactly; a double is
    // exact only up to 2^53.
    const QVariant exact = v.toVariant();
    if (exact.typeId() == QMetaType::LongLong)
        return exact.toLongLong();
    // Beyond 2^53 a JSON number is no longer an exact integer in a double.
    if (d != std::floor(d) || std::fabs(d) > 9007199254740992.0)
        fail(path, QStringLiteral("expected a whole number, got %1").arg(d, 0, 'g', 17));
    return v.toInteger(qint64(d));
}

int toIntInRange(const QJsonValue &v, const QString &path, int low, int high)
{
    const qint64 i = toInteger(v, path);
    if (i < low || i > high)
        fail(path, QStringLiteral("expected a whole number from %1 to %2, got %3").arg(low).arg(high).arg(i));
    return int(i);
}

QStringList readTokens(const QJsonValue &v, const QString &path)
{
    const QJsonArray a = toArray(v, path);
    if (a.isEmpty())
        fail(path, QStringLiteral("expected at least 1 token, got none"));
    if (a.size() > kMaxTokens)
        fail(path, QStringLiteral("%1 tokens is more than the limit of %2").arg(a.size()).arg(kMaxTokens));
    QStringList tokens;
    for (qsizetype i = 0; i < a.size(); ++i)
        tokens << toString(a[i], index(path, i));
    return tokens;
}

// The model a session was saved with. Its sizes are not known until it is
// loaded, so layer, head and query are only bounded here and clamped then.
ModelReference readModelReference(const QJsonValue &v)
{
    const QJsonObject o = toObject(v, "model");
    if (!o.contains("path"))
        fail("model.path", QStringLiteral("missing"));
    ModelReference m;
    m.path = toString(o["path"], "model.path");
    if (m.path.isEmpty())
        fail("model.path", QStringLiteral("expected the model's folder, got an empty string"));
    if (o.contains("identity")) {
        m.identity = toString(o["identity"], "model.identity");
        static const QRegularExpression form(QRegularExpression::anchoredPattern(QStringLiteral("size:[0-9]+ sha256:[0-9a-f]{64}")));
        if (!form.match(m.identity).hasMatch())
            fail("model.identity", QStringLiteral("expected \"size:N sha256:HEX\", got \"%1\"").arg(shown(m.identity)));
    }
    if (o.contains("text"))
        m.text = toString(o["text"], "model.text");
    constexpr int kMaxIndex = 1 << 20;
    if (o.contains("layer"))
        m.layer = toIntInRange(o["layer"], "model.layer", 0, kMaxIndex);
    if (o.contains("head"))
        m.head = toIntInRange(o["head"], "model.head", -1, kMaxIndex);
    if (o.contains("query"))
        m.query = toIntInRange(o["query"], "model.query", 0, kMaxIndex);
    if (o.contains("ablated")) {
        const QJsonArray list = toArray(o["ablated"], "model.ablated");
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString path = index("model.ablated", i);
            const QJsonArray pair = toArray(list[i], path);
            if (pair.size() != 2)
                fail(path, QStringLiteral("expected [layer, head], got %1 numbers").arg(pair.size()));
            m.ablated.emplace_back(toIntInRange(pair[0], index(path, 0), 0, kMaxIndex),
                                   toIntInRange(pair[1], index(path, 1), 0, kMaxIndex));
        }
        std::sort(m.ablated.begin(), m.ablated.end());
        m.ablated.erase(std::unique(m.ablated.begin(), m.ablated.end()), m.ablated.end());
    }
    return m;
}

// A matrix as a list of rows. `rows` or `cols` of -1 means "any, but the same
// for every row"; `rowsWhat`/`colsWhat` say in words what the sizes stand for.
Eigen::MatrixXd readMatrix(const QJsonValue &v, const QString &path, int rows, const QString &rowsWhat, int cols,
                           const QString &colsWhat, int maxCols = kMaxDModel)
{
    const QJsonArray a = toArray(v, path);
    if (rows >= 0 && a.size() != rows)
        fail(path, QStringLiteral("expected %1 rows (%2), got %3").arg(rows).arg(rowsWhat).arg(a.size()));
    if (a.isEmpty())
        fail(path, QStringLiteral("expected at least one row, got none"));
    Eigen::MatrixXd m;
    for (qsizetype r = 0; r < a.size(); ++r) {
        const QString rowPath = index(path, r);
        const QJsonArray row = toArray(a[r], rowPath);
        if (cols < 0) {
            if (row.isEmpty())
                fail(rowPath, QStringLiteral("expected at least 1 number, got none"));
            if (row.size() > maxCols)
                fail(rowPath, QStringLiteral("%1 numbers is more than the limit of %2").arg(row.size()).arg(maxCols));
            cols = int(row.size());
        } else if (row.size() != cols) {
            fail(rowPath, QStringLiteral("expected %1 numbers%2, got %3")
                              .arg(cols)
                              .arg(colsWhat.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(colsWhat))
                              .arg(row.size()));
        }
        if (r == 0)
            m.resize(a.size(), cols);
        for (int c = 0; c < cols; ++c)
            m(r, c) = toFinite(row[c], index(rowPath, c));
    }
    return m;
}

// `heads` matrices; `perWhat` names what there is one of ("head", "key/value head").
std::vector<Eigen::MatrixXd> readMatrixList(const QJsonValue &v, const QString &path, int heads, int dModel,
                                            int headDim, const QString &perWhat = QStringLiteral("head"))
{
    const QJsonArray a = toArray(v, path);
    if (a.size() != heads)
        fail(path, QStringLiteral("expected %1 (one per %2), got %3")
                       .arg(heads == 1 ? QStringLiteral("1 matrix") : QStringLiteral("%1 matrices").arg(heads), perWhat)
                       .arg(a.size()));
    std::vector<Eigen::MatrixXd> list;
    for (qsizetype h = 0; h < a.size(); ++h)
        list.push_back(readMatrix(a[h], index(path, h), dModel, QStringLiteral("d_model"), headDim,
                                  QStringLiteral("head_dim")));
    return list;
}

template<typename Enum>
Enum readChoice(const QJsonValue &v, const QString &path, const char *first, Enum firstValue, const char *second,
                Enum secondValue)
{
    const QString s = toString(v, path);
    if (s == QLatin1String(first))
        return firstValue;
    if (s == QLatin1String(second))
        return secondValue;
    fail(path, QStringLiteral("expected \"%1\" or \"%2\", got \"%3\"")
                   .arg(QLatin1String(first), QLatin1String(second), shown(s)));
}

PositionalEncoding readPositions(const QJsonValue &v)
{
    const QString path = QStringLiteral("attention.positional_encoding");
    const QString s = toString(v, path);
    if (s == QLatin1String("none"))
        return PositionalEncoding::None;
    if (s == QLatin1String("sinusoidal"))
        return PositionalEncoding::Sinusoidal;
    if (s == QLatin1String("rotary"))
        return PositionalEncoding::Rotary;
    fail(path, QStringLiteral("expected \"none\", \"sinusoidal\" or \"rotary\", got \"%1\"").arg(shown(s)));
}

AttentionConfig readAttention(const QJsonObject &root, int dModel)
{
    AttentionConfig c;
    const QJsonObject a = root.contains("attention") ? toObject(root["attention"], "attention") : QJsonObject();
    if (a.contains("mode"))
        c.mode = readChoice(a["mode"], "attention.mode", "simplified", Mode::Simplified, "scaled-dot-product",
                            Mode::ScaledDotProduct);
    if (a.contains("heads"))
        c.heads = toIntInRange(a["heads"], "attention.heads", 1, kMaxHeads);
    if (a.contains("head_dim")) {
        c.headDim = toIntInRange(a["head_dim"], "attention.head_dim", 1, kMaxHeadDim);
    } else if (c.mode == Mode::Simplified) {
        c.headDim = dModel; // unused by simplified attention; keeps the file consistent
    } else {
        if (dModel % c.heads != 0)
            fail("attention.head_dim", QStringLiteral("missing, and d_model (%1) is not divisible by heads (%2): "
                                                      "give head_dim")
                                           .arg(dModel)
                                           .arg(c.heads));
        c.headDim = dModel / c.heads;
    }
    c.scale = a.contains("scale") ? toBool(a["scale"], "attention.scale") : c.mode == Mode::ScaledDotProduct;
    c.causal = a.contains("causal") && toBool(a["causal"], "attention.causal");
    if (a.contains("positional_encoding"))
        c.positionalEncoding = readPositions(a["positional_encoding"]);
    if (a.contains("rope_theta")) {
        c.ropeTheta = toFinite(a["rope_theta"], "attention.rope_theta");
        if (!(c.ropeTheta > 0))
            fail("attention.rope_theta", QStringLiteral("expected a positive number (the base of the rotary "
                                                        "angles, 10000 by default), got %1")
                                             .arg(c.ropeTheta, 0, 'g', 17));
    }
    if (c.rotary() && effectiveHeadDim(c, dModel) % 2 != 0) {
        if (c.mode == Mode::Simplified)
            fail("attention.positional_encoding",
                 QStringLiteral("rotary positions turn pairs of numbers, but simplified attention's heads are "
                                "d_model = %1 numbers wide, an odd number")
                     .arg(dModel));
        fail("attention.head_dim", QStringLiteral("rotary positions turn pairs of numbers: expected an even "
                                                  "head_dim, got %1")
                                       .arg(c.headDim));
    }
    if (a.contains("kv_heads")) {
        const int kv = toIntInRange(a["kv_heads"], "attention.kv_heads", 1, kMaxHeads);
        if (c.mode == Mode::Simplified)
            fail("attention.kv_heads", QStringLiteral("applies to scaled-dot-product attention only: simplified "
                                                      "attention has no key or value matrices to share"));
        if (kv > c.heads || c.heads % kv != 0)
            fail("attention.kv_heads", QStringLiteral("expected a number that divides heads (%1), got %2")
                                           .arg(c.heads)
                                           .arg(kv));
        c.kvHeads = kv == c.heads ? 0 : kv; // one per head is what no kv_heads says
    }
    c.outputProjection = a.contains("output_projection") ? toBool(a["output_projection"], "attention.output_projection")
                                                         : c.heads > 1;
    if (a.contains("seed"))
        c.seed = toInteger(a["seed"], "attention.seed");
    return c;
}

Session readRoot(const QJsonObject &root)
{
    if (!root.contains("format"))
        fail("format", QStringLiteral("missing: this is not an Attention Explorer session"));
    if (toString(root["format"], "format") != QLatin1String("attention-explorer-session"))
        fail("format", QStringLiteral("expected \"attention-explorer-session\", got \"%1\"")
                           .arg(shown(root["format"].toString())));
    if (!root.contains("version"))
        fail("version", QStringLiteral("missing"));
    const qint64 version = toInteger(root["version"], "version");
    if (version > 1)
        fail("version", QStringLiteral("the file is version %1, but this build reads version 1 only; "
                                       "a newer Attention Explorer wrote it")
                            .arg(version));
    if (version < 1)
        fail("version", QStringLiteral("expected 1, got %1").arg(version));

    Session s;
    if (root.contains("sentence"))
        s.sentence = toString(root["sentence"], "sentence");
    if (!root.contains("tokens"))
        fail("tokens", QStringLiteral("missing (every session needs its tokens)"));
    s.tokens = readTokens(root["tokens"], "tokens");
    if (!root.contains("embeddings"))
        fail("embeddings", QStringLiteral("missing (every session needs its embeddings)"));
    s.embeddings = readMatrix(root["embeddings"], "embeddings", int(s.tokens.size()), QStringLiteral("one per token"),
                              -1, QString());
    const int dModel = s.dModel();
    if (root.contains("query"))
        s.query = toIntInRange(root["query"], "query", 0, int(s.tokens.size()) - 1);
    s.attention = readAttention(root, dModel);

    const int headDim = effectiveHeadDim(s.attention, dModel);
    if (root.contains("weights")) {
        const QJsonObject w = toObject(root["weights"], "weights");
        const int heads = s.attention.heads, kvHeads = s.attention.keyValueHeads();
        const QString perKeyValue = kvHeads == heads ? QStringLiteral("head") : QStringLiteral("key/value head");
        if (w.contains("query"))
            s.weights.query = readMatrixList(w["query"], "weights.query", heads, dModel, headDim);
        if (w.contains("key"))
            s.weights.key = readMatrixList(w["key"], "weights.key", kvHeads, dModel, headDim, perKeyValue);
        if (w.contains("value"))
            s.weights.value = readMatrixList(w["value"], "weights.value", kvHeads, dModel, headDim, perKeyValue);
        if (w.contains("output"))
            s.weights.output = readMatrix(w["output"], "weights.output", heads * headDim,
                                          QStringLiteral("heads x head_dim"), dModel, QStringLiteral("d_model"));
    }
    if (root.contains("source")) {
        const QJsonObject src = toObject(root["source"], "source");
        if (!src.contains("tokens"))
            fail("source.tokens", QStringLiteral("missing"));
        if (!src.contains("embeddings"))
            fail("source.embeddings", QStringLiteral("missing"));
        SourceSequence seq;
        seq.tokens = readTokens(src["tokens"], "source.tokens");
        seq.embeddings = readMatrix(src["embeddings"], "source.embeddings", int(seq.tokens.size()),
                                    QStringLiteral("one per source token"), dModel, QStringLiteral("d_model"));
        s.source = std::move(seq);
    }
    if (root.contains("model"))
        s.model = readModelReference(root["model"]);
    return s;
}

bool isNumberChar(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// For a JSON number literal that Qt refused: +1 when it is too large for a
// double, -1 when too small (it then reads as 0, as in other JSON readers),
// 0 when it is no number at all.
int outOfRange(const QByteArray &literal)
{
    static const QRegularExpression number(QRegularExpression::anchoredPattern(QStringLiteral("-?(\\d*)(?:\\.(\\d+))?(?:[eE]([+-]?\\d+))?")));
    const QRegularExpressionMatch m = number.match(QString::fromLatin1(literal));
    if (!m.hasMatch())
        return 0;
    const QString whole = m.captured(1);
    const QString digits = whole + m.captured(2);
    const qsizetype first = std::find_if(digits.begin(), digits.end(), [](QChar c) { return c != u'0'; }) - digits.begin();
    if (first == digits.size())
        return 0; // zero is never out of range
    // The decimal exponent of the leading digit decides; saturate absurd exponents.
    const QString e = m.captured(3);
    bool ok = true;
    qint64 exponent = e.isEmpty() ? 0 : e.toLongLong(&ok);
    if (!ok)
        exponent = e.startsWith(u'-') ? -1000000 : 1000000;
    exponent = std::clamp<qint64>(exponent, -1000000, 1000000);
    return exponent + (whole.size() - 1 - first) > 0 ? 1 : -1;
}

// QJsonDocument::fromJson, but numbers out of a double's range do not stop
// the parse: a too-small one becomes 0, a too-large one a marked string.
QJsonDocument parseJson(QByteArray text, QJsonParseError *parseError)
{
    for (int retry = 0;; ++retry) {
        QJsonDocument doc = QJsonDocument::fromJson(text, parseError);
        // Each retry parses the whole text again: give up on absurd files.
        if (parseError->error != QJsonParseError::IllegalNumber || retry == 64)
            return doc;
        qsizetype begin = std::clamp<qsizetype>(parseError->offset, 0, text.size());
        qsizetype end = begin;
        while (begin > 0 && isNumberChar(text[begin - 1]))
            --begin;
        while (end < text.size() && isNumberChar(text[end]))
            ++end;
        const QByteArray literal = text.mid(begin, end - begin);
        const int range = outOfRange(literal);
        if (range == 0)
            return doc;
        text.replace(begin, end - begin,
                     range < 0 ? QByteArray("0") : "\"\\u0001" + QByteArray(kTooLargeMarker.data() + 1) + literal + '"');
    }
}

} // namespace

std::optional<Session> parseSession(const QByteArray &json, const QString &name, QString *error)
{
    if (json.trimmed().isEmpty()) {
        *error = QStringLiteral("%1: the file is empty, not a session").arg(name);
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = parseJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1: not valid JSON: %2 at byte %3")
                     .arg(name, parseError.errorString())
                     .arg(parseError.offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: expected a JSON object at the top level").arg(name);
        return std::nullopt;
    }
    try {
        return readRoot(doc.object());
    } catch (const FieldError &e) {
        *error = QStringLiteral("%1: %2: %3").arg(name, e.path, e.message);
    }
    return std::nullopt;
}

std::optional<Session> readSession(const QString &path, QString *error)
{
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    if (QFileInfo(path).isDir()) {
        *error = QStringLiteral("%1: is a folder, not a session file").arg(name);
        return std::nullopt;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open: %2").arg(name, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxSessionFileBytes) {
        *error = QStringLiteral("%1: the file is %2 MB, more than the limit of %3 MB for a session")
                     .arg(name)
                     .arg(file.size() / (1024 * 1024))
                     .arg(kMaxSessionFileBytes / (1024 * 1024));
        return std::nullopt;
    }
    if (file.isSequential()) {
        // A pipe or a device (/dev/stdin, /dev/zero) has no size to check
        // first: read no more than one byte past the limit.
        const QByteArray bytes = file.read(kMaxSessionFileBytes + 1);
        if (bytes.size() > kMaxSessionFileBytes) {
            *error = QStringLiteral("%1: the input is more than the limit of %2 MB for a session")
                         .arg(name)
                         .arg(kMaxSessionFileBytes / (1024 * 1024));
            return std::nullopt;
        }
        return parseSession(bytes, name, error);
    }
    return parseSession(file.readAll(), name, error);
}

} // namespace attn
