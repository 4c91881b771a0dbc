#include "lessons/walkthroughpositions.h"

#include "lessons/notation.h"
#include "attention/rotarypositions.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::walk {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("Walkthrough", text); }

// Every number of these steps as every view writes it: four decimals.
QString fixedVector(const Eigen::RowVectorXd &v, int maxTerms)
{
    QStringList parts;
    for (Eigen::Index i = 0; i < v.size() && i < maxTerms; ++i)
        parts << formatFixed(v[i]);
    QString text = QStringLiteral("[%1").arg(parts.join(QStringLiteral(", ")));
    if (v.size() > maxTerms)
        text += tr(", … (+%1 more)").arg(v.size() - maxTerms);
    return text + QLatin1Char(']');
}

std::vector<double> numbersOf(const Eigen::RowVectorXd &v) { return {v.data(), v.data() + v.size()}; }

QString quoted(const QStringList &tokens, int i) { return QStringLiteral("“%1”").arg(tokenLabel(tokens, i)); }

QString thetaText(double theta) { return formatNumber(theta, 4); }

// The lines of one vector turned to `position`: before, each pair, after.
void turnLines(WalkthroughStep &s, const PositionsContext &c, const QString &name, const QString &before,
               const Eigen::RowVectorXd &unturned, const Eigen::RowVectorXd &turned, int position, int key)
{
    const int d = int(unturned.size()), half = d / 2;
    const std::vector<double> frequencies = rotaryPairFrequencies(d, c.result.ropeTheta);
    const QString sup = superscriptIndex(position);
    s.lines.push_back({QStringLiteral("%1̃%2 = %3 = %4").arg(name, sup, before, fixedVector(unturned, c.limits.maxTerms)),
                       key, numbersOf(unturned)});
    const int pairs = std::min(half, std::max(1, c.limits.maxTerms / 2));
    for (int i = 0; i < pairs; ++i) {
        const double angle = rotaryPairAngle(frequencies, i, position);
        const RotatedPair turnedPair = rotatePair(unturned[i], unturned[i + half], angle);
        s.lines.push_back({tr("pair %1 (d%2, d%3): angle %4 × %5^(−%6/%7) = %8 rad; (%9, %10) → (%11, %12)")
                               .arg(i)
                               .arg(subscriptDigits(QString::number(i)), subscriptDigits(QString::number(i + half)))
                               .arg(position)
                               .arg(thetaText(c.result.ropeTheta))
                               .arg(2 * i)
                               .arg(d)
                               .arg(formatFixed(angle), formatFixed(unturned[i]), formatFixed(unturned[i + half]),
                                    formatFixed(turnedPair.first), formatFixed(turnedPair.second)),
                           key, {angle, turnedPair.first, turnedPair.second}});
    }
    if (pairs < half)
        s.lines.push_back({tr("… (+%1 more pairs, each turning more slowly)").arg(half - pairs), key, {}});
    s.lines.push_back({QStringLiteral("%1%2 = %3").arg(name, sup, fixedVector(turned, c.limits.maxTerms)), key,
                       numbersOf(turned)});
}

// q̃ turned to p against k̃ turned to p - distance: the score rotary positions give.
double turnedScore(const Eigen::RowVectorXd &q, const Eigen::RowVectorXd &k, int queryAt, int keyAt, double theta)
{
    return rotatedAt(q, queryAt, theta).dot(rotatedAt(k, keyAt, theta));
}

} // namespace

int rotaryKeyFor(const AttentionResult &result, int head, int query)
{
    const AttentionMatrix &w = result.heads[std::size_t(head)].weights;
    int best = -1;
    for (int j = 0; j < int(w.cols()); ++j)
        if (j != query && !result.isMasked(query, j) && (best < 0 || w(query, j) > w(query, best)))
            best = j;
    return best < 0 ? query : best;
}

