// The forward pass layer by layer (ForwardOptions::layerDone): on the
// family checkpoints and GGUF files of tests/data, every layer is reported
// once, in order, and what a report holds is exactly what the whole pass
// returns (the reference: the same pass without the callback, which
// tst_families and tst_ggufopen check against PyTorch and llama.cpp's
// numbers). A cancel after layer k stops the pass with exactly layers 0 ... k
// reported; layers a trace reuses are reported first. The window's per-layer
// pieces (the output projection kept, the pattern scores of one layer) equal
// those it builds from the whole trace.

#include "runtime/cancel.h"
#include "io/modelfolder.h"
#include "model/headscores.h"
#include "model/incremental.h"
#include "model/layerview.h"
#include "model/openmodel.h"

#include <QTest>

using namespace attn;

namespace {

SharedModelParameters load(const QString &path)
{
    QString error;
    const std::optional<ModelFiles> files = resolveModel(path, &error);
    if (!files)
        qFatal("%s", qPrintable(error));
    SharedModelParameters model = loadModel(*files, &error);
    if (!model)
        qFatal("%s", qPrintable(error));
    return model;
}

// Token ids every fixture has (their vocabularies hold at least 64 tokens).
const std::vector<int> kIds = {1, 7, 3, 12, 7, 3, 30, 5};

bool sameLayer(const LayerTrace &a, const LayerTrace &b)
{
    if (a.weights.size() != b.weights.size() || a.scores.size() != b.scores.size())
        return false;
    for (std::size_t h = 0; h < a.weights.size(); ++h)
        if (a.weights[h] != b.weights[h])
            return false;
    for (std::size_t h = 0; h < a.scores.size(); ++h)
        if (a.scores[h] != b.scores[h])
            return false;
    return a.queries == b.queries && a.keys == b.keys && a.values == b.values && a.context == b.context;
}

// What a callback saw: each layer's number and a copy of that layer and of the stream after it.
struct Seen
{
    std::vector<int> order;
    std::vector<LayerTrace> layers;
    std::vector<RowMatrix<float>> after; // hidden[layer + 1]
    RowMatrix<float> input;              // hidden[0], at the first report

    std::function<void(int, ModelTrace &)> recorder()
    {
        return [this](int layer, ModelTrace &trace) {
            if (order.empty())
                input = trace.hidden.at(0);
            order.push_back(layer);
            layers.push_back(trace.layers.at(std::size_t(layer)));
            after.push_back(trace.hidden.at(std::size_t(layer) + 1));
        };
    }
};

std::vector<int> upTo(int count)
{
    std::vector<int> v(std::size_t(std::max(count, 0)));
    for (int i = 0; i < count; ++i)
        v[std::size_t(i)] = i;
    return v;
}

} // namespace

