#include "session/tokenizer.h"

#include <QStringList>
#include <QTextBoundaryFinder>

namespace attn {
namespace {

enum class Kind { Space, Word, Single, Joiner };

bool isIdeographic(char32_t c)
{
    // Scripts written without spaces between words: each character is a token.
    return (c >= 0x3040 && c <= 0x30FF)     // Hiragana, Katakana
        || (c >= 0x3400 && c <= 0x4DBF)     // CJK extension A
        || (c >= 0x4E00 && c <= 0x9FFF)     // CJK unified ideographs
        || (c >= 0xF900 && c <= 0xFAFF)     // CJK compatibility ideographs
        || (c >= 0x20000 && c <= 0x3FFFF);  // CJK extensions B and later
}

Kind classify(const QString &cluster)
{
    const char32_t c = cluster.toUcs4().value(0);
    if (QChar::isSpace(c) || c == 0x200B || c == 0xFEFF)
        return Kind::Space;
    if (c == '\'' || c == 0x2019 || c == '-')
        return Kind::Joiner;
    if (isIdeographic(c))
        return Kind::Single;
    // A keycap (1️⃣, #️⃣) or a character shown as emoji (VS16) is an emoji,
    // even when its base is a digit: it must not join a word.
    if (cluster.contains(QChar(0x20E3)) || cluster.contains(QChar(0xFE0F)))
        return Kind::Single;
    if (QChar::isLetterOrNumber(c) || QChar::isMark(c) || c == '_')
        return Kind::Word;
    if (QChar::category(c) == QChar::Other_Control || QChar::category(c) == QChar::Other_Format)
        return Kind::Space; // invisible: never worth a chip of its own
    return Kind::Single;
}

} // namespace

std::vector<Token> tokenize(const QString &sentence)
{
    // Walk grapheme clusters, not code units, so an accent stays on its letter
    // and a multi-code-point emoji (flags, skin tones, families) stays whole.
    struct Cluster { int start; int length; Kind kind; };
    std::vector<Cluster> clusters;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, sentence);
    int start = 0;
    for (int end = finder.toNextBoundary(); end != -1; end = finder.toNextBoundary()) {
        clusters.push_back({start, end - start, classify(sentence.mid(start, end - start))});
        start = end;
    }

    std::vector<Token> tokens;
    auto addToken = [&](int from, int to) {
        tokens.push_back({sentence.mid(from, to - from), from, to - from});
    };
    const auto count = clusters.size();
    for (std::size_t i = 0; i < count;) {
        const Cluster &c = clusters[i];
        if (c.kind == Kind::Space) { ++i; continue; }
        if (c.kind != Kind::Word) {
            addToken(c.start, c.start + c.length);
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        while (j < count) {
            if (clusters[j].kind == Kind::Word) { ++j; continue; }
            // A joiner stays inside a word only between two word characters.
            if (clusters[j].kind == Kind::Joiner && j + 1 < count && clusters[j + 1].kind == Kind::Word) {
                j += 2;
                continue;
            }
            break;
        }
        addToken(c.start, clusters[j - 1].start + clusters[j - 1].length);
        i = j;
    }
    return tokens;
}

QStringList tokenTexts(const std::vector<Token> &tokens)
{
    QStringList texts;
    texts.reserve(int(tokens.size()));
    for (const Token &t : tokens)
        texts << t.text;
    return texts;
}

} // namespace attn