Eigen::RowVectorXd unturnedQuery(const AttentionResult &result, int head, int query)
{
    const Eigen::RowVectorXd x = result.inputs.row(query);
    if (!result.projected)
        return x;
    if (result.weights)
        return x * result.weights->query[std::size_t(head)];
    const Eigen::RowVectorXd q = result.heads[std::size_t(head)].queries.row(query);
    return result.rotary ? rotatedAt(q, -query, result.ropeTheta) : q;
}

Eigen::RowVectorXd unturnedKey(const AttentionResult &result, int head, int key)
{
    const Eigen::MatrixXd &keysFrom = result.sourceInputs.size() > 0 ? result.sourceInputs : result.inputs;
    const Eigen::RowVectorXd y = keysFrom.row(key);
    if (!result.projected)
        return y;
    if (result.weights)
        return y * result.weights->key[std::size_t(result.keyValueHeadOf(head))];
    const Eigen::RowVectorXd k = result.heads[std::size_t(head)].keys.row(key);
    return result.rotary ? rotatedAt(k, -key, result.ropeTheta) : k;
}

WalkthroughStep rotaryStep(const PositionsContext &c)
{
    const HeadResult &head = c.result.heads[std::size_t(c.head)];
    const int d = int(head.queries.cols());
    WalkthroughStep s;
    s.kind = WalkthroughStepKind::RotatePositions;
    s.title = tr("Turn q and k by their positions");
    s.explanation = tr("Rotary positions add nothing to x. Instead the query and the key are turned by angles that "
                       "grow with their positions. Their numbers are taken in pairs, dimension i with dimension "
                       "i + d/2 (d = %1 here), and pair i turns by position × θ^(−2i/d) radians with θ = %2: "
                       "(a, b) becomes (a·cos − b·sin, b·cos + a·sin). The first pair turns fastest, later pairs "
                       "more slowly. The value vectors are not turned.")
                        .arg(d)
                        .arg(thetaText(c.result.ropeTheta));
    s.query = c.query;
    s.keys = {c.key};
    for (int i = 0; i < std::min(d, c.limits.maxTerms); ++i)
        s.dims.push_back(i);
    const bool simplified = !c.result.projected;
    const QString querySup = superscriptIndex(c.query), keySup = superscriptIndex(c.key);
    const QString queryBefore = simplified ? QStringLiteral("x%1").arg(querySup)
                                           : QStringLiteral("x%1·W_q").arg(querySup);
    const QString keyInput = c.result.sourceInputs.size() > 0 ? QStringLiteral("y") : QStringLiteral("x");
    const QString keyBefore = simplified ? keyInput + keySup : QStringLiteral("%1%2·W_k").arg(keyInput, keySup);
    s.lines.push_back({tr("the query %1 at position %2:").arg(quoted(c.queryTokens, c.query)).arg(c.query), -1, {}});
    turnLines(s, c, c.queryName, queryBefore, unturnedQuery(c.result, c.head, c.query), head.queries.row(c.query),
              c.query, -1);
    s.lines.push_back({tr("the key %1 at position %2:").arg(quoted(c.keyTokens, c.key)).arg(c.key), c.key, {}});
    turnLines(s, c, c.keyName, keyBefore, unturnedKey(c.result, c.head, c.key), head.keys.row(c.key), c.key, c.key);
    return s;
}

