#pragma once
// A session: everything the user set up, as saved in a .attn.json file.

#include "attention/attention.h"

#include <Eigen/Dense>
#include <QString>
#include <QStringList>
#include <optional>
#include <utility>
#include <vector>

namespace attn {

// The second sequence of cross-attention, which supplies keys and values.
struct SourceSequence
{
    QStringList tokens;
    Eigen::MatrixXd embeddings; // tokens.size() x d_model

    bool operator==(const SourceSequence &o) const
    {
        return tokens == o.tokens && embeddings.rows() == o.embeddings.rows()
            && embeddings.cols() == o.embeddings.cols() && embeddings == o.embeddings;
    }
};

// The trained model a session was saved with (the "model" object of a
// session file): where it was, what its weights file was, and what was shown.
struct ModelReference
{
    QString path;     // the folder as opened (plain folder, cache entry or snapshot)
    QString identity; // fileIdentity() of its weights file when saved; empty: unknown
    QString text;     // the text the model read
    int layer = 0;
    int head = 0;     // -1: the average of the layer's heads
    int query = 0;
    // Heads switched off, as (layer, head) pairs, sorted and without repeats
    // (the "ablated" list, as `compute --model --ablate` writes it).
    std::vector<std::pair<int, int>> ablated;

    bool operator==(const ModelReference &o) const
    {
        return path == o.path && identity == o.identity && text == o.text && layer == o.layer && head == o.head
            && query == o.query && ablated == o.ablated;
    }
};

struct Session
{
    QString sentence;
    QStringList tokens;
    Eigen::MatrixXd embeddings; // tokens.size() x d_model
    int query = 0;
    AttentionConfig attention;
    ProjectionWeights weights; // only the matrices fixed by the file; the rest come from the seed
    std::optional<SourceSequence> source;
    // Set only in a session read from, or about to be written to, a file
    // saved while a model was open; the hand-made fields above stay valid
    // underneath, so readers that do not know "model" open those.
    std::optional<ModelReference> model;

    int dModel() const { return int(embeddings.cols()); }
    int tokenCount() const { return int(tokens.size()); }

    bool operator==(const Session &o) const;
    bool operator!=(const Session &o) const { return !(*this == o); }
};

// "Your journey starts with one step" with the 3-dimensional embeddings of
// the contract, scaled dot-product attention, one head of width 2, seed 123.
Session exampleSession();

// Runs the engine on a session (cross-attention when it has a source).
// Throws Cancelled once `cancel` is raised (see computeAttention).
AttentionResult computeSession(const Session &session, Precision precision = Precision::Auto,
                               const CancelFlag *cancel = nullptr, const HeadsKept &kept = HeadsKept::all());

// The work of one forward pass over the session, in floating-point
// operations (forwardWork: the softmax included).
double sessionFlops(const Session &session);

} // namespace attn
