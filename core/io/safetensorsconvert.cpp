// SafetensorsFile: converting tensor data to float.

#include "io/safetensorsfile.h"

#include "runtime/twothreads.h"

#include <QtEndian>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

static_assert(Q_BYTE_ORDER == Q_LITTLE_ENDIAN, "safetensors data is little-endian; add byte swapping for this host");

namespace attn {
namespace {

float halfToFloat(quint16 bits) { return float(Eigen::numext::bit_cast<Eigen::half>(bits)); }

float bfloat16ToFloat(quint16 bits)
{
    const quint32 wide = quint32(bits) << 16;
    float f;
    std::memcpy(&f, &wide, sizeof f);
    return f;
}

// The largest of mask & bits over `count` elements of Bits at `data`, on
// both threads for a large tensor: opening a model reads every weight once
// (and, the first time, maps its pages in), a second of a 2 GB checkpoint
// on one thread.
template<typename Bits>
Bits largestMasked(const uchar *data, qint64 count, Bits mask)
{
    const auto largest = [data, mask](qint64 from, qint64 to) {
        Bits most = 0;
        for (qint64 i = from; i < to; ++i) { // vectorised by the compiler
            Bits bits;
            std::memcpy(&bits, data + i * qint64(sizeof(Bits)), sizeof bits);
            most = std::max<Bits>(most, bits & mask);
        }
        return most;
    };
    constexpr qint64 kAlone = qint64(1) << 20;
    if (count < kAlone)
        return largest(0, count);
    Bits first = 0, second = 0;
    runBoth([&] { first = largest(0, count / 2); }, [&] { second = largest(count / 2, count); });
    return std::max(first, second);
}

// "[1, 5]": the row-major index of element `flat` in `shape`.
QString indexText(const std::vector<qint64> &shape, qint64 flat)
{
    std::vector<qint64> index(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        index[d] = flat % shape[d];
        flat /= shape[d];
    }
    return shapeText(index);
}

} // namespace

bool SafetensorsFile::toFloat(const TensorInfo &info, float *dst, QString *error) const
{
    const QString tensor = QStringLiteral("tensor %1").arg(quotedForMessage(info.name));
    const qint64 dataSize = m_size - 8 - m_headerLength;
    const int size = dtypeSize(info.dtype);
    // Guards against a TensorInfo that is not this file's own.
    if (info.begin < 0 || info.end > dataSize || info.elements < 0 || info.end - info.begin != info.elements * size) {
        *error = fail(QStringLiteral("%1 does not describe data of this file").arg(tensor));
        return false;
    }
    if (!isFloatingDtype(info.dtype)) {
        *error = fail(QStringLiteral("%1: dtype %2 cannot be read as floating-point numbers").arg(tensor, dtypeName(info.dtype)));
        return false;
    }
    const uchar *src = m_base + 8 + m_headerLength + info.begin;
    const qint64 n = info.elements;
    if (n == 0) // dst may be null (an empty Eigen matrix), which memcpy must not see
        return true;
    convertToFloat(info.dtype, src, n, dst);
    return checkFinite(info, dst, error);
}

void SafetensorsFile::convertToFloat(Dtype dtype, const uchar *src, qint64 n, float *dst)
{
    switch (dtype) {
    case Dtype::F32:
        std::memcpy(dst, src, std::size_t(n) * sizeof(float)); // unaligned-safe
        break;
    case Dtype::F64:
        for (qint64 i = 0; i < n; ++i) {
            double d;
            std::memcpy(&d, src + 8 * i, sizeof d);
            // A finite double beyond the float range must not pass as infinity.
            dst[i] = std::isfinite(d) && std::abs(d) > double(std::numeric_limits<float>::max())
                         ? std::numeric_limits<float>::infinity() : float(d);
        }
        break;
    case Dtype::F16:
        for (qint64 i = 0; i < n; ++i)
            dst[i] = halfToFloat(qFromLittleEndian<quint16>(src + 2 * i));
        break;
    case Dtype::BF16:
        // A shift the compiler vectorises: a pass converts every weight of a BF16 model.
        for (qint64 i = 0; i < n; ++i) {
            quint16 bits;
            std::memcpy(&bits, src + 2 * i, sizeof bits);
            dst[i] = bfloat16ToFloat(bits);
        }
        break;
    default:
        break;
    }
}

bool SafetensorsFile::checkFiniteStored(const TensorInfo &info, QString *error) const
{
    if (info.dtype != Dtype::F16 && info.dtype != Dtype::BF16)
        return true;
    // Not finite when the exponent bits are all ones.
    const quint16 exponent = info.dtype == Dtype::F16 ? 0x7c00 : 0x7f80;
    const uchar *src = m_base + 8 + m_headerLength + info.begin;
    if (largestMasked<quint16>(src, info.elements, 0x7fff) < exponent)
        return true;
    for (qint64 i = 0; i < info.elements; ++i) {
        quint16 bits;
        std::memcpy(&bits, src + 2 * i, sizeof bits);
        if ((bits & 0x7fff) >= exponent) {
            const QString what = (bits & 0x7fff) > exponent ? QStringLiteral("NaN") : QStringLiteral("infinite");
            *error = fail(QStringLiteral("tensor %1: element %2 %3 is %4 (weights must be finite)")
                              .arg(quotedForMessage(info.name)).arg(i).arg(indexText(info.shape, i), what));
            return false;
        }
    }
    return true;
}

bool SafetensorsFile::checkFinite(const TensorInfo &info, const float *values, QString *error) const
{
    // A fast pass first: a float is finite when its exponent bits are not all ones.
    if (largestMasked<quint32>(reinterpret_cast<const uchar *>(values), info.elements, 0x7fffffffu) < 0x7f800000u)
        return true;
    for (qint64 i = 0; i < info.elements; ++i) {
        if (!std::isfinite(values[i])) {
            const QString what = std::isnan(values[i]) ? QStringLiteral("NaN")
                                 : info.dtype == Dtype::F64 ? QStringLiteral("beyond the float range")
                                                            : QStringLiteral("infinite");
            *error = fail(QStringLiteral("tensor %1: element %2 %3 is %4 (weights must be finite)")
                              .arg(quotedForMessage(info.name)).arg(i).arg(indexText(info.shape, i), what));
            return false;
        }
    }
    return true;
}

const float *SafetensorsFile::floatsInPlace(const TensorInfo &info) const
{
    const qint64 dataSize = m_size - 8 - m_headerLength;
    if (info.dtype != Dtype::F32 || info.begin < 0 || info.end > dataSize || info.elements <= 0
        || info.end - info.begin != info.elements * qint64(sizeof(float)))
        return nullptr;
    const uchar *src = m_base + 8 + m_headerLength + info.begin;
    if (reinterpret_cast<quintptr>(src) % alignof(float) != 0)
        return nullptr;
    return reinterpret_cast<const float *>(src);
}

const TensorInfo *SafetensorsFile::findMatrix(const QString &name, Eigen::Index rows, Eigen::Index cols,
                                              QString *error) const
{
    const TensorInfo *info = find(name);
    if (!info) {
        *error = fail(QStringLiteral("no tensor %1").arg(quotedForMessage(name)));
        return nullptr;
    }
    const bool shapeOk = info->rank() == 2 && (rows < 0 || info->shape[0] == rows) && (cols < 0 || info->shape[1] == cols);
    if (!shapeOk) {
        const QString want = QStringLiteral("[%1, %2]").arg(rows < 0 ? QStringLiteral("any") : QString::number(rows),
                                                            cols < 0 ? QStringLiteral("any") : QString::number(cols));
        *error = fail(QStringLiteral("tensor %1: shape %2, expected %3")
                          .arg(quotedForMessage(name), shapeText(info->shape), want));
        return nullptr;
    }
    return info;
}

std::optional<RowMatrixXf> SafetensorsFile::matrix(const QString &name, Eigen::Index rows, Eigen::Index cols,
                                                   QString *error) const
{
    const TensorInfo *info = findMatrix(name, rows, cols, error);
    if (!info)
        return std::nullopt;
    RowMatrixXf out(info->shape[0], info->shape[1]);
    if (!toFloat(*info, out.data(), error))
        return std::nullopt;
    return out;
}

const TensorInfo *SafetensorsFile::findVector(const QString &name, Eigen::Index size, QString *error) const
{
    const TensorInfo *info = find(name);
    if (!info) {
        *error = fail(QStringLiteral("no tensor %1").arg(quotedForMessage(name)));
        return nullptr;
    }
    if (info->rank() != 1 || (size >= 0 && info->shape[0] != size)) {
        *error = fail(QStringLiteral("tensor %1: shape %2, expected [%3]")
                          .arg(quotedForMessage(name), shapeText(info->shape),
                               size < 0 ? QStringLiteral("any") : QString::number(size)));
        return nullptr;
    }
    return info;
}

std::optional<Eigen::VectorXf> SafetensorsFile::vector(const QString &name, Eigen::Index size, QString *error) const
{
    const TensorInfo *info = findVector(name, size, error);
    if (!info)
        return std::nullopt;
    Eigen::VectorXf out(info->shape[0]);
    if (!toFloat(*info, out.data(), error))
        return std::nullopt;
    return out;
}

} // namespace attn
