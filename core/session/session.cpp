#include "session/session.h"

#include "runtime/passthread.h"

namespace attn {

bool Session::operator==(const Session &o) const
{
    return sentence == o.sentence && tokens == o.tokens && embeddings.rows() == o.embeddings.rows()
        && embeddings.cols() == o.embeddings.cols() && embeddings == o.embeddings && query == o.query
        && attention == o.attention && weights == o.weights && source == o.source
        && model == o.model;
}

Session exampleSession()
{
    Session s;
    s.sentence = QStringLiteral("Your journey starts with one step");
    s.tokens = QStringList{"Your", "journey", "starts", "with", "one", "step"};
    s.embeddings.resize(6, 3);
    s.embeddings << 0.43, 0.15, 0.89,
                    0.55, 0.87, 0.66,
                    0.57, 0.85, 0.64,
                    0.22, 0.58, 0.33,
                    0.77, 0.25, 0.10,
                    0.05, 0.80, 0.55;
    s.query = 1;
    s.attention.mode = Mode::ScaledDotProduct;
    s.attention.heads = 1;
    s.attention.headDim = 2;
    s.attention.causal = false;
    s.attention.scale = true;
    s.attention.positionalEncoding = PositionalEncoding::None;
    s.attention.outputProjection = false;
    s.attention.seed = 123;
    return s;
}

AttentionResult computeSession(const Session &session, Precision precision, const CancelFlag *cancel,
                               const HeadsKept &kept)
{
    notePassThread(sessionFlops(session));
    const Eigen::MatrixXd *source = session.source ? &session.source->embeddings : nullptr;
    return computeAttention(session.embeddings, session.attention, session.weights, source, precision, cancel, kept);
}

double sessionFlops(const Session &session)
{
    const double n = session.tokenCount();
    const double m = session.source ? double(session.source->tokens.size()) : n;
    return forwardWork(n, m, session.dModel(), session.attention);
}

} // namespace attn
