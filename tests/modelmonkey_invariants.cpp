// tst_modelmonkey's invariants, checked after every action once the model is
// idle: the numbers are sound (rows sum to 1, masked entries exactly 0, the
// predictions are probabilities), every view shows the document's selection
// and switched-off heads, and a text the model cannot read says so.

#include "headbox.h"
#include "modelmonkey.h"

#include "embeddingeditor.h"
#include "heatmapview.h"
#include "modelactions.h"
#include "modeldocument.h"
#include "modelgridpainter.h"
#include "modelgridview.h"
#include "nexttokenview.h"
#include "lessons/notation.h"
#include "optionspanel.h"
#include "tokenchips.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStatusBar>
#include <cmath>

namespace {

constexpr double kRowTolerance = 1e-5; // weights are floats: about 7 digits

// Empty when every row of `w` sums to 1 and the cells a causal mask hides are exactly 0.
template<typename Matrix>
QString checkWeights(const Matrix &w, bool causal)
{
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        double sum = 0;
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
            const double v = double(w(i, j));
            if (!std::isfinite(v) || v < 0)
                return QStringLiteral("weight (%1, %2) is %3").arg(i).arg(j).arg(v);
            if (causal && j > i && v != 0.0)
                return QStringLiteral("masked weight (%1, %2) is %3, not 0").arg(i).arg(j).arg(v, 0, 'g', 9);
            sum += v;
        }
        if (std::fabs(sum - 1.0) > kRowTolerance)
            return QStringLiteral("row %1 sums to %2").arg(i).arg(sum, 0, 'g', 12);
    }
    return {};
}

// Whether the pixel at `at` has colour `colour`, give or take `tolerance` (summed over red, green, blue).
bool hasColour(const QImage &image, const QPointF &at, const QColor &colour, int tolerance = 24)
{
    const QPoint p(int(std::floor(at.x())), int(std::floor(at.y())));
    if (!image.rect().contains(p))
        return false;
    const QColor c = image.pixelColor(p);
    return std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green())
               + std::abs(c.blue() - colour.blue()) < tolerance;
}

} // namespace

QString TestModelMonkey::checkInvariants()
{
    ModelDocument *model = m_doc.model();
    if (!model->isOpen())
        return QStringLiteral("no model is open");
    if (model->isOpening() || model->isComputing())
        return QStringLiteral("still busy");
    const SnapshotPtr snap = m_doc.snapshot();
    if (snap != model->snapshot() || window().heatmap()->snapshot() != snap)
        return QStringLiteral("the heatmap or the document holds another snapshot than the model's");
    const int n = int(model->tokens().size());
    if (window().chips()->tokens().size() != n || window().chips()->toolTips().size() != n)
        return QStringLiteral("%1 chips for %2 tokens").arg(window().chips()->tokens().size()).arg(n);
    for (int t = 0; t < n; ++t)
        if (window().chips()->tokens()[t] != model->tokens()[std::size_t(t)].text)
            return QStringLiteral("chip %1 shows \"%2\", the token is \"%3\"")
                .arg(t).arg(window().chips()->tokens()[t], model->tokens()[std::size_t(t)].text);
    QLineEdit *edit = window().sentenceEdit();
    if (!window().sentencePending() && edit->text() != model->text())
        return QStringLiteral("the field shows \"%1\", the model reads \"%2\"").arg(edit->text(), model->text());

    // A text the model cannot read: the window says why, in one line, and
    // keeps the result shown before it. Whether it can is asked of the
    // tokenizer (the shown tokens are then the earlier text's).
    std::vector<attn::ModelToken> typed = model->tokenizer()->encode(model->text());
    if (int(typed.size()) > model->config()->positions)
        typed.resize(std::size_t(model->config()->positions));
    bool readable = !typed.empty();
    for (const attn::ModelToken &t : typed)
        readable = readable && t.id >= 0 && t.id < model->config()->vocab;
    if (readable != snap->error.isEmpty())
        return readable ? QStringLiteral("the model reads every token, yet the window says \"%1\"").arg(snap->error)
                        : QStringLiteral("the text \"%1\" cannot be read, and the window gives no message").arg(model->text());
    if (!readable) {
        bool shown = false;
        for (const QLabel *label : window().statusBar()->findChildren<QLabel *>())
            shown = shown || label->text() == QStringLiteral("Cannot compute: %1").arg(snap->error);
        if (!shown || snap->error.contains(QLatin1Char('\n')))
            return QStringLiteral("the status bar does not show \"Cannot compute: %1\"").arg(snap->error);
        if (!model->trace() && n > 0)
            return QStringLiteral("an unreadable text dropped the result shown before it");
        const bool named = typed.empty() ? snap->error.contains(QStringLiteral("no tokens"))
                                         : snap->error.contains(QStringLiteral("is not one of the model's"));
        if (!named)
            return QStringLiteral("the message of an unreadable text says \"%1\"").arg(snap->error);
    } else if (!current().bert) {
        // Byte-level BPE loses nothing: the tokens spell the text (or its start, past the model's positions).
        QString spelled;
        for (const attn::ModelToken &t : model->tokens())
            spelled += t.text;
        if (!model->text().startsWith(spelled) || (n < model->config()->positions && spelled != model->text()))
            return QStringLiteral("the tokens spell \"%1\", the text is \"%2\"").arg(spelled, model->text());
    }
    for (const QString &part : {checkNumbers(), checkSelection(), checkPredictions()})
        if (!part.isEmpty())
            return part;
    return {};
}

