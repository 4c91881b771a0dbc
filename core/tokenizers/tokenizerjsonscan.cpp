#include "tokenizerjsonscan.h"

#include <QHash>
#include <QStringDecoder>

#include <algorithm>

namespace attn::tokenizerparsing {
namespace {

// Nesting the scanner follows without recursion limits of its own: deeper
// files go to Qt's parser (which has its own).
constexpr int kMaxDepth = 64;

class Scanner
{
public:
    explicit Scanner(const QByteArray &json) : m_p(json.constData()), m_begin(json.constData()), m_end(json.constData() + json.size()) {}

    qsizetype offset() const { return m_p - m_begin; }
    void skipSpace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    bool take(char c)
    {
        skipSpace();
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    bool peek(char c)
    {
        skipSpace();
        return m_p < m_end && *m_p == c;
    }

    // A JSON string, decoded; false on anything malformed or a lone surrogate.
    bool string(QString *out)
    {
        if (!take('"'))
            return false;
        const char *start = m_p;
        bool escaped = false;
        while (m_p < m_end && *m_p != '"') {
            if (uchar(*m_p) < 0x20)
                return false;
            if (*m_p == '\\') {
                escaped = true;
                ++m_p;
            }
            ++m_p;
        }
        if (m_p >= m_end)
            return false;
        const QByteArrayView raw(start, m_p - start);
        ++m_p;
        if (!escaped) {
            *out = decode(raw);
            return true;
        }
        return unescape(raw, out);
    }

    bool integer(qint64 *out)
    {
        skipSpace();
        qint64 v = 0;
        const char *start = m_p;
        while (m_p < m_end && *m_p >= '0' && *m_p <= '9' && m_p - start < 10)
            v = v * 10 + (*m_p++ - '0');
        if (m_p == start || (m_p < m_end && (*m_p == '.' || *m_p == 'e' || *m_p == 'E' || (*m_p >= '0' && *m_p <= '9'))))
            return false;
        *out = v;
        return true;
    }

    // Skips any value; false when malformed.
    bool skipValue(int depth = 0)
    {
        skipSpace();
        if (m_p >= m_end || depth > kMaxDepth)
            return false;
        if (*m_p == '"') {
            QString ignored;
            return string(&ignored);
        }
        if (*m_p == '{' || *m_p == '[') {
            const char close = *m_p == '{' ? '}' : ']';
            const bool isObject = *m_p == '{';
            ++m_p;
            if (take(close))
                return true;
            do {
                if (isObject) {
                    QString key;
                    if (!string(&key) || !take(':'))
                        return false;
                }
                if (!skipValue(depth + 1))
                    return false;
            } while (take(','));
            return take(close);
        }
        const char *start = m_p;
        while (m_p < m_end && (std::isalnum(uchar(*m_p)) || *m_p == '-' || *m_p == '+' || *m_p == '.'))
            ++m_p;
        return m_p > start;
    }

private:
    static int hex(char c)
    {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    static bool unescape(QByteArrayView raw, QString *out)
    {
        QByteArray utf8;
        utf8.reserve(raw.size());
        QString text;
        for (qsizetype i = 0; i < raw.size(); ++i) {
            if (raw[i] != '\\') {
                utf8.append(raw[i]);
                continue;
            }
            const char c = raw[++i];
            switch (c) {
            case '"': case '\\': case '/': utf8.append(c); break;
            case 'b': utf8.append('\b'); break;
            case 'f': utf8.append('\f'); break;
            case 'n': utf8.append('\n'); break;
            case 'r': utf8.append('\r'); break;
            case 't': utf8.append('\t'); break;
            case 'u': {
                char32_t units[2] = {0, 0};
                int count = 0;
                for (; count < 2; ++count) {
                    if (i + 4 >= raw.size())
                        return false;
                    char32_t u = 0;
                    for (int k = 1; k <= 4; ++k) {
                        const int h = hex(raw[i + k]);
                        if (h < 0)
                            return false;
                        u = u * 16 + char32_t(h);
                    }
                    i += 4;
                    units[count] = u;
                    if (count == 0 && !QChar::isHighSurrogate(u))
                        break;
                    if (count == 0 && !(i + 2 < raw.size() && raw[i + 1] == '\\' && raw[i + 2] == 'u'))
                        return false; // a lone high surrogate
                    if (count == 0)
                        i += 2;
                }
                char32_t code = units[0];
                if (count == 1 || QChar::isLowSurrogate(units[0])) {
                    if (!QChar::isHighSurrogate(units[0]) || !QChar::isLowSurrogate(units[1]))
                        return false;
                    code = QChar::surrogateToUcs4(char16_t(units[0]), char16_t(units[1]));
                }
                utf8.append(QString::fromUcs4(&code, 1).toUtf8());
                break;
            }
            default: return false;
            }
        }
        *out = decode(utf8);
        return true;
    }

    // QString::fromUtf8 would drop a U+FEFF that starts the string (a byte-order
    // mark, it thinks): Mistral's vocabulary has that character as a token.
    static QString decode(QByteArrayView utf8)
    {
        QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless | QStringDecoder::Flag::ConvertInitialBom);
        return decoder.decode(utf8);
    }

    const char *m_p;
    const char *m_begin;
    const char *m_end;
};

struct Range
{
    qsizetype start = -1;
    qsizetype end = -1;
};

bool scanVocab(Scanner &s, std::vector<VocabEntry> *out)
{
    if (!s.take('{'))
        return false;
    if (s.take('}'))
        return true;
    do {
        QString token;
        qint64 id = 0;
        if (!s.string(&token) || !s.take(':') || !s.integer(&id))
            return false;
        if (qsizetype(out->size()) >= kMaxVocabulary)
            return false;
        out->push_back({token, QJsonValue(double(id))});
    } while (s.take(','));
    if (!s.take('}'))
        return false;
    return true; // a token listed twice is refused by the reader
}

bool scanMerges(Scanner &s, std::vector<MergeText> *out)
{
    if (!s.take('['))
        return false;
    if (s.take(']'))
        return true;
    qsizetype i = 0;
    do {
        QStringList parts;
        if (s.peek('[')) {
            QString a, b;
            if (!s.take('[') || !s.string(&a) || !s.take(',') || !s.string(&b) || !s.take(']'))
                return false;
            parts = {a, b};
        } else {
            QString line;
            if (!s.string(&line))
                return false;
            parts = line.split(QLatin1Char(' '));
        }
        if (parts.size() != 2 || parts[0].isEmpty() || parts[1].isEmpty() || qsizetype(out->size()) >= kMaxMerges)
            return false;
        out->push_back({parts[0], parts[1], i++});
    } while (s.take(','));
    return s.take(']');
}

} // namespace

bool scanTokenizerJson(const QByteArray &json, ScannedModel *out)
{
    Scanner s(json);
    // Real files spend 40 to 80 bytes a token and a merge.
    const size_t guess = size_t(std::min<qsizetype>(json.size() / 80, kMaxVocabulary));
    out->vocab.reserve(guess);
    out->merges.reserve(guess);
    Range vocab, merges;
    bool seenModel = false;
    if (!s.take('{'))
        return false;
    if (s.take('}'))
        return false;
    do {
        QString key;
        if (!s.string(&key) || !s.take(':'))
            return false;
        if (key != QLatin1String("model")) {
            if (!s.skipValue())
                return false;
            continue;
        }
        if (seenModel || !s.take('{') || s.peek('}'))
            return false;
        seenModel = true;
        do {
            QString field;
            if (!s.string(&field) || !s.take(':'))
                return false;
            s.skipSpace();
            const qsizetype start = s.offset();
            if (field == QLatin1String("vocab") && vocab.start < 0) {
                if (!scanVocab(s, &out->vocab))
                    return false;
                vocab = {start, s.offset()};
            } else if (field == QLatin1String("merges") && merges.start < 0) {
                if (!scanMerges(s, &out->merges))
                    return false;
                merges = {start, s.offset()};
            } else if (!s.skipValue()) {
                return false;
            }
        } while (s.take(','));
        if (!s.take('}'))
            return false;
    } while (s.take(','));
    if (!s.take('}') || vocab.start < 0 || merges.start < 0)
        return false;
    s.skipSpace();
    if (s.offset() != json.size())
        return false;
    const bool vocabFirst = vocab.start < merges.start;
    const Range first = vocabFirst ? vocab : merges, second = vocabFirst ? merges : vocab;
    out->rest = json.left(first.start) + (vocabFirst ? "{}" : "[]") + json.mid(first.end, second.start - first.end)
        + (vocabFirst ? "[]" : "{}") + json.mid(second.end);
    return true;
}

} // namespace attn::tokenizerparsing
