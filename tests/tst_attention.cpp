// Hand-worked numbers for the attention engine. Every expected value comes
// from tests/data/handworked.py (numpy, written apart from the engine): re-run
// it with /usr/bin/python3 and paste the printed literals when a case changes.

#include "attention/attention.h"

#include <QTest>
#include <cmath>
#include <initializer_list>
#include <limits>

using attn::AttentionConfig;
using attn::Mode;
using Eigen::MatrixXd;

Q_DECLARE_METATYPE(MatrixXd)

namespace {

MatrixXd mat(Eigen::Index rows, Eigen::Index cols, std::initializer_list<double> values)
{
    Q_ASSERT(Eigen::Index(values.size()) == rows * cols);
    MatrixXd m(rows, cols);
    auto it = values.begin();
    for (Eigen::Index r = 0; r < rows; ++r)
        for (Eigen::Index c = 0; c < cols; ++c)
            m(r, c) = *it++;
    return m;
}

// Equal shape, and every entry within 1e-12 relative (absolute near zero).
bool near(const MatrixXd &actual, const MatrixXd &expected, QString *why, double tol = 1e-12)
{
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) {
        *why = QStringLiteral("shape %1 x %2, expected %3 x %4")
                   .arg(actual.rows()).arg(actual.cols()).arg(expected.rows()).arg(expected.cols());
        return false;
    }
    for (Eigen::Index r = 0; r < actual.rows(); ++r)
        for (Eigen::Index c = 0; c < actual.cols(); ++c) {
            const double a = actual(r, c), e = expected(r, c);
            if (!(std::fabs(a - e) <= tol * std::max(1.0, std::fabs(e)))) {
                *why = QStringLiteral("(%1, %2) is %3, expected %4")
                           .arg(r).arg(c).arg(a, 0, 'g', 17).arg(e, 0, 'g', 17);
                return false;
            }
        }
    return true;
}

