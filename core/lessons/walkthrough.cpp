#include "lessons/walkthrough.h"

#include "model/rotarywalkthrough.h"
#include "lessons/notation.h"
#include "lessons/walkthroughpositions.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Walkthrough", text);
}

std::vector<double> rowOf(const Eigen::MatrixXd &m, int row)
{
    std::vector<double> v(std::size_t(m.cols()));
    for (Eigen::Index c = 0; c < m.cols(); ++c)
        v[std::size_t(c)] = m(row, c);
    return v;
}

// A factor inside a product: negative numbers in brackets, so "×" never meets "−".
QString factor(double v)
{
    const QString text = formatFixed(v);
    return text.startsWith(QChar(0x2212)) ? QStringLiteral("(%1)").arg(text) : text;
}

// "a + b + … (+N more)" from at most maxTerms texts.
QString joinTerms(const QStringList &terms, int maxTerms)
{
    if (terms.size() <= maxTerms)
        return terms.join(QStringLiteral(" + "));
    return terms.mid(0, maxTerms).join(QStringLiteral(" + "))
        + tr(" + … (+%1 more)").arg(terms.size() - maxTerms);
}

// Names in the notation of the teaching texts: x for inputs in simplified
// mode (y for a source sequence), q, k, v once there are trainable matrices.
struct Names
{
    QString query, key, value;
};

struct Context
{
    const AttentionResult &result;
    const HeadResult &head;
    QStringList queryTokens, keyTokens;
    int query = 0;
    int headIndex = 0;
    WalkthroughLimits limits;
    Names names;
    std::vector<int> keys; // the keys written out, in sentence order
    int hiddenKeys = 0;
    bool scaled = false;

    QString pair(int key) const
    {
        // Positions count from 0, as everywhere in the app; two-digit ones need a comma.
        const bool wide = query >= 10 || key >= 10;
        return subscriptDigits(QString::number(query) + (wide ? QStringLiteral(",") : QString())
                               + QString::number(key));
    }
    QString q() const { return names.query + superscriptIndex(query); }
    QString token(const QStringList &list, int i) const { return QStringLiteral("“%1”").arg(list.value(i)); }
    std::vector<int> dims(int count) const
    {
        std::vector<int> d(std::size_t(std::min(count, limits.maxTerms)));
        std::iota(d.begin(), d.end(), 0);
        return d;
    }
};

// The keys with the largest weights (the query's own key first among ties),
// back in sentence order, so the list shows what matters most.
std::vector<int> pickKeys(const Context &c, int *hidden)
{
    const int m = int(c.head.weights.cols());
    std::vector<int> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), 0);
    if (m > c.limits.maxKeys) {
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return c.head.weights(c.query, a) > c.head.weights(c.query, b);
        });
        order.resize(std::size_t(c.limits.maxKeys));
        std::sort(order.begin(), order.end());
    }
    *hidden = m - int(order.size());
    return order;
}

FormulaLine moreKeysLine(const Context &c)
{
    return {tr("… (+%1 more keys)").arg(c.hiddenKeys), -1, {}};
}

WalkthroughStep step(const Context &c, WalkthroughStepKind kind, const QString &title, const QString &text)
{
    WalkthroughStep s;
    s.kind = kind;
    s.title = title;
    s.explanation = text;
    s.query = c.query;
    s.keys = c.keys;
    return s;
}

