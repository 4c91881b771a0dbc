#include "bpetokenizer.h"

#include "bytelevel.h"

#include <QMutexLocker>
#include <queue>

namespace attn {
namespace {

quint64 pairKey(int left, int right) { return (quint64(quint32(left)) << 32) | quint32(right); }

// The cache holds pieces seen before; it is emptied when full so that a long
// text of distinct words cannot grow it without bound.
constexpr qsizetype kCacheEntries = 100000;
constexpr qsizetype kCachedPieceChars = 256;

// "<0x0A>" -> 0x0A; -1 for anything else (tokenizers writes `<{b:#04X}>`).
int fallbackByte(const QString &token)
{
    if (token.size() != 6 || !token.startsWith(QLatin1String("<0x")) || token[5] != QLatin1Char('>'))
        return -1;
    const auto hex = [](QChar c) { return c >= u'0' && c <= u'9' ? c.unicode() - u'0' : c >= u'A' && c <= u'F' ? c.unicode() - u'A' + 10 : -1; };
    const int hi = hex(token[3]), lo = hex(token[4]);
    return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

QString byteFallbackName(uchar b)
{
    return QLatin1String("<0x") + QString::number(b, 16).toUpper().rightJustified(2, QLatin1Char('0')) + QLatin1Char('>');
}

TokenizerSteps gpt2Steps(const AddedTokens &added, const SpecialTokenIds &special, const QStringList &vocab)
{
    TokenizerSteps steps;
    steps.added = added;
    steps.special = special;
    steps.preTokenizer.appendByteLevel(false, true);
    for (const int id : {special.bos, special.eos})
        if (id >= 0 && id < vocab.size())
            steps.addedIds.insert(id, true);
    return steps;
}

BpeVocabulary gpt2Vocabulary(const QStringList &vocab, const std::vector<BpeMerge> &merges)
{
    BpeVocabulary v;
    v.tokens = vocab;
    v.merges = merges;
    return v;
}

} // namespace

BpeTokenizer::BpeTokenizer(BpeVocabulary vocabulary, TokenizerSteps steps)
    : m_vocab(std::move(vocabulary))
    , m_steps(std::move(steps))
{
    m_special = m_steps.special;
    m_ids = std::move(m_vocab.index);
    if (m_ids.isEmpty()) {
        m_ids.reserve(m_vocab.tokens.size());
        for (qsizetype i = 0; i < m_vocab.tokens.size(); ++i)
            m_ids.insert(m_vocab.tokens[i], int(i));
    }
    m_byteIds.fill(-1);
    m_fallbackIds.fill(-1);
    for (int b = 0; b < 256; ++b) {
        if (m_vocab.alphabet == BpeVocabulary::Alphabet::Bytes)
            m_byteIds[size_t(b)] = m_ids.value(QString(QChar(bytelevel::byteToChar(uchar(b)))), -1);
        else if (m_vocab.byteFallback)
            m_fallbackIds[size_t(b)] = m_ids.value(byteFallbackName(uchar(b)), -1);
    }
    m_merges.reserve(m_vocab.merges.size());
    for (size_t rank = 0; rank < m_vocab.merges.size(); ++rank) {
        const BpeMerge &m = m_vocab.merges[rank];
        m_merges[pairKey(m.left, m.right)] = {int(rank), m.merged};
    }
    m_vocab.merges = {}; // held as the table above
    describeTokens();
}

BpeTokenizer::BpeTokenizer(const QStringList &vocab, const std::array<int, 256> &, const std::vector<Merge> &merges,
                           const AddedTokens &added, const SpecialTokenIds &special)
    : BpeTokenizer(gpt2Vocabulary(vocab, merges), gpt2Steps(added, special, vocab))
{
}

void BpeTokenizer::describeTokens()
{
    const QStringList &tokens = m_vocab.tokens;
    m_bytes.reserve(size_t(tokens.size()));
    m_texts.reserve(tokens.size());
    m_roles.assign(size_t(tokens.size()), ModelToken::Role::Text);
    for (qsizetype id = 0; id < tokens.size(); ++id) {
        const QString &token = tokens[id];
        QByteArray bytes;
        QString text;
        const auto added = m_steps.addedIds.constFind(int(id));
        if (added != m_steps.addedIds.constEnd()) {
            bytes = token.toUtf8();
            text = token;
            if (*added)
                m_roles[size_t(id)] = ModelToken::Role::Special;
        } else if (m_vocab.alphabet == BpeVocabulary::Alphabet::Bytes) {
            // A string outside the byte alphabet stands for its own UTF-8.
            bool byteLevel = !token.isEmpty();
            for (const QChar c : token) {
                const int b = bytelevel::charToByte(c.unicode());
                if (b < 0) {
                    byteLevel = false;
                    break;
                }
                bytes.append(char(b));
            }
            if (!byteLevel)
                bytes = token.toUtf8();
            text = displayTextForBytes(bytes);
        } else if (const int b = m_vocab.byteFallback ? fallbackByte(token) : -1; b >= 0) {
            bytes = QByteArray(1, char(b));
            text = token;
            m_roles[size_t(id)] = ModelToken::Role::Byte;
        } else {
            text = token;
            if (!m_vocab.spaceSymbol.isEmpty())
                text.replace(m_vocab.spaceSymbol, QStringLiteral(" "));
            bytes = text.toUtf8();
        }
        m_bytes.push_back(std::move(bytes));
        m_texts.append(std::move(text));
    }
    for (const std::vector<int> *around : {&m_steps.prefix, &m_steps.suffix})
        for (const int id : *around)
            if (id >= 0 && id < tokens.size())
                m_roles[size_t(id)] = ModelToken::Role::Special;
}

QString BpeTokenizer::idToText(int id) const
{
    return id >= 0 && id < m_texts.size() ? m_texts[id] : QString();
}

std::vector<int> BpeTokenizer::symbolsOf(const QString &piece) const
{
    std::vector<int> ids;
    if (m_vocab.alphabet == BpeVocabulary::Alphabet::Bytes) {
        const QByteArray utf8 = piece.toUtf8();
        ids.reserve(size_t(utf8.size()));
        for (const char b : utf8)
            if (const int id = m_byteIds[uchar(b)]; id >= 0)
                ids.push_back(id);
        return ids;
    }
    // models/bpe/model.rs merge_word: each character, else its bytes' <0xNN>
    // tokens when all exist, else the unknown token (a run fused into one).
    bool lastUnknown = false;
    for (qsizetype i = 0; i < piece.size();) {
        const qsizetype n = piece[i].isHighSurrogate() && i + 1 < piece.size() && piece[i + 1].isLowSurrogate() ? 2 : 1;
        const QString c = piece.mid(i, n);
        i += n;
        const auto it = m_ids.constFind(c);
        if (it != m_ids.constEnd()) {
            ids.push_back(*it);
            lastUnknown = false;
            continue;
        }
        if (m_vocab.byteFallback) {
            const QByteArray utf8 = c.toUtf8();
            std::vector<int> bytes;
            for (const char b : utf8)
                if (m_fallbackIds[uchar(b)] >= 0)
                    bytes.push_back(m_fallbackIds[uchar(b)]);
            if (bytes.size() == size_t(utf8.size())) {
                ids.insert(ids.end(), bytes.begin(), bytes.end());
                lastUnknown = false;
                continue;
            }
        }
        if (m_vocab.unknownId < 0)
            continue;
        if (!(lastUnknown && m_vocab.fuseUnknown))
            ids.push_back(m_vocab.unknownId);
        lastUnknown = true;
    }
    return ids;
}

std::vector<int> BpeTokenizer::merge(std::vector<int> ids) const
{
    // Hugging Face's word.merge_all: a heap of candidate merges ordered by
    // rank, then position, over a linked list of symbols. For merge tables
    // learned by BPE this is encoder.py's "merge every occurrence of the
    // lowest-ranked pair, repeat", in O(n log n) instead of O(n²) per piece.
    struct Symbol { int id; int prev; int next; bool alive; };
    struct Candidate
    {
        int rank;
        int pos;
        bool operator>(const Candidate &o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
    };
    const int n = int(ids.size());
    std::vector<Symbol> symbols(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        symbols[size_t(i)] = {ids[size_t(i)], i - 1, i + 1 < n ? i + 1 : -1, true};

    const auto lookup = [&](int left, int right) -> const std::pair<int, int> * {
        const auto it = m_merges.find(pairKey(left, right));
        return it == m_merges.end() ? nullptr : &it->second;
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> queue;
    for (int i = 0; i + 1 < n; ++i)
        if (const auto *m = lookup(symbols[size_t(i)].id, symbols[size_t(i + 1)].id))
            queue.push({m->first, i});

    while (!queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        Symbol &left = symbols[size_t(top.pos)];
        if (!left.alive || left.next < 0)
            continue;
        Symbol &right = symbols[size_t(left.next)];
        const auto *m = lookup(left.id, right.id);
        if (!m || m->first != top.rank)
            continue; // stale: one side has merged since this was queued
        left.id = m->second;
        right.alive = false;
        left.next = right.next;
        if (left.next >= 0)
            symbols[size_t(left.next)].prev = top.pos;
        if (left.prev >= 0)
            if (const auto *p = lookup(symbols[size_t(left.prev)].id, left.id))
                queue.push({p->first, left.prev});
        if (left.next >= 0)
            if (const auto *p = lookup(left.id, symbols[size_t(left.next)].id))
                queue.push({p->first, top.pos});
    }
    std::vector<int> out;
    for (int i = 0; i >= 0 && i < n; i = symbols[size_t(i)].next)
        out.push_back(symbols[size_t(i)].id);
    return out;
}

std::vector<int> BpeTokenizer::encodePiece(const QString &piece) const
{
    if (m_vocab.ignoreMerges) {
        // models/bpe/model.rs: the piece as the vocabulary spells it.
        QString spelled;
        if (m_vocab.alphabet == BpeVocabulary::Alphabet::Bytes) {
            const QByteArray utf8 = piece.toUtf8();
            spelled.reserve(utf8.size());
            for (const char b : utf8)
                spelled.append(QChar(bytelevel::byteToChar(uchar(b))));
        } else {
            spelled = piece;
        }
        const auto it = m_ids.constFind(spelled);
        if (it != m_ids.constEnd())
            return {*it};
    }
    const bool cacheable = piece.size() <= kCachedPieceChars;
    if (cacheable) {
        QMutexLocker lock(&m_cacheMutex);
        const auto it = m_cache.constFind(piece);
        if (it != m_cache.constEnd())
            return *it;
    }
    std::vector<int> ids = merge(symbolsOf(piece));
    if (cacheable) {
        QMutexLocker lock(&m_cacheMutex);
        if (m_cache.size() >= kCacheEntries)
            m_cache.clear();
        m_cache.insert(piece, ids);
    }
    return ids;
}

void BpeTokenizer::appendToken(std::vector<ModelToken> &out, int id) const
{
    if (id < 0 || size_t(id) >= m_bytes.size())
        return;
    out.push_back({id, m_bytes[size_t(id)], m_texts[id], m_roles[size_t(id)]});
}

std::vector<ModelToken> BpeTokenizer::encode(const QString &text) const
{
    std::vector<ModelToken> tokens;
    // The post-processor's tokens cover none of the user's text.
    const auto appendAround = [&](int id) {
        appendToken(tokens, id);
        if (!tokens.empty() && tokens.back().id == id)
            tokens.back().bytes.clear();
    };
    for (const int id : m_steps.prefix)
        appendAround(id);
    // tokenizer/added_vocabulary.rs extract_and_normalize: tokens typed as
    // they are first, then the normaliser on each run between them, then the
    // tokens spelled normalised, then the pre-tokenizer and the model.
    for (const AddedTokens::Segment &raw : m_steps.added.split(withoutLoneSurrogates(text))) {
        if (raw.id >= 0) {
            appendToken(tokens, raw.id);
            continue;
        }
        const QString normalized = m_steps.normalizer.apply(raw.text);
        for (const AddedTokens::Segment &segment : m_steps.addedNormalized.split(normalized)) {
            if (segment.id >= 0) {
                appendToken(tokens, segment.id);
                continue;
            }
            const bool atStart = raw.start == 0 && segment.start == 0;
            for (const PreTokenizer::Piece &piece : m_steps.preTokenizer.apply(segment.text, atStart))
                for (const int id : encodePiece(piece.text))
                    appendToken(tokens, id);
        }
    }
    for (const int id : m_steps.suffix)
        appendAround(id);
    return tokens;
}

} // namespace attn
