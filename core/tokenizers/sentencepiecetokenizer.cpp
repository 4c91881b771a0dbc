#include "sentencepiecetokenizer.h"

#include <queue>

namespace attn {
namespace {

const QString kSpace = QStringLiteral("\u2581");

} // namespace

SentencePieceTokenizer::SentencePieceTokenizer(SentencePieceVocabulary vocabulary)
    : m_vocab(std::move(vocabulary))
{
    using Type = SentencePieceVocabulary::TokenType;
    m_special = m_vocab.special;
    const qsizetype n = m_vocab.tokens.size();
    m_ids.reserve(n);
    m_byteIds.fill(-1);
    m_roles.assign(size_t(n), ModelToken::Role::Text);
    m_bytes.reserve(size_t(n));
    m_texts.reserve(n);
    for (qsizetype id = 0; id < n; ++id) {
        const QString &token = m_vocab.tokens[id];
        m_ids.insert(token, int(id)); // a text listed twice is found at its last id
        const Type type = id < qsizetype(m_vocab.types.size()) ? m_vocab.types[size_t(id)] : Type::Normal;
        QString text = token;
        QByteArray bytes;
        bool ok = false;
        const int byte = token.size() == 6 && token.startsWith(QLatin1String("<0x")) && token.endsWith(QLatin1Char('>'))
            ? token.mid(3, 2).toInt(&ok, 16) : -1;
        if (type == Type::Byte && ok && byte >= 0 && byte < 256) {
            m_byteIds[size_t(byte)] = int(id);
            bytes = QByteArray(1, char(byte));
            m_roles[size_t(id)] = ModelToken::Role::Byte;
        } else if (type == Type::Control || type == Type::UserDefined) {
            bytes = token.toUtf8();
            m_specials.add({token, int(id)});
            if (type == Type::Control)
                m_roles[size_t(id)] = ModelToken::Role::Special;
        } else {
            text.replace(kSpace, QStringLiteral(" "));
            bytes = text.toUtf8();
        }
        m_bytes.push_back(bytes);
        m_texts.append(text);
    }
    for (const int id : {m_special.bos, m_special.eos})
        if (id >= 0 && id < n)
            m_roles[size_t(id)] = ModelToken::Role::Special;
}

QString SentencePieceTokenizer::idToText(int id) const
{
    return id >= 0 && id < m_texts.size() ? m_texts[id] : QString();
}

float SentencePieceTokenizer::score(int id) const
{
    return id >= 0 && size_t(id) < m_vocab.scores.size() ? m_vocab.scores[size_t(id)] : 0.0f;
}

std::vector<int> SentencePieceTokenizer::encodeFragment(const QString &fragment) const
{
    // llm_tokenizer_spm_session::tokenize: symbols are the characters, in a
    // linked list; candidate pairs in a queue by score, then position.
    struct Symbol
    {
        qsizetype start;
        qsizetype length; // 0: merged into its left neighbour
        int prev;
        int next;
    };
    struct Bigram
    {
        int left;
        int right;
        float score;
        qsizetype length;
    };
    const auto worse = [](const Bigram &a, const Bigram &b) { return a.score < b.score || (a.score == b.score && a.left > b.left); };
    std::vector<Symbol> symbols;
    for (qsizetype i = 0; i < fragment.size();) {
        const qsizetype n = fragment[i].isHighSurrogate() && i + 1 < fragment.size() && fragment[i + 1].isLowSurrogate() ? 2 : 1;
        symbols.push_back({i, n, int(symbols.size()) - 1, -1});
        i += n;
    }
    for (size_t k = 0; k + 1 < symbols.size(); ++k)
        symbols[k].next = int(k + 1);
    std::priority_queue<Bigram, std::vector<Bigram>, decltype(worse)> queue(worse);
    const auto tryAdd = [&](int left, int right) {
        if (left < 0 || right < 0)
            return;
        const qsizetype length = symbols[size_t(left)].length + symbols[size_t(right)].length;
        const auto it = m_ids.constFind(fragment.mid(symbols[size_t(left)].start, length));
        if (it == m_ids.constEnd())
            return;
        queue.push({left, right, score(*it), length});
    };
    for (size_t k = 0; k + 1 < symbols.size(); ++k)
        tryAdd(int(k), int(k + 1));
    while (!queue.empty()) {
        const Bigram b = queue.top();
        queue.pop();
        Symbol &left = symbols[size_t(b.left)];
        Symbol &right = symbols[size_t(b.right)];
        if (left.length == 0 || right.length == 0 || left.length + right.length != b.length)
            continue; // one side has merged since
        left.length += right.length;
        right.length = 0;
        left.next = right.next;
        if (right.next >= 0)
            symbols[size_t(right.next)].prev = b.left;
        tryAdd(left.prev, b.left);
        tryAdd(b.left, left.next);
    }
    std::vector<int> ids;
    for (int k = symbols.empty() ? -1 : 0; k >= 0; k = symbols[size_t(k)].next) {
        const QString text = fragment.mid(symbols[size_t(k)].start, symbols[size_t(k)].length);
        const auto it = m_ids.constFind(text);
        if (it != m_ids.constEnd()) {
            ids.push_back(*it);
            continue;
        }
        // Not a token (a merge always is, so a single character): its bytes'
        // <0xNN> tokens; llama.cpp would then try a token spelled as the raw
        // byte, here the unknown token stands in.
        for (const char byte : text.toUtf8()) {
            const int id = m_byteIds[uchar(byte)];
            if (id >= 0)
                ids.push_back(id);
            else if (m_special.unk >= 0)
                ids.push_back(m_special.unk);
        }
    }
    return ids;
}

void SentencePieceTokenizer::appendToken(std::vector<ModelToken> &out, int id, bool covers) const
{
    if (id < 0 || size_t(id) >= m_bytes.size())
        return;
    out.push_back({id, covers ? m_bytes[size_t(id)] : QByteArray(), m_texts[id], m_roles[size_t(id)]});
}

std::vector<ModelToken> SentencePieceTokenizer::encode(const QString &text) const
{
    std::vector<ModelToken> tokens;
    if (m_vocab.addBos)
        appendToken(tokens, m_special.bos, false);
    bool afterSpecial = true; // llama.cpp: the text's start counts as after one
    for (const AddedTokens::Segment &segment : m_specials.split(withoutLoneSurrogates(text))) {
        if (segment.id >= 0) {
            appendToken(tokens, segment.id, true);
            afterSpecial = true;
            continue;
        }
        QString fragment = (m_vocab.addSpacePrefix && afterSpecial ? QStringLiteral(" ") : QString()) + segment.text;
        fragment.replace(QLatin1Char(' '), kSpace);
        for (const int id : encodeFragment(fragment))
            appendToken(tokens, id, true);
        afterSpecial = false;
    }
    if (m_vocab.addEos)
        appendToken(tokens, m_special.eos, false);
    return tokens;
}

} // namespace attn
