#pragma once
// What a tokenizer does to a text before cutting it (Hugging Face's
// normalizers): a Unicode form, a prefix, replacements, applied in order.
// Built from tokenizer.json's "normalizer" or by hand (a GGUF vocabulary's
// "replace spaces with ▁"); it reads no file itself.

#include <QString>
#include <vector>

namespace attn {

class TextNormalizer
{
public:
    struct Step
    {
        enum class Kind { Nfc, Nfd, Nfkc, Nfkd, Prepend, Replace };
        Kind kind = Kind::Nfc;
        QString text;        // Prepend: what goes in front; Replace: what is looked for
        QString replacement; // Replace: what it becomes
    };

    void append(const Step &step) { m_steps.push_back(step); }
    bool isEmpty() const { return m_steps.empty(); }
    // Hugging Face prepends only to a text that is not empty, and replaces
    // every occurrence, left to right.
    QString apply(const QString &text) const;

private:
    std::vector<Step> m_steps;
};

} // namespace attn
