#pragma once
// What the views draw: one immutable picture of the document after a compute.
// Shared by pointer, so handing it to every view (or a worker thread) is cheap.

#include "attention.h"

#include <Eigen/Dense>
#include <QString>
#include <QStringList>
#include <memory>

struct AttentionSnapshot
{
    QStringList rowTokens;    // queries: the sentence's tokens
    QStringList columnTokens; // keys: the same tokens, or the source's in cross-attention
    Eigen::MatrixXd embeddings; // the sentence's embeddings as edited (before positional encoding)
    std::shared_ptr<const attn::AttentionResult> result; // null when it could not be computed
    QString error; // why there is no result
    double milliseconds = 0; // how long the computation took
};

using SnapshotPtr = std::shared_ptr<const AttentionSnapshot>;
