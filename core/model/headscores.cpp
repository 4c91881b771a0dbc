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

    PatternKeys(const std::vector<int> &tokens, int window) : window(window)
    {
        // Earlier positions of each token id, in order, so each query's keys
        // come out ascending and each induction key appears once.
        std::unordered_map<int, std::vector<int>> seen;
        for (int i = 0; i < int(tokens.size()); ++i) {
            std::vector<int> &earlier = seen[tokens[std::size_t(i)]];
            for (const int j : earlier) {
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

double meanOverQueries(const MatrixIn<float> &weights, const KeyLists &lists)
{
    double total = 0;
    int queries = 0;
    for (int i = 0; i < int(weights.rows()); ++i) {
        if (lists.count(i) == 0)
            continue;
        double sum = 0;
        for (int k = lists.begin[std::size_t(i)]; k < lists.begin[std::size_t(i) + 1]; ++k)
            sum += double(weights(i, lists.keys[std::size_t(k)]));
        total += sum;
        ++queries;
    }
    return queries == 0 ? kNaN : total / queries;
}

// Mean over queries 1 ... n-1 that can see key(i) of the weight on it.
template<typename KeyOf>
double meanFromSecondQuery(const MatrixIn<float> &weights, const PatternKeys &keys, KeyOf keyOf)
{
    double total = 0;
    int queries = 0;
    for (int i = 1; i < int(weights.rows()); ++i) {
        if (!keys.sees(i, keyOf(i)))
            continue;
        total += double(weights(i, keyOf(i)));
        ++queries;
    }
    return queries == 0 ? kNaN : total / queries;
}

double chosenWeight(const MatrixIn<float> &weights, const std::optional<QueryKey> &chosen)
{
    const int n = int(weights.rows());
    const bool inside = chosen && chosen->query >= 0 && chosen->query < n && chosen->key >= 0 && chosen->key < n;
    return inside ? double(weights(chosen->query, chosen->key)) : kNaN;
}

HeadScores scoresOf(const MatrixIn<float> &weights, const PatternKeys &keys, const std::optional<QueryKey> &chosen)
{
    HeadScores s;
    s.previousToken = meanFromSecondQuery(weights, keys, [](int i) { return i - 1; });
    s.firstToken = meanFromSecondQuery(weights, keys, [](int) { return 0; });
    s.self = meanFromSecondQuery(weights, keys, [](int i) { return i; });
    s.duplicate = meanOverQueries(weights, keys.duplicate);
    s.induction = meanOverQueries(weights, keys.induction);
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