#define COMPARE_MATRIX(actual, expected)                                                                             \
    do {                                                                                                             \
        QString why_;                                                                                                \
        if (!near((actual), (expected), &why_))                                                                      \
            QFAIL(qPrintable(QStringLiteral(#actual ": ") + why_));                                                  \
    } while (false)

MatrixXd example()
{
    return mat(6, 3, {0.43, 0.15, 0.89, 0.55, 0.87, 0.66, 0.57, 0.85, 0.64,
                      0.22, 0.58, 0.33, 0.77, 0.25, 0.10, 0.05, 0.80, 0.55});
}

// Case C of handworked.py: 3 tokens, d_model 3, head_dim 2.
MatrixXd x3() { return mat(3, 3, {1, 0, 1, 0, 2, 0, 1, 1, 1}); }
MatrixXd wq0() { return mat(3, 2, {1, 0, 0, 1, 1, 1}); }
MatrixXd wk0() { return mat(3, 2, {0, 1, 1, 0, 0.5, 0.5}); }
MatrixXd wv0() { return mat(3, 2, {1, 2, 0, 1, -1, 0}); }

AttentionConfig sdpConfig(int heads = 1)
{
    AttentionConfig c;
    c.mode = Mode::ScaledDotProduct;
    c.heads = heads;
    c.headDim = 2;
    c.scale = true;
    c.outputProjection = false;
    return c;
}

attn::ProjectionWeights caseCWeights()
{
    attn::ProjectionWeights w;
    w.query = {wq0()};
    w.key = {wk0()};
    w.value = {wv0()};
    return w;
}

} // namespace

class TestAttention : public QObject
{
    Q_OBJECT
private slots:
    void simplifiedExample_data();
    void simplifiedExample();
    void scaledDotProduct();
    void causalMask();
    void twoHeadsWithProjection();
    void sinusoidalTable_data();
    void sinusoidalTable();
    void sinusoidalFormula();
    void simplifiedWithPositions();
    void crossAttention();
    void softmaxExtremes_data();
    void softmaxExtremes();
    void generatedWeightsGolden_data();
    void generatedWeightsGolden();
    void generatedWeightsDiffer();
    void overflowThrows_data();
    void overflowThrows();
    void shapeErrorsThrow_data();
    void shapeErrorsThrow();
};

void TestAttention::simplifiedExample_data()
{
    QTest::addColumn<bool>("scale");
    QTest::addColumn<int>("row");
    QTest::addColumn<MatrixXd>("scores"); // empty: not checked
    QTest::addColumn<MatrixXd>("weights");
    QTest::addColumn<MatrixXd>("context");

    QTest::newRow("journey, no scale (textbook)")
        << false << 1 << mat(1, 6, {0.9544, 1.495, 1.4754, 0.8433999999999999, 0.7070000000000001, 1.0865})
        << mat(1, 6, {0.1385475850266988, 0.23789129861225175, 0.23327402624201304, 0.12399160241093238,
                      0.10818187524904918, 0.1581136124590548})
        << mat(1, 3, {0.4418657478512921, 0.6514819780302219, 0.5683088877257292});
    QTest::newRow("step, no scale")
        << false << 5 << MatrixXd()
        << mat(1, 6, {0.13847116041570248, 0.21836371193011, 0.21275942683072288, 0.14204758056807892,
                      0.0988063699545254, 0.18955175030086036})
        << mat(1, 3, {0.4177244739388296, 0.650323205706471, 0.5645352170639023});
    QTest::newRow("journey, scale 1/sqrt(3)")
        << true << 1 << mat(1, 6, {0.9544, 1.495, 1.4754, 0.8433999999999999, 0.7070000000000001, 1.0865})
        << mat(1, 6, {0.15148478502077156, 0.2069755657668007, 0.20464661886400884, 0.14208128325479352,
                      0.13132152880605658, 0.16349021828756866})
        << mat(1, 3, {0.43617356189425377, 0.6227707871239891, 0.5523377645603911});
}

void TestAttention::simplifiedExample()
{
    QFETCH(bool, scale);
    QFETCH(int, row);
    QFETCH(MatrixXd, scores);
    QFETCH(MatrixXd, weights);
    QFETCH(MatrixXd, context);

    AttentionConfig c;
    c.mode = Mode::Simplified;
    c.scale = scale;
    const attn::AttentionResult r = attn::computeAttention(example(), c);
    QCOMPARE(int(r.heads.size()), 1);
    const attn::HeadResult &h = r.heads[0];
    COMPARE_MATRIX(h.queries, example());
    COMPARE_MATRIX(h.keys, example());
    COMPARE_MATRIX(h.values, example());
    QCOMPARE(r.scoreScale, scale ? 1.0 / std::sqrt(3.0) : 1.0);
    if (scores.size() > 0)
        COMPARE_MATRIX(MatrixXd(h.scores.row(row)), scores);
    COMPARE_MATRIX(MatrixXd(h.weights.row(row)), weights);
    COMPARE_MATRIX(MatrixXd(h.context.row(row)), context);
    COMPARE_MATRIX(MatrixXd(r.output.row(row)), context); // one head, no projection
}

void TestAttention::scaledDotProduct()
{
    const attn::AttentionResult r = attn::computeAttention(x3(), sdpConfig(), caseCWeights());
    const attn::HeadResult &h = r.heads.at(0);
    COMPARE_MATRIX(h.queries, mat(3, 2, {2, 1, 0, 2, 2, 2}));
    COMPARE_MATRIX(h.keys, mat(3, 2, {0.5, 1.5, 2, 0, 1.5, 1.5}));
    COMPARE_MATRIX(h.values, mat(3, 2, {0, 2, 0, 2, 0, 3}));
    COMPARE_MATRIX(h.scores.toDouble(), mat(3, 3, {2.5, 4, 4.5, 3, 0, 3, 4, 4, 6}));
    COMPARE_MATRIX(h.weights.toDouble(), mat(3, 3, {0.12497613740248617, 0.36096571808791034, 0.5140581445096034,
                                         0.4717263166328708, 0.05654736673425857, 0.4717263166328708,
                                         0.16357910081201152, 0.16357910081201152, 0.672841798375977}));
    const MatrixXd context = mat(3, 2, {0, 2.5140581445096033, 0, 2.471726316632871, 0, 2.6728417983759774});
    COMPARE_MATRIX(h.context, context);
    COMPARE_MATRIX(r.output, context);
    QCOMPARE(r.headDim(), 2);
    QCOMPARE(r.scoreScale, 1.0 / std::sqrt(2.0));
    QVERIFY(attn::ProjectionWeights(*r.weights) == caseCWeights()); // the given matrices were used as they are
}

void TestAttention::causalMask()
{
    AttentionConfig c = sdpConfig();
    c.causal = true;
    const attn::AttentionResult r = attn::computeAttention(x3(), c, caseCWeights());
    const attn::HeadResult &h = r.heads.at(0);
    // Scores stay the raw dot products: the mask only acts on the weights.
    COMPARE_MATRIX(h.scores.toDouble(), mat(3, 3, {2.5, 4, 4.5, 3, 0, 3, 4, 4, 6}));
    COMPARE_MATRIX(h.weights.toDouble(), mat(3, 3, {1, 0, 0, 0.8929581985348296, 0.10704180146517045, 0,
                                         0.16357910081201152, 0.16357910081201152, 0.672841798375977}));
    QCOMPARE(h.weights(0, 1), 0.0);
    QCOMPARE(h.weights(0, 2), 0.0);
    QCOMPARE(h.weights(1, 2), 0.0);
    COMPARE_MATRIX(h.context, mat(3, 2, {0, 2, 0, 2, 0, 2.6728417983759774}));
    QVERIFY(r.isMasked(0, 1));
    QVERIFY(!r.isMasked(1, 1));
}

void TestAttention::twoHeadsWithProjection()
{
    AttentionConfig c = sdpConfig(2);
    c.outputProjection = true;
    attn::ProjectionWeights w = caseCWeights();
    w.query.push_back(mat(3, 2, {0.5, -1, 1, 0, 0, 0.5}));
    w.key.push_back(mat(3, 2, {1, 1, 0, -0.5, 0.5, 0}));
    w.value.push_back(mat(3, 2, {0, 1, 1, 1, 2, -1}));
    w.output = mat(4, 3, {1, 0, 0.5, 0, 1, -0.5, 0.25, 0, 1, 0, -1, 0});
    const attn::AttentionResult r = attn::computeAttention(x3(), c, w);
    QCOMPARE(int(r.heads.size()), 2);
    COMPARE_MATRIX(r.heads[1].scores.toDouble(), mat(3, 3, {0.25, 0.5, 0.5, 3, 0, 3, 1.75, 0.5, 2}));
    COMPARE_MATRIX(r.heads[1].weights.toDouble(), mat(3, 3, {0.29527014209958496, 0.3523649289502075, 0.3523649289502075,
                                                  0.4717263166328708, 0.05654736673425857, 0.4717263166328708,
                                                  0.3836503836183963, 0.15851483767979155, 0.45783477870181205}));
    const MatrixXd concat = mat(3, 4, {0, 2.5140581445096033, 2.352364928950207, 1.0570947868506224,
                                       0, 2.471726316632871, 2.471726316632871, 0.584821050101388,
                                       0, 2.6728417983759774, 2.457834778701812, 0.7748644540613951});
    COMPARE_MATRIX(r.heads[0].context, MatrixXd(concat.leftCols(2)));
    COMPARE_MATRIX(r.heads[1].context, MatrixXd(concat.rightCols(2)));
    COMPARE_MATRIX(r.output, mat(3, 3, {0.5880912322375518, 1.4569633576589809, 1.0953358566954055,
                                        0.6179315791582177, 1.886905266531483, 1.2358631583164355,
                                        0.614458694675453, 1.8979773443145822, 1.1214138795138233}));

    c.outputProjection = false; // the concatenation itself
    COMPARE_MATRIX(attn::computeAttention(x3(), c, w).output, concat);
}

void TestAttention::sinusoidalTable_data()
{
    QTest::addColumn<MatrixXd>("expected");
    QTest::newRow("4 x 4") << mat(4, 4, {0.0, 1.0, 0.0, 1.0, 0.8414709848078965, 0.5403023058681397,
                                         0.009999833334166664, 0.9999500004166654, 0.9092974268256816,
                                         -0.4161468365471424, 0.01999866669333308, 0.999800006666578,
                                         0.1411200080598672, -0.9899924966004454, 0.02999550020249566,
                                         0.9995500337489878});
    QTest::newRow("3 x 5 (odd d_model)")
        << mat(3, 5, {0.0, 1.0, 0.0, 1.0, 0.0, 0.8414709848078965, 0.5403023058681397, 0.025116222909773774,
                      0.99968453791521, 0.0006309573026154199, 0.9092974268256816, -0.4161468365471424,
                      0.050216599387465206, 0.9987383506934931, 0.0012619143540422218});
}

void TestAttention::sinusoidalTable()
{
    QFETCH(MatrixXd, expected);
    COMPARE_MATRIX(attn::sinusoidalEncoding(int(expected.rows()), int(expected.cols())), expected);
}

void TestAttention::sinusoidalFormula()
{
    // PE[pos][2i] = sin(pos / 10000^(2i/d)), PE[pos][2i+1] = cos(same), written out literally.
    for (int d : {1, 2, 7, 64}) {
        const MatrixXd pe = attn::sinusoidalEncoding(50, d);
        QCOMPARE(pe.rows(), Eigen::Index(50));
        QCOMPARE(pe.cols(), Eigen::Index(d));
        for (int pos = 0; pos < 50; ++pos)
            for (int i = 0; 2 * i < d; ++i) {
                const double angle = pos / std::pow(10000.0, (2.0 * i) / d);
                QVERIFY(std::fabs(pe(pos, 2 * i) - std::sin(angle)) <= 1e-12);
                if (2 * i + 1 < d)
                    QVERIFY(std::fabs(pe(pos, 2 * i + 1) - std::cos(angle)) <= 1e-12);
            }
    }
}

void TestAttention::simplifiedWithPositions()
{
    AttentionConfig c;
    c.mode = Mode::Simplified;
    c.scale = false;
    c.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
    const attn::AttentionResult r = attn::computeAttention(MatrixXd(example().topRows(3)), c);
    COMPARE_MATRIX(r.inputs, mat(3, 3, {0.43, 1.15, 0.89, 1.3914709848078965, 1.4103023058681396, 0.6621544330233656,
                                        1.4792974268256815, 0.43385316345285757, 0.6443088560467428}));
    COMPARE_MATRIX(r.heads[0].weights.toDouble(), mat(3, 3, {0.31065157616980416, 0.5173241035725888, 0.172024320257607,
                                                  0.14156771254987005, 0.669728967624663, 0.18870331982546687,
                                                  0.1255850191556569, 0.5034148535473608, 0.3710001272969822}));
    COMPARE_MATRIX(r.output, mat(3, 3, {1.1078967919245433, 1.1614659842794555, 0.7298651442789514,
                                        1.2719308779827867, 1.1891927090404366, 0.6910424891351862,
                                        1.3033082539318275, 1.0153494796643288, 0.6841477115866426}));
}

void TestAttention::crossAttention()
{
    const MatrixXd source = mat(2, 3, {0.5, -1, 2, 1, 1, 0});
    const attn::AttentionResult r = attn::computeAttention(x3(), sdpConfig(), caseCWeights(), &source);
    const attn::HeadResult &h = r.heads.at(0);
    COMPARE_MATRIX(r.sourceInputs, source);
    COMPARE_MATRIX(h.queries, mat(3, 2, {2, 1, 0, 2, 2, 2}));
    COMPARE_MATRIX(h.keys, MatrixXd(source * wk0()));
    COMPARE_MATRIX(h.scores.toDouble(), mat(3, 2, {1.5, 3, 3, 2, 3, 4}));
    COMPARE_MATRIX(h.weights.toDouble(), mat(3, 2, {0.25718331522680704, 0.742816684773193, 0.6697615493266569,
                                         0.3302384506733431, 0.3302384506733431, 0.6697615493266569}));
    COMPARE_MATRIX(h.context, mat(3, 2, {0.3570417119329824, 2.2284500543195787, -0.6744038733166422,
                                         0.9907153520200294, 0.1744038733166422, 2.0092846479799706}));
    QCOMPARE(r.output.rows(), Eigen::Index(3));
}

void TestAttention::softmaxExtremes_data()
{
    QTest::addColumn<MatrixXd>("scores");
    QTest::addColumn<MatrixXd>("expected");
    QTest::newRow("+-1e6") << mat(1, 3, {1e6, -1e6, 1e6}) << mat(1, 3, {0.5, 0, 0.5});
    QTest::newRow("all -1e6") << mat(1, 2, {-1e6, -1e6}) << mat(1, 2, {0.5, 0.5});
    QTest::newRow("1e300 spread") << mat(1, 2, {1e300, -1e300}) << mat(1, 2, {1, 0});
    QTest::newRow("zeros") << mat(2, 4, {0, 0, 0, 0, 0, 0, 0, 0}) << MatrixXd(MatrixXd::Constant(2, 4, 0.25));
}

void TestAttention::softmaxExtremes()
{
    QFETCH(MatrixXd, scores);
    QFETCH(MatrixXd, expected);
    const MatrixXd w = attn::softmaxRows(scores, 1.0, false);
    QVERIFY(w.allFinite());
    for (Eigen::Index r = 0; r < w.rows(); ++r)
        QVERIFY(std::fabs(w.row(r).sum() - 1.0) <= 1e-12);
    COMPARE_MATRIX(w, expected);
}

void TestAttention::generatedWeightsGolden_data()
{
    // Recorded from this build; SplitMix64 and FNV-1a are fully specified, so
    // any platform or compiler must give exactly these numbers.
    QTest::addColumn<qint64>("seed");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("head");
    QTest::addColumn<MatrixXd>("expected");
    QTest::newRow("123 query 0") << qint64(123) << 0 << 0
        << mat(3, 2, {0.086065259596814103, -0.53192032302554582, 0.1640867942552684, -0.61052187007899583,
                      0.77526087505801589, -0.26202842107772151});
    QTest::newRow("123 key 0") << qint64(123) << 1 << 0
        << mat(3, 2, {-0.59647924956136844, 0.54461025276599972, -0.36733955711641042, 0.50412262365484373,
                      0.85014412497563829, -0.81962402712759852});
    QTest::newRow("123 query 1") << qint64(123) << 0 << 1
        << mat(3, 2, {-0.38874627541986118, 0.77828352029936676, -0.77391677931557679, -0.64956770582563439,
                      -0.13734945756618289, 0.89554985258020103});
    QTest::newRow("123 output") << qint64(123) << 3 << 0
        << mat(4, 3, {0.30982936746732953, 0.025658963285053592, -0.21465642534860913, 0.27216694480572684,
                      0.25595514148941856, 0.70157470249638798, 0.60603502502444861, 0.81469431181059626,
                      -0.61932364450488842, -0.075641469264082065, 0.22886285227887809, 0.84210881315714603});
    QTest::newRow("-7 query 0") << qint64(-7) << 0 << 0
        << mat(2, 2, {0.70251084320300494, -0.44162394148631468, 0.39911321170524983, 0.17543093200303161});
}

void TestAttention::generatedWeightsGolden()
{
    QFETCH(qint64, seed);
    QFETCH(int, kind);
    QFETCH(int, head);
    QFETCH(MatrixXd, expected);
    const auto rows = int(expected.rows()), cols = int(expected.cols());
    const MatrixXd w = attn::generatedWeights(seed, attn::WeightKind(kind), head, rows, cols);
    QVERIFY(w == expected); // bit for bit
    QVERIFY(w == attn::generatedWeights(seed, attn::WeightKind(kind), head, rows, cols));
    QVERIFY(w.cwiseAbs().maxCoeff() < std::sqrt(3.0 / rows));
}

void TestAttention::generatedWeightsDiffer()
{
    const MatrixXd q0 = attn::generatedWeights(5, attn::WeightKind::Query, 0, 4, 4);
    QVERIFY(q0 != attn::generatedWeights(5, attn::WeightKind::Key, 0, 4, 4));
    QVERIFY(q0 != attn::generatedWeights(5, attn::WeightKind::Value, 0, 4, 4));
    QVERIFY(q0 != attn::generatedWeights(5, attn::WeightKind::Query, 1, 4, 4));
    QVERIFY(q0 != attn::generatedWeights(6, attn::WeightKind::Query, 0, 4, 4));
    // completeWeights fills in exactly the generated matrices, per head.
    AttentionConfig c = sdpConfig(2);
    c.headDim = 4;
    c.seed = 5;
    const attn::SharedWeights shared = attn::completeWeights(c, 4, {});
    const attn::ProjectionWeights &w = *shared;
    QVERIFY(w.query.at(0) == q0);
    QVERIFY(w.key.at(1) == attn::generatedWeights(5, attn::WeightKind::Key, 1, 4, 4));
    QCOMPARE(w.output.size(), Eigen::Index(0)); // projection off
    // The float copy holds every head's W_q, then W_k, then W_v, side by side.
    QCOMPARE(shared->projectionSingle.cols(), Eigen::Index(24));
    QVERIFY(shared->projectionSingle.middleCols(4, 4) == w.query.at(1).cast<float>());
    QVERIFY(shared->projectionSingle.middleCols(12, 4) == w.key.at(1).cast<float>());
    QVERIFY(shared->projectionSingle.middleCols(16, 4) == w.value.at(0).cast<float>());
    // Made once and shared, never copied: the next pass (a slider step) and
    // its result point at the same set.
    QCOMPARE(attn::completeWeights(c, 4, {}).get(), shared.get());
    const attn::AttentionResult r = attn::computeAttention(MatrixXd::Constant(3, 4, 0.5), c);
    QCOMPARE(r.weights.get(), shared.get());
    QVERIFY(r.projected);
    QVERIFY(!r.outputProjected);
}

void TestAttention::overflowThrows_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("mode");
    QTest::newRow("1e200 simplified") << 1e200 << int(Mode::Simplified);
    QTest::newRow("1e200 scaled-dot-product") << 1e200 << int(Mode::ScaledDotProduct);
    QTest::newRow("1e308 simplified") << 1e308 << int(Mode::Simplified);
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << int(Mode::Simplified);
    QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << int(Mode::ScaledDotProduct);
}

void TestAttention::overflowThrows()
{
    QFETCH(double, value);
    QFETCH(int, mode);
    AttentionConfig c = sdpConfig();
    c.mode = Mode(mode);
    c.headDim = 3;
    QVERIFY_THROWS_EXCEPTION(attn::InputError, attn::computeAttention(MatrixXd::Constant(3, 3, value), c));
}

void TestAttention::shapeErrorsThrow_data()
{
    QTest::addColumn<int>("which");
    const char *names[] = {"no tokens", "no dimensions", "heads 0", "heads 65", "head_dim 0", "Wq 2 x 2",
                           "one Wk for two heads", "Wo 3 x 3", "source d_model 2", "empty source"};
    for (int i = 0; i < int(std::size(names)); ++i)
        QTest::newRow(names[i]) << i;
}

void TestAttention::shapeErrorsThrow()
{
    QFETCH(int, which);
    MatrixXd x = x3();
    AttentionConfig c = sdpConfig(which == 6 ? 2 : 1);
    attn::ProjectionWeights w;
    MatrixXd source;
    switch (which) {
    case 0: x.resize(0, 3); break;
    case 1: x.resize(3, 0); break;
    case 2: c.heads = 0; break;
    case 3: c.heads = 65; break;
    case 4: c.headDim = 0; break;
    case 5: w.query = {MatrixXd::Zero(2, 2)}; break;
    case 6: w.key = {wk0()}; break;
    case 7: c.outputProjection = true; w.output = MatrixXd::Zero(3, 3); break;
    case 8: source = MatrixXd::Zero(2, 2); break;
    case 9: source.resize(0, 3); break;
    }
    const bool withSource = which >= 8;
    QVERIFY_THROWS_EXCEPTION(attn::InputError, attn::computeAttention(x, c, w, withSource ? &source : nullptr));
}

QTEST_APPLESS_MAIN(TestAttention)
#include "tst_attention.moc"
