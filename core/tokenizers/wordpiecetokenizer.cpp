#include "wordpiecetokenizer.h"

namespace attn {

WordPieceTokenizer::WordPieceTokenizer(const QStringList &vocab, const BasicTokenizerOptions &options,
                                       const AddedTokens &added, const SpecialTokenIds &special,
                                       const QString &continuationPrefix, int maxWordChars)
    : m_vocab(vocab)
    , m_options(options)
    , m_added(added)
    , m_prefix(continuationPrefix)
    , m_maxWordChars(maxWordChars)
{
    m_special = special;
    m_ids.reserve(vocab.size());
    for (qsizetype i = 0; i < vocab.size(); ++i)
        m_ids.insert(vocab[i], int(i));
}

QString WordPieceTokenizer::idToText(int id) const
{
    return id >= 0 && id < m_vocab.size() ? m_vocab[id] : QString();
}

std::vector<ModelToken> WordPieceTokenizer::encodeWord(const QString &word) const
{
    const ModelToken unknown{m_special.unk, word.toUtf8(), m_vocab[m_special.unk]};
    // Code point boundaries, in UTF-16 units: the 100-character limit and the
    // pieces count characters, not code units.
    std::vector<qsizetype> bounds{0};
    for (qsizetype i = 0; i < word.size(); ++i) {
        if (word[i].isHighSurrogate() && i + 1 < word.size() && word[i + 1].isLowSurrogate())
            ++i;
        bounds.push_back(i + 1);
    }
    const int chars = int(bounds.size()) - 1;
    if (chars > m_maxWordChars)
        return {unknown};
    std::vector<ModelToken> pieces;
    int start = 0;
    while (start < chars) {
        int end = chars;
        int found = -1;
        for (; end > start; --end) {
            const QString sub = word.mid(bounds[size_t(start)], bounds[size_t(end)] - bounds[size_t(start)]);
            const auto it = m_ids.constFind(start > 0 ? m_prefix + sub : sub);
            if (it != m_ids.constEnd()) {
                found = *it;
                pieces.push_back({found, sub.toUtf8(), m_vocab[found]});
                break;
            }
        }
        if (found < 0)
            return {unknown};
        start = end;
    }
    return pieces;
}

std::vector<ModelToken> WordPieceTokenizer::encode(const QString &text) const
{
    std::vector<ModelToken> tokens;
    tokens.push_back({m_special.cls, QByteArray(), m_vocab[m_special.cls]});
    for (const AddedTokens::Segment &segment : m_added.split(withoutLoneSurrogates(text))) {
        if (segment.id >= 0) {
            tokens.push_back({segment.id, segment.text.toUtf8(), m_vocab[segment.id]});
            continue;
        }
        for (const QString &word : basicTokenize(segment.text, m_options))
            for (ModelToken &piece : encodeWord(word))
                tokens.push_back(std::move(piece));
    }
    tokens.push_back({m_special.sep, QByteArray(), m_vocab[m_special.sep]});
    return tokens;
}

} // namespace attn
