#pragma once
// A safetensors file opened for reading: memory-mapped, its header checked
// completely before any tensor is touched, tensors converted to float on demand.
//
// The file is mapped, never read whole: a 500 MB checkpoint costs only the
// pages of the tensors that are converted. Everything the header claims is
// validated against the file first (see open()), so a hostile or truncated
// file gives a one-line message and never an out-of-bounds read or an
// allocation of a size the header merely claims.
//
// Layout (little-endian): u64 N, N bytes of UTF-8 JSON, then the data buffer.
// The header length need not be a multiple of 8, so tensor data may be
// unaligned: mapped bytes are read as floats in place only where
// floatsInPlace() has checked the alignment; otherwise conversion goes through memcpy.
// While a SafetensorsFile, or a weight read in place from it (storage()), is
// alive the file must not be truncated by another program (the mapping would
// fault); rewriting it through QSaveFile or a new folder (a rename, as
// saveModelFolder does) is safe, the mapping keeps the old contents.

#include "io/tensorinfo.h"

#include <Eigen/Core>
#include <QByteArray>
#include <QHash>
#include <QMap>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

namespace attn {

// The reference reader refuses headers larger than this (MAX_HEADER_SIZE).
constexpr qint64 kMaxSafetensorsHeaderBytes = 100'000'000;

// A 2-D tensor as stored in the file: row-major. Assign it to an
// Eigen::MatrixXf if column-major storage is wanted (Eigen copies correctly).
using RowMatrixXf = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class SafetensorsFile
{
public:
    // Maps and validates `path`. On failure returns nothing and sets `error`
    // to one line starting with the file's name, e.g.
    //   model.safetensors: tensor "h.0.attn.c_attn.weight": data_offsets [0, 96] hold 96 bytes, shape [4, 12] of F32 needs 192
    // Checked, as the reference validator does and more: the length prefix,
    // header size (<= 100 MB and inside the file), UTF-8 JSON object, no
    // duplicate keys, each entry's dtype/shape/data_offsets, sizes adding up,
    // offsets tiling the data buffer from 0 to the end of the file without
    // gaps or overlaps, and `__metadata__` being an object of strings.
    static std::optional<SafetensorsFile> open(const QString &path, QString *error);
    // The same checks on bytes already in memory (tests, fuzzing); `name` is
    // used in messages.
    static std::optional<SafetensorsFile> fromBytes(const QByteArray &bytes, const QString &name, QString *error);

    SafetensorsFile(SafetensorsFile &&) noexcept;
    SafetensorsFile &operator=(SafetensorsFile &&) noexcept;
    ~SafetensorsFile();

    // The file name used in messages ("model.safetensors").
    const QString &name() const { return m_name; }
    // Tensor names in the order of their data in the file.
    QStringList names() const;
    const std::vector<TensorInfo> &tensors() const { return m_tensors; }
    // nullptr when there is no such tensor.
    const TensorInfo *find(const QString &name) const;
    // The optional "__metadata__" object (string -> string).
    const QMap<QString, QString> &metadata() const { return m_metadata; }
    // Header length N as stored in the first 8 bytes.
    qint64 headerLength() const { return m_headerLength; }

    // The tensor's bytes inside the mapping (valid while this object or a
    // copy of storage() lives).
    QByteArrayView rawBytes(const TensorInfo &info) const;
    // Keeps the mapping (or the bytes given to fromBytes) alive after this
    // object is gone: what a weight read in place holds on to.
    std::shared_ptr<const void> storage() const { return m_storage; }

    // The F32 tensor's values where they can be read as floats without a copy:
    // inside the mapping and aligned for float. nullptr for any other dtype
    // and for data that an odd header length left misaligned.
    const float *floatsInPlace(const TensorInfo &info) const;
    // Refuses, as toFloat does, the first NaN or infinity among the tensor's
    // info.elements values at `values`.
    bool checkFinite(const TensorInfo &info, const float *values, QString *error) const;
    // The same for an F16 or BF16 tensor as stored (its exponent bits), without a float copy.
    bool checkFiniteStored(const TensorInfo &info, QString *error) const;
    // Converts `count` values of a floating dtype stored at `src` (little-endian, any alignment) to float.
    static void convertToFloat(Dtype dtype, const uchar *src, qint64 count, float *dst);

    // Converts the tensor's info.elements values (F32, F16, BF16 or F64) to
    // float in row-major order into dst. Refuses, with a message naming the
    // tensor and the element, any NaN or infinity (also F64 values beyond the
    // float range), and non-floating dtypes.
    bool toFloat(const TensorInfo &info, float *dst, QString *error) const;

    // The named 2-D tensor's entry if it has this shape (`rows`/`cols`; -1
    // accepts any); else nullptr and a one-line error (missing, other rank or shape).
    const TensorInfo *findMatrix(const QString &name, Eigen::Index rows, Eigen::Index cols, QString *error) const;
    // The named 1-D tensor's entry if it has `size` elements (-1: any).
    const TensorInfo *findVector(const QString &name, Eigen::Index size, QString *error) const;

    // The named 2-D tensor converted (as findMatrix, then toFloat).
    std::optional<RowMatrixXf> matrix(const QString &name, Eigen::Index rows, Eigen::Index cols,
                                      QString *error) const;
    // The named 1-D tensor of `size` elements (-1: any).
    std::optional<Eigen::VectorXf> vector(const QString &name, Eigen::Index size, QString *error) const;

private:
    SafetensorsFile();
    bool parse(QString *error);
    QString fail(const QString &what) const;

    QString m_name;
    std::shared_ptr<const void> m_storage; // the QFile owning the mapping, or the bytes of fromBytes
    const uchar *m_base = nullptr;
    qint64 m_size = 0;
    qint64 m_headerLength = 0;
    std::vector<TensorInfo> m_tensors; // sorted by begin
    QHash<QString, int> m_index;       // name -> position in m_tensors
    QMap<QString, QString> m_metadata;
};

} // namespace attn
