#pragma once
// A session: everything the user set up, as saved in a .attn.json file.

#include "attention.h"

#include <Eigen/Dense>
#include <QString>
#include <QStringList>
#include <optional>

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

struct Session
{
    QString sentence;
    QStringList tokens;
    Eigen::MatrixXd embeddings; // tokens.size() x d_model
    int query = 0;
    AttentionConfig attention;
    ProjectionWeights weights; // only the matrices fixed by the file; the rest come from the seed
    std::optional<SourceSequence> source;

    int dModel() const { return int(embeddings.cols()); }
    int tokenCount() const { return int(tokens.size()); }

    bool operator==(const Session &o) const;
    bool operator!=(const Session &o) const { return !(*this == o); }
};

// "Your journey starts with one step" with the 3-dimensional embeddings of
// the contract, scaled dot-product attention, one head of width 2, seed 123.
Session exampleSession();

// Runs the engine on a session (cross-attention when it has a source).
AttentionResult computeSession(const Session &session, Precision precision = Precision::Auto);

// Floating-point operations of one forward pass over the session.
double sessionFlops(const Session &session);

} // namespace attn
