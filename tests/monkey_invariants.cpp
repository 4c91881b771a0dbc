// tst_monkey's invariants, checked after every action: the numbers are sound
// and every view shows the document's current state.

#include "lessons/notation.h"
#include "monkey.h"

#include "barchartview.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "optionspanel.h"
#include "pipelineview.h"
#include "tokenchips.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <cmath>

QString TestMonkey::checkNumbers(const attn::AttentionResult &r, const attn::Session &s)
{
    const Eigen::Index n = s.tokenCount();
    const Eigen::Index m = s.source ? s.source->tokens.size() : n;
    if (!r.inputs.allFinite() || !r.output.allFinite())
        return QStringLiteral("inputs or output not finite");
    if (r.inputs.rows() != n || r.output.rows() != n)
        return QStringLiteral("inputs/output have %1/%2 rows for %3 tokens").arg(r.inputs.rows()).arg(r.output.rows()).arg(n);
    if (int(r.heads.size()) != s.attention.heads)
        return QStringLiteral("%1 heads computed, %2 set").arg(r.heads.size()).arg(s.attention.heads);
    if (r.causal != s.attention.causal)
        return QStringLiteral("the result's causal flag differs from the session's");
    for (std::size_t h = 0; h < r.heads.size(); ++h) {
        const attn::HeadResult &head = r.heads[h];
        const QString where = QStringLiteral("head %1: ").arg(h);
        if (!head.queries.allFinite() || !head.keys.allFinite() || !head.values.allFinite() || !head.scores.allFinite()
            || !head.weights.allFinite() || !head.context.allFinite())
            return where + QStringLiteral("a NaN or infinity");
        if (head.weights.rows() != n || head.weights.cols() != m || head.scores.rows() != n || head.scores.cols() != m)
            return where + QStringLiteral("weights are %1 x %2").arg(head.weights.rows()).arg(head.weights.cols());
        // float carries about 7 digits: a large session's rows sum to 1 within 1e-5
        const double tolerance = r.singlePrecision ? 1e-5 : 1e-9;
        for (Eigen::Index i = 0; i < n; ++i) {
            const double sum = head.weights.row(i).sum();
            if (std::fabs(sum - 1.0) > tolerance)
                return where + QStringLiteral("row %1 sums to %2").arg(i).arg(sum, 0, 'g', 17);
            for (Eigen::Index j = 0; j < m; ++j) {
                if (r.isMasked(int(i), int(j)) && head.weights(i, j) != 0.0)
                    return where + QStringLiteral("masked weight (%1, %2) is %3").arg(i).arg(j).arg(head.weights(i, j));
                if (head.weights(i, j) < 0.0)
                    return where + QStringLiteral("negative weight at (%1, %2)").arg(i).arg(j);
            }
        }
    }
    // Small sessions: the snapshot must be exactly what the engine computes now.
    if (n * m * s.attention.heads <= 4096) {
        const attn::AttentionResult fresh = attn::computeSession(s);
        if (!(fresh.output.rows() == r.output.rows() && fresh.output.cols() == r.output.cols() && fresh.output == r.output))
            return QStringLiteral("the result is stale: it is not the session's");
    }
    return {};
}

