// Dense layers (model/denseops.h) by the program's own kernel, for every
// instruction set this processor runs, against a plain loop written here:
// each output the sum over the depth, in order, of one multiply-add a term
// (fused where the set fuses them), which is the order the kernel promises
// whatever the rows, panels and pieces of depth. So the comparison is bit for
// bit; OpenBLAS (the other way dense() multiplies) sums in another order and
// would fail it. Weights as models hold them: [in, out] and transposed
// [out, in], mapped with rows further apart than their width (GPT-2's c_attn
// views), owned, and stored in another type (converted when used), with
// sizes that are not whole panels (64 columns with AVX-512) or pieces of depth
// (512), and a bias.

#include "model/attentionkernels.h"
#include "model/denseops.h"

#include <QTest>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>

using namespace attn;

namespace {

RowMatrix<float> randomMatrix(Eigen::Index rows, Eigen::Index cols, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    RowMatrix<float> m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = uniform(gen);
    return m;
}

// A weight kept in its own (here: float) storage and converted rows at a time, as F16, BF16 and GGUF weights are.
class FloatRows final : public StoredRows
{
public:
    explicit FloatRows(RowMatrix<float> values) : StoredRows(values.rows(), values.cols()), m_values(std::move(values)) {}
    void toFloat(Eigen::Index first, Eigen::Index count, float *out) const override
    {
        std::memcpy(out, m_values.data() + first * cols(), std::size_t(count * cols()) * sizeof(float));
    }
    QString typeName() const override { return QStringLiteral("test"); }

private:
    RowMatrix<float> m_values;
};

// A weight stored as 16-bit floats (bfloat16 or IEEE half) whose rows are
// `stride` elements apart, read in place by the few-rows kernel; the
// elements between rows are NaN, so reading one shows in the answer.
class SixteenBitRows final : public StoredRows
{
public:
    SixteenBitRows(const RowMatrix<float> &values, kernels::RowElement element, Eigen::Index stride)
        : StoredRows(values.rows(), values.cols()), m_element(element), m_stride(stride),
          m_bits(std::size_t(values.rows() * stride), 0xffff), m_widened(values.rows(), values.cols())
    {
        for (Eigen::Index r = 0; r < values.rows(); ++r)
            for (Eigen::Index c = 0; c < values.cols(); ++c) {
                std::uint16_t bits;
                if (element == kernels::RowElement::BFloat16) {
                    std::uint32_t wide;
                    std::memcpy(&wide, &values(r, c), sizeof wide);
                    bits = std::uint16_t(wide >> 16); // bfloat16: the upper half
                    wide = std::uint32_t(bits) << 16;
                    std::memcpy(&m_widened(r, c), &wide, sizeof wide);
                } else {
                    const Eigen::half half(values(r, c));
                    bits = Eigen::numext::bit_cast<std::uint16_t>(half);
                    m_widened(r, c) = float(half);
                }
                m_bits[std::size_t(r * stride + c)] = bits;
            }
    }
    void toFloat(Eigen::Index first, Eigen::Index count, float *out) const override
    {
        std::memcpy(out, m_widened.data() + first * cols(), std::size_t(count * cols()) * sizeof(float));
    }
    QString typeName() const override { return QStringLiteral("test16"); }
    RowsInPlace inPlace() const override { return {m_bits.data(), m_stride, m_element}; }
    // The values as stored, as floats.
    const RowMatrix<float> &widened() const { return m_widened; }

private:
    kernels::RowElement m_element;
    Eigen::Index m_stride;
    std::vector<std::uint16_t> m_bits;
    RowMatrix<float> m_widened;
};

// y(r, j) = bias(j) + the sum over k, in order, of x(r, k) * W(k, j) (W(j, k) when transposed).
RowMatrix<float> plainProduct(const RowMatrix<float> &x, const RowMatrix<float> &w, const RowVector<float> &bias,
                              bool transposed, bool fused)
{
    const Eigen::Index outputs = transposed ? w.rows() : w.cols();
    RowMatrix<float> y(x.rows(), outputs);
    for (Eigen::Index r = 0; r < x.rows(); ++r)
        for (Eigen::Index j = 0; j < outputs; ++j) {
            float sum = 0.0f;
            for (Eigen::Index k = 0; k < x.cols(); ++k) {
                const float weight = transposed ? w(j, k) : w(k, j);
                if (fused) {
                    sum = std::fma(x(r, k), weight, sum);
                } else {
                    const float term = x(r, k) * weight; // two roundings: SSE2 has no fused multiply-add
                    sum = sum + term;
                }
            }
            y(r, j) = bias.size() > 0 ? sum + bias[j] : sum;
        }
    return y;
}

// x * Wᵀ (+ bias) as rowDots promises to sum: four sums of `width` lanes,
// the term k into sum k / width % 4, lane k % width, one multiply-add at a
// time; then, lane by lane, (sum 0 + sum 1) + (sum 2 + sum 3), and the lanes in order.
RowMatrix<float> plainDots(const RowMatrix<float> &x, const RowMatrix<float> &w, const RowVector<float> &bias,
                           long width, bool fused)
{
    RowMatrix<float> y(x.rows(), w.rows());
    const auto lanes = std::size_t(width);
    std::vector<float> sums(4 * lanes);
    for (Eigen::Index r = 0; r < x.rows(); ++r)
        for (Eigen::Index j = 0; j < w.rows(); ++j) {
            std::fill(sums.begin(), sums.end(), 0.0f);
            for (Eigen::Index k = 0; k < x.cols(); ++k) {
                float &sum = sums[std::size_t(k / width % 4) * lanes + std::size_t(k % width)];
                sum = fused ? std::fma(x(r, k), w(j, k), sum) : sum + x(r, k) * w(j, k);
            }
            float total = 0.0f;
            for (std::size_t l = 0; l < lanes; ++l) {
                const float lane = (sums[l] + sums[lanes + l]) + (sums[2 * lanes + l] + sums[3 * lanes + l]);
                total = l == 0 ? lane : total + lane;
            }
            y(r, j) = bias.size() > 0 ? total + bias[j] : total;
        }
    return y;
}

enum class Storage { Owned, MappedStrided, Stored };

// The weight `values` held as `storage` says (mapped: inside a wider block, as c_attn's q | k | v).
WeightMatrix weightOf(const RowMatrix<float> &values, Storage storage, std::shared_ptr<RowMatrix<float>> &keep)
{
    switch (storage) {
    case Storage::Owned:
        return values;
    case Storage::MappedStrided: {
        keep = std::make_shared<RowMatrix<float>>(randomMatrix(values.rows(), values.cols() + 24, 99));
        keep->leftCols(values.cols()) = values;
        return WeightMatrix::mapped(keep->data(), values.rows(), values.cols(), keep->cols(), keep);
    }
    case Storage::Stored:
        break;
    }
    return WeightMatrix::stored(std::make_shared<FloatRows>(values));
}

} // namespace

