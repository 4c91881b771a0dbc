#include "addedtokens.h"

namespace attn {

void AddedTokens::add(const Entry &entry)
{
    if (entry.content.isEmpty())
        return;
    int node = 0;
    for (const QChar c : entry.content) {
        auto it = m_nodes[size_t(node)].next.constFind(c.unicode());
        if (it == m_nodes[size_t(node)].next.constEnd()) {
            m_nodes.push_back(Node{});
            const int created = int(m_nodes.size()) - 1;
            m_nodes[size_t(node)].next.insert(c.unicode(), created);
            node = created;
        } else {
            node = *it;
        }
    }
    if (m_nodes[size_t(node)].entry < 0) {
        m_nodes[size_t(node)].entry = int(m_entries.size());
        m_entries.push_back(entry);
    }
}

std::vector<AddedTokens::Segment> AddedTokens::split(const QString &text) const
{
    std::vector<Segment> out;
    if (m_entries.empty()) {
        if (!text.isEmpty())
            out.push_back({text, -1});
        return out;
    }
    // Ordinary text between matches; whitespace next to an lstrip/rstrip
    // token is dropped from it.
    qsizetype plainStart = 0;
    bool stripNextLeft = false;
    auto flushPlain = [&](qsizetype end, bool stripRight) {
        qsizetype from = plainStart, to = end;
        if (stripNextLeft)
            while (from < to && text[from].isSpace())
                ++from;
        if (stripRight)
            while (to > from && text[to - 1].isSpace())
                --to;
        if (to > from)
            out.push_back({text.mid(from, to - from), -1});
    };
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        int node = 0;
        int found = -1;
        qsizetype foundEnd = i;
        for (qsizetype k = i; k < n; ++k) {
            auto it = m_nodes[size_t(node)].next.constFind(text[k].unicode());
            if (it == m_nodes[size_t(node)].next.constEnd())
                break;
            node = *it;
            if (m_nodes[size_t(node)].entry >= 0) {
                found = m_nodes[size_t(node)].entry;
                foundEnd = k + 1;
            }
        }
        if (found < 0) {
            ++i;
            continue;
        }
        const Entry &e = m_entries[size_t(found)];
        flushPlain(i, e.lstrip);
        out.push_back({e.content, e.id});
        stripNextLeft = e.rstrip;
        i = plainStart = foundEnd;
    }
    flushPlain(n, false);
    return out;
}

} // namespace attn