QString TestModelMonkey::checkNumbers()
{
    ModelDocument *model = m_doc.model();
    const auto trace = model->trace();
    const SnapshotPtr snap = m_doc.snapshot();
    const bool causal = model->config()->causal;
    const int n = int(model->tokens().size());
    // The switched-off heads: the model's, the grid's marks and the mirror of the undo stack agree.
    const std::set<attn::LayerHead> &ablated = model->ablatedHeads();
    if (ablated != m_expectedAblated)
        return QStringLiteral("%1 heads switched off, %2 expected from the undo history")
            .arg(ablated.size()).arg(m_expectedAblated.size());
    if (window().modelActions()->grid()->switchedOff() != ablated)
        return QStringLiteral("the grid marks other heads switched off than the model's");
    if (!trace) {
        if (snap->result || window().heatmap()->painter().rows() != 0)
            return QStringLiteral("no trace, but the heatmap shows numbers");
        return {};
    }
    if (int(trace->tokenIds.size()) != n || trace->layers.size() != std::size_t(model->config()->layers))
        return QStringLiteral("the trace has %1 tokens and %2 layers").arg(trace->tokenIds.size()).arg(trace->layers.size());
    // After an unreadable text the trace is the last one the model could
    // compute, with the heads switched off then; otherwise it has the current ones.
    if (snap->error.isEmpty() && switchedOffHeads(*trace) != ablated)
        return QStringLiteral("the trace's silent heads are not the switched-off ones");
    for (std::size_t l = 0; l < trace->layers.size(); ++l)
        for (std::size_t h = 0; h < trace->layers[l].weights.size(); ++h) {
            const auto &w = trace->layers[l].weights[h];
            if (w.rows() != n || w.cols() != n)
                return QStringLiteral("head %1:%2 weights are %3 x %4").arg(l).arg(h).arg(w.rows()).arg(w.cols());
            const QString why = checkWeights(w, causal);
            if (!why.isEmpty())
                return QStringLiteral("head %1:%2: %3").arg(l).arg(h).arg(why);
        }
    // The shown layer, in the snapshot the views draw.
    if (!snap->result || int(snap->result->heads.size()) != model->config()->heads)
        return QStringLiteral("the snapshot has no result of %1 heads").arg(model->config()->heads);
    const auto &shownLayer = trace->layers[std::size_t(model->layer())];
    for (std::size_t h = 0; h < snap->result->heads.size(); ++h) {
        const Eigen::MatrixXd w = snap->result->heads[h].weights.toDouble();
        if (w.rows() != n || w.cols() != n
            || (w - shownLayer.weights[h].cast<double>()).cwiseAbs().maxCoeff() > kRowTolerance)
            return QStringLiteral("the snapshot's head %1 is not layer %2's").arg(h).arg(model->layer());
        const QString why = checkWeights(w, causal);
        if (!why.isEmpty())
            return QStringLiteral("the snapshot's head %1: %2").arg(h).arg(why);
        if (snap->result->causal != causal)
            return QStringLiteral("the snapshot's causal flag differs from the model's");
    }
    // The heatmap: the shown head's (or the average's) numbers, rows summing to 1, masked cells 0.
    const HeatmapPainter &painter = window().heatmap()->painter();
    if (painter.rows() != n || painter.columns() != n)
        return QStringLiteral("the heatmap is %1 x %2 for %3 tokens").arg(painter.rows()).arg(painter.columns()).arg(n);
    const int head = model->head();
    for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int j = 0; j < n; ++j) {
            double expected = 0;
            for (int h = head < 0 ? 0 : head; h < (head < 0 ? model->config()->heads : head + 1); ++h) {
                const auto &r = snap->result->heads[std::size_t(h)];
                expected += painter.showScores() ? r.scores(i, j) : r.weights(i, j);
            }
            if (head < 0)
                expected /= model->config()->heads;
            const double shown = painter.valueAt(i, j);
            // One head's cells are its numbers; the average may be taken in float.
            if (std::fabs(shown - expected) > (head < 0 ? 1e-6 : 1e-12) * (1 + std::fabs(expected)))
                return QStringLiteral("heatmap cell (%1, %2) shows %3, head %4 has %5").arg(i).arg(j).arg(shown).arg(head).arg(expected);
            if (!painter.showScores() && causal && j > i && shown != 0.0)
                return QStringLiteral("masked heatmap cell (%1, %2) shows %3").arg(i).arg(j).arg(shown);
            sum += shown;
        }
        if (!painter.showScores() && std::fabs(sum - 1.0) > kRowTolerance)
            return QStringLiteral("heatmap row %1 sums to %2").arg(i).arg(sum, 0, 'g', 12);
    }
    return {};
}

