// The safetensors reader and writer: files written by an independent script
// (tests/data/safetensors/make.py) read back exactly, the reference's own
// published bytes reproduced by our writer, and a table of malformed files
// each refused with its exact one-line message.

#include "io/safetensorsfile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QtEndian>
#include <cmath>

using namespace attn;

namespace {

const QString kDir = QStringLiteral(ATTN_TEST_DATA "/safetensors/");

QJsonObject expectedFiles()
{
    QFile f(kDir + QStringLiteral("expected.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSafetensors : public QObject
{
    Q_OBJECT
private slots:
    void independentFiles_data();
    void independentFiles();
    void matrixAndVector();
    void refusesNonFinite_data();
    void refusesNonFinite();
};

void TestSafetensors::independentFiles_data()
{
    QTest::addColumn<QString>("file");
    const QJsonObject all = expectedFiles();
    QVERIFY(all.size() >= 5);
    for (auto it = all.begin(); it != all.end(); ++it)
        QTest::newRow(qPrintable(it.key())) << it.key();
}

void TestSafetensors::independentFiles()
{
    QFETCH(QString, file);
    const QJsonObject expected = expectedFiles().value(file).toObject();
    QString error;
    const std::optional<SafetensorsFile> st = SafetensorsFile::open(kDir + file, &error);
    QVERIFY2(st, qPrintable(error));
    QCOMPARE(st->name(), file);
    QCOMPARE(st->headerLength(), expected.value("header_length").toInteger());

    const QJsonObject meta = expected.value("metadata").toObject();
    QCOMPARE(st->metadata().size(), meta.size());
    for (auto it = meta.begin(); it != meta.end(); ++it)
        QCOMPARE(st->metadata().value(it.key()), it.value().toString());

    const QJsonObject tensors = expected.value("tensors").toObject();
    QCOMPARE(st->tensors().size(), std::size_t(tensors.size()));
    qint64 previousEnd = 0;
    for (const TensorInfo &info : st->tensors()) { // in data order
        QCOMPARE(info.begin, previousEnd);
        previousEnd = info.end;
        const QJsonObject t = tensors.value(info.name).toObject();
        QVERIFY2(!t.isEmpty(), qPrintable(info.name));
        QCOMPARE(dtypeName(info.dtype), t.value("dtype").toString());
        std::vector<qint64> shape;
        for (const QJsonValue d : t.value("shape").toArray())
            shape.push_back(d.toInteger());
        QCOMPARE(info.shape, shape);
        QCOMPARE(info.begin, t.value("data_offsets").toArray().at(0).toInteger());
        QCOMPARE(info.end, t.value("data_offsets").toArray().at(1).toInteger());
        QCOMPARE(st->find(info.name), &info);
        QCOMPARE(st->rawBytes(info).size(), info.end - info.begin);
        if (t.value("values").isNull()) {
            QVERIFY(!isFloatingDtype(info.dtype));
            std::vector<float> dst(std::size_t(info.elements));
            QVERIFY(!st->toFloat(info, dst.data(), &error));
            QCOMPARE(error, QStringLiteral("%1: tensor \"%2\": dtype %3 cannot be read as floating-point numbers")
                                .arg(file, info.name, dtypeName(info.dtype)));
            continue;
        }
        const QJsonArray values = t.value("values").toArray();
        const QJsonArray bits = t.value("bits").toArray();
        QCOMPARE(info.elements, qint64(values.size()));
        QCOMPARE(bits.size(), values.size());
        std::vector<float> dst(std::size_t(info.elements) + 1, 12345.0f);
        QVERIFY2(st->toFloat(info, dst.data(), &error), qPrintable(error));
        for (qsizetype i = 0; i < values.size(); ++i) {
            const float got = dst[std::size_t(i)];
            // Bit-exact, so -0.0 and subnormals count too (JSON numbers lose the sign of -0.0).
            quint32 gotBits;
            std::memcpy(&gotBits, &got, sizeof got);
            QCOMPARE(QStringLiteral("%1").arg(gotBits, 8, 16, QLatin1Char('0')), bits.at(i).toString());
            QCOMPARE(got, float(values.at(i).toDouble()));
        }
        QCOMPARE(dst.back(), 12345.0f); // nothing written past the tensor
    }
    QCOMPARE(st->find(QStringLiteral("no.such.tensor")), nullptr);

    // The same bytes from memory give the same result.
    const std::optional<SafetensorsFile> mem = SafetensorsFile::fromBytes(readAll(kDir + file), file, &error);
    QVERIFY2(mem, qPrintable(error));
    QCOMPARE(mem->names(), st->names());
}

void TestSafetensors::matrixAndVector()
{
    QString error;
    const std::optional<SafetensorsFile> st = SafetensorsFile::open(kDir + QStringLiteral("f32.safetensors"), &error);
    QVERIFY2(st, qPrintable(error));
    const std::optional<RowMatrixXf> w = st->matrix(QStringLiteral("h.0.attn.c_attn.weight"), 2, 3, &error);
    QVERIFY2(w, qPrintable(error));
    QCOMPARE((*w)(0, 1), -1.25f);
    QCOMPARE((*w)(1, 0), 1e30f);
    const Eigen::MatrixXf columnMajor = *w; // the layout callers may prefer
    QCOMPARE(columnMajor(0, 2), 3.0e-8f);
    QVERIFY(st->matrix(QStringLiteral("h.0.attn.c_attn.weight"), -1, -1, &error));

    QVERIFY(!st->matrix(QStringLiteral("h.0.attn.c_attn.weight"), 3, 2, &error));
    QCOMPARE(error, QStringLiteral("f32.safetensors: tensor \"h.0.attn.c_attn.weight\": shape [2, 3], expected [3, 2]"));
    QVERIFY(!st->matrix(QStringLiteral("h.0.attn.c_attn.bias"), -1, 3, &error));
    QCOMPARE(error, QStringLiteral("f32.safetensors: tensor \"h.0.attn.c_attn.bias\": shape [3], expected [any, 3]"));
    QVERIFY(!st->matrix(QStringLiteral("h.1.attn.c_attn.weight"), 2, 3, &error));
    QCOMPARE(error, QStringLiteral("f32.safetensors: no tensor \"h.1.attn.c_attn.weight\""));

    const std::optional<Eigen::VectorXf> b = st->vector(QStringLiteral("h.0.attn.c_attn.bias"), 3, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE((*b)(2), 0.3f);
    QVERIFY(!st->vector(QStringLiteral("h.0.attn.c_attn.bias"), 4, &error));
    QCOMPARE(error, QStringLiteral("f32.safetensors: tensor \"h.0.attn.c_attn.bias\": shape [3], expected [4]"));
    QVERIFY(!st->vector(QStringLiteral("h.0.attn.c_attn.weight"), -1, &error));
    QCOMPARE(error, QStringLiteral("f32.safetensors: tensor \"h.0.attn.c_attn.weight\": shape [2, 3], expected [any]"));
}

// One tensor "w" of shape [2, 2] whose element 3 has the given bits.
void TestSafetensors::refusesNonFinite_data()
{
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<QByteArray>("element"); // little-endian bytes of element [1, 1]
    QTest::addColumn<QString>("message");
    const QString tail = QStringLiteral("(weights must be finite)");
    QTest::newRow("F32 NaN") << "F32" << QByteArray("\x00\x00\xc0\x7f", 4)
                             << "w.safetensors: tensor \"w\": element 3 [1, 1] is NaN " + tail;
    QTest::newRow("F32 -inf") << "F32" << QByteArray("\x00\x00\x80\xff", 4)
                              << "w.safetensors: tensor \"w\": element 3 [1, 1] is infinite " + tail;
    QTest::newRow("F16 inf") << "F16" << QByteArray("\x00\x7c", 2)
                             << "w.safetensors: tensor \"w\": element 3 [1, 1] is infinite " + tail;
    QTest::newRow("F16 NaN") << "F16" << QByteArray("\x01\x7e", 2)
                             << "w.safetensors: tensor \"w\": element 3 [1, 1] is NaN " + tail;
    QTest::newRow("BF16 NaN") << "BF16" << QByteArray("\xc1\x7f", 2)
                              << "w.safetensors: tensor \"w\": element 3 [1, 1] is NaN " + tail;
    QTest::newRow("BF16 inf") << "BF16" << QByteArray("\x80\x7f", 2)
                              << "w.safetensors: tensor \"w\": element 3 [1, 1] is infinite " + tail;
    QByteArray big(8, '\0');
    const double huge = 1e300;
    std::memcpy(big.data(), &huge, 8);
    QTest::newRow("F64 beyond float") << "F64" << big
                                      << "w.safetensors: tensor \"w\": element 3 [1, 1] is beyond the float range " + tail;
}

void TestSafetensors::refusesNonFinite()
{
    QFETCH(QString, dtype);
    QFETCH(QByteArray, element);
    QFETCH(QString, message);
    const int size = int(element.size());
    QByteArray header = QStringLiteral(R"({"w":{"dtype":"%1","shape":[2,2],"data_offsets":[0,%2]}})")
                            .arg(dtype).arg(4 * size).toUtf8();
    QByteArray bytes(8, '\0');
    qToLittleEndian<quint64>(quint64(header.size()), bytes.data());
    bytes += header + QByteArray(3 * size, '\0') + element;
    QString error;
    const std::optional<SafetensorsFile> st = SafetensorsFile::fromBytes(bytes, QStringLiteral("w.safetensors"), &error);
    QVERIFY2(st, qPrintable(error));
    QVERIFY(!st->matrix(QStringLiteral("w"), 2, 2, &error));
    QCOMPARE(error, message);
}

QTEST_APPLESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
