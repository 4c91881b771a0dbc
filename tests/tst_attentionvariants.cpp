// What today's decoders add to attention: grouped-query attention (several
// query heads reading one key/value head), sliding windows and soft-capped
// scores. Expected numbers come from a plain computation written here, in
// long double, one element at a time, apart from the code under test; every
// instruction set's kernels are run through the float path.

#include "model/attentionkernels.h"
#include "model/attentionop.h"
#include "model/rotary.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace attn;
using MatD = RowMatrix<double>;
using MatF = RowMatrix<float>;

namespace {

MatD randomMatrix(Eigen::Index rows, Eigen::Index cols, unsigned seed)
{
    std::mt19937 gen(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    MatD m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = normal(gen);
    return m;
}

struct Reference
{
    std::vector<MatD> weights, scores;
    MatD context;
};

// Head h reads key/value head h / (heads / kvHeads); query i (at position
// i + m - n) sees key j when j <= position and, with a window, position -
// window < j; the scaled score s becomes cap * tanh(s / cap) first.
Reference plainAttention(const MatD &q, const MatD &k, const MatD &v, int heads, int kvHeads, bool causal, int window,
                         double scale, double cap)
{
    const Eigen::Index n = q.rows(), m = k.rows(), dk = q.cols() / heads, dv = v.cols() / kvHeads;
    Reference r;
    r.context = MatD::Zero(n, heads * dv);
    for (int h = 0; h < heads; ++h) {
        const int g = h / (heads / kvHeads);
        MatD s(n, m), w = MatD::Zero(n, m);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < m; ++j) {
                long double dot = 0;
                for (Eigen::Index c = 0; c < dk; ++c)
                    dot += (long double)q(i, h * dk + c) * k(j, g * dk + c);
                s(i, j) = double(dot);
            }
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::Index position = i + m - n;
            std::vector<long double> x(std::size_t(m), 0);
            long double largest = -INFINITY, sum = 0;
            const auto sees = [&](Eigen::Index j) {
                return (!causal || j <= position) && (window == 0 || j > position - window);
            };
            for (Eigen::Index j = 0; j < m; ++j)
                if (sees(j)) {
                    long double t = (long double)s(i, j) * scale;
                    if (cap > 0)
                        t = cap * std::tanh(t / cap);
                    x[std::size_t(j)] = t;
                    largest = std::max(largest, t);
                }
            for (Eigen::Index j = 0; j < m; ++j)
                if (sees(j))
                    sum += std::exp(x[std::size_t(j)] - largest);
            for (Eigen::Index j = 0; j < m; ++j)
                if (sees(j))
                    w(i, j) = double(std::exp(x[std::size_t(j)] - largest) / sum);
        }
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index c = 0; c < dv; ++c) {
                long double z = 0;
                for (Eigen::Index j = 0; j < m; ++j)
                    z += (long double)w(i, j) * v(j, g * dv + c);
                r.context(i, h * dv + c) = double(z);
            }
        r.weights.push_back(w);
        r.scores.push_back(s);
    }
    return r;
}

double largestDifference(const MatD &a, const MatD &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return INFINITY;
    return (a - b).cwiseAbs().maxCoeff();
}

} // namespace

