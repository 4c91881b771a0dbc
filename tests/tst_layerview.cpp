// One layer of a model trace as an AttentionResult (core/model/layerview.h):
// the numbers are the trace's (and the independent numpy reference's), the
// weights are shared with the trace, masked entries are 0.

#include "modelfixtures.h"

#include "model/forward.h"
#include "model/layerview.h"
#include "model/modelloader.h"

#include <QTest>
#include <cmath>

using namespace attn;

class TestLayerView : public QObject
{
    Q_OBJECT

    SharedModelParameters m_gpt2;
    std::shared_ptr<const ModelTrace> m_trace;

private slots:
    void initTestCase()
    {
        QString error;
        m_gpt2 = loadModel(fixtures::modelDir("gpt2-f32"), &error);
        QVERIFY2(m_gpt2, qPrintable(error));
        m_trace = std::make_shared<const ModelTrace>(
            forward(*m_gpt2, fixtures::ids(fixtures::expected("gpt2").value(QLatin1String("token_ids")))));
    }

    void matchesReference_data()
    {
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("head");
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 3; ++h)
                QTest::addRow("layer %d head %d", l, h) << l << h;
    }
    void matchesReference()
    {
        QFETCH(int, layer);
        QFETCH(int, head);
        const AttentionResult r = layerAttention(*m_gpt2, m_trace, layer);
        const QJsonObject ref = fixtures::expected("gpt2")
                                    .value(QLatin1String("layers")).toArray()[layer].toObject()
                                    .value(QLatin1String("heads")).toArray()[head].toObject();
        QCOMPARE(int(r.heads.size()), 3);
        QCOMPARE(r.headDim(), 4);
        const QString w = fixtures::difference(r.heads[head].weights.toDouble(),
                                               fixtures::matrix(ref.value(QLatin1String("weights"))), 2e-5);
        QVERIFY2(w.isEmpty(), qPrintable(w));
        const QString s = fixtures::difference(r.heads[head].scores.toDouble(),
                                               fixtures::matrix(ref.value(QLatin1String("scores"))), 2e-4);
        QVERIFY2(s.isEmpty(), qPrintable(s));
    }

    void sameAsTrace()
    {
        for (int layer = 0; layer < 2; ++layer) {
            const AttentionResult r = layerAttention(*m_gpt2, m_trace, layer);
            const LayerTrace &t = m_trace->layers[std::size_t(layer)];
            QCOMPARE(r.scoreScale, 0.5); // 1 / sqrt(head_dim 4)
            QVERIFY(r.causal);
            QVERIFY(!r.singlePrecision);
            QCOMPARE(r.inputs.rows(), Eigen::Index(7));
            QVERIFY((r.inputs - m_trace->hidden[std::size_t(layer)].cast<double>()).cwiseAbs().maxCoeff() == 0);
            for (int h = 0; h < 3; ++h) {
                const HeadResult &head = r.heads[std::size_t(h)];
                QVERIFY(head.weights.isSinglePrecision()); // shared float storage, not a double copy
                QVERIFY((head.queries - t.query(h).cast<double>()).cwiseAbs().maxCoeff() == 0);
                QVERIFY((head.keys - t.key(h).cast<double>()).cwiseAbs().maxCoeff() == 0);
                QVERIFY((head.values - t.value(h).cast<double>()).cwiseAbs().maxCoeff() == 0);
                QVERIFY((head.context - t.headContext(h).cast<double>()).cwiseAbs().maxCoeff() == 0);
                QVERIFY((head.weights.toDouble() - t.weights[std::size_t(h)].cast<double>()).cwiseAbs().maxCoeff()
                        == 0);
                for (int q = 0; q < 7; ++q) {
                    QVERIFY(std::fabs(head.weights.row(q).sum() - 1.0) < 1e-5);
                    for (int k = q + 1; k < 7; ++k) {
                        QVERIFY(r.isMasked(q, k));
                        QCOMPARE(head.weights(q, k), 0.0);
                    }
                }
                // The weights are the softmax of the scores times the result's scale.
                for (int q = 0; q < 7; ++q) {
                    Eigen::RowVectorXd e = (head.scores.row(q).head(q + 1) * r.scoreScale).array().exp();
                    e /= e.sum();
                    QVERIFY((e - head.weights.row(q).head(q + 1)).cwiseAbs().maxCoeff() < 1e-5);
                }
            }
            // Output: the contexts side by side times W_o (no bias).
            const RowMatrix<float> expected = t.context * m_gpt2->blocks[std::size_t(layer)].attentionOutput.weight;
            QVERIFY((r.output - expected.cast<double>()).cwiseAbs().maxCoeff() < 1e-6);
            // Projected like a session with W_o, its weights left in the model (no copy in double).
            QVERIFY(r.projected);
            QVERIFY(r.outputProjected);
            QVERIFY(!r.weights);
            // The mean over heads for the "average" entry.
            const double mean = (r.heads[0].weights(3, 1) + r.heads[1].weights(3, 1) + r.heads[2].weights(3, 1)) / 3;
            QVERIFY(std::fabs(r.meanWeights(3, 1) - mean) < 1e-6);
        }
    }

    void scoresComputedWhenNotKept()
    {
        ForwardOptions options;
        options.keepScores = false;
        auto light = std::make_shared<const ModelTrace>(
            forward(*m_gpt2, fixtures::ids(fixtures::expected("gpt2").value(QLatin1String("token_ids"))), options));
        QVERIFY(light->layers[1].scores.empty());
        const AttentionResult a = layerAttention(*m_gpt2, light, 1);
        const AttentionResult b = layerAttention(*m_gpt2, m_trace, 1);
        for (int h = 0; h < 3; ++h)
            QVERIFY((a.heads[h].scores.toDouble() - b.heads[h].scores.toDouble()).cwiseAbs().maxCoeff() < 1e-5);
    }

    void weightsOutliveTheCallersTrace()
    {
        auto trace = std::make_shared<const ModelTrace>(*m_trace);
        const AttentionResult r = layerAttention(*m_gpt2, trace, 0);
        const double before = r.heads[1].weights(5, 2);
        trace.reset(); // the result holds the trace alive
        QCOMPARE(r.heads[1].weights(5, 2), before);
    }

    void badLayer()
    {
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, layerAttention(*m_gpt2, m_trace, 2));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, layerAttention(*m_gpt2, m_trace, -1));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, layerAttention(*m_gpt2, nullptr, 0));
    }
};

QTEST_GUILESS_MAIN(TestLayerView)
#include "tst_layerview.moc"