class TestLayerByLayer : public QObject
{
    Q_OBJECT

private slots:
    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("llama") << QStringLiteral(ATTN_TEST_DATA "/families/llama");
        QTest::newRow("gemma3_text (3 layers)") << QStringLiteral(ATTN_TEST_DATA "/families/gemma3_text");
        QTest::newRow("qwen2-window") << QStringLiteral(ATTN_TEST_DATA "/families/qwen2-window");
        QTest::newRow("llama Q4_K_M gguf") << QStringLiteral(ATTN_TEST_DATA "/gguf/quantised/llama-q4_k_m.gguf");
        QTest::newRow("qwen2 Q8_0 gguf") << QStringLiteral(ATTN_TEST_DATA "/gguf/quantised/qwen2-q8_0.gguf");
    }

    // Each layer once, in order, and each report is the final layer, to the bit.
    void layersArriveInOrder_data() { fixtures_data(); }
    void layersArriveInOrder()
    {
        QFETCH(QString, path);
        const SharedModelParameters model = load(path);
        const int layers = model->config.layers;
        const ModelTrace reference = forward(*model, kIds);
        Seen seen;
        ForwardOptions options;
        options.layerDone = seen.recorder();
        const ModelTrace reported = forward(*model, kIds, options);
        QCOMPARE(seen.order, upTo(layers));
        QCOMPARE(seen.input, reference.hidden[0]);
        for (int l = 0; l < layers; ++l) {
            QVERIFY2(sameLayer(seen.layers[std::size_t(l)], reference.layers[std::size_t(l)]), qPrintable(QString::number(l)));
            QCOMPARE(seen.after[std::size_t(l)], reference.hidden[std::size_t(l) + 1]);
        }
        // Reporting changes nothing of the result, and the callback is not kept in it.
        QCOMPARE(reported.nextToken.has_value(), reference.nextToken.has_value());
        if (reference.nextToken)
            QCOMPARE(reported.nextToken->probabilities, reference.nextToken->probabilities);
        QVERIFY(!reported.options.layerDone);
    }

    // The window moves each layer out as it comes: what it gathers is the whole trace.
    void layersMovedOut_data() { fixtures_data(); }
    void layersMovedOut()
    {
        QFETCH(QString, path);
        const SharedModelParameters model = load(path);
        const ModelTrace reference = forward(*model, kIds);
        ModelTrace gathered;
        gathered.layers.resize(std::size_t(model->config.layers));
        gathered.hidden.resize(std::size_t(model->config.layers) + 1);
        ForwardOptions options;
        options.layerDone = [&](int layer, ModelTrace &trace) {
            if (layer == 0)
                gathered.hidden[0] = std::move(trace.hidden[0]);
            gathered.hidden[std::size_t(layer) + 1] = std::move(trace.hidden[std::size_t(layer) + 1]);
            gathered.layers[std::size_t(layer)] = std::move(trace.layers[std::size_t(layer)]);
        };
        const ModelTrace hollow = forward(*model, kIds, options);
        for (std::size_t l = 0; l < reference.layers.size(); ++l)
            QVERIFY(sameLayer(gathered.layers[l], reference.layers[l]));
        QCOMPARE(gathered.hidden, reference.hidden);
        // Moving out took nothing the pass still needed: its prediction is the same.
        if (reference.nextToken)
            QCOMPARE(hollow.nextToken->probabilities, reference.nextToken->probabilities);
        QVERIFY(hollow.layers[0].weights.empty());
    }

    // Cancelled while layer k is reported: exactly layers 0 ... k were, then the pass stops.
    void cancelAfterLayer_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("k");
        const QString gemma = QStringLiteral(ATTN_TEST_DATA "/families/gemma3_text");
        const QString quantised = QStringLiteral(ATTN_TEST_DATA "/gguf/quantised/llama-q4_k_m.gguf");
        QTest::newRow("gemma3_text after 0") << gemma << 0;
        QTest::newRow("gemma3_text after 1") << gemma << 1;
        QTest::newRow("gemma3_text after 2 (the last)") << gemma << 2;
        QTest::newRow("llama Q4_K_M after 0") << quantised << 0;
    }
    void cancelAfterLayer()
    {
        QFETCH(QString, path);
        QFETCH(int, k);
        const SharedModelParameters model = load(path);
        CancelFlag cancel{false};
        std::vector<int> order;
        ForwardOptions options;
        options.cancel = &cancel;
        options.layerDone = [&](int layer, ModelTrace &) {
            order.push_back(layer);
            if (layer == k)
                cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, forward(*model, kIds, options));
        QCOMPARE(order, upTo(k + 1));
    }

    // Switching a head of the last layer off reuses the layers before it: they are reported first, at once.
    void reusedLayersReportedFirst()
    {
        const SharedModelParameters model = load(QStringLiteral(ATTN_TEST_DATA "/families/gemma3_text"));
        const int last = model->config.layers - 1;
        const ModelTrace before = forward(*model, kIds);
        ForwardOptions switched;
        switched.ablatedHeads = {{last, 0}};
        QCOMPARE(reusableLayers(*model, before, kIds, switched), last);
        const ModelTrace reference = forward(*model, kIds, switched);
        Seen seen;
        switched.layerDone = seen.recorder();
        extendTrace(*model, before, kIds, switched);
        QCOMPARE(seen.order, upTo(last + 1));
        for (int l = 0; l <= last; ++l)
            QVERIFY(sameLayer(seen.layers[std::size_t(l)], reference.layers[std::size_t(l)]));
    }

    // Typing at the end: the new positions' layers are reported over every position.
    void extendedPositionsReported()
    {
        const SharedModelParameters model = load(QStringLiteral(ATTN_TEST_DATA "/families/llama"));
        const std::vector<int> shorter(kIds.begin(), kIds.end() - 2);
        const ModelTrace before = forward(*model, shorter);
        // The same extension without reports (tst_incremental compares it with the full pass, to rounding).
        const ModelTrace reference = extendTrace(*model, before, kIds);
        Seen seen;
        ForwardOptions options;
        options.layerDone = seen.recorder();
        QCOMPARE(reusablePrefix(*model, before, kIds, options), int(shorter.size()));
        extendTrace(*model, before, kIds, options);
        QCOMPARE(seen.order, upTo(model->config.layers));
        for (std::size_t l = 0; l < seen.layers.size(); ++l) {
            QCOMPARE(seen.layers[l].weights[0].rows(), Eigen::Index(kIds.size()));
            QVERIFY(sameLayer(seen.layers[l], reference.layers[l]));
        }
    }

    // What the window keeps of each layer as it comes gives the views what the whole trace does.
    void keptPiecesEqualWhole()
    {
        const SharedModelParameters model = load(QStringLiteral(ATTN_TEST_DATA "/gguf/quantised/llama-q4_k_m.gguf"));
        const auto trace = std::make_shared<const ModelTrace>(forward(*model, kIds));
        const std::vector<std::vector<HeadScores>> table = traceHeadScores(*trace, kIds);
        // The same trace without the output projections the pass kept: the views make them.
        auto without = std::make_shared<ModelTrace>(*trace);
        for (LayerTrace &layer : without->layers)
            layer.output = RowMatrix<float>();
        for (int l = 0; l < model->config.layers; ++l) {
            const AttentionResult kept = layerAttention(*model, trace, l);
            const AttentionResult computed = layerAttention(*model, without, l);
            QCOMPARE(kept.output, computed.output);
            QCOMPARE(kept.output.rows(), Eigen::Index(kIds.size()));
            const std::vector<HeadScores> row = layerHeadScores(trace->layers[std::size_t(l)], kIds);
            QCOMPARE(row.size(), table[std::size_t(l)].size());
            for (std::size_t h = 0; h < row.size(); ++h) {
                QCOMPARE(row[h].previousToken, table[std::size_t(l)][h].previousToken);
                QCOMPARE(row[h].firstToken, table[std::size_t(l)][h].firstToken);
            }
        }
        // An output of the wrong shape is not taken: the product is made instead.
        without->layers[0].output = RowMatrix<float>::Zero(2, 3);
        QCOMPARE(layerAttention(*model, without, 0).output, layerAttention(*model, trace, 0).output);
    }
};

QTEST_GUILESS_MAIN(TestLayerByLayer)
#include "tst_layerbylayer.moc"
