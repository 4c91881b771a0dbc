#pragma once
// A GGUF file (llama.cpp's model format, versions 2 and 3) opened for
// reading: memory-mapped, its header, metadata and tensor table checked
// completely before anything else reads it (ggml's docs/gguf.md, gguf.cpp).
//
// The file is untrusted: every count, length and offset is checked against
// the bytes that are there before it is used, nothing is allocated for what
// a header merely claims, and a fault gives one line starting with the file's
// name. Tensor data is not read at open (a 5 GB model opens in milliseconds):
// it is turned into floats a band of rows at a time when used.

#include "io/ggmltypes.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

namespace attn {

// Metadata value types (gguf.h enum gguf_type).
enum class GgufType : quint32 {
    UInt8 = 0, Int8 = 1, UInt16 = 2, Int16 = 3, UInt32 = 4, Int32 = 5, Float32 = 6, Bool = 7,
    String = 8, Array = 9, UInt64 = 10, Int64 = 11, Float64 = 12,
};

// One metadata value. Scalars are read at open; arrays are only located
// (their elements are read when asked for: a vocabulary of 150,000 strings).
struct GgufValue
{
    GgufType type = GgufType::UInt8;
    qint64 integer = 0;      // integer types and Bool (UInt64 above 2^63 is refused at open)
    double number = 0;       // Float32, Float64
    QString text;            // String
    GgufType elementType = GgufType::UInt8; // Array
    qint64 count = 0;                       // Array: elements
    qint64 offset = 0;                      // Array: where its first element starts in the file

    bool isInteger() const;
    bool isNumber() const { return isInteger() || type == GgufType::Float32 || type == GgufType::Float64; }
};

// The name GGUF's documentation gives a value type: "UINT32", "ARRAY of STRING".
QString ggufTypeName(GgufType type);

struct GgufTensor
{
    QString name;
    GgmlType type = GgmlType::F32;
    std::vector<qint64> dims; // ne[0], ne[1], ...: ne[0] is the contiguous (row) dimension
    qint64 elements = 0;
    qint64 offset = 0;        // from the start of the file
    qint64 bytes = 0;
    qint64 rowBytes = 0;      // one row of ne[0] values

    qint64 rows() const { return elements / dims[0]; }
};

class GgufFile
{
public:
    // Maps and validates `path` (see the checks in gguffile.cpp). On failure
    // returns nothing and sets `error` to one line starting with the file name.
    static std::optional<GgufFile> open(const QString &path, QString *error);
    // The same on bytes in memory (tests, fuzzing); `name` is used in messages.
    static std::optional<GgufFile> fromBytes(const QByteArray &bytes, const QString &name, QString *error);

    GgufFile(GgufFile &&) noexcept;
    GgufFile &operator=(GgufFile &&) noexcept;
    ~GgufFile();

    const QString &name() const { return m_name; }
    int version() const { return m_version; }
    qint64 size() const { return m_size; }
    const QStringList &keys() const { return m_keys; }
    const GgufValue *find(const QString &key) const;
    const std::vector<GgufTensor> &tensors() const { return m_tensors; }
    const GgufTensor *findTensor(const QString &name) const;

    // An array's elements; each refuses (nothing, and `error`) an array of
    // another element type. Integers of any width are accepted as integers,
    // Float32/Float64 as numbers.
    std::optional<QStringList> strings(const GgufValue &array, const QString &key, QString *error) const;
    std::optional<std::vector<double>> numbers(const GgufValue &array, const QString &key, QString *error) const;

    // The tensor's bytes inside the mapping; `storage()` keeps them alive.
    const uchar *data(const GgufTensor &tensor) const { return m_base + tensor.offset; }
    std::shared_ptr<const void> storage() const { return m_storage; }

    QString fail(const QString &what) const { return m_name + QLatin1String(": ") + what; }

private:
    GgufFile();
    bool parse(QString *error);

    QString m_name;
    std::shared_ptr<const void> m_storage;
    const uchar *m_base = nullptr;
    qint64 m_size = 0;
    int m_version = 0;
    QStringList m_keys;
    QHash<QString, GgufValue> m_values;
    std::vector<GgufTensor> m_tensors;
    QHash<QString, int> m_tensorIndex;
};

} // namespace attn
