#pragma once
// BERT's WordPiece (transformers' BertTokenizer): the basic tokenizer's
// words, each cut greedily into the longest vocabulary pieces from the left,
// continuations spelled "##piece"; a word that cannot be cut, or is longer
// than 100 characters, is [UNK]. encode() adds [CLS] … [SEP].
// Built by the loaders in tokenizerloader.h, which check the files first.

#include "addedtokens.h"
#include "basictokenizer.h"
#include "modeltokenizer.h"

#include <QHash>
#include <QStringList>

namespace attn {

class WordPieceTokenizer final : public ModelTokenizer
{
public:
    // `vocab[id]` is the piece; a piece listed twice is found at its last id
    // (as transformers' load_vocab does). `special` must name unk, cls and
    // sep; `added` holds the specials that a user may type ("[MASK]").
    WordPieceTokenizer(const QStringList &vocab, const BasicTokenizerOptions &options, const AddedTokens &added,
                       const SpecialTokenIds &special, const QString &continuationPrefix = QStringLiteral("##"),
                       int maxWordChars = 100);

    Kind kind() const override { return Kind::WordPiece; }
    std::vector<ModelToken> encode(const QString &text) const override;
    int vocabSize() const override { return int(m_vocab.size()); }
    QString idToText(int id) const override;

    // The pieces of one word of the basic tokenizer, without [CLS]/[SEP].
    std::vector<ModelToken> encodeWord(const QString &word) const;

private:
    QStringList m_vocab;
    QHash<QString, int> m_ids;
    BasicTokenizerOptions m_options;
    AddedTokens m_added;
    QString m_prefix;
    int m_maxWordChars;
};

} // namespace attn
