#include "patternscores.h"

// To be replaced by core/model/headscores.

PatternScores headPatternScores(const attn::RowMatrix<float> &weights, const std::vector<int> &tokens)
{
    PatternScores s{};
    const int n = int(std::min<std::size_t>(tokens.size(), std::size_t(std::min(weights.rows(), weights.cols()))));
    if (n == 0)
        return s;
    double previous = 0, induction = 0, diagonal = 0, first = 0;
    int inductionQueries = 0;
    for (int i = 0; i < n; ++i) {
        diagonal += weights(i, i);
        if (i == 0)
            continue;
        previous += weights(i, i - 1);
        first += weights(i, 0);
        double onNext = 0;
        bool seen = false;
        for (int p = 0; p + 1 <= i - 1; ++p) // p + 1 < i: the key after p must come before the query
            if (tokens[std::size_t(p)] == tokens[std::size_t(i)]) {
                onNext += weights(i, p + 1);
                seen = true;
            }
        if (seen) {
            induction += onNext;
            ++inductionQueries;
        }
    }
    s[int(AttentionPattern::PreviousToken)] = n > 1 ? previous / (n - 1) : 0.0;
    s[int(AttentionPattern::Induction)] = inductionQueries ? induction / inductionQueries : 0.0;
    s[int(AttentionPattern::Diagonal)] = diagonal / n;
    s[int(AttentionPattern::FirstToken)] = n > 1 ? first / (n - 1) : 0.0;
    return s;
}
