#pragma once
// How a tokenizer cuts a text into pieces before byte-pair encoding (Hugging
// Face's pre-tokenizers): regex or literal splits with their delimiter
// behaviours, GPT-2's byte level, SentencePiece's metaspace. A list of steps,
// each cutting the pieces of the one before. Built from tokenizer.json's
// "pre_tokenizer" or from a GGUF file's `tokenizer.ggml.pre` name; it reads no
// file itself.

#include <QRegularExpression>
#include <QString>
#include <vector>

namespace attn {

class PreTokenizer
{
public:
    // What becomes of a match (tokenizers' SplitDelimiterBehavior).
    enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };
    // When the metaspace step puts a "▁" in front of a piece.
    enum class Prepend { Always, First, Never };

    struct Piece
    {
        QString text;
        bool atStart = false; // begins where the user's text begins
    };

    // A regex in the syntax tokenizer.json writes (Oniguruma's, which PCRE2
    // reads alike for the patterns models use). False, with what PCRE2 says,
    // when it does not compile.
    bool appendSplit(const QString &regex, Behavior behavior, bool invert, QString *error);
    void appendLiteralSplit(const QString &literal, Behavior behavior, bool invert);
    // GPT-2's byte level: a space in front of each piece that has none when
    // `addPrefixSpace`; GPT-2's own pattern when `useRegex`. The bytes
    // themselves become symbols in the BPE model.
    void appendByteLevel(bool addPrefixSpace, bool useRegex);
    // Spaces become `replacement` ("▁"), which is put in front as `prepend`
    // says; with `split`, each "▁" starts a new piece.
    void appendMetaspace(const QString &replacement, Prepend prepend, bool split);
    // The Digits pre-tokenizer: every digit alone, or runs of digits.
    void appendDigits(bool individual);

    bool isEmpty() const { return m_steps.empty(); }
    bool hasByteLevel() const;
    // Whether the last step is the byte level (where it must be, for the
    // model to read bytes).
    bool endsWithByteLevel() const;

    // The pieces of a text, in order, none empty.
    std::vector<Piece> apply(const QString &text, bool atStart) const;

private:
    struct Step
    {
        enum class Kind { Split, ByteLevel, Metaspace };
        Kind kind = Kind::Split;
        QRegularExpression pattern;
        Behavior behavior = Behavior::Isolated;
        bool invert = false;
        bool addPrefixSpace = false;
        bool useRegex = false;
        QString replacement;
        Prepend prepend = Prepend::Always;
        bool split = true;
    };
    static void splitPiece(const Piece &piece, const QRegularExpression &pattern, Behavior behavior, bool invert,
                           std::vector<Piece> &out);
    std::vector<Step> m_steps;
};

} // namespace attn
