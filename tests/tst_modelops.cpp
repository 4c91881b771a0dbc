// The operations of core/model, each alone. Expected numbers come from
// tests/data/models/ops_numbers.py (numpy and math, written apart from the
// C++): re-run it with /usr/bin/python3 and paste the literals when a case changes.

#include "model/attentionop.h"
#include "model/ops.h"

#include <QTest>
#include <cmath>
#include <initializer_list>
#include <random>

using namespace attn;
using MatD = RowMatrix<double>;
using VecD = RowVector<double>;

Q_DECLARE_METATYPE(attn::RowMatrix<double>)
Q_DECLARE_METATYPE(attn::RowVector<double>)

namespace {

MatD mat(Eigen::Index rows, Eigen::Index cols, std::initializer_list<double> values)
{
    Q_ASSERT(Eigen::Index(values.size()) == rows * cols);
    MatD m(rows, cols);
    std::copy(values.begin(), values.end(), m.data()); // row-major: the literals' order
    return m;
}

VecD vec(std::initializer_list<double> values) { return mat(1, Eigen::Index(values.size()), values); }

QString compareMatrices(const MatD &actual, const MatD &expected, double tol)
{
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols())
        return QStringLiteral("shape %1 x %2, expected %3 x %4")
            .arg(actual.rows()).arg(actual.cols()).arg(expected.rows()).arg(expected.cols());
    for (Eigen::Index r = 0; r < actual.rows(); ++r)
        for (Eigen::Index c = 0; c < actual.cols(); ++c)
            if (!(std::fabs(actual(r, c) - expected(r, c)) <= tol * std::max(1.0, std::fabs(expected(r, c)))))
                return QStringLiteral("(%1, %2) is %3, expected %4")
                    .arg(r).arg(c).arg(actual(r, c), 0, 'g', 17).arg(expected(r, c), 0, 'g', 17);
    return {};
}