WalkthroughStep pickQuery(const Context &c)
{
    const bool simplified = c.names.query == QLatin1String("x");
    const bool cross = c.result.sourceInputs.size() > 0;
    QString text = tr("The query is token %1 at position %2 (positions count from 0; a book that counts from 1 calls "
                      "it number %3). Its attention is computed against every key, one at a time.")
                       .arg(c.token(c.queryTokens, c.query))
                       .arg(c.query)
                       .arg(c.query + 1);
    text += QLatin1Char(' ');
    text += simplified ? tr("There are no trainable matrices here: the input vector itself acts as query, key and value.")
                       : tr("Its input vector is multiplied by the query matrix W_q; the keys and values come from "
                            "W_k and W_v in the same way.");
    if (cross)
        text += QLatin1Char(' ') + tr("This is cross-attention: keys and values come from the source sentence.");
    if (c.result.heads.size() > 1)
        text += QLatin1Char(' ') + tr("Head %1 (of %2, counted from 0) is shown.").arg(c.headIndex).arg(c.result.heads.size());
    if (c.result.positionalEncoding)
        text += QLatin1Char(' ') + tr("Its input is the embedding plus its position's encoding, x + PE (the step before).");
    WalkthroughStep s = step(c, WalkthroughStepKind::PickQuery, tr("Pick the query"), text);
    s.keys.clear();
    s.dims = c.dims(int(c.result.inputs.cols()));
    const std::vector<double> x = rowOf(c.result.inputs, c.query);
    const QString input = c.result.positionalEncoding
        ? QStringLiteral("x%1 + PE%1").arg(superscriptIndex(c.query))
        : QStringLiteral("x%1").arg(superscriptIndex(c.query));
    s.lines.push_back({QStringLiteral("%1 = %2").arg(input, formatVector(x, c.limits.maxTerms)), -1, x});
    if (!simplified) {
        const QString factorText = c.result.positionalEncoding ? QStringLiteral("(%1)").arg(input) : input;
        if (c.result.rotary) {
            // q before its turn: the step after next turns it by its position.
            const Eigen::RowVectorXd turned = walk::unturnedQuery(c.result, c.headIndex, c.query);
            const std::vector<double> qv(turned.data(), turned.data() + turned.size());
            s.lines.push_back({tr("q̃%1 = %2·W_q = %3, before it is turned by its position")
                                   .arg(superscriptIndex(c.query), factorText, formatVector(qv, c.limits.maxTerms)),
                               -1, qv});
        } else {
            const std::vector<double> qv = rowOf(c.head.queries, c.query);
            // A model's rotary layer turns q after the product (the next step shows how).
            const QString product = c.result.rotation ? tr("%1·W_q turned by its position").arg(factorText)
                                                      : QStringLiteral("%1·W_q").arg(factorText);
            s.lines.push_back({QStringLiteral("%1 = %2 = %3").arg(c.q(), product, formatVector(qv, c.limits.maxTerms)),
                               -1, qv});
        }
    }
    return s;
}

// PE[pos][2i] = sin(pos / 10000^(2i/d)), PE[pos][2i+1] = cos(the same angle):
// the embedding, its position's encoding written out, and their sum.
WalkthroughStep addPositions(const Context &c, const Eigen::RowVectorXd &embedding)
{
    const int d = int(c.result.inputs.cols());
    const int pos = c.query;
    WalkthroughStep s = step(c, WalkthroughStepKind::AddPositions, tr("Add the position"),
                             tr("Attention by itself ignores word order. Positional encoding adds to each embedding a "
                                "pattern of sines and cosines that depends only on the position: even dimensions "
                                "2i take sin(pos ÷ 10000^(2i/d_model)), odd ones cos of the same angle. The sum "
                                "x + PE is what the rest of the computation uses."));
    s.keys.clear();
    s.dims = c.dims(d);
    const Eigen::RowVectorXd pe = sinusoidalEncoding(pos + 1, d).row(pos);
    const std::vector<double> x(embedding.data(), embedding.data() + embedding.size());
    const std::vector<double> peValues(pe.data(), pe.data() + pe.size());
    const std::vector<double> sum = rowOf(c.result.inputs, pos);
    const QString sup = superscriptIndex(pos);
    s.lines.push_back({QStringLiteral("x%1 = %2").arg(sup, formatVector(x, c.limits.maxTerms)), -1, x});
    for (int dim : s.dims) {
        const int even = dim - dim % 2;
        const QString angle = even == 0 ? QString::number(pos)
                                        : QStringLiteral("%1 ÷ 10000^(%2/%3)").arg(pos).arg(even).arg(d);
        s.lines.push_back({QStringLiteral("PE%1%2 = %3(%4) = %5")
                               .arg(sup, subscriptDigits(QString::number(dim)),
                                    dim % 2 == 0 ? QStringLiteral("sin") : QStringLiteral("cos"), angle,
                                    formatFixed(pe(dim))),
                           -1, {pe(dim)}});
    }
    s.lines.push_back({QStringLiteral("PE%1 = %2").arg(sup, formatVector(peValues, c.limits.maxTerms)), -1, peValues});
    s.lines.push_back({QStringLiteral("x%1 + PE%1 = %2").arg(sup, formatVector(sum, c.limits.maxTerms)), -1, sum});
    return s;
}

