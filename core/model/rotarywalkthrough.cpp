#include "model/rotarywalkthrough.h"

#include "model/layerrotation.h"
#include "lessons/notation.h"

#include <QCoreApplication>
#include <algorithm>

namespace attn {
namespace {

QString tr(const char *text) { return QCoreApplication::translate("Walkthrough", text); }

std::vector<double> numbersOf(const RowVector<float> &v) { return std::vector<double>(v.data(), v.data() + v.size()); }

QString vectorText(const RowVector<float> &v, int maxTerms)
{
    return formatVector(numbersOf(v), maxTerms);
}

QString quoted(const QStringList &tokens, int i) { return QStringLiteral("“%1”").arg(tokenLabel(tokens, i)); }

RowVector<float> rowAsFloat(const Eigen::MatrixXd &m, int row) { return m.row(row).cast<float>(); }

// What the rotation is, in a sentence: base, stretching, partial rotary, local base.
QString rotationText(const LayerRotation &r)
{
    QString text = tr("Of each head's %1 numbers, the first %2 are taken in pairs, dimension i with dimension "
                      "i + %3, and pair i turns by position × fᵢ radians, fᵢ = θ^(−2i/%2) with θ = %4")
                       .arg(r.headDim)
                       .arg(r.dimensions)
                       .arg(r.dimensions / 2)
                       .arg(formatNumber(r.theta, 0));
    if (r.scaling == RopeScaling::Linear)
        text += tr(", divided by %1 (rope_scaling linear: positions stretched)").arg(formatNumber(r.factor, 2));
    else if (r.scaling == RopeScaling::Llama3)
        text += tr(", the slow ones divided by %1 (rope_scaling llama3: the fast pairs kept, the slow ones "
                   "stretched, those between blended)")
                    .arg(formatNumber(r.factor, 2));
    text += QStringLiteral(". ");
    if (r.dimensions < r.headDim)
        text += tr("The last %1 numbers are not turned at all (partial rotary). ").arg(r.headDim - r.dimensions);
    return text;
}

// The lines of one vector: before, each pair turned, after.
void turnLines(WalkthroughStep &s, const RotaryStepInput &in, const LayerRotation &r, const QString &name,
               const RowVector<float> &before, const RowVector<float> &after, int position, int key)
{
    const QString sup = superscriptIndex(position);
    s.lines.push_back({tr("%1̃%2 = %3, before its turn").arg(name, sup, vectorText(before, in.limits.maxTerms)), key,
                       numbersOf(before)});
    const RowVector<float> turned = rotatedTo(r, before, position);
    const int pairs = std::min(r.pairs(), std::max(1, in.limits.maxTerms / 2));
    for (int i = 0; i < pairs; ++i) {
        const int j = r.partnerOf(i);
        const double angle = rotaryAngleAt(r, i, position);
        s.lines.push_back({tr("pair %1 (d%2, d%3): f = %4, angle %5 × f = %6 rad; (%7, %8) → (%9, %10)")
                               .arg(i)
                               .arg(subscriptDigits(QString::number(i)), subscriptDigits(QString::number(j)))
                               .arg(formatNumber(double(r.frequencies[std::size_t(i)]), 6))
                               .arg(position)
                               .arg(formatFixed(angle), formatFixed(before[i]), formatFixed(before[j]),
                                    formatFixed(turned[i]), formatFixed(turned[j])),
                           key, {angle, double(turned[i]), double(turned[j])}});
    }
    if (pairs < r.pairs())
        s.lines.push_back({tr("… (+%1 more pairs, each turning more slowly)").arg(r.pairs() - pairs), key, {}});
    s.lines.push_back({tr("%1%2 = %3, as the layer computed it").arg(name, sup, vectorText(after, in.limits.maxTerms)),
                       key, numbersOf(after)});
}

} // namespace

int rotaryStepKey(const AttentionResult &result, int head, int query)
{
    const AttentionMatrix &w = result.heads[std::size_t(head)].weights;
    int best = -1;
    // The first token only when there is no other: a sink would take it
    // most of the time, and a pair whose key stands at 0 cannot move back.
    for (int j = 1; j < int(w.cols()); ++j)
        if (j != query && !result.isMasked(query, j) && (best < 0 || w(query, j) > w(query, best)))
            best = j;
    if (best < 0 && query != 0 && !result.isMasked(query, 0))
        best = 0;
    return best < 0 ? query : best;
}

WalkthroughStep modelRotationStep(const RotaryStepInput &in)
{
    const LayerRotation &r = *in.result.rotation;
    const HeadResult &head = in.result.heads[std::size_t(in.head)];
    WalkthroughStep s;
    s.kind = WalkthroughStepKind::RotatePositions;
    s.title = tr("Turn q and k by their positions");
    s.explanation = tr("This model adds nothing to x for positions. Instead each query and key is turned by angles "
                       "that grow with its position. ")
        + rotationText(r)
        + tr("(a, b) becomes (a·cos − b·sin, b·cos + a·sin); the first pair turns fastest. The values are not "
             "turned. q̃ and k̃ are the vectors before their turn, as the layer's projections made them.");
    s.query = in.query;
    s.keys = {in.key};
    for (int i = 0; i < std::min(r.headDim, in.limits.maxTerms); ++i)
        s.dims.push_back(i);
    const RowVector<float> q = rowAsFloat(head.queries, in.query), k = rowAsFloat(head.keys, in.key);
    s.lines.push_back({tr("the query %1 at position %2:").arg(quoted(in.queryTokens, in.query)).arg(in.query), -1, {}});
    turnLines(s, in, r, QStringLiteral("q"), rotatedBackFrom(r, q, in.query), q, in.query, -1);
    s.lines.push_back({tr("the key %1 at position %2:").arg(quoted(in.keyTokens, in.key)).arg(in.key), in.key, {}});
    turnLines(s, in, r, QStringLiteral("k"), rotatedBackFrom(r, k, in.key), k, in.key, in.key);
    return s;
}

WalkthroughStep modelDistanceStep(const RotaryStepInput &in)
{
    const LayerRotation &r = *in.result.rotation;
    const HeadResult &head = in.result.heads[std::size_t(in.head)];
    const int n = int(head.queries.rows());
    const int distance = in.query - in.key;
    const RowVector<float> q = rotatedBackFrom(r, rowAsFloat(head.queries, in.query), in.query);
    const RowVector<float> k = rotatedBackFrom(r, rowAsFloat(head.keys, in.key), in.key);
    WalkthroughStep s;
    s.kind = WalkthroughStepKind::RelativePositions;
    s.title = tr("Only the distance counts");
    s.explanation = tr("The query turns by p·fᵢ and the key by (p − %1)·fᵢ, so the angle between them is %1·fᵢ "
                       "wherever p is. Moved together through the text, the same q̃ and k̃ keep their score; "
                       "moved apart, the score changes. So a head can look \"three tokens back\" the same way "
                       "anywhere in the text, without any position added to the tokens themselves.")
                        .arg(distance);
    s.query = in.query;
    s.keys = {in.key};
    const QString queryName = quoted(in.queryTokens, in.query), keyName = quoted(in.keyTokens, in.key);
    s.lines.push_back({tr("%1 and %2, %3 apart, moved together:").arg(queryName, keyName).arg(distance), -1, {}});
    // Every place the pair fits in the text, and a few past its end.
    std::vector<int> together;
    for (int p = std::max(0, distance); p < n + 3; ++p)
        together.push_back(p);
    if (int(together.size()) > in.limits.maxKeys) {
        // Keep where they stand among those written out.
        const int first = std::clamp(in.query - in.limits.maxKeys / 2, together.front(),
                                     together.back() - in.limits.maxKeys + 1);
        together.assign(std::size_t(in.limits.maxKeys), 0);
        for (int i = 0; i < in.limits.maxKeys; ++i)
            together[std::size_t(i)] = first + i;
    }
    for (int p : together) {
        const double score = rotaryScoreAt(r, q, k, p, p - distance);
        const QString where = p == in.query ? tr(" (where they stand)") : p >= n ? tr(" (past the text's end)")
                                                                                 : QString();
        s.lines.push_back({tr("query at %1, key at %2: ω = %3%4").arg(p).arg(p - distance).arg(formatFixed(score), where),
                           -1, {score}});
    }
    s.lines.push_back({tr("%1 where it stands, %2 moved:").arg(keyName, queryName), in.key, {}});
    int shown = 0;
    for (int p = 0; p < n && shown < in.limits.maxKeys; ++p) {
        if (p == in.query)
            continue;
        const double score = rotaryScoreAt(r, q, k, p, in.key);
        s.lines.push_back({tr("query at %1, %2 apart: ω = %3").arg(p).arg(p - in.key).arg(formatFixed(score)), in.key,
                           {score}});
        ++shown;
    }
    const double own = head.scores(in.query, in.key);
    s.lines.push_back({tr("the layer's own score for them: ω = q·k = %1").arg(formatFixed(own)), in.key, {own}});
    return s;
}

} // namespace attn
