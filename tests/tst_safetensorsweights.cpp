// A checkpoint's weights as the model reads them: the finite check of a
// large tensor (on two threads, half each) and BF16/F16 weights dotted where
// they lie or converted. Files are built here byte by byte; expected values
// are the same numbers as floats, or worked by hand.

#include "io/safetensorsfile.h"
#include "io/safetensorssource.h"
#include "model/denseops.h"

#include <QTest>
#include <QtEndian>
#include <cstring>
#include <optional>

using namespace attn;

namespace {

// A file: the little-endian length of `header`, the header, then `data`.
QByteArray file(const QByteArray &header, const QByteArray &data)
{
    QByteArray bytes(8, '\0');
    qToLittleEndian<quint64>(quint64(header.size()), bytes.data());
    return bytes + header + data;
}

} // namespace

class TestSafetensorsWeights : public QObject
{
    Q_OBJECT
private slots:
    void refusesNonFiniteInALargeTensor_data();
    void refusesNonFiniteInALargeTensor();
    void halvesReadWhereTheyLieOrConverted_data();
    void halvesReadWhereTheyLieOrConverted();
};

// A tensor of more than a million elements is checked on two threads, half
// each: a value that is not finite is found in either half, and named.
void TestSafetensorsWeights::refusesNonFiniteInALargeTensor_data()
{
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<QByteArray>("element");
    QTest::addColumn<qint64>("at");
    QTest::addColumn<QString>("what");
    const qint64 last = 1024 * 1025 - 1;
    QTest::newRow("F32, the last element") << "F32" << QByteArray("\x00\x00\x80\x7f", 4) << last << "infinite";
    QTest::newRow("F32, the first half") << "F32" << QByteArray("\x00\x00\xc0\x7f", 4) << qint64(1000) << "NaN";
    QTest::newRow("BF16, the last element") << "BF16" << QByteArray("\xc1\x7f", 2) << last << "NaN";
    QTest::newRow("F16, the second half") << "F16" << QByteArray("\x00\xfc", 2) << qint64(600000) << "infinite";
}

void TestSafetensorsWeights::refusesNonFiniteInALargeTensor()
{
    QFETCH(QString, dtype);
    QFETCH(QByteArray, element);
    QFETCH(qint64, at);
    QFETCH(QString, what);
    const qint64 rows = 1024, cols = 1025, size = element.size();
    const QByteArray header = QStringLiteral(R"({"w":{"dtype":"%1","shape":[%2,%3],"data_offsets":[0,%4]}})")
                                  .arg(dtype).arg(rows).arg(cols).arg(rows * cols * size).toUtf8();
    QByteArray data(int(rows * cols * size), '\0');
    data.replace(int(at * size), int(size), element);
    QString error;
    const std::optional<SafetensorsFile> st =
        SafetensorsFile::fromBytes(file(header, data), QStringLiteral("w.safetensors"), &error);
    QVERIFY2(st, qPrintable(error));
    const QString message = QStringLiteral("w.safetensors: tensor \"w\": element %1 [%2, %3] is %4 (weights must be finite)")
                                .arg(at).arg(at / cols).arg(at % cols).arg(what);
    if (dtype == "F32")
        QVERIFY(!st->matrix(QStringLiteral("w"), rows, cols, &error));
    else // how a model's F16 and BF16 weights are checked at open, unconverted
        QVERIFY(!st->checkFiniteStored(*st->find(QStringLiteral("w")), &error));
    QCOMPARE(error, message);
    // Without it, the tensor passes.
    data.replace(int(at * size), int(size), QByteArray(int(size), '\0'));
    const std::optional<SafetensorsFile> clean =
        SafetensorsFile::fromBytes(file(header, data), QStringLiteral("w.safetensors"), &error);
    QVERIFY(clean);
    QVERIFY(dtype == "F32" ? bool(clean->matrix(QStringLiteral("w"), rows, cols, &error))
                           : clean->checkFiniteStored(*clean->find(QStringLiteral("w")), &error));
}

// A model's BF16 and F16 weights are read by the few-rows kernel where they
// lie; a header that leaves them at an odd address has them converted
// instead. Either way, the product of a few rows is the product with the
// same values as floats.
void TestSafetensorsWeights::halvesReadWhereTheyLieOrConverted_data()
{
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<bool>("odd");
    QTest::newRow("BF16") << "BF16" << false;
    QTest::newRow("BF16 at an odd address") << "BF16" << true;
    QTest::newRow("F16") << "F16" << false;
    QTest::newRow("F16 at an odd address") << "F16" << true;
}

void TestSafetensorsWeights::halvesReadWhereTheyLieOrConverted()
{
    QFETCH(QString, dtype);
    QFETCH(bool, odd);
    const int rows = 19, cols = 37;
    QByteArray data;
    RowMatrix<float> values(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            // Small integers over 8 and quarters: exact in both types.
            const float v = float((r * 7 + c * 3) % 17 - 8) / 4.0f;
            values(r, c) = v;
            quint16 bits;
            if (dtype == "BF16") {
                quint32 wide;
                std::memcpy(&wide, &v, sizeof wide);
                bits = quint16(wide >> 16);
            } else {
                bits = Eigen::numext::bit_cast<quint16>(Eigen::half(v));
            }
            char le[2];
            qToLittleEndian<quint16>(bits, le);
            data.append(le, 2);
        }
    QByteArray header = QStringLiteral(R"({"w":{"dtype":"%1","shape":[%2,%3],"data_offsets":[0,%4]}})")
                            .arg(dtype).arg(rows).arg(cols).arg(data.size()).toUtf8();
    if ((header.size() % 2 == 1) != odd)
        header += ' '; // the data starts 8 + header bytes into the file
    QString error;
    const std::optional<SafetensorsFile> st = SafetensorsFile::fromBytes(file(header, data), QStringLiteral("w.safetensors"), &error);
    QVERIFY2(st, qPrintable(error));
    const SafetensorsSource source(*st);
    DenseParameters stored, floats;
    stored.weight = source.matrix(QStringLiteral("w"), rows, cols);
    stored.transposed = floats.transposed = true;
    floats.weight = values;
    QVERIFY(stored.weight.isStored());
    QCOMPARE(stored.weight.storedRows()->inPlace().data == nullptr, odd);
    RowMatrix<float> x(3, cols);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < cols; ++c)
            x(r, c) = float((r + 2 * c) % 5) - 2.0f;
    const RowMatrix<float> got = dense(x, stored), expected = dense(x, floats);
    QVERIFY(std::memcmp(got.data(), expected.data(), sizeof(float) * std::size_t(got.size())) == 0);
    // And by hand: row 0 times weight row 0.
    float first = 0;
    for (int c = 0; c < cols; ++c)
        first += x(0, c) * values(0, c);
    QCOMPARE(got(0, 0), first);
}

QTEST_GUILESS_MAIN(TestSafetensorsWeights)
#include "tst_safetensorsweights.moc"
