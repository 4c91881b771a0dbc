#include "comparisonbuild.h"

#include "model/firsttokenaside.h"
#include "lessons/notation.h"

#include <QCoreApplication>
#include <algorithm>

namespace {

QString tr(const char *text) { return QCoreApplication::translate("Comparison", text); }

QString headName(int layer, int head)
{
    return head < 0 ? tr("layer %1 · mean of its heads").arg(layer) : tr("layer %1 · head %2").arg(layer).arg(head);
}

QStringList predictionTexts(const attn::ModelTrace &trace, const attn::ModelTokenizer *tokenizer)
{
    QStringList out;
    if (!trace.nextToken)
        return out;
    for (const auto &[id, p] : attn::topPredictions(trace.nextToken->probabilities, 5)) {
        const QString text = tokenizer ? tokenizer->idToText(id) : QString();
        out << tr("“%1” %2 %").arg(text.isEmpty() ? QStringLiteral("#%1").arg(id) : text)
                   .arg(100.0 * double(p), 0, 'f', 1);
    }
    return out;
}

} // namespace

attn::RowMatrix<float> headWeights(const attn::ModelTrace &trace, int layer, int head)
{
    if (layer < 0 || layer >= int(trace.layers.size()))
        return {};
    const std::vector<attn::RowMatrix<float>> &heads = trace.layers[std::size_t(layer)].weights;
    if (head >= int(heads.size()) || heads.empty())
        return {};
    if (head >= 0)
        return heads[std::size_t(head)];
    attn::RowMatrix<float> mean = attn::RowMatrix<float>::Zero(heads.front().rows(), heads.front().cols());
    for (const attn::RowMatrix<float> &w : heads)
        mean += w;
    return mean / float(heads.size());
}

ComparisonData buildComparison(const ComparisonInput &in)
{
    ComparisonData d;
    if (!in.a || !in.b)
        return d;
    d.description = in.description;
    d.causal = in.causal;
    d.a.title = tr("A · %1").arg(headName(in.layerA, in.headA));
    d.b.title = tr("B · %1").arg(headName(in.layerB, in.headB));
    d.a.labels = attn::tokenLabels(in.tokensA);
    d.b.labels = attn::tokenLabels(in.tokensB);
    d.a.weights = headWeights(*in.a, in.layerA, in.headA);
    d.b.weights = headWeights(*in.b, in.layerB, in.headB);
    d.firstTokenAside = in.firstTokenAside;
    const auto windowOf = [&](int layer) {
        return layer >= 0 && std::size_t(layer) < in.windows.size() ? in.windows[std::size_t(layer)] : 0;
    };
    d.windowA = in.causal ? windowOf(in.layerA) : 0;
    d.windowB = in.causal ? windowOf(in.layerB) : 0;
    if (in.firstTokenAside) {
        d.a.weights = attn::firstTokenAside(d.a.weights);
        d.b.weights = attn::firstTokenAside(d.b.weights);
        d.a.title += tr(" · first token set aside");
        d.b.title += tr(" · first token set aside");
    }
    d.layer = in.otherHead ? in.layerB : in.layerA;
    d.head = in.otherHead ? in.headB : in.headA;
    d.a.predictions = predictionTexts(*in.a, in.tokenizer.get());
    if (!in.otherHead)
        d.b.predictions = predictionTexts(*in.b, in.tokenizer.get());
    if (d.isEmpty())
        return d;
    d.cellwise = d.a.weights.rows() == d.b.weights.rows() && d.a.weights.cols() == d.b.weights.cols();
    if (!d.cellwise) {
        d.note = tr("A has %1 tokens and B %2: the heads are shown side by side on one colour scale, "
                    "with no cell-by-cell difference")
                     .arg(d.a.weights.rows()).arg(d.b.weights.rows());
        return d;
    }
    d.difference = d.b.weights - d.a.weights;
    // Every head's largest change: in one run against A's head, or between the two runs head by head.
    d.changeName = in.otherHead ? tr("max |W − A| against A's head") : tr("max |ΔW| = max |B − A|");
    for (std::size_t l = 0; l < in.a->layers.size() && l < in.b->layers.size(); ++l) {
        std::vector<float> row;
        const auto &wb = in.b->layers[l].weights;
        for (std::size_t h = 0; h < wb.size(); ++h) {
            const attn::RowMatrix<float> &other = in.otherHead ? d.a.weights : in.a->layers[l].weights[h];
            if (wb[h].rows() != other.rows() || wb[h].cols() != other.cols())
                row.push_back(0.0f);
            else if (!in.firstTokenAside)
                row.push_back((wb[h] - other).cwiseAbs().maxCoeff());
            else // d.a.weights is set aside already
                row.push_back((attn::firstTokenAside(wb[h])
                               - (in.otherHead ? other : attn::firstTokenAside(other))).cwiseAbs().maxCoeff());
        }
        d.headChange.push_back(std::move(row));
    }
    d.note = tr("One colour scale for A and B (0 – %1); B − A on its own diverging scale (±%2)")
                 .arg(sharedWeightMaximum(d), 0, 'f', 3)
                 .arg(differenceMaximum(d), 0, 'f', 3);
    if (in.firstTokenAside) // first: an elided note must still say it
        d.note = tr("First token set aside, rows renormalised (not the model's weights) · ") + d.note;
    return d;
}
