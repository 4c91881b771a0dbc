#pragma once
// What the views draw: one immutable picture of the document after a compute.
// Shared by pointer, so handing it to every view (or a worker thread) is cheap.

#include "attention/attention.h"
#include "session/session.h"

#include <Eigen/Dense>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <memory>
#include <vector>

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
    // The model layer the result is (views name it); -1 for a hand-made
    // session, which has one layer and names none.
    int modelLayer = -1;
    // The heads of this layer that were switched off when it was computed (a
    // model's, contract section 6): their context is zero. Every view that
    // shows one of them marks it.
    std::vector<int> switchedOffHeads;
    // The first token set aside (ViewSelection::firstTokenAside): result's
    // weights have key 0's column at 0 and each row's other weights
    // renormalised to sum to 1 (attn::firstTokenAside); realResult holds
    // the weights as computed. Views that draw such a snapshot say so.
    bool firstTokenAside = false;
    std::shared_ptr<const attn::AttentionResult> realResult;
    // The weights as computed, whichever the snapshot draws.
    const attn::AttentionResult *computedResult() const { return realResult ? realResult.get() : result.get(); }
    bool isSwitchedOff(int head) const
    {
        return std::find(switchedOffHeads.begin(), switchedOffHeads.end(), head) != switchedOffHeads.end();
    }
};

using SnapshotPtr = std::shared_ptr<const AttentionSnapshot>;

// Runs the core on `session` and names its tokens as every view does. Never
// throws: a session that cannot be computed (or whose `cancel` was raised)
// gives a snapshot whose error says why.
// `kept`: the heads the views show in full (attn::HeadsKept).
SnapshotPtr makeSnapshot(const attn::Session &session, attn::Precision precision = attn::Precision::Auto,
                         const attn::CancelFlag *cancel = nullptr, const attn::HeadsKept &kept = attn::HeadsKept::all());

// Layer `layer` of a model as the single-layer views draw it (result: from
// attn::layerAttention, or null when there is none yet): the tokens' texts
// label both axes, and the bars compare what enters the layer with what its
// attention adds.
// `snapshot` with the first token set aside, for the heatmap and the heads'
// tiles; the snapshot itself when it has no result or is set aside already.
SnapshotPtr firstTokenAsideSnapshot(const SnapshotPtr &snapshot);

std::shared_ptr<AttentionSnapshot> modelLayerSnapshot(const QStringList &tokenTexts,
                                                      std::shared_ptr<const attn::AttentionResult> result, int layer);
