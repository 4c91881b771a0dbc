#pragma once
// GPT-2's byte-level byte-pair encoding (openai/gpt-2 encoder.py): the text
// is cut into words by GPT-2's pattern, each word's UTF-8 bytes become their
// stand-in characters, and adjacent pieces merge by lowest merge rank.
// Built by the loaders in tokenizerloader.h, which check the files first.

#include "addedtokens.h"
#include "modeltokenizer.h"

#include <QHash>
#include <QMutex>
#include <QStringList>
#include <array>
#include <unordered_map>

namespace attn {

class BpeTokenizer final : public ModelTokenizer
{
public:
    struct Merge
    {
        int left = -1;
        int right = -1;
        int merged = -1;
    };

    // `vocab[id]` is the token's string in the byte-level alphabet; `byteIds`
    // the id of each single byte's stand-in; `merges` in rank order (a pair
    // listed twice keeps its last rank, as encoder.py and Hugging Face do).
    BpeTokenizer(const QStringList &vocab, const std::array<int, 256> &byteIds, const std::vector<Merge> &merges,
                 const AddedTokens &added, const SpecialTokenIds &special);

    Kind kind() const override { return Kind::BytePairEncoding; }
    std::vector<ModelToken> encode(const QString &text) const override;
    int vocabSize() const override { return int(m_bytes.size()); }
    QString idToText(int id) const override;

    // The ids one pre-tokenised word (as UTF-8) becomes.
    std::vector<int> encodeWord(const QByteArray &utf8) const;

private:
    std::vector<int> mergeWord(const QByteArray &utf8) const;

    std::vector<QByteArray> m_bytes; // per id
    QStringList m_texts;             // per id
    std::array<int, 256> m_byteIds{};
    std::unordered_map<quint64, std::pair<int, int>> m_merges; // (left, right) -> (rank, merged)
    AddedTokens m_added;

    mutable QMutex m_cacheMutex;
    mutable QHash<QByteArray, std::vector<int>> m_cache;
};

} // namespace attn
