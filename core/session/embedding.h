#pragma once
// Default embeddings for new words, and keeping edited ones when a sentence changes.

#include <Eigen/Dense>
#include <QString>
#include <QStringList>

namespace attn {

// The vector a word gets before anyone edits it: derived from the word's text
// alone, so the same word has the same numbers on every run and platform.
// Values lie in [-1, 1] and are rounded to two decimals, so they can be
// checked by hand. Dimension k does not depend on dModel: growing d_model
// appends dimensions and keeps the existing ones.
Eigen::VectorXd defaultEmbedding(const QString &word, int dModel);

// The value dimension `dim` of `word`'s default embedding.
double defaultEmbeddingValue(const QString &word, int dim);

// Embeddings for `newTokens` that keep what the user had: the k-th occurrence
// of a word takes the row of the k-th occurrence of the same word in
// `oldTokens` (or of its last occurrence when there are fewer), and words
// that are new get their default embedding.
Eigen::MatrixXd carryOverEmbeddings(const QStringList &oldTokens, const Eigen::MatrixXd &oldEmbeddings,
                                    const QStringList &newTokens);

// The same embeddings with d_model changed: extra dimensions take each
// token's default values, and shrinking drops the last dimensions.
Eigen::MatrixXd resizeEmbeddings(const QStringList &tokens, const Eigen::MatrixXd &embeddings, int dModel);

} // namespace attn
