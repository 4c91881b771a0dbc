#pragma once
// What a pretrained model's tokenizer (byte-pair encodings of GPT-2, Llama,
// Qwen, Mistral, Gemma; BERT's WordPiece) gives for a text: vocabulary ids
// with the bytes and the text each one stands for.

#include <QByteArray>
#include <QString>
#include <vector>

namespace attn {

// One token of a model's vocabulary, as found in a text.
struct ModelToken
{
    // Text: a piece of the user's words. Special: a control token (BOS,
    // "<|endoftext|>", [CLS]), typed or added by the tokenizer. Byte: a
    // SentencePiece byte-fallback token standing for one byte ("<0xE2>").
    enum class Role : quint8 { Text, Special, Byte };

    int id = -1;
    // The UTF-8 bytes of the input this token stands for. A GPT-2 piece can be
    // part of a character (an emoji split in two); a BERT piece covers the
    // normalised text (lower-cased, accents stripped) without its "##", an
    // [UNK] the whole word; a SentencePiece piece its text with "▁" as a
    // space, a byte token its byte; the BOS, [CLS] and [SEP] that encode()
    // adds cover none.
    QByteArray bytes;
    // What a chip shows: " world" (not "Ġworld" or "▁world"), "##ing",
    // "[CLS]", "<s>", a byte token's own name "<0xE2>". Bytes that are not a
    // whole UTF-8 character are written as \xF0 escapes.
    QString text;
    Role role = Role::Text;

    bool operator==(const ModelToken &o) const
    {
        return id == o.id && bytes == o.bytes && text == o.text && role == o.role;
    }
};

// Ids of the special tokens; -1 where the vocabulary has none. GPT-2's
// <|endoftext|> is both its BOS and its EOS.
struct SpecialTokenIds
{
    int bos = -1;
    int eos = -1;
    int cls = -1;
    int sep = -1;
    int mask = -1;
    int unk = -1;
    int pad = -1;
};

class ModelTokenizer
{
public:
    enum class Kind { BytePairEncoding, WordPiece };

    virtual ~ModelTokenizer() = default;

    virtual Kind kind() const = 0;
    // Never fails: any text gives tokens (BERT adds [CLS] … [SEP], GPT-2 adds
    // nothing). A special token typed literally ("<|endoftext|>", "[MASK]")
    // becomes that token. Thread-safe.
    virtual std::vector<ModelToken> encode(const QString &text) const = 0;
    virtual int vocabSize() const = 0;
    // The display text of an id (as ModelToken::text); empty when out of range.
    virtual QString idToText(int id) const = 0;

    std::vector<int> encodeIds(const QString &text) const;
    const SpecialTokenIds &specialIds() const { return m_special; }

protected:
    SpecialTokenIds m_special;
};

// A tokenizer may know more tokens than its model (a model trained here has
// ids for every byte past its own few): names the first token of `tokens`
// whose id is not below `modelVocab`, as "\" d\" (token 1) is not one of the
// model's 58 tokens". Empty when all are.
QString unknownTokenProblem(const std::vector<ModelToken> &tokens, int modelVocab);

// How a chip shows bytes: whole UTF-8 characters as text, every byte that is
// not part of one (a piece of an emoji, invalid UTF-8) as \xHH.
QString displayTextForBytes(const QByteArray &bytes);

// Lone UTF-16 surrogates (which no UTF-8 text can hold) become U+FFFD, so
// every tokenizer sees well-formed text.
QString withoutLoneSurrogates(const QString &text);

} // namespace attn