WalkthroughStep distanceStep(const PositionsContext &c, const Eigen::MatrixXd &embeddings)
{
    const double theta = c.result.ropeTheta;
    const int n = int(c.result.inputs.rows());
    const int m = int(c.result.heads[std::size_t(c.head)].keys.rows());
    const int distance = c.query - c.key;
    const Eigen::RowVectorXd q = unturnedQuery(c.result, c.head, c.query), k = unturnedKey(c.result, c.head, c.key);
    WalkthroughStep s;
    s.kind = WalkthroughStepKind::RelativePositions;
    s.title = tr("Only the distance counts");
    s.explanation = tr("Turning both vectors leaves an angle between them that depends only on how far apart they "
                       "stand: query turned by p·θᵢ, key by (p − %1)·θᵢ, difference %1·θᵢ. So move the same two "
                       "vectors together through the sentence and their score stays the same; change their "
                       "distance and it changes. Sinusoidal positions instead add a pattern to x itself, so q, k "
                       "and v all change with where a word stands, and the score with it.")
                        .arg(distance);
    s.query = c.query;
    s.keys = {c.key};
    const QString queryName = quoted(c.queryTokens, c.query), keyName = quoted(c.keyTokens, c.key);

    // The same two vectors at every pair of positions with the same distance.
    std::vector<int> together;
    for (int p = 0; p < n; ++p)
        if (p - distance >= 0 && p - distance < m)
            together.push_back(p);
    if (together.size() > std::size_t(c.limits.maxTerms))
        together.resize(std::size_t(c.limits.maxTerms));
    s.lines.push_back({tr("%1 and %2 moved together, %3 apart (rotary):").arg(queryName, keyName).arg(distance), -1, {}});
    for (int p : together) {
        const double score = turnedScore(q, k, p, p - distance, theta);
        s.lines.push_back({tr("at positions %1 and %2: ω = %3%4")
                               .arg(p)
                               .arg(p - distance)
                               .arg(formatFixed(score),
                                    p == c.query ? tr(" (where they stand)") : QString()),
                           -1, {score}});
    }
    // The key where it is, the query elsewhere: another distance, another score.
    s.lines.push_back({tr("%1 moved, %2 where it stands (rotary):").arg(queryName, keyName), -1, {}});
    int shown = 0;
    for (int p = 0; p < n && shown < c.limits.maxTerms; ++p) {
        if (p == c.query)
            continue;
        const double score = turnedScore(q, k, p, c.key, theta);
        s.lines.push_back({tr("at position %1, distance %2: ω = %3")
                               .arg(p)
                               .arg(formatNumber(p - c.key), formatFixed(score)),
                           -1, {score}});
        ++shown;
    }

    // Sinusoidal side by side: x + PE, then the same matrices (none in simplified mode).
    const bool simplified = !c.result.projected;
    if (!simplified && !c.result.weights)
        return s; // a model's layer: its matrices stay in the model
    const int d = int(embeddings.cols());
    const Eigen::MatrixXd &keyInputs = c.result.sourceInputs.size() > 0 ? c.result.sourceInputs : embeddings;
    const auto encoded = [&](const Eigen::RowVectorXd &x, int position) {
        return Eigen::RowVectorXd(x + sinusoidalEncoding(position + 1, d).row(position));
    };
    const auto project = [&](const Eigen::RowVectorXd &x, const std::vector<Eigen::MatrixXd> *list, int index) {
        return simplified ? x : Eigen::RowVectorXd(x * (*list)[std::size_t(index)]);
    };
    const int shared = c.result.keyValueHeadOf(c.head);
    const auto *w = c.result.weights.get();
    s.lines.push_back({tr("the same, with sinusoidal positions added to x instead:"), -1, {}});
    for (int p : together) {
        const Eigen::RowVectorXd qs = project(encoded(embeddings.row(c.query), p), w ? &w->query : nullptr, c.head);
        const Eigen::RowVectorXd ks = project(encoded(keyInputs.row(c.key), p - distance), w ? &w->key : nullptr,
                                              shared);
        const double score = qs.dot(ks);
        s.lines.push_back({tr("at positions %1 and %2: ω = %3").arg(p).arg(p - distance).arg(formatFixed(score)), -1,
                           {score}});
    }
    const Eigen::RowVectorXd v = c.result.heads[std::size_t(c.head)].values.row(c.key);
    const Eigen::RowVectorXd vs = project(encoded(keyInputs.row(c.key), c.key), w ? &w->value : nullptr, shared);
    const QString sup = superscriptIndex(c.key);
    s.lines.push_back({tr("rotary: %1%2 = %3, the same at every position (only q and k turn)")
                           .arg(c.valueName, sup, fixedVector(v, c.limits.maxTerms)),
                       c.key, numbersOf(v)});
    s.lines.push_back({tr("sinusoidal: %1%2 would be %3 at position %4 (q, k and v all change)")
                           .arg(c.valueName, sup, fixedVector(vs, c.limits.maxTerms))
                           .arg(c.key),
                       c.key, numbersOf(vs)});
    return s;
}