QString TestMonkey::checkInvariants()
{
    const SnapshotPtr snap = m_doc.snapshot();
    if (!snap)
        return QStringLiteral("doc.snapshot() is null");
    const attn::Session &s = m_doc.session();
    const int n = s.tokenCount(), q = m_doc.query();
    if (n < 1 || s.embeddings.rows() != n || s.dModel() < 1)
        return QStringLiteral("%1 tokens, embeddings %2 x %3").arg(n).arg(s.embeddings.rows()).arg(s.dModel());
    if (q < 0 || q >= n)
        return QStringLiteral("query %1 is not a token index (%2 tokens)").arg(q).arg(n);
    if (snap->rowTokens != attn::tokenLabels(s.tokens))
        return QStringLiteral("the snapshot's tokens are not the session's");
    if (!m_doc.hasResult())
        return QStringLiteral("no result: %1").arg(m_doc.computeError());
    if (!m_doc.computeError().isEmpty())
        return QStringLiteral("a result and an error: %1").arg(m_doc.computeError());
    const attn::AttentionResult &r = m_doc.result();
    if (snap != m_checked) {
        const QString numbers = checkNumbers(r, s);
        if (!numbers.isEmpty())
            return numbers;
        m_checked = snap;
    }

    // Every view shows this snapshot and this query.
    const QString token = attn::tokenLabel(s.tokens, q); // how every view names it
    if (window().heatmap()->snapshot() != snap || window().pipeline()->pipelinePainter().snapshot() != snap)
        return QStringLiteral("a view holds an old snapshot");
    if (window().heatmap()->query() != q)
        return QStringLiteral("heatmap query %1, document %2").arg(window().heatmap()->query()).arg(q);
    if (window().chips()->query() != q)
        return QStringLiteral("chips query %1, document %2").arg(window().chips()->query()).arg(q);
    if (!window().chips()->chipRect(n - 1).isValid() || window().chips()->chipRect(n).isValid())
        return QStringLiteral("the chips do not show %1 tokens").arg(n);
    if (window().heatmap()->painter().rows() != n)
        return QStringLiteral("heatmap has %1 rows for %2 tokens").arg(window().heatmap()->painter().rows()).arg(n);
    const PipelineModel pipeline = window().pipeline()->currentModel();
    if (!pipeline.isValid() || pipeline.queryToken != token)
        return QStringLiteral("pipeline shows %1 (%2), query token %3")
            .arg(shortText(pipeline.queryToken), pipeline.error, shortText(token));
    if (pipeline.head != window().selectedHead().value_or(0))
        return QStringLiteral("pipeline shows head %1, selected %2").arg(pipeline.head).arg(headText(window().selectedHead()));
    const attn::HeadResult &shownHead = r.heads[std::size_t(pipeline.head)];
    for (std::size_t d = 0; d < pipeline.queryValues.size() && d < pipeline.contextValues.size(); ++d)
        if (pipeline.queryValues[d] != shownHead.queries(q, Eigen::Index(d))
            || pipeline.contextValues[d] != shownHead.context(q, Eigen::Index(d)))
            return QStringLiteral("the pipeline's q or z differs from the result at d%1").arg(d);
    for (const PipelineKeyRow &key : pipeline.rows)
        if (key.weight != shownHead.weights(q, key.key) || key.score != shownHead.scores(q, key.key))
            return QStringLiteral("the pipeline's key \"%1\" differs from the result").arg(key.label);
    // The heatmap's query row holds the numbers of the head it shows.
    const HeatmapPainter &painter = window().heatmap()->painter();
    const std::optional<int> shown = painter.effectiveHead();
    for (int j = 0; j < painter.columns(); ++j) {
        double expected = 0.0;
        if (shown) {
            const attn::HeadResult &h = r.heads[std::size_t(*shown)];
            expected = painter.showScores() ? h.scores(q, j) : h.weights(q, j);
        } else {
            for (const attn::HeadResult &h : r.heads)
                expected += (painter.showScores() ? h.scores(q, j) : h.weights(q, j)) / double(r.heads.size());
        }
        if (std::fabs(painter.valueAt(q, j) - expected) > 1e-12 * (1 + std::fabs(expected)))
            return QStringLiteral("heatmap cell (%1, %2) shows %3, expected %4").arg(q).arg(j).arg(painter.valueAt(q, j)).arg(expected);
    }
    const BarChartModel &bars = window().barChart()->model();
    if (bars.token != token || bars.query != q)
        return QStringLiteral("bar chart shows %1").arg(shortText(bars.token));
    if (bars.context.size() != std::size_t(r.output.cols()) || bars.embedding.size() != std::size_t(s.dModel()))
        return QStringLiteral("bar chart has %1/%2 values").arg(bars.embedding.size()).arg(bars.context.size());
    // With positional encoding on, the bars show the input attention used: x + PE.
    const bool positions = s.attention.positionalEncoding == attn::PositionalEncoding::Sinusoidal;
    if (bars.withPositions != positions)
        return QStringLiteral("bar chart says positions %1, session %2").arg(bars.withPositions).arg(positions);
    for (int d = 0; d < s.dModel(); ++d) {
        const double input = positions ? r.inputs(q, d) : s.embeddings(q, d);
        if (bars.embedding[std::size_t(d)] != input)
            return QStringLiteral("bar chart input d%1 is %2, not %3").arg(d).arg(bars.embedding[std::size_t(d)]).arg(input);
    }
    for (int d = 0; d < int(r.output.cols()); ++d)
        if (bars.context[std::size_t(d)] != r.output(q, d))
            return QStringLiteral("bar chart context d%1 is stale").arg(d);
    if (window().headsGrid()->tileCount() != s.attention.heads + (s.attention.heads > 1 ? 1 : 0))
        return QStringLiteral("%1 head tiles for %2 heads").arg(window().headsGrid()->tileCount()).arg(s.attention.heads);
    const std::optional<int> head = window().selectedHead();
    if ((head && (*head < 0 || *head >= s.attention.heads)) || window().heatmap()->head() != head
        || window().headsGrid()->selectedHead() != head)
        return QStringLiteral("selected %1, heatmap %2, grid %3")
            .arg(headText(head), headText(window().heatmap()->head()), headText(window().headsGrid()->selectedHead()));

    // The sentence field shows the session's text unless typing is still
    // waiting to be tokenized.
    QLineEdit *edit = window().sentenceEdit();
    const QString sentence = s.sentence.isEmpty() ? s.tokens.join(QLatin1Char(' ')) : s.sentence;
    if (!window().sentencePending() && edit->text() != sentence && edit->text() != s.sentence)
        return QStringLiteral("the sentence field shows %1, the session %2")
            .arg(shortText(edit->text()), shortText(sentence));

    // The editor shows the edited token's numbers (to the number box's 4 decimals).
    EmbeddingEditor *editor = window().editor();
    if (editor->editedToken() != q)
        return QStringLiteral("the editor edits token %1, the query is %2").arg(editor->editedToken()).arg(q);
    const int dims = shownDims();
    if (!editor->slider(dims - 1) || editor->slider(dims))
        return QStringLiteral("the editor does not show %1 rows").arg(dims);
    for (int d = 0; d < dims; ++d) {
        const double value = s.embeddings(q, d);
        const double shown = editor->spinBox(d)->value();
        const double expected = std::clamp(value, editor->spinBox(d)->minimum(), editor->spinBox(d)->maximum());
        if (std::fabs(shown - expected) > 0.5e-4 * (1 + 1e-9))
            return QStringLiteral("number box d%1 shows %2, the embedding is %3").arg(d).arg(shown).arg(value, 0, 'g', 17);
        const int position = int(std::lround(std::clamp(value / editor->sliderRange(), -1.0, 1.0) * 200));
        if (editor->slider(d)->value() != position)
            return QStringLiteral("slider d%1 at %2, expected %3").arg(d).arg(editor->slider(d)->value()).arg(position);
    }

    // The options panel shows the session's options.
    OptionsPanel *o = window().options();
    const attn::AttentionConfig &c = s.attention;
    if (o->headsBox()->value() != c.heads || o->headDimBox()->value() != attn::effectiveHeadDim(c, s.dModel())
        || o->causalBox()->isChecked() != c.causal || o->scaleBox()->isChecked() != c.scale
        || o->positionalBox()->currentData().toInt() != int(c.positionalEncoding)
        || o->kvHeadsBox()->currentData().toInt() != c.keyValueHeads()
        || o->projectionBox()->isChecked() != c.outputProjection
        || o->modeBox()->currentData().toInt() != int(c.mode))
        return QStringLiteral("the options panel does not show the session's options");
    return {};
}