#define COMPARE_NEAR(actual, expected, tol)                                                                          \
    do {                                                                                                             \
        const QString why_ = compareMatrices((actual), (expected), (tol));                                          \
        if (!why_.isEmpty())                                                                                         \
            QFAIL(qPrintable(QStringLiteral(#actual ": ") + why_));                                                  \
    } while (false)

const MatD kQ = mat(3, 4, {1.0, 0.0, 0.5, -1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, -0.5, 2.0});
const MatD kK = mat(3, 4, {0.5, 0.5, 1.0, 0.0, -1.0, 2.0, 0.0, 1.0, 1.5, -0.5, 1.0, 1.0});
const MatD kV = mat(3, 4, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, -1.0, 0.0, 1.0, -2.0});

MatD randomMatrix(Eigen::Index rows, Eigen::Index cols, unsigned seed, double scale = 1.0)
{
    std::mt19937 gen(seed);
    std::normal_distribution<double> normal(0.0, scale);
    MatD m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = normal(gen);
    return m;
}

} // namespace

class TestModelOps : public QObject
{
    Q_OBJECT

private slots:
    void layerNormValues_data()
    {
        QTest::addColumn<MatD>("weight");
        QTest::addColumn<MatD>("bias");
        QTest::addColumn<double>("epsilon");
        QTest::addColumn<MatD>("expected");
        QTest::newRow("plain, eps 0") << MatD(MatD::Ones(1, 4)) << MatD(MatD::Zero(1, 4)) << 0.0
                                      << mat(2, 4, {-1.3416407864998738, -0.4472135954999579, 0.4472135954999579,
                                                    1.3416407864998738, -0.7910240957994666, -0.5702731853438016,
                                                    1.7108195560314048, -0.3495222748881364});
        QTest::newRow("affine, eps 0.01") << MatD(vec({2.0, 1.0, 0.5, -1.0})) << MatD(vec({0.1, 0.0, 0.0, 0.2})) << 0.01
                                          << mat(2, 4, {-2.5726124191242437, -0.44543540318737396, 0.22271770159368698,
                                                        -1.136306209562122, -1.481363350013725, -0.5700263238421568,
                                                        0.8550394857632352, 0.5493709726774509});
        QTest::newRow("affine, eps 1e-12") << MatD(vec({2.0, 1.0, 0.5, -1.0})) << MatD(vec({0.1, 0.0, 0.0, 0.2})) << 1e-12
                                           << mat(2, 4, {-2.5832815729986742, -0.447213595499779, 0.2236067977498895,
                                                         -1.1416407864993372, -1.4820481915988646, -0.5702731853437768,
                                                         0.8554097780156652, 0.5495222748881212});
    }
    void layerNormValues()
    {
        QFETCH(MatD, weight);
        QFETCH(MatD, bias);
        QFETCH(double, epsilon);
        QFETCH(MatD, expected);
        const MatD x = mat(2, 4, {1.0, 2.0, 3.0, 4.0, -0.5, 0.25, 8.0, 1.0});
        const VecD w = weight.row(0), b = bias.row(0);
        COMPARE_NEAR(layerNorm<double>(x, w, b, epsilon), expected, 1e-12);
        // Float agrees to float's precision.
        const RowMatrix<float> f = layerNorm<float>(x.cast<float>(), w.cast<float>(), b.cast<float>(), epsilon);
        COMPARE_NEAR(MatD(f.cast<double>()), expected, 1e-5);
    }

    // The epsilon is inside the square root: with 0.01 instead of 1e-12 the
    // numbers move in the third decimal, far beyond float's rounding.
    void normEpsilonMatters()
    {
        const MatD x = mat(1, 4, {1.0, 2.0, 3.0, 4.0});
        const VecD one = VecD::Ones(4), zero = VecD::Zero(4);
        const MatD a = layerNorm<double>(x, one, zero, 0.01), b = layerNorm<double>(x, one, zero, 1e-12);
        QVERIFY((a - b).cwiseAbs().maxCoeff() > 1e-3);
    }

    // A constant row has no spread: the output is the bias, not a NaN.
    void layerNormConstantRow()
    {
        const MatD x = mat(1, 3, {5.0, 5.0, 5.0});
        const MatD y = layerNorm<double>(x, vec({1.0, 2.0, 3.0}), vec({0.5, -0.5, 0.25}), 1e-5);
        COMPARE_NEAR(y, mat(1, 3, {0.5, -0.5, 0.25}), 0.0);
    }

    void gelu_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("tanhForm");
        QTest::addColumn<double>("erfForm");
        const double x[] = {-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0};
        const double t[] = {-0.0036373920817729943, -0.1588080093917233, -0.15428599017485606, 0.0,
                            0.34571400982514394,    0.8411919906082768,  1.954597694087775,    2.996362607918227};
        const double e[] = {-0.00404969409489031, -0.15865525393145707, -0.15426876936299344, 0.0,
                            0.34573123063700656,  0.8413447460685429,   1.9544997361036416,   2.99595030590511};
        for (int i = 0; i < 8; ++i)
            QTest::addRow("x=%g", x[i]) << x[i] << t[i] << e[i];
    }
    void gelu()
    {
        QFETCH(double, x);
        QFETCH(double, tanhForm);
        QFETCH(double, erfForm);
        QVERIFY(std::fabs(geluNew(x) - tanhForm) <= 1e-15);
        QVERIFY(std::fabs(geluErf(x) - erfForm) <= 1e-15);
        // The vectorised matrix forms give the same numbers, in float too.
        MatD m = mat(1, 1, {x});
        activate(m, Activation::GeluTanh);
        QVERIFY(std::fabs(m(0, 0) - tanhForm) <= 1e-14);
        RowMatrix<float> f = RowMatrix<float>::Constant(1, 1, float(x));
        activate(f, Activation::GeluErf);
        QVERIFY(std::fabs(double(f(0, 0)) - erfForm) <= 1e-6);
    }

    // Where the two GELUs differ by far more than float's rounding: a model
    // computed with the wrong one cannot pass its fixture.
    void geluFormsDiffer()
    {
        QVERIFY(std::fabs(geluNew(-3.0) - geluErf(-3.0)) > 4e-4);
        QVERIFY(std::fabs(geluNew(1.0) - geluErf(1.0)) > 1.5e-4);
        QVERIFY(std::fabs(geluNew(-3.0f) - geluErf(-3.0f)) > 4e-4f);
    }

    void otherActivations()
    {
        MatD m = mat(1, 3, {-2.0, 0.0, 1.5});
        MatD relu = m, silu = m, quick = m;
        activate(relu, Activation::Relu);
        activate(silu, Activation::Silu);
        activate(quick, Activation::QuickGelu);
        COMPARE_NEAR(relu, mat(1, 3, {0.0, 0.0, 1.5}), 0.0);
        COMPARE_NEAR(silu, mat(1, 3, {-2.0 / (1 + std::exp(2.0)), 0.0, 1.5 / (1 + std::exp(-1.5))}), 1e-15);
        COMPARE_NEAR(quick, mat(1, 3, {-2.0 / (1 + std::exp(3.404)), 0.0, 1.5 / (1 + std::exp(-2.553))}), 1e-15);
    }

    // x W + b with W [in, out]: 2x3 times 3x4, not square, so a transposed
    // convention has no product at all.
    void linearRowVectorConvention()
    {
        const MatD x = mat(2, 3, {0.5, -1.0, 2.0, 1.5, 0.25, -0.75});
        const MatD w = mat(3, 4, {0.1, -0.2, 0.3, 0.4, 0.5, 0.6, -0.7, 0.8, -0.9, 1.0, 1.1, -1.2});
        const VecD b = vec({0.01, -0.02, 0.03, -0.04});
        COMPARE_NEAR(linear<double>(x, w, b), mat(2, 4, {-2.24, 1.28, 3.08, -3.04, 0.96, -0.92, -0.52, 1.66}), 1e-14);
    }

    void mlpValues_data()
    {
        QTest::addColumn<int>("activation");
        QTest::addColumn<MatD>("expected");
        QTest::newRow("gelu_new") << int(Activation::GeluTanh)
                                  << mat(2, 2, {-0.2758916590988405, 2.3668177576656975, 1.1786969838879942,
                                                0.3724667153524611});
        QTest::newRow("gelu") << int(Activation::GeluErf)
                              << mat(2, 2, {-0.27603913193045293, 2.3665467563842904, 1.1789229219459996,
                                            0.37251296914727905});
    }
    void mlpValues()
    {
        QFETCH(int, activation);
        QFETCH(MatD, expected);
        const MatD x = mat(2, 3, {0.5, -1.0, 2.0, 1.5, 0.25, -0.75});
        const MatD w1 = mat(3, 4, {0.1, -0.2, 0.3, 0.4, 0.5, 0.6, -0.7, 0.8, -0.9, 1.0, 1.1, -1.2});
        const MatD w2 = mat(4, 2, {1.0, -1.0, 0.5, 0.25, -0.3, 0.7, 0.2, 0.9});
        const MatD y = mlp<double>(x, w1, vec({0.01, -0.02, 0.03, -0.04}), w2, vec({0.1, -0.1}), Activation(activation));
        COMPARE_NEAR(y, expected, 1e-14);
    }

    void residual()
    {
        MatD h = mat(1, 2, {1.0, 2.0});
        addResidual<double>(h, mat(1, 2, {0.5, -3.0}));
        COMPARE_NEAR(h, mat(1, 2, {1.5, -1.0}), 0.0);
    }

    void softmaxStable()
    {
        MatD s = mat(1, 3, {1000.0, 1001.0, 1002.0});
        scaledSoftmaxRows<double>(s, 1.0, false, s);
        const double e1 = std::exp(-1.0), e2 = std::exp(-2.0), sum = 1 + e1 + e2;
        COMPARE_NEAR(s, mat(1, 3, {e2 / sum, e1 / sum, 1 / sum}), 1e-15);
        RowVector<float> logits(3);
        logits << -1e4f, 0.0f, 88.0f;
        const RowVector<float> p = softmax<float>(logits);
        QVERIFY(p.allFinite());
        QCOMPARE(p(2), 1.0f);
    }

    void attentionValues_data()
    {
        QTest::addColumn<bool>("causal");
        QTest::addColumn<MatD>("scores0");
        QTest::addColumn<MatD>("weights0");
        QTest::addColumn<MatD>("weights1");
        QTest::addColumn<MatD>("context");
        const MatD s0 = mat(3, 3, {0.5, -1.0, 1.5, 0.5, 2.0, -0.5, 1.0, 1.0, 1.0});
        QTest::newRow("no mask")
            << false << s0
            << mat(3, 3, {0.2963540614447346, 0.10260582666712371, 0.6010401118881418, 0.22824037253896678,
                          0.6592214456496829, 0.11253818181135039, 0.3333333333333333, 0.3333333333333333,
                          0.3333333333333333})
            << mat(3, 3, {0.5436863222802805, 0.188238974263491, 0.2680747034562285, 0.2482550782577231,
                          0.2482550782577231, 0.5034898434845538, 0.09114932344369889, 0.5339306873756992,
                          0.374919989180602})
            << mat(3, 4, {0.20834308289221137, 1.2083430828922115, 3.216806490141507, 3.144507676316593,
                          3.411809418976031, 4.411809418976031, 2.986040626061785, 1.9720812521235698,
                          1.6666666666666667, 2.6666666666666665, 4.385882771141593, 3.8862028144191845});
        QTest::newRow("causal")
            << true << s0
            << mat(3, 3, {1.0, 0.0, 0.0, 0.25718331522680704, 0.742816684773193, 0.0, 0.3333333333333333,
                          0.3333333333333333, 0.3333333333333333})
            << mat(3, 3, {1.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.09114932344369889, 0.5339306873756992, 0.374919989180602})
            << mat(3, 4, {1.0, 2.0, 3.0, 4.0, 3.971266739092772, 4.971266739092772, 5.0, 6.0, 1.6666666666666667,
                          2.6666666666666665, 4.385882771141593, 3.8862028144191845});
    }
    void attentionValues()
    {
        QFETCH(bool, causal);
        QFETCH(MatD, scores0);
        QFETCH(MatD, weights0);
        QFETCH(MatD, weights1);
        QFETCH(MatD, context);
        AttentionSettings settings;
        settings.heads = 2;
        settings.causal = causal;
        settings.scale = 1.0 / std::sqrt(2.0);
        settings.keepScores = true;
        const AttentionOutput<double> out = attention<double>(kQ, kK, kV, settings);
        QCOMPARE(int(out.weights.size()), 2);
        COMPARE_NEAR(out.scores[0], scores0, 0.0); // raw: before scaling and masking
        COMPARE_NEAR(out.weights[0], weights0, 1e-15);
        COMPARE_NEAR(out.weights[1], weights1, 1e-15);
        COMPARE_NEAR(out.context, context, 1e-14);
        if (causal)
            QCOMPARE(out.weights[1](0, 2), 0.0);

        // Float: the same numbers to float's precision, and no scores unless asked.
        settings.keepScores = false;
        const AttentionOutput<float> f = attention<float>(kQ.cast<float>(), kK.cast<float>(), kV.cast<float>(), settings);
        QVERIFY(f.scores.empty());
        COMPARE_NEAR(MatD(f.weights[1].cast<double>()), weights1, 1e-6);
        COMPARE_NEAR(MatD(f.context.cast<double>()), context, 1e-6);
    }

    // A switched-off head keeps its weights (the views show them) but adds
    // nothing: its columns of the context are zero, the other head's are untouched.
    void attentionSwitchedOffHead()
    {
        AttentionSettings settings;
        settings.heads = 2;
        settings.scale = 0.5;
        const AttentionOutput<double> all = attention<double>(kQ, kK, kV, settings);
        settings.switchedOff = {false, true};
        const AttentionOutput<double> off = attention<double>(kQ, kK, kV, settings);
        COMPARE_NEAR(off.weights[1], all.weights[1], 0.0);
        COMPARE_NEAR(MatD(off.context.leftCols(2)), MatD(all.context.leftCols(2)), 0.0);
        QCOMPARE(off.context.rightCols(2).cwiseAbs().maxCoeff(), 0.0);
    }

    // Heads read their own columns: swapping the two halves of Q, K and V
    // swaps the heads' weights.
    void attentionHeadColumns()
    {
        AttentionSettings settings;
        settings.heads = 2;
        const auto swapped = [](const MatD &m) {
            MatD s(m.rows(), m.cols());
            s << m.rightCols(2), m.leftCols(2);
            return s;
        };
        const AttentionOutput<double> a = attention<double>(kQ, kK, kV, settings);
        const AttentionOutput<double> b = attention<double>(swapped(kQ), swapped(kK), swapped(kV), settings);
        COMPARE_NEAR(a.weights[0], b.weights[1], 0.0);
        COMPARE_NEAR(a.weights[1], b.weights[0], 0.0);
    }

    // Cross-attention and a cached prefix: n queries over m > n keys.
    void attentionMoreKeys()
    {
        const MatD q = randomMatrix(2, 6, 1), k = randomMatrix(5, 6, 2), v = randomMatrix(5, 9, 3);
        AttentionSettings settings;
        settings.heads = 3;
        settings.causal = true;
        const AttentionOutput<double> out = attention<double>(q, k, v, settings);
        QCOMPARE(out.context.rows(), 2);
        QCOMPARE(out.context.cols(), 9);
        // Query 0 is position 3 of 5: it sees keys 0..3, not 4.
        QCOMPARE(out.weights[2](0, 4), 0.0);
        QVERIFY(out.weights[2](0, 3) > 0.0);
        QVERIFY(out.weights[2](1, 4) > 0.0);
    }

    void attentionRefusesInconsistentSizes()
    {
        AttentionSettings settings;
        settings.heads = 3; // 4 columns do not split into 3 heads
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attention<double>(kQ, kK, kV, settings));
    }
};

QTEST_APPLESS_MAIN(TestModelOps)
#include "tst_modelops.moc"
