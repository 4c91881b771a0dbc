// The safetensors reader and writer: files written by an independent script
// (tests/data/safetensors/make.py) read back exactly, the reference's own
// published bytes reproduced by our writer, and a table of malformed files
// each refused with its exact one-line message.

#include "io/safetensorsfile.h"
#include "io/safetensorswriter.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>
#include <cmath>

using namespace attn;

Q_DECLARE_METATYPE(attn::TensorToWrite)

namespace {

const QString kDir = QStringLiteral(ATTN_TEST_DATA "/safetensors/");

QJsonObject expectedFiles()
{
    QFile f(kDir + QStringLiteral("expected.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// A file: the little-endian length of `header` (or `length` when given), the
// header, then `data`.
QByteArray file(const QByteArray &header, const QByteArray &data, std::optional<quint64> length = std::nullopt)
{
    QByteArray bytes(8, '\0');
    qToLittleEndian<quint64>(length.value_or(quint64(header.size())), bytes.data());
    return bytes + header + data;
}

// Tensor "a" F32 [2, 2] in bytes [0, 16) and "b" F16 [3] in [16, 22).
const QByteArray kGoodHeader =
    R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"b":{"dtype":"F16","shape":[3],"data_offsets":[16,22]}})";
const QByteArray kGoodData(22, '\x01');

QByteArray good() { return file(kGoodHeader, kGoodData); }

// A file whose header is `entries` (the inside of the JSON object) with `dataSize` bytes of data.
QByteArray withEntries(const QByteArray &entries, int dataSize)
{
    return file('{' + entries + '}', QByteArray(dataSize, '\0'));
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
    void malformed_data();
    void malformed();
    void referenceBytes_data();
    void referenceBytes();
    void writerCheckedByScript();
    void writerRoundTrip();
    void writerRefuses_data();
    void writerRefuses();
    void writeIsAtomic();
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

void TestSafetensors::malformed_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message"); // after "bad.safetensors: "
    const QByteArray g = good();
    QVERIFY(SafetensorsFile::fromBytes(g, QStringLiteral("good"), nullptr)); // the base of the mutations is valid

    // The length prefix and the header's extent.
    QTest::newRow("empty file") << QByteArray() << "file is empty";
    QTest::newRow("5 bytes") << g.left(5) << "file is 5 bytes, shorter than the 8-byte header length";
    QTest::newRow("length only") << g.left(8) << "header length 112 runs past the end of the file (0 bytes follow the length)";
    QTest::newRow("cut in header") << g.left(30) << "header length 112 runs past the end of the file (22 bytes follow the length)";
    QTest::newRow("cut in data") << g.left(g.size() - 2)
                                 << "tensor \"b\": data_offsets [16, 22] end past the data, which holds 20 bytes";
    QTest::newRow("cut at data") << g.left(8 + kGoodHeader.size())
                                 << "tensor \"a\": data_offsets [0, 16] end past the data, which holds 0 bytes";
    QTest::newRow("length 2^64-1") << file(kGoodHeader, kGoodData, ~quint64(0))
                                   << "header length 18446744073709551615 is larger than the 100000000-byte limit";
    QTest::newRow("length over 100 MB") << file(kGoodHeader, kGoodData, 100'000'001)
                                        << "header length 100000001 is larger than the 100000000-byte limit";
    QTest::newRow("length 0") << file(kGoodHeader, kGoodData, 0) << "header is empty (length 0)";
    QTest::newRow("length too short") << file(kGoodHeader, kGoodData, 100)
                                      << "header is not valid JSON: unterminated string at byte 101 of the header";
    QTest::newRow("length too long") << file(kGoodHeader, kGoodData, 114)
                                     << "header is not valid JSON: garbage at the end of the document at byte 112 of the header";
    QTest::newRow("NUL padding") << file(kGoodHeader + QByteArray(8, '\0'), kGoodData)
                                 << "header is not valid JSON: garbage at the end of the document at byte 112 of the header";
    QTest::newRow("extra data") << file(kGoodHeader, kGoodData + "abcd")
                                << "the tensors end at byte 22 of the data, but the file holds 26 bytes of data (4 unused at the end)";

    // The header's JSON.
    QTest::newRow("not UTF-8") << withEntries("\"a\xff\":{}", 0) << "header is not valid JSON: invalid UTF8 string at byte 3 of the header";
    QTest::newRow("list") << file("[1, 2]", {}) << "header is a list, not an object";
    QTest::newRow("string") << file("\"a\"", {}) << "header is not valid JSON: illegal value at byte 1 of the header";
    QTest::newRow("duplicate tensor") << withEntries(R"("a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},)"
                                                     R"("a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]})", 2)
                                      << "tensor \"a\" appears twice in the header";
    QTest::newRow("duplicate escaped") << withEntries(R"("a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},)"
                                                      R"("\u0061":{"dtype":"U8","shape":[1],"data_offsets":[1,2]})", 2)
                                       << "tensor \"a\" appears twice in the header";
    QTest::newRow("duplicate field") << withEntries(R"("a":{"dtype":"U8","dtype":"F32","shape":[1],"data_offsets":[0,1]})", 1)
                                     << "tensor \"a\": field \"dtype\" appears twice";
    QTest::newRow("lone surrogate") << withEntries(R"("\ud800x":[])", 0) << "tensor \"\\ud800x\" is a list, not an object";
    QTest::newRow("name with newline") << withEntries(R"("a\nb":[])", 0) << "tensor \"a\\u000ab\" is a list, not an object";

    // __metadata__
    QTest::newRow("metadata list") << withEntries(R"("__metadata__":["x"])", 0) << "__metadata__ is a list, not an object of strings";
    QTest::newRow("metadata number") << withEntries(R"("__metadata__":{"format":3})", 0) << "__metadata__ \"format\" is 3, not a string";
    QTest::newRow("metadata nested") << withEntries(R"("__metadata__":{"a":{"b":"c"}})", 0) << "__metadata__ \"a\" is an object, not a string";
    QTest::newRow("metadata duplicate key") << withEntries(R"("__metadata__":{"a":"1","a":"2"})", 0)
                                            << "__metadata__: key \"a\" appears twice";
    QTest::newRow("metadata twice") << withEntries(R"("__metadata__":{},"__metadata__":{})", 0) << "__metadata__ appears twice in the header";

    // One entry's fields.
    QTest::newRow("entry number") << withEntries(R"("a":7)", 0) << "tensor \"a\" is 7, not an object";
    QTest::newRow("no dtype") << withEntries(R"("a":{"shape":[1],"data_offsets":[0,1]})", 1) << "tensor \"a\": no dtype";
    QTest::newRow("dtype number") << withEntries(R"("a":{"dtype":4,"shape":[1],"data_offsets":[0,4]})", 4)
                                  << "tensor \"a\": dtype is 4, not a string";
    QTest::newRow("dtype F128") << withEntries(R"("a":{"dtype":"F128","shape":[1],"data_offsets":[0,16]})", 16)
                                << "tensor \"a\": unknown or unsupported dtype \"F128\"";
    QTest::newRow("dtype lower case") << withEntries(R"("a":{"dtype":"f32","shape":[1],"data_offsets":[0,4]})", 4)
                                      << "tensor \"a\": unknown or unsupported dtype \"f32\"";
    QTest::newRow("dtype F4") << withEntries(R"("a":{"dtype":"F4","shape":[2],"data_offsets":[0,1]})", 1)
                              << "tensor \"a\": unknown or unsupported dtype \"F4\"";
    QTest::newRow("no shape") << withEntries(R"("a":{"dtype":"F32","data_offsets":[0,4]})", 4) << "tensor \"a\": no shape";
    QTest::newRow("shape null") << withEntries(R"("a":{"dtype":"F32","shape":null,"data_offsets":[0,4]})", 4)
                                << "tensor \"a\": shape is null, not a list";
    QTest::newRow("shape negative") << withEntries(R"("a":{"dtype":"F32","shape":[2,-2],"data_offsets":[0,16]})", 16)
                                    << "tensor \"a\": shape[1] is -2, not a non-negative integer";
    QTest::newRow("shape fraction") << withEntries(R"("a":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]})", 4)
                                    << "tensor \"a\": shape[0] is 1.5, not a non-negative integer";
    QTest::newRow("shape string") << withEntries(R"("a":{"dtype":"F32","shape":["4"],"data_offsets":[0,16]})", 16)
                                  << "tensor \"a\": shape[0] is a string, not a non-negative integer";
    QTest::newRow("shape 2^64") << withEntries(R"("a":{"dtype":"U8","shape":[18446744073709551616],"data_offsets":[0,1]})", 1)
                                << "tensor \"a\": shape[0] is 1.8446744073709552e+19, not a non-negative integer";
    QTest::newRow("shape [2^40, 2^40]")
        << withEntries(R"("a":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,16]})", 16)
        << "tensor \"a\": shape [1099511627776, 1099511627776] of F32 is too large (its byte count overflows 64 bits)";
    QTest::newRow("shape bytes overflow") << withEntries(R"("a":{"dtype":"F64","shape":[4611686018427387904],"data_offsets":[0,8]})", 8)
                                          << "tensor \"a\": shape [4611686018427387904] of F64 is too large (its byte count overflows 64 bits)";
    QTest::newRow("shape claims 2^62 bytes") << withEntries(R"("a":{"dtype":"U8","shape":[4611686018427387904],"data_offsets":[0,8]})", 8)
                                             << "tensor \"a\": data_offsets [0, 8] hold 8 bytes, shape [4611686018427387904] of U8 needs 4611686018427387904";
    QTest::newRow("no data_offsets") << withEntries(R"("a":{"dtype":"F32","shape":[1]})", 4) << "tensor \"a\": no data_offsets";
    QTest::newRow("offsets object") << withEntries(R"("a":{"dtype":"F32","shape":[1],"data_offsets":{"begin":0}})", 4)
                                    << "tensor \"a\": data_offsets is an object, not a list of two integers";
    QTest::newRow("three offsets") << withEntries(R"("a":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]})", 4)
                                   << "tensor \"a\": data_offsets is a list of 3, not a list of two integers";
    QTest::newRow("negative offset") << withEntries(R"("a":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]})", 4)
                                     << "tensor \"a\": data_offsets[0] is -4, not a non-negative integer";
    QTest::newRow("offset 1e20") << withEntries(R"("a":{"dtype":"F32","shape":[1],"data_offsets":[0,1e20]})", 4)
                                 << "tensor \"a\": data_offsets[1] is 1e+20, not a non-negative integer";
    QTest::newRow("end before begin") << withEntries(R"("a":{"dtype":"F32","shape":[0],"data_offsets":[4,0]})", 4)
                                      << "tensor \"a\": data_offsets [4, 0] end before they begin";
    QTest::newRow("size mismatch")
        << withEntries(R"("h.0.attn.c_attn.weight":{"dtype":"F32","shape":[4,12],"data_offsets":[0,96]})", 96)
        << "tensor \"h.0.attn.c_attn.weight\": data_offsets [0, 96] hold 96 bytes, shape [4, 12] of F32 needs 192";
    QTest::newRow("dtype changed") << file(QByteArray(kGoodHeader).replace("\"F16\"", "\"F32\""), kGoodData)
                                   << "tensor \"b\": data_offsets [16, 22] hold 6 bytes, shape [3] of F32 needs 12";

    // The tensors together.
    QTest::newRow("offsets past the data") << file(QByteArray(kGoodHeader).replace("[16,22]", "[100,106]"), kGoodData)
                                           << "tensor \"b\": data_offsets [100, 106] end past the data, which holds 22 bytes";
    QTest::newRow("overlap") << withEntries(R"("a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                                            R"("b":{"dtype":"F16","shape":[3],"data_offsets":[8,14]})", 16)
                             << "tensor \"b\": data_offsets [8, 14] overlap tensor \"a\" [0, 16]";
    QTest::newRow("same span twice") << withEntries(R"("a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                                                    R"("b":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]})", 16)
                                     << "tensor \"b\": data_offsets [0, 16] overlap tensor \"a\" [0, 16]";
    QTest::newRow("gap") << withEntries(R"("a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                                        R"("b":{"dtype":"F16","shape":[3],"data_offsets":[18,24]})", 24)
                         << "tensor \"b\": data_offsets [18, 24] leave bytes [16, 18) unused after tensor \"a\"";
    QTest::newRow("not from 0") << withEntries(R"("a":{"dtype":"F32","shape":[4],"data_offsets":[2,18]})", 18)
                                << "tensor \"a\": data_offsets [2, 18] leave bytes [0, 2) of the data unused";
    QTest::newRow("no tensors, data") << withEntries("", 8)
                                      << "the tensors end at byte 0 of the data, but the file holds 8 bytes of data (8 unused at the end)";
}

