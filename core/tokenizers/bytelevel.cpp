#include "bytelevel.h"

#include <QRegularExpression>
#include <array>

namespace attn::bytelevel {
namespace {

struct Tables
{
    std::array<char16_t, 256> toChar{};
    std::array<short, 324> toByte{}; // every stand-in is below U+0144
};

const Tables &tables()
{
    static const Tables t = [] {
        Tables r;
        r.toByte.fill(-1);
        int next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            r.toChar[size_t(b)] = char16_t(printable ? b : next++);
            r.toByte[r.toChar[size_t(b)]] = short(b);
        }
        return r;
    }();
    return t;
}

} // namespace

char16_t byteToChar(unsigned char byte) { return tables().toChar[byte]; }

int charToByte(char16_t c) { return c < tables().toByte.size() ? tables().toByte[c] : -1; }

QStringList preTokenize(const QString &text)
{
    // GPT-2's pattern, with one change: PCRE2 counts U+180E MONGOLIAN VOWEL
    // SEPARATOR (a format character since Unicode 6.3) as \s and Python's
    // `regex` does not, so it is taken out of \s here. Checked against Python
    // on 20,000 random strings; characters assigned after Unicode 14 (Qt's
    // PCRE2 tables) may still be classed differently.
    static const QRegularExpression pattern(
        QStringLiteral("'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?(?:[^\\s\\p{L}\\p{N}]|\\x{180E})+"
                       "|[^\\S\\x{180E}]+(?![\\S\\x{180E}])|[^\\S\\x{180E}]+"),
        QRegularExpression::UseUnicodePropertiesOption);
    // Every character matches one of the alternatives, so the matches tile
    // the text. Should PCRE2 ever stop early (a resource limit), the rest is
    // kept as one more piece rather than lost.
    QStringList pieces;
    qsizetype end = 0;
    QRegularExpressionMatchIterator it = pattern.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        if (m.capturedStart(0) > end)
            pieces.append(text.mid(end, m.capturedStart(0) - end));
        if (m.capturedLength(0) > 0)
            pieces.append(m.captured(0));
        end = m.capturedEnd(0);
    }
    if (end < text.size())
        pieces.append(text.mid(end));
    return pieces;
}

} // namespace attn::bytelevel
