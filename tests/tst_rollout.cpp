// Attention rollout (contract section 6) on the tiny checkpoints against the
// numpy computation of tests/data/models/cli/make_cli_fixtures.py, and its
// properties on hand-made traces.

#include "modelfixtures.h"

#include "model/forward.h"
#include "model/incremental.h"
#include "model/modelloader.h"
#include "model/rollout.h"

#include <QTest>

using namespace attn;

namespace {

QJsonObject cliExpected()
{
    QFile f(QStringLiteral(ATTN_TEST_DATA "/models/cli/cli_expected.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read cli_expected.json");
    return QJsonDocument::fromJson(f.readAll()).object();
}

// A trace with one layer per entry, each head's weights given.
ModelTrace traceOf(const std::vector<std::vector<RowMatrix<float>>> &layers)
{
    ModelTrace t;
    for (const auto &heads : layers) {
        LayerTrace l;
        l.weights = heads;
        t.layers.push_back(l);
    }
    return t;
}

RowMatrix<float> m2(float a, float b, float c, float d)
{
    RowMatrix<float> m(2, 2);
    m << a, b, c, d;
    return m;
}

} // namespace

class TestRollout : public QObject
{
    Q_OBJECT
private slots:
    void againstNumpy_data();
    void againstNumpy();
    void handWorked();
    void firstLayersOnly();
    void properties();
    void typingExtendsTheRollout();
};

void TestRollout::againstNumpy_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("ablate");
    QTest::newRow("gpt2 F32") << "gpt2-f32" << "gpt2" << false;
    QTest::newRow("gpt2 BF16") << "gpt2-bf16" << "gpt2" << false;
    QTest::newRow("bert F32") << "bert-f32" << "bert" << false;
    QTest::newRow("gpt2, head 0:1 off") << "gpt2-f32" << "gpt2_ablate_0_1" << true;
}

void TestRollout::againstNumpy()
{
    QFETCH(QString, fixture);
    QFETCH(QString, key);
    QFETCH(bool, ablate);
    QString error;
    const SharedModelParameters model = loadModel(fixtures::modelDir(fixture.toLatin1().constData()), &error);
    QVERIFY2(model, qPrintable(error));
    const QJsonObject expected = cliExpected();
    const QString family = key.section('_', 0, 0);
    ForwardOptions options;
    if (ablate)
        options.ablatedHeads.insert({0, 1});
    const ModelTrace trace = forward(*model, fixtures::ids(expected[family].toObject()["token_ids"]), options);
    const RowMatrix<double> rollout = attentionRollout(trace);
    const QString why = fixtures::difference(rollout, fixtures::matrix(expected[key].toObject()["rollout"]), 2e-5);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestRollout::handWorked()
{
    // Layer 0: heads [[1,0],[.5,.5]] and [[1,0],[0,1]] -> mean [[1,0],[.25,.75]];
    // Ã_0 = [[1,0],[.125,.875]]. Layer 1: one head [[0,1],[1,0]] -> Ã_1 =
    // [[.5,.5],[.5,.5]]. R = Ã_1 Ã_0 = [[.5625,.4375],[.5625,.4375]].
    const ModelTrace t = traceOf({{m2(1, 0, 0.5f, 0.5f), m2(1, 0, 0, 1)}, {m2(0, 1, 1, 0)}});
    RowMatrix<double> expected(2, 2);
    expected << 0.5625, 0.4375, 0.5625, 0.4375;
    QVERIFY((attentionRollout(t) - expected).cwiseAbs().maxCoeff() < 1e-15);
    RowMatrix<double> first(2, 2);
    first << 1, 0, 0.125, 0.875;
    QVERIFY((residualAttention(t.layers[0]) - first).cwiseAbs().maxCoeff() < 1e-15);
    // The order matters: with the layers swapped R = Ã_0 Ã_1 = all 0.5.
    const ModelTrace swapped = traceOf({{m2(0, 1, 1, 0)}, {m2(1, 0, 0.5f, 0.5f), m2(1, 0, 0, 1)}});
    QVERIFY((attentionRollout(swapped) - RowMatrix<double>::Constant(2, 2, 0.5)).cwiseAbs().maxCoeff() < 1e-15);
}

void TestRollout::firstLayersOnly()
{
    const ModelTrace t = traceOf({{m2(1, 0, 0.5f, 0.5f)}, {m2(0, 1, 1, 0)}});
    QCOMPARE(attentionRollout(t, 1), residualAttention(t.layers[0]));
    QCOMPARE(attentionRollout(t, 7), attentionRollout(t));
    QCOMPARE(attentionRollout(t, 0).size(), Eigen::Index(0));
    QCOMPARE(attentionRollout(ModelTrace{}).size(), Eigen::Index(0));
}

void TestRollout::properties()
{
    // Causal weights roll out lower-triangular, every row summing to 1.
    QString error;
    const SharedModelParameters model = loadModel(fixtures::modelDir("gpt2-f16"), &error);
    QVERIFY2(model, qPrintable(error));
    const ModelTrace trace = forward(*model, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    const RowMatrix<double> r = attentionRollout(trace);
    QCOMPARE(r.rows(), Eigen::Index(16));
    for (Eigen::Index i = 0; i < r.rows(); ++i) {
        QVERIFY(std::fabs(r.row(i).sum() - 1.0) < 1e-12);
        for (Eigen::Index j = i + 1; j < r.cols(); ++j)
            QCOMPARE(r(i, j), 0.0);
        QVERIFY(r.row(i).minCoeff() >= 0.0);
    }
    QCOMPARE(r(0, 0), 1.0);
}

void TestRollout::typingExtendsTheRollout()
{
    // Typing at the end of a causal text: the rollout of the longer text is
    // the one before for the kept rows, and the whole product for the new ones.
    QString error;
    const SharedModelParameters model = loadModel(fixtures::modelDir("gpt2-f16"), &error);
    QVERIFY2(model, qPrintable(error));
    const std::vector<int> before = {5, 9, 2, 7, 11, 3, 8, 1, 4, 6};
    std::vector<int> after = before;
    after.insert(after.end(), {12, 10, 13, 2, 9});
    const ModelTrace shorter = forward(*model, before);
    const RowMatrix<double> rolloutBefore = attentionRollout(shorter);
    const int kept = reusablePrefix(*model, shorter, after, {});
    QCOMPARE(kept, 10);
    const ModelTrace longer = extendTrace(*model, shorter, after, {});
    const RowMatrix<double> whole = attentionRollout(longer), extended = extendedRollout(longer, rolloutBefore, kept);
    QCOMPARE(extended.rows(), Eigen::Index(15));
    QCOMPARE(extended.cols(), Eigen::Index(15));
    QVERIFY((extended - whole).cwiseAbs().maxCoeff() < 1e-13);
    QVERIFY(extended.topLeftCorner(kept, kept) == rolloutBefore);
    QCOMPARE(extended.bottomRows(5).rowwise().sum().minCoeff() > 1 - 1e-12, true);
    // Nothing new (the same text): the rollout before, and a first row that
    // is every row: the whole product.
    QVERIFY(extendedRollout(shorter, rolloutBefore, 10) == rolloutBefore);
    QVERIFY((extendedRollout(longer, rolloutBefore, 0) - whole).cwiseAbs().maxCoeff() < 1e-13);
    // A rollout before that is too short is refused, not read past its end.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, extendedRollout(longer, rolloutBefore.topLeftCorner(4, 4), 10));
}

QTEST_GUILESS_MAIN(TestRollout)
#include "tst_rollout.moc"