void TestSafetensors::malformed()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const QString name = QStringLiteral("bad.safetensors");
    QString error;
    QVERIFY(!SafetensorsFile::fromBytes(bytes, name, &error));
    QCOMPARE(error, name + QStringLiteral(": ") + message);
    QVERIFY(!error.contains(QLatin1Char('\n')));

    // The same through a mapped file.
    QTemporaryDir dir;
    QFile f(dir.filePath(name));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    f.close();
    QString fromFile;
    QVERIFY(!SafetensorsFile::open(f.fileName(), &fromFile));
    QCOMPARE(fromFile, error);
}

// The reference's own unit tests (safetensors/src/tensor.rs: test_serialization,
// test_empty, test_serialization_forced_alignement) list the exact bytes its
// serializer gives; ours must give the same.
void TestSafetensors::referenceBytes_data()
{
    QTest::addColumn<std::vector<qint64>>("shape"); // of one F32 tensor of values 0..5, or none when empty
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("framework");         // __metadata__ {"framework": ...} unless empty
    QTest::addColumn<QByteArray>("expected");
    const QByteArray values("\0\0\0\0\0\0\x80\x3f\0\0\0\x40\0\0\x40\x40\0\0\x80\x40\0\0\xa0\x40", 24);
    QTest::newRow("test_serialization")
        << std::vector<qint64>{1, 2, 3} << "attn.0" << QString()
        << QByteArray("\x40\0\0\0\0\0\0\0", 8) + R"({"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}})" + values;
    QTest::newRow("test_serialization_forced_alignement")
        << std::vector<qint64>{1, 1, 2, 3} << "attn0" << QString()
        << QByteArray("\x48\0\0\0\0\0\0\0", 8) + R"({"attn0":{"dtype":"F32","shape":[1,1,2,3],"data_offsets":[0,24]}})"
               + "       " + values;
    QTest::newRow("test_empty") << std::vector<qint64>{} << QString() << QString()
                                << QByteArray("\x08\0\0\0\0\0\0\0{}      ", 16);
    QTest::newRow("test_empty with metadata")
        << std::vector<qint64>{} << QString() << "pt"
        << QByteArray("\x28\0\0\0\0\0\0\0", 8) + R"({"__metadata__":{"framework":"pt"}})" + "     ";
}