WalkthroughStep scores(const Context &c)
{
    QString text = tr("Each score ω is a dot product: multiply the query and the key number by number and add the "
                      "products up. A larger score means a closer match. Scores are not weights yet.");
    if (!c.scaled)
        text += QLatin1Char(' ') + tr("Scaling is off, so the softmax receives these scores unchanged.");
    WalkthroughStep s = step(c, WalkthroughStepKind::Scores, tr("Score every key"), text);
    s.dims = c.dims(int(c.head.queries.cols()));
    for (int j : c.keys) {
        QStringList terms;
        for (Eigen::Index d = 0; d < c.head.queries.cols(); ++d)
            terms << factor(c.head.queries(c.query, d)) + QChar(0x00D7) + factor(c.head.keys(j, d));
        const double score = c.head.scores(c.query, j);
        s.lines.push_back({QStringLiteral("ω%1 = %2·%3%4 = %5 = %6")
                               .arg(c.pair(j), c.q(), c.names.key, superscriptIndex(j),
                                    joinTerms(terms, c.limits.maxTerms), formatFixed(score)),
                           j, {score}});
    }
    if (c.hiddenKeys > 0)
        s.lines.push_back(moreKeysLine(c));
    return s;
}

WalkthroughStep scale(const Context &c)
{
    const int dk = c.result.headDim();
    const QString root = formatFixed(1.0 / c.result.scoreScale);
    WalkthroughStep s = step(c, WalkthroughStepKind::Scale, tr("Scale the scores"),
                             tr("Dot products grow with the length of the vectors (d_k = %1 here). Dividing by √d_k = %2 "
                                "keeps them moderate, so the softmax does not put almost all weight on one key.")
                                 .arg(dk)
                                 .arg(root));
    for (int j : c.keys) {
        const double scaled = c.head.scores(c.query, j) * c.result.scoreScale;
        s.lines.push_back({QStringLiteral("ω%1 ÷ √%2 = %3 ÷ %4 = %5")
                               .arg(c.pair(j))
                               .arg(dk)
                               .arg(formatFixed(c.head.scores(c.query, j)), root, formatFixed(scaled)),
                           j, {scaled}});
    }
    if (c.hiddenKeys > 0)
        s.lines.push_back(moreKeysLine(c));
    return s;
}

WalkthroughStep mask(const Context &c)
{
    const int m = int(c.head.weights.cols());
    const int hidden = std::max(0, m - c.query - 1);
    QString text = tr("A text generator must not peek at later tokens, so every key after the query is blocked "
                      "before the softmax: its weight will be exactly 0.");
    if (hidden == 0)
        text += QLatin1Char(' ') + tr("This query is the last token, so it may see every key.");
    WalkthroughStep s = step(c, WalkthroughStepKind::Mask, tr("Mask the future"), text);
    s.keys.clear();
    for (int j : c.keys) {
        if (!c.result.isMasked(c.query, j))
            continue;
        s.keys.push_back(j);
        s.lines.push_back({tr("key %1 %2: blocked, α%3 = %4")
                               .arg(j)
                               .arg(c.token(c.keyTokens, j), c.pair(j), formatFixed(c.head.weights(c.query, j))),
                           j, {c.head.weights(c.query, j)}});
    }
    s.lines.push_back({tr("visible: keys 0 to %1 of %2").arg(std::min(c.query, m - 1)).arg(m), -1, {}});
    return s;
}