QString TestModelMonkey::checkSelection()
{
    ModelDocument *model = m_doc.model();
    const ViewSelection *selection = m_doc.selection();
    const int layers = model->config()->layers, heads = model->config()->heads;
    const int layer = selection->layer(), head = selection->head().fileIndex();
    if (layer < 0 || layer >= layers || head < (heads > 1 ? -1 : 0) || head >= heads)
        return QStringLiteral("the selection is layer %1 head %2 of %3 x %4").arg(layer).arg(head).arg(layers).arg(heads);
    if (model->layer() != layer || model->head() != head)
        return QStringLiteral("the model says layer %1 head %2, the selection %3 and %4")
            .arg(model->layer()).arg(model->head()).arg(layer).arg(head);
    QComboBox *layerBox = window().modelActions()->layerBox();
    if (!layerBox->isVisible() || layerBox->count() != layers || layerBox->currentIndex() != layer)
        return QStringLiteral("the layer box shows %1 of %2 entries, the selection layer %3")
            .arg(layerBox->currentIndex()).arg(layerBox->count()).arg(layer);
    QComboBox *headBox = window().headBox();
    if (headBox->count() != heads + (heads > 1 ? 1 : 0) || headOfBoxItem(headBox, headBox->currentIndex()).value_or(-1) != head)
        return QStringLiteral("the head box shows \"%1\", the selection head %2").arg(headBox->currentText()).arg(head);
    for (int i = 0; i < headBox->count(); ++i) {
        const int h = headOfBoxItem(headBox, i).value_or(-1);
        if (h >= 0 && headBox->itemText(i).contains(QStringLiteral("switched off")) != model->isAblated(layer, h))
            return QStringLiteral("the head box says \"%1\" for head %2:%3").arg(headBox->itemText(i)).arg(layer).arg(h);
    }
    const std::optional<int> shownHead = window().heatmap()->head();
    if (shownHead != (head < 0 ? std::nullopt : std::optional<int>(head)))
        return QStringLiteral("the heatmap shows head %1, the selection %2").arg(shownHead.value_or(-1)).arg(head);
    const int query = model->query();
    if (selection->query() != query || window().chips()->query() != query || window().heatmap()->query() != query
        || m_doc.query() != query)
        return QStringLiteral("queries: model %1, selection %2, chips %3, heatmap %4")
            .arg(query).arg(selection->query()).arg(window().chips()->query()).arg(window().heatmap()->query());
    if (!model->tokens().empty() && (query < 0 || query >= int(model->tokens().size())))
        return QStringLiteral("query %1 of %2 tokens").arg(query).arg(model->tokens().size());

    // The grid's outline and crosses, read from its pixels: the outline around
    // the selected tile (the selected layer's whole row for the average), a
    // cross over each switched-off head.
    ModelGridView *grid = window().modelActions()->grid();
    if (!model->trace())
        return grid->layerCount() == 0 ? QString() : QStringLiteral("no trace, but the grid has tiles");
    if (grid->layerCount() != layers || grid->headCount() != heads || !grid->isVisible())
        return QStringLiteral("the grid shows %1 x %2 (visible %3)").arg(grid->layerCount()).arg(grid->headCount())
            .arg(grid->isVisible());
    const QImage image = grid->grab().toImage();
    const QColor highlight = grid->palette().color(QPalette::Highlight);
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            const QRectF t = grid->tileRect(l, h);
            const bool above = hasColour(image, QPointF(t.center().x(), t.top() - 1.5), highlight);
            const bool below = hasColour(image, QPointF(t.center().x(), t.bottom() + 1.5), highlight);
            const bool left = hasColour(image, QPointF(t.left() - 1.5, t.center().y()), highlight);
            const bool right = hasColour(image, QPointF(t.right() + 1.5, t.center().y()), highlight);
            // A switched-off head's cross goes through the tile's centre in the text colour.
            const bool crossed = hasColour(image, t.center(), grid->palette().color(QPalette::Text), 60);
            if (crossed != model->isAblated(l, h))
                return QStringLiteral("the grid %1 tile %2:%3 (switched off: %4)")
                    .arg(crossed ? "crosses out" : "does not cross out").arg(l).arg(h).arg(model->isAblated(l, h));
            const bool selected = l == layer && (head < 0 || head == h);
            const bool sides = head < 0 ? left == (h == 0) && right == (h == heads - 1) : left && right;
            if ((above && below) != selected || (selected && !sides))
                return QStringLiteral("the grid outlines tile %1:%2 %3 (selection %4:%5)")
                    .arg(l).arg(h).arg(selected ? "not as selected" : "as selected").arg(layer).arg(head);
        }
    return {};
}