WalkthroughStep sharedKeyValuesStep(const PositionsContext &c)
{
    const AttentionResult &r = c.result;
    const int heads = int(r.heads.size()), groups = r.keyValueHeadCount(), group = heads / groups;
    const int d = r.headDim(), n = int(r.heads.front().keys.rows());
    const int shared = r.keyValueHeadOf(c.head);
    WalkthroughStep s;
    s.kind = WalkthroughStepKind::SharedKeyValues;
    s.title = tr("Heads that share keys and values");
    s.explanation = tr("This layer has %1 query heads but only %2 key/value heads: each group of %3 query heads "
                       "reads the same keys and values (query head h uses key/value head h ÷ %3). Head %4 reads "
                       "key/value head %5. A text generator keeps every token's keys and values while it writes, "
                       "so fewer of them save memory; the cost is that heads of one group can differ only in their "
                       "queries.")
                        .arg(heads)
                        .arg(groups)
                        .arg(group)
                        .arg(c.head)
                        .arg(shared);
    s.query = c.query;
    for (int g = 0; g < groups; ++g) {
        QStringList members;
        for (int h = g * group; h < (g + 1) * group; ++h)
            members << QString::number(h);
        s.lines.push_back({tr("key/value head %1 ← query heads %2").arg(g).arg(members.join(QStringLiteral(", "))), -1,
                           {}}); // head numbers name heads; they are not results to check
    }
    const double perToken = 2.0 * groups * d, unshared = 2.0 * heads * d;
    s.lines.push_back({tr("stored per token: %1 keys + %1 values = 2 × %1 × %2 = %3 numbers, instead of 2 × %4 × %2 "
                          "= %5 with one per head (%6 % less)")
                           .arg(groups)
                           .arg(d)
                           .arg(perToken)
                           .arg(heads)
                           .arg(unshared)
                           .arg(formatNumber(100.0 * (1.0 - perToken / unshared), 1)),
                       -1, {perToken, unshared}});
    s.lines.push_back({tr("for these %1 tokens: %2 numbers instead of %3").arg(n).arg(perToken * n).arg(unshared * n), -1,
                       {perToken * n, unshared * n}});
    // The cost, in numbers: another head of the group reads the very same k and v.
    const int other = c.head % group == 0 ? c.head + 1 : c.head - 1;
    const int key = std::clamp(c.key, 0, n - 1);
    const HeadResult &mine = r.heads[std::size_t(c.head)], &theirs = r.heads[std::size_t(other)];
    const QString sup = superscriptIndex(key);
    s.keys = {key};
    s.lines.push_back({tr("%1 and %2 read the same %3%4 = %5 and %6%4 = %7")
                           .arg(headName(c.head), headName(other), c.keyName, sup,
                                fixedVector(mine.keys.row(key), c.limits.maxTerms), c.valueName,
                                fixedVector(mine.values.row(key), c.limits.maxTerms)),
                       key, numbersOf(mine.values.row(key))});
    const double ownScore = mine.scores(c.query, key), otherScore = theirs.scores(c.query, key);
    s.lines.push_back({tr("only their queries differ: ω%1 = %2 in %3, %4 in %5")
                           .arg(subscriptDigits(QString::number(c.query) + QStringLiteral(",") + QString::number(key)),
                                formatFixed(ownScore), headName(c.head), formatFixed(otherScore), headName(other)),
                       key, {ownScore, otherScore}});
    return s;
}

} // namespace attn::walk
