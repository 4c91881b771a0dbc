#include "model/headscores.h"

#include "runtime/twothreads.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace attn {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// For each query, the keys a pattern looks at, as one flat list
// (compressed rows: query i's keys are keys[begin[i] .. begin[i + 1])).
struct KeyLists
{
    std::vector<int> begin{0};
    std::vector<int> keys;

    void closeQuery() { begin.push_back(int(keys.size())); }
    int count(int query) const { return begin[std::size_t(query) + 1] - begin[std::size_t(query)]; }
};

// The keys of the duplicate and induction scores, found once per token
// sequence and window and shared by every head.
struct PatternKeys
{
    KeyLists duplicate, induction;
    int window = 0;

    // Whether query i can see key j (j <= i).
    bool sees(int i, int j) const { return window <= 0 || j > i - window; }

    // The lists of queries `from` on (those before are left empty: a typed
    // word's scores go on from sums over them).
    PatternKeys(const std::vector<int> &tokens, int window, int from = 0) : window(window)
    {
        // Earlier positions of each token id, in order, so each query's keys
        // come out ascending and each induction key appears once.
        std::unordered_map<int, std::vector<int>> seen;
        for (int i = 0; i < int(tokens.size()); ++i) {
            std::vector<int> &earlier = seen[tokens[std::size_t(i)]];
            for (std::size_t e = 0; i >= from && e < earlier.size(); ++e) {
                const int j = earlier[e];
                if (sees(i, j))
                    duplicate.keys.push_back(j);
                if (j + 1 < i && sees(i, j + 1))
                    induction.keys.push_back(j + 1);
            }
            duplicate.closeQuery();
            induction.closeQuery();
            earlier.push_back(i);
        }
    }
};

// The patterns' places in HeadScoreRows::Sums.
enum Pattern { PreviousToken, FirstToken, Self, Duplicate, Induction };

double meanOf(const HeadScoreRows::Sums &s, Pattern p)
{
    return s.queries[p] == 0 ? kNaN : s.total[p] / s.queries[p];
}

// The weights on a query's keys in `lists`, summed, when it has any.
void addListed(const MatrixIn<float> &weights, const KeyLists &lists, int i, HeadScoreRows::Sums &s, Pattern p)
{
    if (lists.count(i) == 0)
        return;
    double sum = 0;
    for (int k = lists.begin[std::size_t(i)]; k < lists.begin[std::size_t(i) + 1]; ++k)
        sum += double(weights(i, lists.keys[std::size_t(k)]));
    s.total[p] += sum;
    ++s.queries[p];
}

// Sums of queries `from` ... n-1 after `s` (the sums over the queries
// before), each query's into `rows` when given; the sums over all.
HeadScoreRows::Sums sumRows(const MatrixIn<float> &weights, const PatternKeys &keys, int from, HeadScoreRows::Sums s,
                            std::vector<HeadScoreRows::Sums> *rows)
{
    const auto add = [&](int i, int key, Pattern p) {
        if (!keys.sees(i, key))
            return;
        s.total[p] += double(weights(i, key));
        ++s.queries[p];
    };
    for (int i = from; i < int(weights.rows()); ++i) {
        if (i > 0) { // query 0 counts in none (headscores.h)
            add(i, i - 1, PreviousToken);
            add(i, 0, FirstToken);
            add(i, i, Self);
        }
        addListed(weights, keys.duplicate, i, s, Duplicate);
        addListed(weights, keys.induction, i, s, Induction);
        if (rows)
            (*rows)[std::size_t(i)] = s;
    }
    return s;
}

double chosenWeight(const MatrixIn<float> &weights, const std::optional<QueryKey> &chosen)
{
    const int n = int(weights.rows());
    const bool inside = chosen && chosen->query >= 0 && chosen->query < n && chosen->key >= 0 && chosen->key < n;
    return inside ? double(weights(chosen->query, chosen->key)) : kNaN;
}

HeadScores scoresFromSums(const HeadScoreRows::Sums &s)
{
    HeadScores h;
    h.previousToken = meanOf(s, PreviousToken);
    h.firstToken = meanOf(s, FirstToken);
    h.self = meanOf(s, Self);
    h.duplicate = meanOf(s, Duplicate);
    h.induction = meanOf(s, Induction);
    return h;
}

HeadScores scoresOf(const MatrixIn<float> &weights, const PatternKeys &keys, const std::optional<QueryKey> &chosen)
{
    HeadScores s = scoresFromSums(sumRows(weights, keys, 0, {}, nullptr));
    s.chosenKey = chosenWeight(weights, chosen);
    return s;
}

void checkShape(const MatrixIn<float> &weights, std::size_t tokens)
{
    if (weights.rows() != weights.cols() || std::size_t(weights.rows()) != tokens)
        throw std::invalid_argument("head scores: the weights must be square with one row per token");
}

} // namespace

HeadScores headScores(const MatrixIn<float> &weights, const std::vector<int> &tokens,
                      const std::optional<QueryKey> &chosen, int window)
{
    checkShape(weights, tokens.size());
    return scoresOf(weights, PatternKeys(tokens, window), chosen);
}

