#pragma once
// Shared by tst_gpt2 and tst_bert: the tiny checkpoints of tests/data/models
// (made by make_fixtures.py), their expected numbers, and a safetensors writer
// for the broken variants the tests derive from them.

#include "io/safetensorsfile.h"
#include "model/modeltypes.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QtEndian>
#include <QDir>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

namespace fixtures {

inline QString modelDir(const char *name) { return QStringLiteral(ATTN_TEST_DATA "/models/") + QLatin1String(name); }

inline QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QJsonDocument::fromJson(f.readAll()).object();
}

// tests/data/models/cli/cli_expected.json: the command line's reference numbers.
inline QJsonObject cliExpected() { return readJson(QStringLiteral(ATTN_TEST_DATA "/models/cli/cli_expected.json")); }

// Copies every file of folder `from` into the existing folder `dir`.
inline bool copyInto(const QString &from, const QString &dir)
{
    const QDir source(from);
    for (const QString &name : source.entryList(QDir::Files))
        if (!QFile::copy(source.filePath(name), dir + QLatin1Char('/') + name))
            return false;
    return true;
}

inline QJsonObject expected(const char *family)
{
    return readJson(QStringLiteral(ATTN_TEST_DATA "/models/expected.json")).value(QLatin1String(family)).toObject();
}

inline attn::RowMatrix<double> matrix(const QJsonValue &v)
{
    const QJsonArray rows = v.toArray();
    const bool vector = !rows.isEmpty() && !rows.first().isArray();
    attn::RowMatrix<double> m(vector ? 1 : rows.size(), vector ? rows.size() : rows.first().toArray().size());
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            m(r, c) = vector ? rows[c].toDouble() : rows[r].toArray()[c].toDouble();
    return m;
}

inline std::vector<int> ids(const QJsonValue &v)
{
    std::vector<int> out;
    for (const QJsonValue &x : v.toArray())
        out.push_back(x.toInt());
    return out;
}

// Empty when equal within tol (absolute, relative above 1); else where not.
template<typename Derived>
QString difference(const Eigen::MatrixBase<Derived> &actualIn, const attn::RowMatrix<double> &expected, double tol)
{
    const attn::RowMatrix<double> actual = actualIn.template cast<double>();
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols())
        return QStringLiteral("shape %1 x %2, expected %3 x %4")
            .arg(actual.rows()).arg(actual.cols()).arg(expected.rows()).arg(expected.cols());
    for (Eigen::Index r = 0; r < actual.rows(); ++r)
        for (Eigen::Index c = 0; c < actual.cols(); ++c)
            if (!(std::fabs(actual(r, c) - expected(r, c)) <= tol * std::max(1.0, std::fabs(expected(r, c)))))
                return QStringLiteral("(%1, %2) is %3, expected %4")
                    .arg(r).arg(c).arg(actual(r, c), 0, 'g', 10).arg(expected(r, c), 0, 'g', 10);
    return {};
}

template<typename Derived>
double largestDifference(const Eigen::MatrixBase<Derived> &actual, const attn::RowMatrix<double> &expected)
{
    return (actual.template cast<double>() - expected).cwiseAbs().maxCoeff();
}

// A weight's values as floats, however it is stored (mapped, owned, or
// converted when used: F16 and BF16 checkpoints).
template<typename W>
attn::RowMatrix<float> floatsOf(const W &w)
{
    attn::RowMatrix<float> out(w.rowCount(), w.colCount());
    w.toFloat(0, out.rows(), out.data());
    return out;
}

// One tensor to write: name, dtype, shape and its raw little-endian bytes.
struct Tensor
{
    QString name;
    QString dtype;
    std::vector<qint64> shape;
    QByteArray bytes;
};

// Every tensor of a safetensors file, in the file's order.
inline std::vector<Tensor> tensorsOf(const attn::SafetensorsFile &file)
{
    std::vector<Tensor> out;
    for (const attn::TensorInfo &t : file.tensors())
        out.push_back({t.name, attn::dtypeName(t.dtype), t.shape, file.rawBytes(t).toByteArray()});
    return out;
}

// 8-byte little-endian header length, the JSON header, the data.
inline QByteArray safetensorsBytes(const std::vector<Tensor> &tensors)
{
    QJsonObject header;
    QByteArray data;
    for (const Tensor &t : tensors) {
        QJsonArray shape;
        for (qint64 s : t.shape)
            shape.append(double(s));
        header.insert(t.name, QJsonObject{{QStringLiteral("dtype"), t.dtype},
                                          {QStringLiteral("shape"), shape},
                                          {QStringLiteral("data_offsets"),
                                           QJsonArray{double(data.size()), double(data.size() + t.bytes.size())}}});
        data += t.bytes;
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    QByteArray out(8, '\0');
    qToLittleEndian<quint64>(quint64(json.size()), out.data());
    return out + json + data;
}

inline QByteArray floatBytes(const std::vector<float> &values)
{
    QByteArray b(int(values.size() * sizeof(float)), '\0');
    for (std::size_t i = 0; i < values.size(); ++i)
        qToLittleEndian<float>(values[i], b.data() + i * sizeof(float));
    return b;
}

// A tensor's data with its shape's first two dimensions swapped ([a, b] ->
// [b, a], bytes transposed): how a reader with the other convention would store it.
inline Tensor transposed(const Tensor &t)
{
    Tensor out = t;
    const qint64 rows = t.shape[0], cols = t.shape[1];
    out.shape = {cols, rows};
    const int size = t.bytes.size() / int(rows * cols);
    for (qint64 r = 0; r < rows; ++r)
        for (qint64 c = 0; c < cols; ++c)
            std::memcpy(out.bytes.data() + (c * rows + r) * size, t.bytes.constData() + (r * cols + c) * size,
                        std::size_t(size));
    return out;
}

} // namespace fixtures

// QFAIL with the first difference when `actual` and `expected` differ by more than `tol`.
#define COMPARE_NEAR(actual, expected, tol)                                                                          \
    do {                                                                                                             \
        const QString why_ = fixtures::difference((actual), (expected), (tol));                                     \
        if (!why_.isEmpty())                                                                                         \
            QFAIL(qPrintable(QStringLiteral(#actual ": ") + why_));                                                  \
    } while (false)