class TestDenseOps : public QObject
{
    Q_OBJECT

private slots:
    void cleanup()
    {
        useOwnDenseProducts(std::nullopt);
        kernels::useAttentionKernels(nullptr);
    }

    void ownProductBitForBit_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("inputs");
        QTest::addColumn<int>("outputs");
        QTest::addColumn<bool>("transposed");
        QTest::addColumn<int>("storage");
        QTest::addColumn<bool>("bias");
        const struct
        {
            const char *name;
            int rows, inputs, outputs;
            bool transposed;
            Storage storage;
            bool bias;
        } cases[] = {
            {"nn.Linear owned, two pieces of depth, part panel", 131, 600, 70, true, Storage::Owned, true},
            {"nn.Linear mapped with a stride", 128, 96, 200, true, Storage::MappedStrided, false},
            {"nn.Linear stored, three pieces", 140, 1100, 65, true, Storage::Stored, true},
            {"Conv1D owned, two pieces", 129, 513, 130, false, Storage::Owned, true},
            {"Conv1D mapped with a stride (c_attn's q)", 150, 80, 64, false, Storage::MappedStrided, true},
            {"Conv1D stored, odd everything", 133, 517, 33, false, Storage::Stored, false},
            {"one output", 128, 40, 1, true, Storage::Owned, false},
            {"nine rows, stored (packed, not dotted)", 9, 600, 70, true, Storage::Stored, false},
        };
        for (const auto &c : cases)
            QTest::newRow(c.name) << c.rows << c.inputs << c.outputs << c.transposed << int(c.storage) << c.bias;
    }

    void ownProductBitForBit()
    {
        QFETCH(int, rows);
        QFETCH(int, inputs);
        QFETCH(int, outputs);
        QFETCH(bool, transposed);
        QFETCH(int, storage);
        QFETCH(bool, bias);
        const RowMatrix<float> x = randomMatrix(rows, inputs, 1);
        const RowMatrix<float> w = transposed ? randomMatrix(outputs, inputs, 2) : randomMatrix(inputs, outputs, 2);
        const RowVector<float> b = bias ? RowVector<float>(randomMatrix(1, outputs, 3)) : RowVector<float>();
        std::shared_ptr<RowMatrix<float>> keep;
        DenseParameters p;
        p.weight = weightOf(w, Storage(storage), keep);
        p.transposed = transposed;
        if (bias)
            p.bias = b;
        QCOMPARE(p.inputs(), Eigen::Index(inputs));
        QCOMPARE(p.outputs(), Eigen::Index(outputs));

        useOwnDenseProducts(true);
        int sets = 0;
        for (const auto *const *set = kernels::runnableAttentionKernels(); *set; ++set, ++sets) {
            kernels::useAttentionKernels(*set);
            const bool fused = QByteArray((*set)->name) != "sse2";
            const RowMatrix<float> expected = plainProduct(x, w, b, transposed, fused);
            const RowMatrix<float> y = dense(x, p);
            QCOMPARE(y.rows(), expected.rows());
            QCOMPARE(y.cols(), expected.cols());
            for (Eigen::Index r = 0; r < y.rows(); ++r)
                for (Eigen::Index j = 0; j < y.cols(); ++j)
                    if (std::memcmp(&y(r, j), &expected(r, j), sizeof(float)) != 0)
                        QFAIL(qPrintable(QStringLiteral("%1: (%2, %3) is %4, expected %5")
                                             .arg(QLatin1String((*set)->name)).arg(r).arg(j)
                                             .arg(double(y(r, j)), 0, 'g', 9).arg(double(expected(r, j)), 0, 'g', 9)));
        }
        QVERIFY(sets >= 1);
    }

    // A few rows (up to 8: typing a word) times a weight are dot products of
    // x's rows with the weight's rows: read where they lie (floats, BF16 and
    // F16 widened in registers; slices of them, as Phi-3's fused rows and
    // GPT-2's c_attn columns) or converted first (other stored types), on
    // every instruction set, and take that way as the program decides by
    // itself, whatever OpenBLAS runs; so does the unembedding of one position.
    void fewRowsAreDotted_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("inputs");
        QTest::addColumn<int>("outputs");
        QTest::addColumn<QString>("storage");
        QTest::newRow("one row, depth not a whole vector, outputs not whole groups") << 1 << 901 << 130 << "converted";
        QTest::newRow("three rows, converted") << 3 << 64 << 70 << "converted";
        QTest::newRow("eight rows, a short depth") << 8 << 5 << 9 << "converted";
        QTest::newRow("two rows, floats mapped with a stride") << 2 << 901 << 130 << "mapped";
        QTest::newRow("five rows, owned floats") << 5 << 70 << 33 << "owned";
        QTest::newRow("three rows, owned floats, an odd number of outputs") << 3 << 901 << 131 << "owned";
        QTest::newRow("one row, BF16 in place") << 1 << 901 << 130 << "bf16";
        QTest::newRow("six rows, BF16 in place, a short depth") << 6 << 7 << 11 << "bf16";
        QTest::newRow("three rows, F16 in place") << 3 << 77 << 70 << "f16";
        QTest::newRow("two rows, rows 13 ... of a BF16 weight") << 2 << 40 << 30 << "bf16 rows";
        QTest::newRow("four rows, columns 9 ... of an F16 weight") << 4 << 40 << 30 << "f16 columns";
    }

    void fewRowsAreDotted()
    {
        QFETCH(int, rows);
        QFETCH(int, inputs);
        QFETCH(int, outputs);
        QFETCH(QString, storage);
        const RowMatrix<float> x = randomMatrix(rows, inputs, 6);
        RowMatrix<float> w = randomMatrix(outputs, inputs, 7);
        const RowVector<float> b = randomMatrix(1, outputs, 8);
        std::shared_ptr<RowMatrix<float>> keep;
        DenseParameters p;
        p.transposed = true;
        p.bias = b;
        if (storage == "converted" || storage == "mapped" || storage == "owned") {
            p.weight = weightOf(w, storage == "converted" ? Storage::Stored
                                   : storage == "mapped"  ? Storage::MappedStrided
                                                          : Storage::Owned, keep);
        } else {
            // A wider (or taller) stored weight, of which the test takes a part.
            const bool half = storage.startsWith("f16");
            const bool ofRows = storage.endsWith("rows"), ofColumns = storage.endsWith("columns");
            RowMatrix<float> whole = randomMatrix(outputs + (ofRows ? 20 : 0), inputs + (ofColumns ? 15 : 0), 7);
            // Halves below the normal range, a negative zero and the largest
            // half: each set widens them exactly (SSE2 bit by bit).
            const float edges[] = {1e-6f, -3e-7f, -0.0f, 65504.0f, 6.0e-8f};
            for (int e = 0; e < 5 && whole.rows() > 15 && whole.cols() > 13; ++e)
                whole(13 + e % 3, 9 + e) = edges[e];
            const auto stored = std::make_shared<SixteenBitRows>(
                whole, half ? kernels::RowElement::Half : kernels::RowElement::BFloat16, whole.cols() + 3);
            const WeightMatrix all = WeightMatrix::stored(stored);
            p.weight = ofRows ? all.rowRange(13, outputs) : ofColumns ? all.columns(9, inputs) : all;
            w = stored->widened().block(ofRows ? 13 : 0, ofColumns ? 9 : 0, outputs, inputs);
            QVERIFY(p.weight.storedRows()->inPlace().data);
        }
        QCOMPARE(p.inputs(), Eigen::Index(inputs));
        useOwnDenseProducts(std::nullopt);
        int sets = 0;
        for (const auto *const *set = kernels::runnableAttentionKernels(); *set; ++set, ++sets) {
            kernels::useAttentionKernels(*set);
            const bool fused = QByteArray((*set)->name) != "sse2";
            const RowMatrix<float> expected = plainDots(x, w, b, (*set)->vectorWidth, fused);
            const RowMatrix<float> y = dense(x, p);
            QVERIFY2(std::memcmp(y.data(), expected.data(), sizeof(float) * std::size_t(y.size())) == 0, (*set)->name);
            const RowMatrix<float> unbiased = plainDots(x, w, RowVector<float>(), (*set)->vectorWidth, fused);
            const RowVector<float> logits = unembed(x.row(rows - 1), p.weight);
            QVERIFY2(std::memcmp(logits.data(), unbiased.row(rows - 1).data(), sizeof(float) * std::size_t(outputs)) == 0,
                     (*set)->name);
        }
        QVERIFY(sets >= 1);
        // Asked for OpenBLAS, the same numbers to float's rounding (of the largest: the largest half is 65504).
        useOwnDenseProducts(false);
        const RowMatrix<float> plain = plainProduct(x, w, b, true, true);
        QVERIFY((dense(x, p) - plain).cwiseAbs().maxCoeff() < 1e-4f * std::max(1.0f, plain.cwiseAbs().maxCoeff()));
    }

    // dense() of several layers over the same x at once (q, k and v; gate
    // and up): the same bits as one by one, whatever the weights' storage,
    // for a few rows (shared chunks) and for many (one after the other).
    void denseEachIsDenseOfEach_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<bool>("conv1d"); // one weight stored [in, out]: never dotted
        QTest::newRow("two rows") << 2 << false;
        QTest::newRow("eight rows") << 8 << false;
        QTest::newRow("nine rows") << 9 << false;
        QTest::newRow("two rows, one Conv1D weight") << 2 << true;
        QTest::newRow("130 rows") << 130 << false;
    }

    void denseEachIsDenseOfEach()
    {
        QFETCH(int, rows);
        QFETCH(bool, conv1d);
        const int inputs = 70;
        const RowMatrix<float> x = randomMatrix(rows, inputs, 11);
        std::shared_ptr<RowMatrix<float>> keepMapped;
        DenseParameters mapped, stored, half, plain;
        mapped.weight = weightOf(randomMatrix(40, inputs, 12), Storage::MappedStrided, keepMapped);
        mapped.transposed = true;
        mapped.bias = randomMatrix(1, 40, 13);
        std::shared_ptr<RowMatrix<float>> keepStored;
        stored.weight = weightOf(randomMatrix(9, inputs, 14), Storage::Stored, keepStored);
        stored.transposed = true;
        half.weight = WeightMatrix::stored(
            std::make_shared<SixteenBitRows>(randomMatrix(33, inputs, 15), kernels::RowElement::BFloat16, inputs));
        half.transposed = true;
        half.bias = randomMatrix(1, 33, 16);
        plain.weight = conv1d ? WeightMatrix(randomMatrix(inputs, 21, 17)) : WeightMatrix(randomMatrix(21, inputs, 17));
        plain.transposed = !conv1d;
        const std::vector<const DenseParameters *> layers = {&mapped, &stored, &half, &plain};
        const std::vector<RowMatrix<float>> together = denseEach(x, layers);
        QCOMPARE(together.size(), layers.size());
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const RowMatrix<float> alone = dense(x, *layers[i]);
            QCOMPARE(together[i].rows(), alone.rows());
            QCOMPARE(together[i].cols(), alone.cols());
            QVERIFY2(std::memcmp(together[i].data(), alone.data(), sizeof(float) * std::size_t(alone.size())) == 0,
                     qPrintable(QString::number(i)));
        }
    }

    // Both ways agree with the exact product to float's rounding.
    void ownAndBlasAgree()
    {
        const RowMatrix<float> x = randomMatrix(200, 700, 4), w = randomMatrix(90, 700, 5);
        DenseParameters p;
        p.weight = w;
        p.transposed = true;
        useOwnDenseProducts(true);
        const RowMatrix<float> own = dense(x, p);
        useOwnDenseProducts(false);
        const RowMatrix<float> blas = dense(x, p);
        const RowMatrix<double> exact = x.cast<double>() * w.cast<double>().transpose();
        QVERIFY((own.cast<double>() - exact).cwiseAbs().maxCoeff() < 1e-4);
        QVERIFY((blas.cast<double>() - exact).cwiseAbs().maxCoeff() < 1e-4);
    }
};

QTEST_APPLESS_MAIN(TestDenseOps)
#include "tst_denseops.moc"