WalkthroughStep softmax(const Context &c)
{
    const int m = int(c.head.weights.cols());
    const int visible = c.result.causal ? std::min(c.query + 1, m) : m;
    const Eigen::RowVectorXd input = c.head.scores.row(c.query).head(visible) * c.result.scoreScale;
    // Very large scores overflow e^x; the core subtracts the largest one first,
    // and so does the text then (the weights are the same either way).
    const double shift = input.cwiseAbs().maxCoeff() > 30.0 ? input.maxCoeff() : 0.0;
    QString text = tr("Softmax turns the scores into weights: raise e to each score and divide by the sum of all "
                      "those powers. Every weight is positive and together they add up to 1.");
    if (shift != 0.0)
        text += QLatin1Char(' ') + tr("The scores are large, so the largest (%1) is subtracted from each first; "
                                      "that leaves the weights unchanged.").arg(formatFixed(shift));
    if (!c.result.causal)
        text += QLatin1Char(' ') + tr("No causal mask is on, so every key takes part.");
    WalkthroughStep s = step(c, WalkthroughStepKind::Softmax, tr("Softmax: scores become weights"), text);
    QStringList powers;
    double sum = 0.0;
    for (int j = 0; j < visible; ++j) {
        powers << QStringLiteral("exp(%1)").arg(formatFixed(input(j) - shift));
        sum += std::exp(input(j) - shift);
    }
    s.lines.push_back({QStringLiteral("Σ = %1 = %2").arg(joinTerms(powers, c.limits.maxTerms), formatFixed(sum)), -1,
                       {sum}});
    for (int j : c.keys) {
        const double w = c.head.weights(c.query, j);
        if (j >= visible)
            s.lines.push_back({tr("α%1 = %2 (masked)").arg(c.pair(j), formatFixed(w)), j, {w}});
        else
            s.lines.push_back({QStringLiteral("α%1 = exp(%2) ÷ %3 = %4")
                                   .arg(c.pair(j), formatFixed(input(j) - shift), formatFixed(sum), formatFixed(w)),
                               j, {w}});
    }
    if (c.hiddenKeys > 0)
        s.lines.push_back(moreKeysLine(c));
    const double total = c.head.weights.row(c.query).sum();
    s.lines.push_back({tr("sum of all weights = %1").arg(formatFixed(total)), -1, {total}});
    return s;
}

std::vector<double> weighted(const Context &c, int key)
{
    std::vector<double> v = rowOf(c.head.values, key);
    for (double &x : v)
        x *= c.head.weights(c.query, key);
    return v;
}

WalkthroughStep weightValues(const Context &c)
{
    WalkthroughStep s = step(c, WalkthroughStepKind::WeightValues, tr("Weight the values"),
                             tr("Each key's value vector is multiplied by its weight: a weight near 1 passes on nearly "
                                "all of that vector, a weight near 0 almost nothing."));
    s.dims = c.dims(int(c.head.values.cols()));
    for (int j : c.keys) {
        if (c.result.isMasked(c.query, j))
            continue;
        const std::vector<double> v = weighted(c, j);
        s.lines.push_back({QStringLiteral("α%1·%2%3 = %4 × %5 = %6")
                               .arg(c.pair(j), c.names.value, superscriptIndex(j),
                                    formatFixed(c.head.weights(c.query, j)),
                                    formatVector(rowOf(c.head.values, j), c.limits.maxTerms),
                                    formatVector(v, c.limits.maxTerms)),
                           j, v});
    }
    if (c.hiddenKeys > 0)
        s.lines.push_back(moreKeysLine(c));
    return s;
}

WalkthroughStep sumContext(const Context &c, bool projected)
{
    QString text = tr("Adding the weighted values gives the context vector z: the same length as one value vector, "
                      "but now a blend of the whole sentence.");
    if (!projected)
        text += QLatin1Char(' ') + (c.result.heads.size() > 1
                                        ? tr("Output projection is off: the heads' context vectors, side by side, "
                                             "are the output.")
                                        : tr("Output projection is off: this context vector is the output."));
    WalkthroughStep s = step(c, WalkthroughStepKind::SumContext, tr("Sum into the context vector"), text);
    const int dims = int(c.head.context.cols());
    s.dims = c.dims(dims);
    for (int d : s.dims) {
        QStringList terms;
        for (int j : c.keys)
            if (!c.result.isMasked(c.query, j))
                terms << factor(c.head.weights(c.query, j) * c.head.values(j, d));
        const QString more = c.hiddenKeys > 0 ? tr(" + (%1 more keys)").arg(c.hiddenKeys) : QString();
        s.lines.push_back({QStringLiteral("%1%2 = %3%4 = %5")
                               .arg(QStringLiteral("z") + superscriptIndex(c.query), subscriptDigits(QString::number(d)),
                                    joinTerms(terms, c.limits.maxTerms), more, formatFixed(c.head.context(c.query, d))),
                           -1, {c.head.context(c.query, d)}});
    }
    const std::vector<double> z = rowOf(c.head.context, c.query);
    s.lines.push_back({QStringLiteral("z%1 = %2").arg(superscriptIndex(c.query), formatVector(z, c.limits.maxTerms)),
                       -1, z});
    return s;
}

