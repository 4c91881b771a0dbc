#include "modeltokenizer.h"

namespace attn {

std::vector<int> ModelTokenizer::encodeIds(const QString &text) const
{
    std::vector<int> ids;
    for (const ModelToken &t : encode(text))
        ids.push_back(t.id);
    return ids;
}

QString unknownTokenProblem(const std::vector<ModelToken> &tokens, int modelVocab)
{
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i].id < 0 || tokens[i].id >= modelVocab)
            return QStringLiteral("\"%1\" (token %2) is not one of the model's %3 tokens")
                .arg(tokens[i].text)
                .arg(i)
                .arg(modelVocab);
    return {};
}

namespace {

// Length of the well-formed UTF-8 character at bytes[i] (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0.
int utf8CharLength(const QByteArray &bytes, qsizetype i)
{
    const auto at = [&](qsizetype k) { return k < bytes.size() ? uchar(bytes[k]) : 0u; };
    const auto cont = [&](qsizetype k) { return (at(k) & 0xC0) == 0x80; };
    const uint b = at(i);
    if (b < 0x80)
        return 1;
    if (b >= 0xC2 && b <= 0xDF)
        return cont(i + 1) ? 2 : 0;
    if (b >= 0xE0 && b <= 0xEF) {
        const uint b1 = at(i + 1);
        const bool ok = (b == 0xE0) ? (b1 >= 0xA0 && b1 <= 0xBF) : (b == 0xED) ? (b1 >= 0x80 && b1 <= 0x9F) : cont(i + 1);
        return ok && cont(i + 2) ? 3 : 0;
    }
    if (b >= 0xF0 && b <= 0xF4) {
        const uint b1 = at(i + 1);
        const bool ok = (b == 0xF0) ? (b1 >= 0x90 && b1 <= 0xBF) : (b == 0xF4) ? (b1 >= 0x80 && b1 <= 0x8F) : cont(i + 1);
        return ok && cont(i + 2) && cont(i + 3) ? 4 : 0;
    }
    return 0;
}

} // namespace

QString displayTextForBytes(const QByteArray &bytes)
{
    QString out;
    qsizetype i = 0;
    while (i < bytes.size()) {
        const int n = utf8CharLength(bytes, i);
        if (n == 0) {
            out += QLatin1String("\\x") + QString::number(uchar(bytes[i]), 16).toUpper().rightJustified(2, QLatin1Char('0'));
            ++i;
        } else {
            // Decoded by hand: QString::fromUtf8 drops a U+FEFF as a byte-order mark.
            const auto at = [&](qsizetype k) { return char32_t(uchar(bytes[i + k])); };
            const char32_t c = n == 1 ? at(0)
                : n == 2 ? (at(0) & 0x1F) << 6 | (at(1) & 0x3F)
                : n == 3 ? (at(0) & 0x0F) << 12 | (at(1) & 0x3F) << 6 | (at(2) & 0x3F)
                         : (at(0) & 0x07) << 18 | (at(1) & 0x3F) << 12 | (at(2) & 0x3F) << 6 | (at(3) & 0x3F);
            out += QString::fromUcs4(&c, 1);
            i += n;
        }
    }
    return out;
}

QString withoutLoneSurrogates(const QString &text)
{
    QString out = text;
    const qsizetype n = out.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = out[i];
        if (c.isHighSurrogate() && i + 1 < n && out[i + 1].isLowSurrogate())
            ++i;
        else if (c.isSurrogate())
            out[i] = QChar(QChar::ReplacementCharacter);
    }
    return out;
}

} // namespace attn
