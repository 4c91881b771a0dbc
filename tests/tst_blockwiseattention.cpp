// attn::attention in float goes a block of query rows at a time, with kernels
// chosen for the processor (model/blockwiseattention.h, model/attentionkernels.h).
// Every mode against a plain computation written here in double and long
// double, apart from the code under test: sizes that are and are not
// multiples of the block and of the vector width, one query, cross-attention
// with and without the mask, several heads. Then the kernels of every
// instruction set this processor runs, and rows that must keep their bits
// whichever block computes them.

#include "model/attentionkernels.h"
#include "model/attentionop.h"
#include "byhand.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace attn;
using MatD = RowMatrix<double>;
using MatF = RowMatrix<float>;
using Index = Eigen::Index;

namespace {

MatF randomMatrix(Index rows, Index cols, unsigned seed, double scale = 1.0)
{
    std::mt19937 gen(seed);
    std::normal_distribution<double> normal(0.0, scale);
    MatF m(rows, cols);
    for (Index i = 0; i < m.size(); ++i)
        m.data()[i] = float(normal(gen));
    return m;
}

// One head, computed element by element from the float inputs.
struct Reference
{
    MatD scores, weights, context, scoreBound; // scoreBound: sum over k of |q_k k_k|
};

Reference referenceHead(const MatF &q, const MatF &k, const MatF &v, int h, int heads, double scale, bool causal)
{
    const Index n = q.rows(), m = k.rows(), dk = q.cols() / heads, dv = v.cols() / heads;
    Reference r;
    r.scores = MatD::Zero(n, m);
    r.scoreBound = MatD::Zero(n, m);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < m; ++j)
            for (Index c = 0; c < dk; ++c) {
                const double product = double(q(i, h * dk + c)) * double(k(j, h * dk + c));
                r.scores(i, j) += product;
                r.scoreBound(i, j) += std::abs(product);
            }
    r.weights = softmaxByHand(r.scores, scale, causal);
    r.context = MatD::Zero(n, dv);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < m; ++j)
            for (Index c = 0; c < dv; ++c)
                r.context(i, c) += r.weights(i, j) * double(v(j, h * dv + c));
    return r;
}

double largestDifference(const MatD &a, const MatD &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return INFINITY;
    return (a - b).cwiseAbs().maxCoeff();
}

// Float's rounding of a dot product of dk terms is at most dk * 2^-24 of the sum of their sizes.
bool scoresMatch(const MatF &scores, const Reference &r, Index dk)
{
    if (scores.rows() != r.scores.rows() || scores.cols() != r.scores.cols())
        return false;
    const double unit = std::ldexp(1.0, -24);
    const MatD error = (scores.cast<double>() - r.scores).cwiseAbs();
    return (error.array() <= double(dk + 1) * unit * r.scoreBound.array() + 1e-30).all();
}

bool maskIsExact(const MatF &w, bool causal)
{
    const Index n = w.rows(), m = w.cols();
    for (Index i = 0; causal && i < n; ++i)
        for (Index j = i + 1 + m - n; j < m; ++j)
            if (w(i, j) != 0.0f)
                return false;
    return true;
}

bool rowsSumToOne(const MatF &w)
{
    for (Index i = 0; i < w.rows(); ++i)
        if (std::abs(w.row(i).cast<double>().sum() - 1.0) > 1e-5)
            return false;
    return true;
}

// The weights AttentionMatrix::softmaxOf derives from the scores and row statistics.
MatF weightsFromStatistics(const MatF &scores, const RowStatistics<float> &rows, float scale, bool causal)
{
    const Index n = scores.rows(), m = scores.cols();
    MatF w = MatF::Zero(n, m);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < (causal ? i + 1 + m - n : m); ++j)
            w(i, j) = std::exp(scores(i, j) * scale - rows.max[i]) * rows.inverseSum[i];
    return w;
}

