#pragma once
// BERT's text normalisation and word splitting before WordPiece
// (transformers' BasicTokenizer): drop control characters and U+FFFD, make
// every whitespace a space, put spaces around CJK ideographs, NFC, then per
// whitespace-separated word lower-case and strip accents (NFD, drop Mn) and
// cut at every punctuation character.

#include <QStringList>

namespace attn {

struct BasicTokenizerOptions
{
    bool lowerCase = true;
    // Unset: strip accents exactly when lower-casing (BERT's default).
    enum class Accents { FollowLowerCase, Strip, Keep } accents = Accents::FollowLowerCase;
    bool spaceOutChinese = true;
};

// The words of `text`, each to be split into WordPiece pieces.
QStringList basicTokenize(const QString &text, const BasicTokenizerOptions &options);

} // namespace attn