class TestAttentionVariants : public QObject
{
    Q_OBJECT

private slots:
    void againstThePlainComputation_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("dk");
        QTest::addColumn<int>("dv");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("window");
        QTest::addColumn<double>("cap");
        QTest::newRow("groups of two") << 9 << 9 << 4 << 2 << 6 << 6 << true << 0 << 0.0;
        QTest::newRow("one key head") << 7 << 7 << 3 << 1 << 4 << 5 << false << 0 << 0.0;
        QTest::newRow("window 3") << 11 << 11 << 2 << 2 << 4 << 4 << true << 3 << 0.0;
        QTest::newRow("window 1: itself only") << 6 << 6 << 1 << 1 << 3 << 3 << true << 1 << 0.0;
        QTest::newRow("window longer than the text") << 5 << 5 << 2 << 1 << 4 << 4 << true << 50 << 0.0;
        QTest::newRow("new rows after a prefix, window 4") << 3 << 10 << 4 << 2 << 4 << 2 << true << 4 << 0.0;
        QTest::newRow("soft-cap 0.7") << 8 << 8 << 2 << 1 << 5 << 5 << true << 0 << 0.7;
        QTest::newRow("all three") << 40 << 40 << 6 << 2 << 8 << 8 << true << 7 << 2.5;
        QTest::newRow("all three, long: two threads") << 300 << 300 << 4 << 2 << 16 << 16 << true << 33 << 3.0;
        QTest::newRow("narrow values, window") << 200 << 200 << 4 << 1 << 2 << 2 << true << 17 << 0.0;
    }

    void againstThePlainComputation()
    {
        QFETCH(int, n);
        QFETCH(int, m);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(int, dk);
        QFETCH(int, dv);
        QFETCH(bool, causal);
        QFETCH(int, window);
        QFETCH(double, cap);
        const MatD q = randomMatrix(n, heads * dk, 1), k = randomMatrix(m, kvHeads * dk, 2),
                   v = randomMatrix(m, kvHeads * dv, 3);
        const double scale = 0.8;
        const Reference expected = plainAttention(q, k, v, heads, kvHeads, causal, window, scale, cap);
        AttentionSettings settings;
        settings.heads = heads;
        settings.kvHeads = kvHeads;
        settings.causal = causal;
        settings.window = window;
        settings.scale = scale;
        settings.softcap = cap;
        settings.keepScores = true;

        const AttentionOutput<double> twice = attention<double>(q, k, v, settings);
        for (int h = 0; h < heads; ++h) {
            QVERIFY(largestDifference(twice.weights[std::size_t(h)], expected.weights[std::size_t(h)]) < 1e-12);
            QVERIFY(largestDifference(twice.scores[std::size_t(h)], expected.scores[std::size_t(h)]) < 1e-12);
        }
        QVERIFY(largestDifference(twice.context, expected.context) < 1e-12);

        const MatF qf = q.cast<float>(), kf = k.cast<float>(), vf = v.cast<float>();
        for (const kernels::AttentionKernels *const *set = kernels::runnableAttentionKernels(); *set; ++set) {
            kernels::useAttentionKernels(*set);
            const AttentionOutput<float> once = attention<float>(qf, kf, vf, settings);
            for (int h = 0; h < heads; ++h) {
                const MatD w = once.weights[std::size_t(h)].cast<double>();
                QVERIFY2(largestDifference(w, expected.weights[std::size_t(h)]) < 2e-5, (*set)->name);
                // Masked entries are exactly 0, outside the window too.
                for (Eigen::Index i = 0; i < n; ++i)
                    for (Eigen::Index j = 0; j < m; ++j)
                        if (expected.weights[std::size_t(h)](i, j) == 0.0)
                            QCOMPARE(w(i, j), 0.0);
                QVERIFY(largestDifference(once.scores[std::size_t(h)].cast<double>(), expected.scores[std::size_t(h)])
                        < 1e-4);
            }
            QVERIFY2(largestDifference(once.context.cast<double>(), expected.context) < 2e-5, (*set)->name);
        }
        kernels::useAttentionKernels(nullptr);
    }

    // By hand: four tokens whose scores are all 0, a window of 2. Row 3 sees
    // keys 2 and 3 only: weights 0, 0, 0.5, 0.5. Row 0 sees itself: 1, 0, 0, 0.
    void windowByHand()
    {
        const MatD zeros = MatD::Zero(4, 2);
        MatD v(4, 1);
        v << 1, 2, 3, 4;
        AttentionSettings settings;
        settings.causal = true;
        settings.window = 2;
        const AttentionOutput<float> out = attention<float>(zeros.cast<float>(), zeros.cast<float>(), v.cast<float>(),
                                                            settings);
        MatF expected(4, 4);
        expected << 1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0, 0.5f, 0.5f;
        QCOMPARE(out.weights[0], expected);
        // Context of row 3: (3 + 4) / 2.
        QCOMPARE(out.context(3, 0), 3.5f);
    }

    // By hand: one query, two keys with scaled scores 0 and 2, cap 1. Capped:
    // 0 and tanh(2) = 0.96403; weights 1 / (1 + e^0.96403) = 0.27607 and 0.72393.
    void softcapByHand()
    {
        MatD q(1, 1), k(2, 1), v(2, 1);
        q << 1;
        k << 0, 2;
        v << 0, 1;
        AttentionSettings settings;
        settings.softcap = 1.0;
        const AttentionOutput<double> out = attention<double>(q, k, v, settings);
        QVERIFY(std::abs(out.weights[0](0, 0) - 0.27607) < 1e-5);
        QVERIFY(std::abs(out.weights[0](0, 1) - 0.72393) < 1e-5);
    }

    void inconsistentSettingsAreRefused()
    {
        const MatF q = MatF::Zero(3, 8), k = MatF::Zero(3, 4);
        AttentionSettings settings;
        settings.heads = 4;
        settings.kvHeads = 3; // does not divide 4
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attention<float>(q, k, k, settings));
        settings.kvHeads = 2;
        settings.window = 2; // a window needs the causal mask
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attention<float>(q, k, k, settings));
    }

    // By hand, head_dim 4 (two pairs), theta 10000: pair 0 (x0, x2) turns by
    // p * 1, pair 1 (x1, x3) by p * 10000^(-2/4) = p / 100. (1, 2, 3, 4) at
    // position 1: pair 0 (1, 3) by 1 rad -> (cos 1 - 3 sin 1, 3 cos 1 + sin 1)
    // = (-1.98411, 2.46238); pair 1 (2, 4) by 0.01 -> (2 cos .01 - 4 sin .01,
    // 4 cos .01 + 2 sin .01) = (1.95990, 4.01980).
    void rotateHalfByHand()
    {
        RotaryConfig config;
        config.dimensions = 4;
        const std::vector<float> frequencies = rotaryFrequencies(config);
        QCOMPARE(frequencies.size(), std::size_t(2));
        QCOMPARE(frequencies[0], 1.0f);
        QVERIFY(std::abs(frequencies[1] - 0.01f) < 1e-9f);
        MatF x(2, 4);
        x << 1, 2, 3, 4, 1, 2, 3, 4;
        applyRotary(x, 1, 4, 4, frequencies, 0);
        // Row 0 stands at position 0: unchanged.
        QCOMPARE(x(0, 0), 1.0f);
        QCOMPARE(x(0, 3), 4.0f);
        const float expected[] = {-1.98411f, 1.95990f, 2.46238f, 4.01980f};
        for (int c = 0; c < 4; ++c)
            QVERIFY2(std::abs(x(1, c) - expected[c]) < 1e-4f, qPrintable(QString::number(c)));
        undoRotary(x, 1, 4, 4, frequencies, 0);
        for (int c = 0; c < 4; ++c)
            QVERIFY(std::abs(x(1, c) - float(c + 1)) < 1e-5f);
    }

    // The point of rotary positions: q.k after rotation depends only on how
    // far apart the two positions are.
    void scoreDependsOnlyOnDistance()
    {
        RotaryConfig config;
        config.dimensions = 8;
        const std::vector<float> frequencies = rotaryFrequencies(config);
        const MatF q = randomMatrix(1, 8, 4).cast<float>(), k = randomMatrix(1, 8, 5).cast<float>();
        const auto score = [&](int qPosition, int kPosition) {
            MatF a = q, b = k;
            applyRotary(a, 1, 8, 8, frequencies, qPosition);
            applyRotary(b, 1, 8, 8, frequencies, kPosition);
            return double(a.row(0).dot(b.row(0)));
        };
        QVERIFY(std::abs(score(5, 2) - score(13, 10)) < 1e-4);
        QVERIFY(std::abs(score(5, 2) - score(5, 3)) > 1e-3);
    }

    // Partial rotary: only the first `dimensions` of each head turn; with
    // two heads, each head's own first dimensions.
    void partialRotaryLeavesTheRest()
    {
        RotaryConfig config;
        config.dimensions = 4;
        const std::vector<float> frequencies = rotaryFrequencies(config);
        MatF x = randomMatrix(1, 12, 6).cast<float>();
        const MatF before = x;
        applyRotary(x, 2, 6, 4, frequencies, 3);
        QCOMPARE(x(0, 4), before(0, 4));
        QCOMPARE(x(0, 5), before(0, 5));
        QCOMPARE(x(0, 10), before(0, 10));
        QCOMPARE(x(0, 11), before(0, 11));
        QVERIFY(x(0, 0) != before(0, 0));
        QVERIFY(x(0, 6) != before(0, 6));
    }

    // transformers' _compute_llama3_parameters with factor 8, low 1, high 4,
    // original 8192, head_dim 128 (Llama 3.1): wavelengths above 8192 are
    // divided by 8, below 2048 kept, between blended. Pair 0: 1 (kept); pair
    // 63: 500000^(-126/128) / 8; pair 40 (wavelength 2 pi / 500000^(-80/128)
    // = 22,911 > 8192): divided by 8; pair 30 (wavelength 2 pi /
    // 500000^(-60/128) = 2948, between): (1 - s) f / 8 + s f with
    // s = (8192 / 2948 - 1) / 3.
    void llama3Scaling()
    {
        RotaryConfig config;
        config.theta = 500000;
        config.dimensions = 128;
        config.scaling = RopeScaling::Llama3;
        config.factor = 8;
        config.lowFrequencyFactor = 1;
        config.highFrequencyFactor = 4;
        config.originalPositions = 8192;
        const std::vector<float> f = rotaryFrequencies(config);
        const auto plain = [](int i) { return std::pow(500000.0, -2.0 * i / 128.0); };
        QCOMPARE(f[0], 1.0f);
        QVERIFY(std::abs(f[63] / (plain(63) / 8) - 1) < 1e-5);
        QVERIFY(std::abs(f[40] / (plain(40) / 8) - 1) < 1e-5);
        const double wavelength = 2 * 3.14159265358979 / plain(30), s = (8192 / wavelength - 1) / 3;
        QVERIFY(s > 0 && s < 1);
        QVERIFY(std::abs(f[30] / ((1 - s) * plain(30) / 8 + s * plain(30)) - 1) < 1e-5);
    }
};

QTEST_APPLESS_MAIN(TestAttentionVariants)
#include "tst_attentionvariants.moc"