enum class Mode { Matrices, MatricesWithScores, RowStatistics, SummedWithOneOff };

} // namespace

Q_DECLARE_METATYPE(const attn::kernels::AttentionKernels *)

class TestBlockwiseAttention : public QObject
{
    Q_OBJECT

private slots:
    void everyMode_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("dk");
        QTest::addColumn<int>("dv");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("mode");
        QTest::addColumn<const kernels::AttentionKernels *>("kernels");
        struct Size
        {
            const char *name;
            int n, m, heads, dk, dv;
            bool causal;
        };
        const Size sizes[] = {
            {"one query", 1, 1, 1, 8, 8, false},
            {"one query, causal", 1, 1, 2, 3, 5, true},
            {"one query, earlier keys, causal", 1, 9, 2, 5, 3, true},
            {"one block less a row, causal", 59, 59, 3, 13, 11, true},
            {"two blocks and a bit, causal", 130, 130, 2, 64, 64, true},
            {"cross, masked", 97, 203, 2, 24, 40, true},
            {"cross, no mask", 77, 150, 4, 7, 9, false},
            {"two threads, causal", 300, 300, 8, 64, 64, true},
            {"two threads, wide values", 257, 333, 2, 20, 70, false},
            {"two threads, tiny heads", 400, 400, 12, 5, 5, true},
            {"two threads, narrow values", 300, 310, 3, 6, 8, false}, // AVX-512's narrowest, at its widest
            {"values one wide, causal", 150, 150, 2, 4, 1, true},
            {"values two wide", 70, 90, 2, 3, 2, false},
            {"values four wide, causal", 131, 131, 2, 4, 4, true},
        };
        const char *modes[] = {"matrices", "matrices+scores", "row statistics", "summed, one off"};
        for (const auto *const *set = kernels::runnableAttentionKernels(); *set; ++set)
            for (const Size &s : sizes)
                for (int mode = 0; mode < 4; ++mode)
                    QTest::addRow("%s, %s, %s", (*set)->name, s.name, modes[mode])
                        << s.n << s.m << s.heads << s.dk << s.dv << s.causal << mode << *set;
    }
    void everyMode()
    {
        QFETCH(int, n);
        QFETCH(int, m);
        QFETCH(int, heads);
        QFETCH(int, dk);
        QFETCH(int, dv);
        QFETCH(bool, causal);
        QFETCH(int, mode);
        QFETCH(const kernels::AttentionKernels *, kernels);
        kernels::useAttentionKernels(kernels);
        const MatF q = randomMatrix(n, heads * dk, 1), k = randomMatrix(m, heads * dk, 2),
                   v = randomMatrix(m, heads * dv, 3, 2.0);
        AttentionSettings settings;
        settings.heads = heads;
        settings.causal = causal;
        settings.scale = 1.3 / std::sqrt(double(dk));
        const Mode kind = Mode(mode);
        settings.keepScores = kind == Mode::MatricesWithScores;
        if (kind == Mode::RowStatistics) {
            // Head 0's weights kept, the others' derived from their scores
            // (kept here to check the statistics); every head pooled into
            // thumbnails of at most 7 cells a side.
            settings.weightsKept = WeightsKept::RowStatistics;
            settings.keepScores = true;
            settings.inFull.assign(std::size_t(heads), false);
            settings.inFull[0] = true;
            settings.poolSide = 7;
        }
        if (kind == Mode::SummedWithOneOff || kind == Mode::RowStatistics)
            settings.sumWeights = true;
        const int off = heads > 1 ? 1 : 0;
        if (kind == Mode::SummedWithOneOff) {
            settings.switchedOff.assign(std::size_t(heads), false);
            settings.switchedOff[std::size_t(off)] = true;
        }
        const AttentionOutput<float> out = attention<float>(q, k, v, settings);

        const bool statistics = kind == Mode::RowStatistics;
        QCOMPARE(out.weights.size(), std::size_t(heads));
        QCOMPARE(out.scores.size(), settings.keepScores ? std::size_t(heads) : std::size_t(0));
        QCOMPARE(out.context.rows(), Index(n));
        QCOMPARE(out.context.cols(), Index(heads * dv));
        MatD sum = MatD::Zero(n, m);
        for (int h = 0; h < heads; ++h) {
            const Reference r = referenceHead(q, k, v, h, heads, settings.scale, causal);
            MatF w;
            if (statistics && h > 0) {
                QCOMPARE(out.weights[std::size_t(h)].size(), Index(0));
                const RowStatistics<float> &rows = out.rowStatistics[std::size_t(h)];
                QCOMPARE(rows.max.size(), Index(n));
                w = weightsFromStatistics(out.scores[std::size_t(h)], rows, float(settings.scale), causal);
            } else {
                w = out.weights[std::size_t(h)];
            }
            if (statistics) {
                // The thumbnails: the pooling of the scores as computed, and
                // of the weights to float's rounding (head 0's exactly).
                const PooledMatrix &scoreCells = out.pooledScores[std::size_t(h)];
                const PooledMatrix &weightCells = out.pooledWeights[std::size_t(h)];
                QCOMPARE(scoreCells.rows(), Index(std::min(n, 7)));
                QCOMPARE(scoreCells.cols(), Index(std::min(m, 7)));
                QCOMPARE(pooledDifference(scoreCells.cells, pooledByHand(out.scores[std::size_t(h)], causal, 7)), 0.0);
                QVERIFY(pooledDifference(weightCells.cells, pooledByHand(w, causal, 7)) <= (h == 0 ? 0.0 : 1e-6));
                QVERIFY(pooledDifference(weightCells.cells, pooledByHand(r.weights, causal, 7)) < 1e-5);
            }
            if (!out.scores.empty())
                QVERIFY(scoresMatch(out.scores[std::size_t(h)], r, dk)); // masked scores too
            QVERIFY2(largestDifference(w.cast<double>(), r.weights) < 1e-5, qPrintable(QString::number(h)));
            QVERIFY(maskIsExact(w, causal));
            QVERIFY(rowsSumToOne(w));
            sum += w.cast<double>();
            const MatD z = out.context.middleCols(h * dv, dv).cast<double>();
            if (kind == Mode::SummedWithOneOff && h == off) {
                QVERIFY(z.isZero(0.0)); // switched off: nothing, exactly
                continue;
            }
            const double size = std::max(1.0, double(v.middleCols(h * dv, dv).cwiseAbs().maxCoeff()));
            QVERIFY2(largestDifference(z, r.context) < 1e-4 * size, qPrintable(QString::number(h)));
        }
        if (settings.sumWeights)
            QVERIFY(largestDifference(out.weightSum.cast<double>(), sum) < 1e-5 * heads);
        else
            QCOMPARE(out.weightSum.size(), Index(0));
        if (statistics)
            QCOMPARE(pooledDifference(out.pooledWeightSum.cells, pooledByHand(out.weightSum, causal, 7)), 0.0);

        // Stored by columns, as sessions hold Q, K and V: the same numbers to the last bit.
        const Eigen::MatrixXf qc = q, kc = k, vc = v;
        const AttentionOutput<float> byColumns = attentionByColumns<float>(qc, kc, vc, settings);
        QVERIFY(byColumns.context == out.context);
        for (std::size_t h = 0; h < out.weights.size(); ++h)
            QVERIFY(byColumns.weights[h] == out.weights[h]);
        for (std::size_t h = 0; h < out.scores.size(); ++h)
            QVERIFY(byColumns.scores[h] == out.scores[h]);

        if (statistics) {
            // Without the scores' thumbnails (the window shows weights): none
            // made, and the rest the same bits.
            AttentionSettings weightsOnly = settings;
            weightsOnly.poolScores = false;
            const AttentionOutput<float> lean = attention<float>(q, k, v, weightsOnly);
            QVERIFY(lean.pooledScores.empty());
            QCOMPARE(lean.pooledWeights.size(), std::size_t(heads));
            for (std::size_t h = 0; h < std::size_t(heads); ++h) {
                QCOMPARE(pooledDifference(lean.pooledWeights[h].cells, out.pooledWeights[h].cells.cast<double>()), 0.0);
                QVERIFY(lean.weights[h] == out.weights[h]);
                QVERIFY(lean.rowStatistics[h].max == out.rowStatistics[h].max);
            }
            QVERIFY(lean.context == out.context);
            QCOMPARE(pooledDifference(lean.pooledWeightSum.cells, out.pooledWeightSum.cells.cast<double>()), 0.0);
        }
    }
    void cleanup() { kernels::useAttentionKernels(nullptr); }

    // An incremental pass computes the last rows alone, in other blocks than
    // the full pass: each row must keep its bits.
    void rowsKeepTheirBitsInAnyBlock_data()
    {
        QTest::addColumn<int>("from");
        QTest::newRow("last row") << 249;
        QTest::newRow("mid-block") << 37;
        QTest::newRow("two threads") << 5;
    }
    void rowsKeepTheirBitsInAnyBlock()
    {
        QFETCH(int, from);
        const int n = 250, heads = 3, dk = 20;
        const MatF q = randomMatrix(n, heads * dk, 4), k = randomMatrix(n, heads * dk, 5),
                   v = randomMatrix(n, heads * dk, 6);
        AttentionSettings settings;
        settings.heads = heads;
        settings.causal = true;
        settings.scale = 0.25;
        settings.keepScores = true;
        const AttentionOutput<float> all = attention<float>(q, k, v, settings);
        const AttentionOutput<float> last = attention<float>(q.bottomRows(n - from), k, v, settings);
        QVERIFY(last.context == all.context.bottomRows(n - from));
        for (int h = 0; h < heads; ++h) {
            QVERIFY(last.weights[std::size_t(h)] == all.weights[std::size_t(h)].bottomRows(n - from));
            QVERIFY(last.scores[std::size_t(h)] == all.scores[std::size_t(h)].bottomRows(n - from));
        }
    }

    // Each instruction set's kernels on their own, against plain sums.
    void kernelsOfEveryInstructionSet()
    {
        const auto *const *sets = kernels::runnableAttentionKernels();
        QVERIFY(sets[0] != nullptr);
        QCOMPARE(&kernels::activeAttentionKernels(), sets[0]);
        for (; *sets; ++sets) {
            const kernels::AttentionKernels &kern = **sets;
            const long rows = 2 * kern.rowGroup + 1, dk = 11, keys = 3 * kern.panelWidth - 2;
            const long panels = (keys + kern.panelWidth - 1) / kern.panelWidth, lds = keys + 3;
            const MatF q = randomMatrix(rows, dk, 7), key = randomMatrix(keys, dk, 8);
            std::vector<float> packed(std::size_t(panels * dk * kern.panelWidth), 0.0f);
            for (long j = 0; j < keys; ++j)
                for (long c = 0; c < dk; ++c)
                    packed[std::size_t(((j / kern.panelWidth) * dk + c) * kern.panelWidth + j % kern.panelWidth)]
                        = key(j, c);
            std::vector<float> s(std::size_t(rows * lds), -1.0f);
            kern.scores(q.data(), dk, rows, packed.data(), dk, keys, s.data(), lds);
            double worst = 0.0;
            for (long i = 0; i < rows; ++i)
                for (long j = 0; j < keys; ++j)
                    worst = std::max(worst, std::abs(double(s[std::size_t(i * lds + j)])
                                                     - q.row(i).cast<double>().dot(key.row(j).cast<double>())));
            QVERIFY2(worst < 1e-5, kern.name);
            QCOMPARE(s[std::size_t(keys)], -1.0f); // nothing past the last key is written

            const long ldv = 5 * kern.vectorWidth, ldz = ldv + 1;
            const MatF w = randomMatrix(rows, keys, 9), values = randomMatrix(keys, ldv, 10);
            std::vector<float> z(std::size_t(rows * ldz), -1.0f);
            kern.context(w.data(), keys, rows, keys, values.data(), ldv, z.data(), ldz);
            const MatD expected = w.cast<double>() * values.cast<double>();
            worst = 0.0;
            for (long i = 0; i < rows; ++i)
                for (long c = 0; c < ldv; ++c)
                    worst = std::max(worst, std::abs(double(z[std::size_t(i * ldz + c)]) - expected(i, c)));
            QVERIFY2(worst < 1e-4, kern.name);
            QCOMPARE(z[std::size_t(ldv)], -1.0f); // nothing past ldv is written

            // narrowContext: V transposed, every width it takes, rows in
            // partial groups, keys ending inside a vector.
            for (long dv = 1; dv <= kern.narrowValues; ++dv) {
                const long ldvt = keys + 5;
                const MatF vt = randomMatrix(dv, ldvt, 12);
                std::vector<float> narrow(std::size_t(rows * ldz), -1.0f);
                kern.narrowContext(w.data(), keys, rows, keys, vt.data(), ldvt, dv, narrow.data(), ldz);
                const MatD narrowExpected = w.cast<double>() * vt.leftCols(keys).transpose().cast<double>();
                worst = 0.0;
                for (long i = 0; i < rows; ++i) {
                    for (long c = 0; c < dv; ++c) {
                        const double got = narrow[std::size_t(i * ldz + c)];
                        worst = std::max(worst, std::abs(got - narrowExpected(i, c)));
                    }
                    QCOMPARE(narrow[std::size_t(i * ldz + dv)], -1.0f); // nothing past dv is written
                }
                QVERIFY2(worst < 1e-4, qPrintable(QStringLiteral("%1, dv %2").arg(kern.name).arg(dv)));
            }

            // Softmax rows of every length about the vector width, in place and not.
            const MatF scores = randomMatrix(1, 4 * kern.vectorWidth + 3, 11, 4.0);
            for (long visible = 1; visible <= scores.cols(); ++visible) {
                std::vector<float> in(scores.data(), scores.data() + scores.cols()), out(in.size(), -1.0f);
                float max = 0.0f, inverse = 0.0f;
                kern.softmax(in.data(), out.data(), visible, 0.7f, &max, &inverse);
                long double largest = -INFINITY, sum = 0;
                for (long j = 0; j < visible; ++j)
                    largest = std::max(largest, (long double)(in[std::size_t(j)] * 0.7f));
                for (long j = 0; j < visible; ++j)
                    sum += std::exp((long double)(in[std::size_t(j)] * 0.7f) - largest);
                QCOMPARE(double(max), double(largest));
                QVERIFY(std::abs(double(1 / inverse) - double(sum)) < 1e-6 * double(sum));
                for (long j = 0; j < visible; ++j) {
                    const double expected =
                        double(std::exp((long double)(in[std::size_t(j)] * 0.7f) - largest) / sum);
                    // float's rounding (2^-24) in each term of the sum, a few more in the exponential
                    const double tolerance = double(visible + 8) * std::ldexp(1.0, -24) * expected;
                    QVERIFY2(std::abs(double(out[std::size_t(j)]) - expected) <= tolerance, kern.name);
                }
                if (visible < scores.cols())
                    QCOMPARE(out[std::size_t(visible)], -1.0f); // nothing past the row
                std::vector<float> same = in;
                kern.softmax(same.data(), same.data(), visible, 0.7f, nullptr, nullptr);
                QVERIFY(std::equal(same.begin(), same.begin() + visible, out.begin()));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestBlockwiseAttention)
#include "tst_blockwiseattention.moc"
