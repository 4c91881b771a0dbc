#include "io/safetensorssource.h"

#include "io/safetensorsfile.h"
#include "io/shardedcheckpoint.h"

#include <QHash>

namespace attn {
namespace {

// An F16 or BF16 tensor inside the mapping, converted row by row when used.
class SafetensorsRows final : public StoredRows
{
public:
    SafetensorsRows(const SafetensorsFile &file, const TensorInfo &info, Eigen::Index rows, Eigen::Index cols)
        : StoredRows(rows, cols), m_bytes(reinterpret_cast<const uchar *>(file.rawBytes(info).data())),
          m_dtype(info.dtype), m_mapping(file.storage())
    {
    }
    void toFloat(Eigen::Index first, Eigen::Index count, float *out) const override
    {
        const qint64 size = dtypeSize(m_dtype);
        SafetensorsFile::convertToFloat(m_dtype, m_bytes + first * cols() * size, count * cols(), out);
    }
    QString typeName() const override { return dtypeName(m_dtype); }
    RowsInPlace inPlace() const override
    {
        // Only F16 and BF16 tensors are stored rows (SafetensorsSource::matrix),
        // checked finite at open; a header may leave them at an odd address.
        if (reinterpret_cast<quintptr>(m_bytes) % 2 != 0)
            return {};
        return {m_bytes, cols(), m_dtype == Dtype::BF16 ? kernels::RowElement::BFloat16 : kernels::RowElement::Half};
    }

private:
    const uchar *m_bytes;
    Dtype m_dtype;
    std::shared_ptr<const void> m_mapping;
};

template<typename T>
T checked(T ok, const QString &error)
{
    if (!ok)
        throw ModelLoadError{error};
    return ok;
}

} // namespace

SafetensorsSource::SafetensorsSource(const SafetensorsFile &file) : m_name(file.name()), m_single(&file) {}

SafetensorsSource::SafetensorsSource(const ShardedCheckpoint &checkpoint, QString name)
    : m_name(std::move(name)), m_sharded(&checkpoint)
{
}

const SafetensorsFile &SafetensorsSource::fileOf(const QString &tensor) const
{
    // The single file even when it lacks the tensor, so that its own message says so.
    if (m_single)
        return *m_single;
    if (const SafetensorsFile *file = m_sharded->fileOf(tensor))
        return *file;
    throw ModelLoadError{QStringLiteral("%1: no tensor %2").arg(m_name, quotedForMessage(tensor))};
}

bool SafetensorsSource::has(const QString &tensor) const
{
    const SafetensorsFile *file = m_single ? m_single : m_sharded->fileOf(tensor);
    return file && file->find(tensor);
}

WeightMatrix SafetensorsSource::matrix(const QString &tensor, Eigen::Index rows, Eigen::Index cols) const
{
    const SafetensorsFile &file = fileOf(tensor);
    QString error;
    const TensorInfo *info = checked(file.findMatrix(tensor, rows, cols, &error), error);
    if (const float *inPlace = file.floatsInPlace(*info)) {
        checked(file.checkFinite(*info, inPlace, &error), error);
        return WeightMatrix::mapped(inPlace, rows, cols, cols, file.storage());
    }
    if (info->dtype == Dtype::F16 || info->dtype == Dtype::BF16) {
        checked(file.checkFiniteStored(*info, &error), error);
        return WeightMatrix::stored(std::make_shared<SafetensorsRows>(file, *info, rows, cols));
    }
    // F32 that the header left misaligned, F64: a float copy.
    RowMatrix<float> copy(rows, cols);
    checked(file.toFloat(*info, copy.data(), &error), error);
    return copy;
}

WeightVector SafetensorsSource::vector(const QString &tensor, Eigen::Index size) const
{
    const SafetensorsFile &file = fileOf(tensor);
    QString error;
    const TensorInfo *info = checked(file.findVector(tensor, size, &error), error);
    if (const float *inPlace = file.floatsInPlace(*info)) {
        checked(file.checkFinite(*info, inPlace, &error), error);
        return WeightVector::mapped(inPlace, 1, size, size, file.storage());
    }
    RowVector<float> copy(size);
    checked(file.toFloat(*info, copy.data(), &error), error);
    return copy;
}

QString SafetensorsSource::storedType() const
{
    // The type holding the most bytes of weights.
    QHash<QString, qint64> bytes;
    const auto count = [&](const SafetensorsFile &file) {
        for (const TensorInfo &t : file.tensors())
            bytes[dtypeName(t.dtype)] += t.byteCount();
    };
    if (m_single)
        count(*m_single);
    else
        for (const SafetensorsFile &shard : m_sharded->shards)
            count(shard);
    QString most = QStringLiteral("F32");
    qint64 largest = -1;
    for (auto it = bytes.cbegin(); it != bytes.cend(); ++it)
        if (it.value() > largest || (it.value() == largest && it.key() < most)) {
            largest = it.value();
            most = it.key();
        }
    return most;
}

} // namespace attn