std::vector<std::vector<HeadScores>> traceHeadScores(const ModelTrace &trace, const std::vector<int> &tokens,
                                                     const std::optional<QueryKey> &chosen,
                                                     const std::vector<int> &windows)
{
    std::map<int, PatternKeys> keysOfWindow; // a model has at most two windows: none and its own
    std::vector<std::vector<HeadScores>> result;
    result.reserve(trace.layers.size());
    for (const LayerTrace &layer : trace.layers) {
        const std::size_t l = result.size();
        const int window = l < windows.size() ? std::max(0, windows[l]) : 0;
        auto found = keysOfWindow.find(window);
        if (found == keysOfWindow.end())
            found = keysOfWindow.emplace(window, PatternKeys(tokens, window)).first;
        const PatternKeys &keys = found->second;
        std::vector<HeadScores> heads;
        heads.reserve(layer.weights.size());
        for (const RowMatrix<float> &w : layer.weights) {
            checkShape(w, tokens.size());
            heads.push_back(scoresOf(w, keys, chosen));
        }
        result.push_back(std::move(heads));
    }
    return result;
}

std::vector<HeadScores> layerHeadScores(const LayerTrace &layer, const std::vector<int> &tokens,
                                        const std::optional<QueryKey> &chosen, int window)
{
    const PatternKeys keys(tokens, std::max(0, window));
    for (const RowMatrix<float> &w : layer.weights)
        checkShape(w, tokens.size());
    // The heads on both threads: a layer's weights are megabytes, read once.
    std::vector<HeadScores> heads(layer.weights.size());
    const std::size_t half = heads.size() / 2;
    const auto some = [&](std::size_t from, std::size_t to) {
        for (std::size_t h = from; h < to; ++h)
            heads[h] = scoresOf(layer.weights[h], keys, chosen);
    };
    runBoth([&] { some(0, half); }, [&] { some(half, heads.size()); });
    return heads;
}

std::vector<HeadScores> layerHeadScores(const LayerTrace &layer, const std::vector<int> &tokens, int window,
                                        std::vector<HeadScoreRows> &rows, const std::vector<HeadScoreRows> *earlier,
                                        int reused)
{
    for (const RowMatrix<float> &w : layer.weights)
        checkShape(w, tokens.size());
    const std::size_t heads = layer.weights.size();
    const bool goOn = earlier && earlier->size() == heads && reused > 0 && reused <= int(tokens.size())
                   && std::all_of(earlier->begin(), earlier->end(),
                                  [&](const HeadScoreRows &r) { return int(r.rows.size()) >= reused; });
    const int from = goOn ? reused : 0;
    const PatternKeys keys(tokens, std::max(0, window), from);
    rows.assign(heads, {});
    std::vector<HeadScores> scores(heads);
    const auto some = [&](std::size_t first, std::size_t end) {
        for (std::size_t h = first; h < end; ++h) {
            std::vector<HeadScoreRows::Sums> &mine = rows[h].rows;
            mine.reserve(tokens.size());
            if (goOn)
                mine.assign((*earlier)[h].rows.begin(), (*earlier)[h].rows.begin() + from);
            mine.resize(tokens.size()); // sumRows writes the rest
            const HeadScoreRows::Sums start = goOn ? mine[std::size_t(from) - 1] : HeadScoreRows::Sums{};
            scores[h] = scoresFromSums(sumRows(layer.weights[h], keys, from, start, &mine));
            scores[h].chosenKey = kNaN;
        }
    };
    // A typed word's few rows are less work than handing half the heads to the other thread.
    if (int(tokens.size()) - from < 16)
        some(0, heads);
    else
        runBoth([&] { some(0, heads / 2); }, [&] { some(heads / 2, heads); });
    return scores;
}

std::vector<std::vector<HeadScores>> withChosenKey(std::vector<std::vector<HeadScores>> table, const ModelTrace &trace,
                                                   const std::optional<QueryKey> &chosen)
{
    if (table.size() != trace.layers.size())
        throw std::invalid_argument("head scores: the table and the trace have different layers");
    for (std::size_t l = 0; l < table.size(); ++l) {
        const std::vector<RowMatrix<float>> &weights = trace.layers[l].weights;
        if (table[l].size() != weights.size())
            throw std::invalid_argument("head scores: the table and the trace have different heads");
        for (std::size_t h = 0; h < weights.size(); ++h)
            table[l][h].chosenKey = chosenWeight(weights[h], chosen);
    }
    return table;
}

std::optional<int> bestHead(const std::vector<HeadScores> &layer, double HeadScores::*score)
{
    std::optional<int> best;
    for (int h = 0; h < int(layer.size()); ++h) {
        const double v = layer[std::size_t(h)].*score;
        if (!std::isnan(v) && (!best || v > layer[std::size_t(*best)].*score))
            best = h;
    }
    return best;
}

} // namespace attn
