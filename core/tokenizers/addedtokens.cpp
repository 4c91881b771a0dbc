#include "addedtokens.h"

namespace attn {
namespace {

// Rust regex's \w: letters, marks, digits and connector punctuation.
bool isWordChar(const QString &text, qsizetype i)
{
    const char32_t c = text[i].isLowSurrogate() && i > 0 && text[i - 1].isHighSurrogate()
        ? QChar::surrogateToUcs4(text[i - 1], text[i])
        : text[i].isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()
        ? QChar::surrogateToUcs4(text[i], text[i + 1])
        : text[i].unicode();
    return QChar::isLetterOrNumber(c) || QChar::isMark(c) || QChar::category(c) == QChar::Punctuation_Connector;
}

} // namespace

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
            out.push_back({text, -1, 0});
        return out;
    }
    // Ordinary text between matches; whitespace next to an lstrip/rstrip
    // token goes with the token.
    qsizetype plainStart = 0;
    const auto flushPlain = [&](qsizetype end) {
        if (end > plainStart)
            out.push_back({text.mid(plainStart, end - plainStart), -1, plainStart});
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
        // A single-word token touching a word character is no match; the
        // search goes on after it, as the automaton's does.
        if (e.singleWord && ((i > 0 && isWordChar(text, i - 1)) || (foundEnd < n && isWordChar(text, foundEnd)))) {
            i = foundEnd;
            continue;
        }
        qsizetype start = i, end = foundEnd;
        if (e.lstrip)
            while (start > plainStart && text[start - 1].isSpace())
                --start;
        if (e.rstrip)
            while (end < n && text[end].isSpace())
                ++end;
        flushPlain(start);
        out.push_back({e.content, e.id, start});
        i = plainStart = end;
    }
    flushPlain(n);
    return out;
}

} // namespace attn
