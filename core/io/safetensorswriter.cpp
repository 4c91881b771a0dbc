#include "io/safetensorswriter.h"

#include "formats/savefile.h"

#include <QBuffer>
#include <QFileInfo>
#include <QSaveFile>
#include <QSet>
#include <QtEndian>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace attn {
namespace {

// A JSON string as serde_json writes it: only '"', '\\' and control
// characters escaped, everything else raw UTF-8.
QByteArray jsonString(const QString &text)
{
    QByteArray out = "\"";
    for (const char c : text.toUtf8()) {
        const auto u = uchar(c);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (u < 0x20)
                out += "\\u00" + QByteArray::number(u, 16).rightJustified(2, '0');
            else
                out += c;
        }
    }
    return out + '"';
}

bool writable(Dtype d) { return d == Dtype::F32 || d == Dtype::F16 || d == Dtype::BF16 || d == Dtype::F64; }

// Converts a run of values to the stored bytes (little-endian host).
QByteArray encode(const float *values, qsizetype count, Dtype dtype)
{
    QByteArray out(count * dtypeSize(dtype), Qt::Uninitialized);
    char *dst = out.data();
    for (qsizetype i = 0; i < count; ++i) {
        switch (dtype) {
        case Dtype::F32: std::memcpy(dst + 4 * i, &values[i], 4); break;
        case Dtype::F64: {
            const double d = values[i];
            std::memcpy(dst + 8 * i, &d, 8);
            break;
        }
        case Dtype::F16: {
            const auto bits = Eigen::numext::bit_cast<quint16>(Eigen::half(values[i]));
            std::memcpy(dst + 2 * i, &bits, 2);
            break;
        }
        case Dtype::BF16: {
            const auto bits = Eigen::numext::bit_cast<quint16>(Eigen::bfloat16(values[i]));
            std::memcpy(dst + 2 * i, &bits, 2);
            break;
        }
        default: break;
        }
    }
    return out;
}

// Checks every tensor and returns them in the reference writer's order
// (dtype descending, then name by its UTF-8 bytes), or an error.
std::optional<std::vector<const TensorToWrite *>> prepare(const std::vector<TensorToWrite> &tensors, QString *error)
{
    std::vector<const TensorToWrite *> order;
    QSet<QString> seen;
    for (const TensorToWrite &t : tensors) {
        const QString tensor = QStringLiteral("tensor %1").arg(quotedForMessage(t.name));
        // The reader's rule: the byte count must fit in 63 bits (a zero
        // dimension makes any other allowed).
        quint64 elements = 1;
        bool overflow = false;
        for (const qint64 d : t.shape)
            overflow = overflow || d < 0 || __builtin_mul_overflow(elements, quint64(d), &elements);
        quint64 bytes = 0;
        overflow = overflow || __builtin_mul_overflow(elements, quint64(8), &bytes)
                   || bytes > quint64(std::numeric_limits<qint64>::max());
        if (overflow) {
            *error = QStringLiteral("%1: shape %2 cannot be written").arg(tensor, shapeText(t.shape));
            return std::nullopt;
        }
        if (!t.name.isValidUtf16()) { // would not survive the UTF-8 header unchanged
            *error = QStringLiteral("%1: the name is not valid Unicode").arg(tensor);
            return std::nullopt;
        }
        if (t.name == QLatin1String("__metadata__")) {
            *error = QStringLiteral("%1: the name is reserved for the file's metadata").arg(tensor);
            return std::nullopt;
        }
        if (seen.contains(t.name)) {
            *error = QStringLiteral("%1 is given twice").arg(tensor);
            return std::nullopt;
        }
        seen.insert(t.name);
        if (!writable(t.dtype)) {
            *error = QStringLiteral("%1: dtype %2 cannot be written").arg(tensor, dtypeName(t.dtype));
            return std::nullopt;
        }
        if (quint64(t.values.size()) != elements) {
            *error = QStringLiteral("%1: %2 values for shape %3, which needs %4")
                         .arg(tensor).arg(t.values.size()).arg(shapeText(t.shape)).arg(elements);
            return std::nullopt;
        }
        for (std::size_t i = 0; i < t.values.size(); ++i) {
            if (!std::isfinite(t.values[i])) {
                *error = QStringLiteral("%1: element %2 is not finite").arg(tensor).arg(i);
                return std::nullopt;
            }
        }
        order.push_back(&t);
    }
    std::sort(order.begin(), order.end(), [](const TensorToWrite *a, const TensorToWrite *b) {
        if (a->dtype != b->dtype)
            return a->dtype > b->dtype;
        return a->name.toUtf8() < b->name.toUtf8();
    });
    return order;
}

