#pragma once
// SentencePiece's BPE as llama.cpp runs a GGUF `llama` vocabulary
// (llama-vocab.cpp, llm_tokenizer_spm): no merge list, but a score for each
// token; adjacent symbols whose joined text is a token merge, the highest
// score first (the leftmost on a tie); a symbol that is no token becomes its
// bytes' <0xNN> tokens. Spaces are "▁", one put in front of the text and
// after each special token when `addSpacePrefix`. Built from data: it reads
// no file.

#include "addedtokens.h"
#include "modeltokenizer.h"

#include <QHash>
#include <QStringList>
#include <array>
#include <vector>

namespace attn {

struct SentencePieceVocabulary
{
    // GGUF's tokenizer.ggml.token_type values.
    enum class TokenType : qint32 { Undefined = 0, Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };

    QStringList tokens;          // by id, "▁the", "<0x0A>", "<s>"
    std::vector<float> scores;   // by id; missing ones count 0
    std::vector<TokenType> types; // by id; missing ones count Normal
    bool addSpacePrefix = true;
    bool addBos = true;
    bool addEos = false;
    SpecialTokenIds special;     // bos, eos, unk at least
};

class SentencePieceTokenizer final : public ModelTokenizer
{
public:
    explicit SentencePieceTokenizer(SentencePieceVocabulary vocabulary);

    Kind kind() const override { return Kind::BytePairEncoding; }
    std::vector<ModelToken> encode(const QString &text) const override;
    int vocabSize() const override { return int(m_vocab.tokens.size()); }
    QString idToText(int id) const override;

    // The ids of one fragment with its spaces already "▁".
    std::vector<int> encodeFragment(const QString &fragment) const;

private:
    float score(int id) const;
    void appendToken(std::vector<ModelToken> &out, int id, bool covers) const;

    SentencePieceVocabulary m_vocab;
    QHash<QString, int> m_ids;
    std::array<int, 256> m_byteIds{};
    AddedTokens m_specials; // control and user-defined tokens, found in the text first
    std::vector<QByteArray> m_bytes;
    QStringList m_texts;
    std::vector<ModelToken::Role> m_roles;
};

} // namespace attn
