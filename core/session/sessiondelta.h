#pragma once
// The difference between two sessions, as one undo step keeps it: only the
// parts that changed, before and after. A slider step changes one number of
// the embeddings and the step holds that number, not the session; a new
// sentence holds the sentence, tokens and the embeddings it replaced.

#include "session/session.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace attn {

template <typename T>
struct Change
{
    T before, after;
};

// One number of the embeddings, before and after.
struct CellChange
{
    int token = 0, dim = 0;
    double before = 0, after = 0;
};

class SessionDelta
{
public:
    static SessionDelta between(const Session &before, const Session &after);

    bool isEmpty() const;
    void undo(Session &session) const; // `session` was the after state; becomes the before
    void redo(Session &session) const; // the other way

    // Appends `next` (a later edit of the same run, one slider drag): this
    // step then goes from its own before to `next`'s after. False, and
    // nothing changes, when the two hold embeddings in different forms.
    bool absorb(const SessionDelta &next);

    // What the step keeps in memory, for tests and the curious.
    std::size_t bytes() const;

private:
    std::optional<Change<QString>> m_sentence;
    std::optional<Change<QStringList>> m_tokens;
    std::optional<Change<int>> m_query;
    std::optional<Change<AttentionConfig>> m_attention;
    std::optional<Change<ProjectionWeights>> m_weights;
    std::optional<Change<std::optional<SourceSequence>>> m_source;
    std::optional<Change<std::optional<ModelReference>>> m_model;
    // The embeddings either as a whole (their shape changed, or most of them
    // did) or as the few numbers that changed.
    std::optional<Change<Eigen::MatrixXd>> m_embeddings;
    std::vector<CellChange> m_cells;
};

} // namespace attn