bool writeTo(QIODevice &out, const std::vector<TensorToWrite> &tensors, const QMap<QString, QString> &metadata,
             QString *error)
{
    const std::optional<std::vector<const TensorToWrite *>> order = prepare(tensors, error);
    if (!order)
        return false;
    for (auto it = metadata.cbegin(); it != metadata.cend(); ++it) {
        if (!it.key().isValidUtf16() || !it.value().isValidUtf16()) {
            *error = QStringLiteral("__metadata__ %1 is not valid Unicode").arg(quotedForMessage(it.key()));
            return false;
        }
    }
    QByteArray header = "{";
    if (!metadata.isEmpty()) {
        QList<QString> keys = metadata.keys();
        std::sort(keys.begin(), keys.end(), [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
        header += "\"__metadata__\":{";
        for (qsizetype i = 0; i < keys.size(); ++i)
            header += (i ? "," : "") + jsonString(keys[i]) + ':' + jsonString(metadata.value(keys[i]));
        header += '}';
    }
    qint64 offset = 0;
    for (const TensorToWrite *t : *order) {
        const qint64 bytes = qint64(t->values.size()) * dtypeSize(t->dtype);
        QByteArray dims;
        for (std::size_t d = 0; d < t->shape.size(); ++d)
            dims += (d ? "," : "") + QByteArray::number(t->shape[d]);
        header += (header.size() > 1 ? "," : "") + jsonString(t->name) + ":{\"dtype\":" + jsonString(dtypeName(t->dtype))
                  + ",\"shape\":[" + dims + "],\"data_offsets\":[" + QByteArray::number(offset) + ','
                  + QByteArray::number(offset + bytes) + "]}";
        offset += bytes;
    }
    header += '}';
    header += QByteArray((8 - header.size() % 8) % 8, ' ');
    QByteArray length(8, '\0');
    qToLittleEndian<quint64>(quint64(header.size()), length.data());
    bool ok = out.write(length) == 8 && out.write(header) == header.size();
    // Converted in pieces so a large tensor never needs a second full copy.
    constexpr qsizetype kChunk = 1 << 16;
    for (const TensorToWrite *t : *order) {
        const qsizetype n = qsizetype(t->values.size());
        for (qsizetype i = 0; ok && i < n; i += kChunk) {
            const QByteArray bytes = encode(t->values.data() + i, std::min(kChunk, n - i), t->dtype);
            ok = out.write(bytes) == bytes.size();
        }
    }
    if (!ok)
        *error = out.errorString();
    return ok;
}

} // namespace

TensorToWrite TensorToWrite::fromMatrix(const QString &name, const Eigen::Ref<const RowMatrixXf> &m, Dtype dtype)
{
    return {name, {qint64(m.rows()), qint64(m.cols())}, std::vector<float>(m.data(), m.data() + m.size()), dtype};
}

TensorToWrite TensorToWrite::fromVector(const QString &name, const Eigen::Ref<const Eigen::VectorXf> &v, Dtype dtype)
{
    std::vector<float> values(std::size_t(v.size()));
    Eigen::Map<Eigen::VectorXf>(values.data(), v.size()) = v;
    return {name, {qint64(v.size())}, std::move(values), dtype};
}

QByteArray serializeSafetensors(const std::vector<TensorToWrite> &tensors, const QMap<QString, QString> &metadata,
                                QString *error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!writeTo(buffer, tensors, metadata, error))
        return {};
    return bytes;
}

bool writeSafetensors(const QString &path, const std::vector<TensorToWrite> &tensors,
                      const QMap<QString, QString> &metadata, QString *error)
{
    const QString name = QFileInfo(path).fileName();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("%1: cannot write: %2").arg(name, file.errorString());
        return false;
    }
    QString why;
    if (!writeTo(file, tensors, metadata, &why)) {
        file.cancelWriting();
        *error = name + QLatin1String(": ") + why;
        return false;
    }
    return commitSaveFile(file, name, error);
}

} // namespace attn
