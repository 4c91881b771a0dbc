#include "io/ggufsource.h"

#include "io/gguffile.h"
#include "io/tensorinfo.h"
#include "model/forward.h"

#include <QHash>
#include <algorithm>
#include <cmath>

namespace attn {
namespace {

// Hugging Face row r of a head of d rows is GGUF row 2i + s where r = s*d/2 + i.
qint64 ggufRowOf(qint64 row, int headDim)
{
    const qint64 head = row / headDim, within = row % headDim, half = headDim / 2;
    const qint64 s = within / half, i = within % half;
    return head * headDim + 2 * i + s;
}

// A tensor's rows dequantised when used; `headDim` > 0 reads them in
// Hugging Face's order from the converter's interleaved one.
class GgufRows final : public StoredRows
{
public:
    GgufRows(const GgufFile &file, const GgufTensor &tensor, int headDim)
        : StoredRows(tensor.rows(), tensor.dims[0]), m_file(file.name()), m_tensor(tensor.name),
          m_data(file.data(tensor)), m_type(tensor.type), m_rowBytes(tensor.rowBytes),
          m_blocksPerRow(tensor.dims[0] / ggmlTypeInfo(quint32(tensor.type))->blockValues), m_headDim(headDim),
          m_mapping(file.storage())
    {
    }
    void toFloat(Eigen::Index first, Eigen::Index count, float *out) const override
    {
        for (Eigen::Index r = 0; r < count; ++r) {
            const qint64 row = m_headDim > 0 ? ggufRowOf(first + r, m_headDim) : first + r;
            qint64 bad = 0;
            if (!dequantizeBlocks(m_type, m_data + row * m_rowBytes, m_blocksPerRow, out + r * cols(), &bad))
                // Thrown inside a pass (the loader turns it into its own error
                // for the tensors it checks whole at open).
                throw ModelInputError(QStringLiteral("%1: tensor %2: block %3 of row %4 holds a value or scale that "
                                                     "is not finite")
                                          .arg(m_file, quotedForMessage(m_tensor)).arg(bad).arg(row).toStdString());
        }
    }
    QString typeName() const override { return QLatin1String(ggmlTypeInfo(quint32(m_type))->name); }

private:
    QString m_file, m_tensor;
    const uchar *m_data;
    GgmlType m_type;
    qint64 m_rowBytes, m_blocksPerRow;
    int m_headDim;
    std::shared_ptr<const void> m_mapping;
};

QString dimsText(const std::vector<qint64> &dims)
{
    QStringList parts;
    for (qint64 d : dims)
        parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

GgufSource::GgufSource(const GgufFile &file, bool unpermuteQueryKey, int heads, int kvHeads, int headDim)
    : m_file(file), m_unpermute(unpermuteQueryKey), m_heads(heads), m_kvHeads(kvHeads), m_headDim(headDim)
{
}

QString GgufSource::name() const { return m_file.name(); }

bool GgufSource::has(const QString &tensor) const { return m_file.findTensor(tensor) != nullptr; }

int GgufSource::permutedHeads(const QString &tensor) const
{
    if (!m_unpermute)
        return 0;
    if (tensor.endsWith(QLatin1String(".attn_q.weight")) || tensor.endsWith(QLatin1String(".attn_q.bias")))
        return m_heads;
    if (tensor.endsWith(QLatin1String(".attn_k.weight")) || tensor.endsWith(QLatin1String(".attn_k.bias")))
        return m_kvHeads;
    return 0;
}

WeightMatrix GgufSource::matrix(const QString &name, Eigen::Index rows, Eigen::Index cols) const
{
    m_read.insert(name);
    const GgufTensor *t = m_file.findTensor(name);
    if (!t)
        throw ModelLoadError{m_file.fail(QStringLiteral("no tensor %1").arg(quotedForMessage(name)))};
    // GGUF lists the contiguous dimension first: Hugging Face's [rows, cols] is ne = [cols, rows].
    if (t->dims.size() != 2 || t->dims[0] != cols || t->dims[1] != rows)
        throw ModelLoadError{m_file.fail(QStringLiteral("tensor %1: dimensions %2, expected [%3, %4]")
                                             .arg(quotedForMessage(name), dimsText(t->dims)).arg(cols).arg(rows))};
    const int heads = permutedHeads(name);
    if (heads > 0 && (m_headDim % 2 != 0 || rows != qint64(heads) * m_headDim))
        throw ModelLoadError{m_file.fail(QStringLiteral("tensor %1: %2 rows are not %3 heads of %4")
                                             .arg(quotedForMessage(name)).arg(rows).arg(heads).arg(m_headDim))};
    const bool aligned = reinterpret_cast<quintptr>(m_file.data(*t)) % alignof(float) == 0;
    auto stored = std::make_shared<GgufRows>(m_file, *t, heads > 0 ? m_headDim : 0);
    // F32 is used where it lies, so it is checked now. Other types are not
    // dequantised here: a file small enough is checked whole before its
    // tensors are read (modelloader), and a larger one a band at a time as
    // the pass uses it (GgufRows::toFloat), so opening an 8B file does not
    // dequantise all of it once.
    if (t->type == GgmlType::F32 && heads == 0 && aligned) {
        const float *values = reinterpret_cast<const float *>(m_file.data(*t));
        for (qint64 i = 0; i < t->elements; ++i)
            if (!std::isfinite(values[i]))
                throw ModelLoadError{m_file.fail(QStringLiteral("tensor %1: element %2 is not finite")
                                                     .arg(quotedForMessage(name)).arg(i))};
        return WeightMatrix::mapped(values, rows, cols, cols, m_file.storage());
    }
    return WeightMatrix::stored(std::move(stored));
}

WeightVector GgufSource::vector(const QString &name, Eigen::Index size) const
{
    m_read.insert(name);
    const GgufTensor *t = m_file.findTensor(name);
    if (!t)
        throw ModelLoadError{m_file.fail(QStringLiteral("no tensor %1").arg(quotedForMessage(name)))};
    if (t->dims.size() != 1 || t->dims[0] != size)
        throw ModelLoadError{m_file.fail(QStringLiteral("tensor %1: dimensions %2, expected [%3]")
                                             .arg(quotedForMessage(name), dimsText(t->dims)).arg(size))};
    RowVector<float> values(size);
    qint64 bad = 0;
    const qint64 blocks = size / ggmlTypeInfo(quint32(t->type))->blockValues;
    if (!dequantizeBlocks(t->type, m_file.data(*t), blocks, values.data(), &bad))
        throw ModelLoadError{m_file.fail(QStringLiteral("tensor %1: block %2 holds a value that is not finite")
                                             .arg(quotedForMessage(name)).arg(bad))};
    if (const int heads = permutedHeads(name); heads > 0) {
        RowVector<float> ordered(size);
        for (Eigen::Index r = 0; r < size; ++r)
            ordered[r] = values[ggufRowOf(r, m_headDim)];
        values = ordered;
    }
    return values;
}

QString ggufStoredType(const std::vector<GgufTensor> &tensors)
{
    QHash<QString, qint64> bytes;
    for (const GgufTensor &t : tensors)
        if (t.dims.size() >= 2)
            bytes[QLatin1String(ggmlTypeInfo(quint32(t.type))->name)] += t.bytes;
    QString most = QStringLiteral("F32");
    qint64 largest = -1;
    for (auto it = bytes.cbegin(); it != bytes.cend(); ++it)
        if (it.value() > largest || (it.value() == largest && it.key() < most)) {
            largest = it.value();
            most = it.key();
        }
    return most;
}

QString GgufSource::storedType() const { return ggufStoredType(m_file.tensors()); }

void GgufSource::checkUnread() const
{
    std::vector<float> scratch;
    for (const GgufTensor &t : m_file.tensors()) {
        if (m_read.contains(t.name))
            continue;
        // A few blocks at a time: the tensor's size is the file's, not the memory's.
        const GgmlTypeInfo info = *ggmlTypeInfo(quint32(t.type));
        const qint64 blocks = t.elements / info.blockValues;
        const qint64 step = std::max<qint64>(1, 16384 / info.blockValues);
        scratch.resize(std::size_t(step * info.blockValues));
        for (qint64 first = 0; first < blocks; first += step) {
            qint64 bad = 0;
            const qint64 count = std::min(step, blocks - first);
            if (!dequantizeBlocks(t.type, m_file.data(t) + first * info.blockBytes, count, scratch.data(), &bad))
                throw ModelLoadError{m_file.fail(QStringLiteral("tensor %1: block %2 holds a value or scale that is not "
                                                                "finite").arg(quotedForMessage(t.name)).arg(first + bad))};
        }
    }
}

} // namespace attn
