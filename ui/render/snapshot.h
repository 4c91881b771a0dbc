#pragma once
// What the views draw: one immutable picture of the document after a compute.
// Shared by pointer, so handing it to every view (or a worker thread) is cheap.

#include "attention.h"
#include "session.h"

#include <Eigen/Dense>
#include <QString>
#include <QStringList>
#include <memory>

struct AttentionSnapshot
{
    // How the views name queries and keys: the sentence's tokens (the
    // source's for keys in cross-attention), a repeated word with its
    // 0-based position as a subscript ("over₇", attn::tokenLabels).
    QStringList rowTokens;
    QStringList columnTokens;
    Eigen::MatrixXd embeddings; // the sentence's embeddings as edited (before positional encoding)
    std::shared_ptr<const attn::AttentionResult> result; // null when it could not be computed
    QString error; // why there is no result
    double milliseconds = 0; // how long the computation took
};

using SnapshotPtr = std::shared_ptr<const AttentionSnapshot>;

// Runs the core on `session` and names its tokens as every view does. Never
// throws: a session that cannot be computed (or whose `cancel` was raised)
// gives a snapshot whose error says why.
SnapshotPtr makeSnapshot(const attn::Session &session, attn::Precision precision = attn::Precision::Auto,
                         const attn::CancelFlag *cancel = nullptr);
