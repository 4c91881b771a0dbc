#include "session/sessiondelta.h"

#include <algorithm>

namespace attn {
namespace {

// Fewer changed numbers than this are kept one by one; more, as the whole matrix.
constexpr Eigen::Index kMaxCells = 64;

template <typename T>
void record(std::optional<Change<T>> &slot, const T &before, const T &after)
{
    if (!(before == after))
        slot = Change<T>{before, after};
}

template <typename T>
bool absorbChange(std::optional<Change<T>> &mine, const std::optional<Change<T>> &next)
{
    if (!next)
        return false;
    if (mine)
        mine->after = next->after;
    else
        mine = next;
    if (mine->before == mine->after)
        mine.reset();
    return true;
}

bool sameMatrix(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
}

std::size_t textBytes(const QString &s) { return std::size_t(s.size()) * sizeof(QChar); }

std::size_t listBytes(const QStringList &list)
{
    std::size_t bytes = 0;
    for (const QString &s : list)
        bytes += textBytes(s) + sizeof(QString);
    return bytes;
}

std::size_t matrixBytes(const Eigen::MatrixXd &m) { return std::size_t(m.size()) * sizeof(double); }

std::size_t weightsBytes(const ProjectionWeights &w)
{
    std::size_t bytes = matrixBytes(w.output);
    for (const auto *set : {&w.query, &w.key, &w.value})
        for (const Eigen::MatrixXd &m : *set)
            bytes += matrixBytes(m);
    return bytes;
}

std::size_t sourceBytes(const std::optional<SourceSequence> &s)
{
    return s ? listBytes(s->tokens) + matrixBytes(s->embeddings) : 0;
}

} // namespace

SessionDelta SessionDelta::between(const Session &before, const Session &after)
{
    SessionDelta d;
    record(d.m_sentence, before.sentence, after.sentence);
    record(d.m_tokens, before.tokens, after.tokens);
    record(d.m_query, before.query, after.query);
    record(d.m_attention, before.attention, after.attention);
    record(d.m_weights, before.weights, after.weights);
    record(d.m_source, before.source, after.source);
    record(d.m_model, before.model, after.model);
    const Eigen::MatrixXd &a = before.embeddings, &b = after.embeddings;
    if (a.rows() == b.rows() && a.cols() == b.cols()) {
        // NaN never enters a session (the reader and the editor refuse it), so != is exact.
        const Eigen::Index changed = (a.array() != b.array()).count();
        if (changed > kMaxCells) {
            d.m_embeddings = Change<Eigen::MatrixXd>{a, b};
        } else if (changed > 0) {
            for (Eigen::Index c = 0; c < a.cols(); ++c)
                for (Eigen::Index r = 0; r < a.rows(); ++r)
                    if (a(r, c) != b(r, c))
                        d.m_cells.push_back({int(r), int(c), a(r, c), b(r, c)});
        }
    } else {
        d.m_embeddings = Change<Eigen::MatrixXd>{a, b};
    }
    return d;
}

bool SessionDelta::isEmpty() const
{
    return !m_sentence && !m_tokens && !m_query && !m_attention && !m_weights && !m_source && !m_model
        && !m_embeddings && m_cells.empty();
}

void SessionDelta::undo(Session &s) const
{
    if (m_sentence) s.sentence = m_sentence->before;
    if (m_tokens) s.tokens = m_tokens->before;
    if (m_query) s.query = m_query->before;
    if (m_attention) s.attention = m_attention->before;
    if (m_weights) s.weights = m_weights->before;
    if (m_source) s.source = m_source->before;
    if (m_model) s.model = m_model->before;
    if (m_embeddings) s.embeddings = m_embeddings->before;
    for (const CellChange &c : m_cells)
        s.embeddings(c.token, c.dim) = c.before;
}

void SessionDelta::redo(Session &s) const
{
    if (m_sentence) s.sentence = m_sentence->after;
    if (m_tokens) s.tokens = m_tokens->after;
    if (m_query) s.query = m_query->after;
    if (m_attention) s.attention = m_attention->after;
    if (m_weights) s.weights = m_weights->after;
    if (m_source) s.source = m_source->after;
    if (m_model) s.model = m_model->after;
    if (m_embeddings) s.embeddings = m_embeddings->after;
    for (const CellChange &c : m_cells)
        s.embeddings(c.token, c.dim) = c.after;
}

bool SessionDelta::absorb(const SessionDelta &next)
{
    // Embeddings first: the only part that may refuse, so nothing is half-absorbed.
    const bool mineWhole = m_embeddings.has_value(), nextWhole = next.m_embeddings.has_value();
    if ((mineWhole && !next.m_cells.empty()) || (nextWhole && !m_cells.empty()))
        return false;
    if (mineWhole || nextWhole) {
        absorbChange(m_embeddings, next.m_embeddings);
        if (m_embeddings && sameMatrix(m_embeddings->before, m_embeddings->after))
            m_embeddings.reset();
    }
    for (const CellChange &c : next.m_cells) {
        auto it = std::find_if(m_cells.begin(), m_cells.end(),
                               [&](const CellChange &m) { return m.token == c.token && m.dim == c.dim; });
        if (it == m_cells.end())
            m_cells.push_back(c);
        else
            it->after = c.after;
    }
    m_cells.erase(std::remove_if(m_cells.begin(), m_cells.end(),
                                 [](const CellChange &c) { return c.before == c.after; }),
                  m_cells.end());
    absorbChange(m_sentence, next.m_sentence);
    absorbChange(m_tokens, next.m_tokens);
    absorbChange(m_query, next.m_query);
    absorbChange(m_attention, next.m_attention);
    absorbChange(m_weights, next.m_weights);
    absorbChange(m_source, next.m_source);
    absorbChange(m_model, next.m_model);
    return true;
}

std::size_t SessionDelta::bytes() const
{
    std::size_t n = sizeof(*this) + m_cells.capacity() * sizeof(CellChange);
    if (m_sentence) n += textBytes(m_sentence->before) + textBytes(m_sentence->after);
    if (m_tokens) n += listBytes(m_tokens->before) + listBytes(m_tokens->after);
    if (m_weights) n += weightsBytes(m_weights->before) + weightsBytes(m_weights->after);
    if (m_source) n += sourceBytes(m_source->before) + sourceBytes(m_source->after);
    if (m_embeddings) n += matrixBytes(m_embeddings->before) + matrixBytes(m_embeddings->after);
    return n;
}

} // namespace attn
