#include "basictokenizer.h"

namespace attn {
namespace {

QString codePoint(char32_t c) { return QString::fromUcs4(&c, 1); }

bool isControl(char32_t c)
{
    if (c == '\t' || c == '\n' || c == '\r')
        return false;
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
    case QChar::Other_NotAssigned:
        return true;
    default:
        return false;
    }
}

bool isWhitespace(char32_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || QChar::category(c) == QChar::Separator_Space;
}

// Python's str.split() separators (bidirectional class WS, B or S, or Zs):
// after cleaning, only U+2028 and U+2029 are left besides the space.
bool isPythonSpace(char32_t c)
{
    const QChar::Direction d = QChar::direction(c);
    return d == QChar::DirWS || d == QChar::DirB || d == QChar::DirS || QChar::category(c) == QChar::Separator_Space;
}

bool isPunctuation(char32_t c)
{
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126))
        return true; // ASCII symbols such as $ + < ^ ` | ~ count as punctuation too
    switch (QChar::category(c)) {
    case QChar::Punctuation_Connector:
    case QChar::Punctuation_Dash:
    case QChar::Punctuation_Open:
    case QChar::Punctuation_Close:
    case QChar::Punctuation_InitialQuote:
    case QChar::Punctuation_FinalQuote:
    case QChar::Punctuation_Other:
        return true;
    default:
        return false;
    }
}

bool isChineseIdeograph(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF)
        || (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF)
        || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

bool isCased(char32_t c) { return QChar::isUpper(c) || QChar::isLower(c) || QChar::isTitleCase(c); }

bool isCaseIgnorable(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_Enclosing:
    case QChar::Other_Format:
    case QChar::Letter_Modifier:
    case QChar::Symbol_Modifier:
        return true;
    default:
        return c == '\'' || c == '.' || c == ':' || c == 0x00B7 || c == 0x2019;
    }
}

// Python's str.lower(): Qt's toLower() plus the one context rule it lacks,
// capital sigma at the end of a word becoming final sigma "ς".
QString pythonLower(const QString &word)
{
    const QList<uint> cps = word.toUcs4();
    QString out;
    for (qsizetype i = 0; i < cps.size(); ++i) {
        const char32_t c = cps[i];
        if (c == 0x03A3) {
            qsizetype b = i - 1;
            while (b >= 0 && isCaseIgnorable(cps[b]))
                --b;
            qsizetype a = i + 1;
            while (a < cps.size() && isCaseIgnorable(cps[a]))
                ++a;
            const bool final = b >= 0 && isCased(cps[b]) && !(a < cps.size() && isCased(cps[a]));
            out += QChar(final ? 0x03C2 : 0x03C3);
        } else {
            out += codePoint(c).toLower();
        }
    }
    return out;
}

QString stripAccents(const QString &word)
{
    QString out;
    for (const uint c : word.normalized(QString::NormalizationForm_D).toUcs4())
        if (QChar::category(c) != QChar::Mark_NonSpacing)
            out += codePoint(c);
    return out;
}

} // namespace

QStringList basicTokenize(const QString &text, const BasicTokenizerOptions &options)
{
    QString cleaned;
    for (const uint u : text.toUcs4()) {
        const char32_t c = u;
        if (c == 0 || c == 0xFFFD || isControl(c))
            continue;
        if (isWhitespace(c)) {
            cleaned += QLatin1Char(' ');
        } else if (options.spaceOutChinese && isChineseIdeograph(c)) {
            cleaned += QLatin1Char(' ') + codePoint(c) + QLatin1Char(' ');
        } else {
            cleaned += codePoint(c);
        }
    }
    // The same character written precomposed or decomposed gives one word.
    const QString normalized = cleaned.normalized(QString::NormalizationForm_C);

    const bool strip = options.accents == BasicTokenizerOptions::Accents::Strip
        || (options.accents == BasicTokenizerOptions::Accents::FollowLowerCase && options.lowerCase);
    QStringList words;
    const auto addWord = [&](QString word) {
        if (options.lowerCase)
            word = pythonLower(word);
        if (strip)
            word = stripAccents(word);
        QString current;
        for (const uint u : word.toUcs4()) {
            if (isPunctuation(u)) {
                if (!current.isEmpty())
                    words.append(current);
                words.append(codePoint(u));
                current.clear();
            } else {
                current += codePoint(u);
            }
        }
        if (!current.isEmpty())
            words.append(current);
    };
    QString word;
    for (const uint u : normalized.toUcs4()) {
        if (isPythonSpace(u)) {
            if (!word.isEmpty())
                addWord(word);
            word.clear();
        } else {
            word += codePoint(u);
        }
    }
    if (!word.isEmpty())
        addWord(word);
    return words;
}

} // namespace attn