QString TestModelMonkey::checkPredictions()
{
    ModelDocument *model = m_doc.model();
    const std::vector<TokenGuess> &guesses = window().modelActions()->nextTokens()->guesses();
    const std::vector<ModelDocument::PredictionChange> want = model->predictionChanges(10);
    if (guesses.size() != want.size())
        return QStringLiteral("the next-token view shows %1 guesses, the model has %2").arg(guesses.size()).arg(want.size());
    double sum = 0;
    for (std::size_t g = 0; g < guesses.size(); ++g) {
        const TokenGuess &guess = guesses[g];
        if (!(guess.probability >= 0 && guess.probability <= 1) || (g > 0 && guess.probability > guesses[g - 1].probability))
            return QStringLiteral("guess %1 has probability %2").arg(g).arg(guess.probability);
        if (guess.id != want[g].id || guess.probability != want[g].after || guess.before != want[g].before)
            return QStringLiteral("guess %1 is token %2 (%3), the model's %4 (%5)")
                .arg(g).arg(guess.id).arg(guess.probability).arg(want[g].id).arg(want[g].after);
        if (guess.text != model->tokenizer()->idToText(guess.id))
            return QStringLiteral("guess %1 reads \"%2\"").arg(g).arg(guess.text);
        sum += guess.probability;
    }
    if (sum > 1 + kRowTolerance)
        return QStringLiteral("the guesses' probabilities sum to %1").arg(sum, 0, 'g', 12);
    return {};
}

// With the model closed: the hand-made session is back, exactly, on every view.
QString TestModelMonkey::checkClosed()
{
    const attn::Session &s = m_doc.session();
    if (!(s == m_handMade))
        return QStringLiteral("closing the model did not give back the hand-made session");
    if (m_doc.snapshot() != window().heatmap()->snapshot() || window().heatmap()->painter().rows() != s.tokenCount())
        return QStringLiteral("the heatmap does not show the session after closing");
    if (window().chips()->tokens() != attn::tokenLabels(s.tokens) || !window().chips()->toolTips().isEmpty())
        return QStringLiteral("the chips do not show the session after closing");
    if (!window().options()->isEnabled() || !window().editor()->isEnabled() || window().modelActions()->layerBox()->isVisible())
        return QStringLiteral("the hand-made controls are still off after closing");
    if (window().headBox()->count() != s.attention.heads + (s.attention.heads > 1 ? 1 : 0))
        return QStringLiteral("the head box has %1 entries for the session's %2 heads")
            .arg(window().headBox()->count()).arg(s.attention.heads);
    if (!window().modelActions()->grid()->switchedOff().empty())
        return QStringLiteral("the grid keeps switched-off marks after closing");
    return {};
}
