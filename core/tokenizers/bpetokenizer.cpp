#include "bpetokenizer.h"

#include "bytelevel.h"

#include <QMutexLocker>
#include <queue>

namespace attn {
namespace {

quint64 pairKey(int left, int right) { return (quint64(quint32(left)) << 32) | quint32(right); }

// The cache holds words seen before; it is emptied when full so that a long
// text of distinct words cannot grow it without bound.
constexpr qsizetype kCacheEntries = 100000;
constexpr qsizetype kCachedWordBytes = 256;

} // namespace

BpeTokenizer::BpeTokenizer(const QStringList &vocab, const std::array<int, 256> &byteIds,
                           const std::vector<Merge> &merges, const AddedTokens &added, const SpecialTokenIds &special)
    : m_byteIds(byteIds)
    , m_added(added)
{
    m_special = special;
    m_bytes.reserve(size_t(vocab.size()));
    m_texts.reserve(vocab.size());
    for (const QString &token : vocab) {
        // A string outside the byte alphabet (an added token such as
        // <|endoftext|> spelled in it is inside) stands for its own UTF-8.
        QByteArray bytes;
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
        m_texts.append(displayTextForBytes(bytes));
        m_bytes.push_back(std::move(bytes));
    }
    m_merges.reserve(merges.size());
    for (size_t rank = 0; rank < merges.size(); ++rank)
        m_merges[pairKey(merges[rank].left, merges[rank].right)] = {int(rank), merges[rank].merged};
}

QString BpeTokenizer::idToText(int id) const
{
    return id >= 0 && id < m_texts.size() ? m_texts[id] : QString();
}

std::vector<int> BpeTokenizer::mergeWord(const QByteArray &utf8) const
{
    // Hugging Face's word.merge_all: a heap of candidate merges ordered by
    // rank, then position, over a linked list of symbols. For merge tables
    // learned by BPE this is encoder.py's "merge every occurrence of the
    // lowest-ranked pair, repeat", in O(n log n) instead of O(n²) per word.
    struct Symbol { int id; int prev; int next; bool alive; };
    struct Candidate
    {
        int rank;
        int pos;
        bool operator>(const Candidate &o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
    };
    const int n = int(utf8.size());
    std::vector<Symbol> symbols(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        symbols[size_t(i)] = {m_byteIds[uchar(utf8[i])], i - 1, i + 1 < n ? i + 1 : -1, true};

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
    std::vector<int> ids;
    for (int i = 0; i >= 0 && i < n; i = symbols[size_t(i)].next)
        ids.push_back(symbols[size_t(i)].id);
    return ids;
}

std::vector<int> BpeTokenizer::encodeWord(const QByteArray &utf8) const
{
    const bool cacheable = utf8.size() <= kCachedWordBytes;
    if (cacheable) {
        QMutexLocker lock(&m_cacheMutex);
        const auto it = m_cache.constFind(utf8);
        if (it != m_cache.constEnd())
            return *it;
    }
    std::vector<int> ids = mergeWord(utf8);
    if (cacheable) {
        QMutexLocker lock(&m_cacheMutex);
        if (m_cache.size() >= kCacheEntries)
            m_cache.clear();
        m_cache.insert(utf8, ids);
    }
    return ids;
}

std::vector<ModelToken> BpeTokenizer::encode(const QString &text) const
{
    std::vector<ModelToken> tokens;
    const auto push = [&](int id) { tokens.push_back({id, m_bytes[size_t(id)], m_texts[id]}); };
    for (const AddedTokens::Segment &segment : m_added.split(withoutLoneSurrogates(text))) {
        if (segment.id >= 0) {
            push(segment.id);
            continue;
        }
        for (const QString &word : bytelevel::preTokenize(segment.text))
            for (const int id : encodeWord(word.toUtf8()))
                push(id);
    }
    return tokens;
}

} // namespace attn
