#pragma once
// Added and special tokens typed in the text ("<|endoftext|>", "<s>",
// "[MASK]"): found before any other step so they are never split, as Hugging
// Face's added vocabulary does (added_vocabulary.rs): the leftmost match
// first, the longest at that place.

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
        bool lstrip = false;     // swallows the whitespace on its left
        bool rstrip = false;     // and on its right
        bool singleWord = false; // only where no word character touches it
    };
    // A run of ordinary text (id -1), or one added token; `start` is where it
    // begins in the text split.
    struct Segment
    {
        QString text;
        int id = -1;
        qsizetype start = 0;
    };

    // Empty contents are ignored; the first entry with a content wins.
    void add(const Entry &entry);
    bool isEmpty() const { return m_entries.empty(); }
    // Ordinary runs that end up empty are left out.
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