void TestSafetensors::referenceBytes()
{
    QFETCH(std::vector<qint64>, shape);
    QFETCH(QString, name);
    QFETCH(QString, framework);
    QFETCH(QByteArray, expected);
    std::vector<TensorToWrite> tensors;
    if (!name.isEmpty())
        tensors.push_back({name, shape, {0, 1, 2, 3, 4, 5}, Dtype::F32});
    QMap<QString, QString> metadata;
    if (!framework.isEmpty())
        metadata.insert(QStringLiteral("framework"), framework);
    QString error;
    const QByteArray bytes = serializeSafetensors(tensors, metadata, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(bytes, expected);
    QVERIFY2(SafetensorsFile::fromBytes(bytes, QStringLiteral("x"), &error), qPrintable(error));
}

namespace {

// Tensors of every writable dtype, names and metadata that need escaping,
// and values that F16/BF16 must round (to nearest even).
std::vector<TensorToWrite> mixedTensors()
{
    return {
        {QStringLiteral("h.0.attn.c_attn.weight"), {2, 3}, {0.1f, -2.5f, 1e-3f, 3.0f, 1e30f, -0.0f}, Dtype::F32},
        {QStringLiteral("wte.weight"), {2, 2}, {0.1f, 65504.0f, 1e-7f, -1.00048828125f}, Dtype::F16},
        {QStringLiteral("wpe.weight"), {3}, {3.14159265f, -1e30f, 1.00390625f}, Dtype::BF16},
        {QStringLiteral("ln_f.bias"), {2}, {0.1f, -7.0f}, Dtype::F64},
        {QStringLiteral("b\u00e4r \"quoted\"\n"), {1}, {1.5f}, Dtype::F32},
        {QStringLiteral("empty"), {0, 4}, {}, Dtype::F16},
        {QStringLiteral("scalar"), {}, {42.0f}, Dtype::BF16},
    };
}

QMap<QString, QString> mixedMetadata()
{
    return {{QStringLiteral("format"), QStringLiteral("pt")}, {QStringLiteral("note"), QStringLiteral("tab\there \u2603")}};
}

} // namespace

void TestSafetensors::writerCheckedByScript()
{
    const QString python = QStringLiteral("/usr/bin/python3");
    if (!QFile::exists(python) || QProcess::execute(python, {QStringLiteral("-c"), QStringLiteral("import numpy")}) != 0)
        QSKIP("needs /usr/bin/python3 with numpy (the independent checker)");
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath(QStringLiteral("model.safetensors"));
    QVERIFY2(writeSafetensors(path, mixedTensors(), mixedMetadata(), &error), qPrintable(error));
    QJsonObject tensors;
    for (const TensorToWrite &t : mixedTensors()) {
        QJsonArray shape, values;
        for (const qint64 d : t.shape)
            shape.append(d);
        for (const float v : t.values) { // as bits: a JSON number would lose the sign of -0.0
            quint32 bits;
            std::memcpy(&bits, &v, sizeof v);
            values.append(QStringLiteral("%1").arg(bits, 8, 16, QLatin1Char('0')));
        }
        tensors.insert(t.name, QJsonObject{{"dtype", dtypeName(t.dtype)}, {"shape", shape}, {"bits", values}});
    }
    QJsonObject meta;
    const QMap<QString, QString> metadata = mixedMetadata();
    for (auto it = metadata.cbegin(); it != metadata.cend(); ++it)
        meta.insert(it.key(), it.value());
    QFile expected(dir.filePath(QStringLiteral("expected.json")));
    QVERIFY(expected.open(QIODevice::WriteOnly));
    expected.write(QJsonDocument(QJsonObject{{"metadata", meta}, {"tensors", tensors}}).toJson());
    expected.close();
    QProcess script;
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(python, {kDir + QStringLiteral("make.py"), QStringLiteral("--check"), path, expected.fileName()});
    QVERIFY(script.waitForFinished(60000));
    const QString output = QString::fromUtf8(script.readAll()).trimmed();
    QVERIFY2(script.exitCode() == 0, qPrintable(output));
    QCOMPARE(output, QStringLiteral("ok"));
}

void TestSafetensors::writerRoundTrip()
{
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath(QStringLiteral("model.safetensors"));
    RowMatrixXf m(2, 3);
    m << 1, 2, 3, 4, 5, 6;
    Eigen::MatrixXf columnMajor = m;
    Eigen::VectorXf v(2);
    v << -1.5f, 0.25f;
    std::vector<TensorToWrite> tensors = mixedTensors();
    tensors.push_back(TensorToWrite::fromMatrix(QStringLiteral("m"), m));
    tensors.push_back(TensorToWrite::fromMatrix(QStringLiteral("from column-major"), columnMajor, Dtype::BF16));
    tensors.push_back(TensorToWrite::fromVector(QStringLiteral("v"), v, Dtype::F16));
    QVERIFY2(writeSafetensors(path, tensors, mixedMetadata(), &error), qPrintable(error));
    const std::optional<SafetensorsFile> st = SafetensorsFile::open(path, &error);
    QVERIFY2(st, qPrintable(error));
    QCOMPARE(st->metadata(), mixedMetadata());
    QCOMPARE(st->headerLength() % 8, 0);
    QCOMPARE(st->tensors().size(), tensors.size());
    // Data in the reference's order: widest dtype first, then by name.
    QCOMPARE(st->names(), (QStringList{"ln_f.bias", "b\u00e4r \"quoted\"\n", "h.0.attn.c_attn.weight", "m",
                                       "from column-major", "scalar", "wpe.weight", "empty", "v", "wte.weight"}));
    for (const TensorToWrite &t : tensors) {
        const TensorInfo *info = st->find(t.name);
        QVERIFY(info);
        QCOMPARE(info->dtype, t.dtype);
        QCOMPARE(info->shape, t.shape);
        std::vector<float> back(t.values.size());
        QVERIFY2(st->toFloat(*info, back.data(), &error), qPrintable(error));
        if (t.dtype == Dtype::F32 || t.dtype == Dtype::F64)
            QCOMPARE(back, t.values);
    }
    QCOMPARE(*st->matrix(QStringLiteral("m"), 2, 3, &error), m);
    QCOMPARE(*st->matrix(QStringLiteral("from column-major"), 2, 3, &error), m); // small integers: exact in BF16
    QCOMPARE(*st->vector(QStringLiteral("v"), 2, &error), v);
    QCOMPARE(st->matrix(QStringLiteral("wte.weight"), 2, 2, &error)->coeff(0, 1), 65504.0f);
}

void TestSafetensors::writerRefuses_data()
{
    QTest::addColumn<TensorToWrite>("tensor");
    QTest::addColumn<QString>("message");
    QTest::newRow("too few values") << TensorToWrite{"w", {2, 3}, {1, 2}, Dtype::F32}
                                    << "model.safetensors: tensor \"w\": 2 values for shape [2, 3], which needs 6";
    QTest::newRow("NaN") << TensorToWrite{"w", {2}, {1, std::nanf("")}, Dtype::F16}
                         << "model.safetensors: tensor \"w\": element 1 is not finite";
    QTest::newRow("infinity") << TensorToWrite{"w", {1}, {INFINITY}, Dtype::F32}
                              << "model.safetensors: tensor \"w\": element 0 is not finite";
    QTest::newRow("I64") << TensorToWrite{"w", {1}, {1}, Dtype::I64} << "model.safetensors: tensor \"w\": dtype I64 cannot be written";
    QTest::newRow("reserved name") << TensorToWrite{"__metadata__", {1}, {1}, Dtype::F32}
                                   << "model.safetensors: tensor \"__metadata__\": the name is reserved for the file's metadata";
    QTest::newRow("negative shape") << TensorToWrite{"w", {-1}, {}, Dtype::F32}
                                    << "model.safetensors: tensor \"w\": shape [-1] cannot be written";
    QTest::newRow("lone surrogate") << TensorToWrite{QString(QChar(0xd800)), {1}, {1}, Dtype::F32}
                                    << "model.safetensors: tensor \"\\ud800\": the name is not valid Unicode";
    QTest::newRow("twice") << TensorToWrite{"wte.weight", {1}, {1}, Dtype::F32}
                           << "model.safetensors: tensor \"wte.weight\" is given twice";
}

void TestSafetensors::writerRefuses()
{
    QFETCH(TensorToWrite, tensor);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("model.safetensors"));
    QString error;
    QVERIFY(writeSafetensors(path, mixedTensors(), {}, &error));
    const QByteArray before = readAll(path);
    std::vector<TensorToWrite> tensors = mixedTensors();
    tensors.push_back(tensor);
    QVERIFY(!writeSafetensors(path, tensors, {}, &error));
    QCOMPARE(error, message);
    QCOMPARE(readAll(path), before); // the old file is left as it was
    QVERIFY(serializeSafetensors(tensors, {}, &error).isEmpty());
    QCOMPARE(error, message.mid(int(qstrlen("model.safetensors: "))));
}

void TestSafetensors::writeIsAtomic()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY(!writeSafetensors(dir.filePath(QStringLiteral("missing/model.safetensors")), mixedTensors(), {}, &error));
    QVERIFY2(error.startsWith(QStringLiteral("model.safetensors: cannot write: ")), qPrintable(error));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
}

QTEST_APPLESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
