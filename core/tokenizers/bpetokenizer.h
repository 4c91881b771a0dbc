#pragma once
// Byte-pair encoding as Hugging Face's tokenizers run it (models/bpe): the
// text's added tokens are found, the rest normalised and cut into pieces,
// each piece's symbols (its bytes' GPT-2 stand-ins, or its characters with
// byte fallback) merged by lowest merge rank, and the post-processor's tokens
// (a BOS) put around the result. GPT-2, Llama 3, Qwen, SmolLM (byte level),
// Llama 2, Mistral, Gemma (SentencePiece style, "▁" for spaces).
// Built from data (tokenizerjson.cpp, or a GGUF file's vocabulary): it reads
// no file, and trusts that the data was checked (every merge's three tokens
// exist; a byte-level vocabulary has all 256 byte symbols).

#include "addedtokens.h"
#include "modeltokenizer.h"
#include "pretokenizer.h"
#include "textnormalizer.h"

#include <QHash>
#include <QMutex>
#include <QStringList>
#include <array>
#include <unordered_map>

namespace attn {

struct BpeMerge
{
    int left = -1;
    int right = -1;
    int merged = -1;
};

// What a BPE model is: tokenizer.json's "model", or a GGUF file's tokens and merges.
struct BpeVocabulary
{
    // Bytes: a piece's UTF-8 bytes are its first symbols, each written as
    // GPT-2's stand-in character. Characters: its characters are, and one
    // missing from the vocabulary becomes its bytes' <0xNN> tokens
    // (byteFallback), else the unknown token.
    enum class Alphabet { Bytes, Characters };

    QStringList tokens;           // by id, as the file spells them ("Ġworld", "▁world", "<0x0A>", "<s>")
    std::vector<BpeMerge> merges; // in rank order; a pair listed twice keeps its last rank
    Alphabet alphabet = Alphabet::Bytes;
    bool ignoreMerges = false;    // a whole piece that is a token is taken as it is
    bool byteFallback = false;
    bool fuseUnknown = false;     // a run of unknown characters is one unknown token
    int unknownId = -1;           // -1: unknown characters are dropped, as Hugging Face does
    QString spaceSymbol = QStringLiteral("\u2581"); // Characters: the symbol a space became
    QHash<QString, int> index;    // token -> id; may be left empty (built from `tokens`)
};

// What happens around the model.
struct TokenizerSteps
{
    AddedTokens added;           // found in the text as typed (normalized: false)
    AddedTokens addedNormalized; // found in the normalised text, spelled normalised
    QHash<int, bool> addedIds;   // every added token's id -> whether it is special
    TextNormalizer normalizer;
    PreTokenizer preTokenizer;
    std::vector<int> prefix;     // ids the post-processor puts in front (a BOS)
    std::vector<int> suffix;     // and behind (an EOS)
    SpecialTokenIds special;
};

class BpeTokenizer final : public ModelTokenizer
{
public:
    using Merge = BpeMerge;

    BpeTokenizer(BpeVocabulary vocabulary, TokenizerSteps steps);
    // GPT-2: byte level, its pattern, no normaliser, nothing around the text.
    BpeTokenizer(const QStringList &vocab, const std::array<int, 256> &byteIds, const std::vector<Merge> &merges,
                 const AddedTokens &added, const SpecialTokenIds &special);

    Kind kind() const override { return Kind::BytePairEncoding; }
    std::vector<ModelToken> encode(const QString &text) const override;
    int vocabSize() const override { return int(m_bytes.size()); }
    QString idToText(int id) const override;

    // The ids one pre-tokenised piece becomes (cached).
    std::vector<int> encodePiece(const QString &piece) const;
    // The ids of the post-processor's tokens around every text.
    const std::vector<int> &prefixIds() const { return m_steps.prefix; }

private:
    void describeTokens();
    std::vector<int> symbolsOf(const QString &piece) const;
    std::vector<int> merge(std::vector<int> ids) const;
    void appendToken(std::vector<ModelToken> &out, int id) const;

    BpeVocabulary m_vocab;
    TokenizerSteps m_steps;
    QHash<QString, int> m_ids;
    std::array<int, 256> m_byteIds{};      // Bytes: each byte's stand-in
    std::array<int, 256> m_fallbackIds{};  // Characters: each byte's <0xNN>
    std::unordered_map<quint64, std::pair<int, int>> m_merges; // (left, right) -> (rank, merged)

    std::vector<QByteArray> m_bytes;     // per id: the text it stands for
    QStringList m_texts;                 // per id: what a chip shows
    std::vector<ModelToken::Role> m_roles;

    mutable QMutex m_cacheMutex;
    mutable QHash<QString, std::vector<int>> m_cache;
};

} // namespace attn
