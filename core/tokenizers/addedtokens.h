#pragma once
// Special tokens typed in the text ("<|endoftext|>", "[MASK]"): found before
// any other step so they are never split, as Hugging Face's added tokens are.

#include <QHash>
#include <QString>
#include <vector>

namespace attn {

class AddedTokens
{
public:
    struct Entry
    {
        QString content;
        int id = -1;
        bool lstrip = false; // swallows the whitespace on its left
        bool rstrip = false; // and on its right
    };
    // A run of ordinary text (id -1), or one added token.
    struct Segment
    {
        QString text;
        int id = -1;
    };

    // Empty contents are ignored; the first entry with a content wins.
    void add(const Entry &entry);
    bool isEmpty() const { return m_entries.empty(); }
    // Leftmost match first, then the longest at that place. Ordinary runs
    // that end up empty are left out.
    std::vector<Segment> split(const QString &text) const;

private:
    struct Node
    {
        QHash<char16_t, int> next;
        int entry = -1;
    };
    std::vector<Node> m_nodes{Node{}};
    std::vector<Entry> m_entries;
};

} // namespace attn