WalkthroughStep project(const Context &c)
{
    WalkthroughStep s = step(c, WalkthroughStepKind::Project, tr("Join the heads and project"),
                             tr("Every head made its own context vector. They are placed side by side and multiplied "
                                "by the output matrix W_o, which mixes them back to d_model numbers."));
    s.keys.clear();
    std::vector<double> concat;
    for (const HeadResult &h : c.result.heads)
        for (Eigen::Index d = 0; d < h.context.cols(); ++d)
            concat.push_back(h.context(c.query, d));
    const QString sup = superscriptIndex(c.query);
    s.lines.push_back({tr("concat%1 = %2").arg(sup, formatVector(concat, c.limits.maxTerms)), -1, concat});
    const std::vector<double> out = rowOf(c.result.output, c.query);
    s.lines.push_back({tr("output%1 = concat%1·W_o = %2").arg(sup, formatVector(out, c.limits.maxTerms)), -1, out});
    return s;
}

} // namespace

std::vector<WalkthroughStep> buildWalkthrough(const QStringList &queryTokens, const QStringList &keyTokens,
                                              const AttentionResult &result, int query, int head,
                                              const WalkthroughLimits &limits, const Eigen::MatrixXd *embeddings)
{
    if (result.heads.empty() || result.inputs.rows() == 0)
        return {};
    head = std::clamp(head, 0, int(result.heads.size()) - 1);
    query = std::clamp(query, 0, int(result.inputs.rows()) - 1);
    const bool simplified = !result.projected;
    const bool cross = result.sourceInputs.size() > 0;
    Context c{result, result.heads[std::size_t(head)], queryTokens, keyTokens, query, head, limits, {}, {}, 0, false};
    c.names = simplified ? Names{QStringLiteral("x"), cross ? QStringLiteral("y") : QStringLiteral("x"),
                                 cross ? QStringLiteral("y") : QStringLiteral("x")}
                         : Names{QStringLiteral("q"), QStringLiteral("k"), QStringLiteral("v")};
    c.keys = pickKeys(c, &c.hiddenKeys);
    c.scaled = result.scoreScale != 1.0;
    const bool projected = result.outputProjected;

    std::vector<WalkthroughStep> steps;
    if (result.positionalEncoding) {
        // The embedding as edited; without it, recovered from the inputs.
        const Eigen::RowVectorXd pe = sinusoidalEncoding(query + 1, int(result.inputs.cols())).row(query);
        const Eigen::RowVectorXd x = embeddings && embeddings->rows() > query && embeddings->cols() == pe.size()
            ? Eigen::RowVectorXd(embeddings->row(query))
            : Eigen::RowVectorXd(result.inputs.row(query) - pe);
        steps.push_back(addPositions(c, x));
    }
    steps.push_back(pickQuery(c));
    const walk::PositionsContext positions{result,        head,        query,   walk::rotaryKeyFor(result, head, query),
                                           queryTokens,   keyTokens,   limits,  c.names.query,
                                           c.names.key,   c.names.value};
    if (result.sharesKeyValues())
        steps.push_back(walk::sharedKeyValuesStep(positions));
    if (result.rotary) {
        steps.push_back(walk::rotaryStep(positions));
        // Rotary positions add nothing: the inputs are the embeddings.
        steps.push_back(walk::distanceStep(positions, result.inputs));
    } else if (result.rotation) { // a model's layer: its own frequencies (model/rotarywalkthrough.h)
        const RotaryStepInput in{result, head, query, rotaryStepKey(result, head, query), queryTokens, keyTokens, limits};
        steps.push_back(modelRotationStep(in));
        steps.push_back(modelDistanceStep(in));
    }
    steps.push_back(scores(c));
    if (c.scaled)
        steps.push_back(scale(c));
    if (result.causal)
        steps.push_back(mask(c));
    steps.push_back(softmax(c));
    steps.push_back(weightValues(c));
    steps.push_back(sumContext(c, projected));
    if (projected)
        steps.push_back(project(c));
    return steps;
}

} // namespace attn
