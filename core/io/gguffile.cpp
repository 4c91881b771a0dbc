#include "io/gguffile.h"

#include "io/tensorinfo.h"

#include <QFile>
#include <QFileInfo>
#include <QtEndian>
#include <algorithm>
#include <cstring>
#include <limits>

static_assert(Q_BYTE_ORDER == Q_LITTLE_ENDIAN, "GGUF data is little-endian; add byte swapping for this host");

namespace attn {
namespace {

struct GgufError
{
    QString message;
};

[[noreturn]] void refuse(const QString &message) { throw GgufError{message}; }

constexpr qint64 kMaxKeyBytes = 65535;   // the specification's limit
constexpr qint64 kMaxNameBytes = 63;     // llama.cpp: shorter than GGML_MAX_NAME (64)
constexpr qint64 kMaxElements = qint64(1) << 50;

// Bytes of one element of a metadata type; 8 (its length) for a string, 0 for an unknown type.
qint64 elementBytes(GgufType type)
{
    switch (type) {
    case GgufType::UInt8: case GgufType::Int8: case GgufType::Bool: return 1;
    case GgufType::UInt16: case GgufType::Int16: return 2;
    case GgufType::UInt32: case GgufType::Int32: case GgufType::Float32: return 4;
    case GgufType::UInt64: case GgufType::Int64: case GgufType::Float64: case GgufType::String: return 8;
    case GgufType::Array: return 12;
    }
    return 0;
}

QString readableTypeList()
{
    return QStringLiteral("F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K");
}

// Reads little-endian values from the mapping, every length checked first.
class Reader
{
public:
    Reader(const uchar *base, qint64 size) : m_base(base), m_size(size) {}

    qint64 position() const { return m_pos; }
    qint64 left() const { return m_size - m_pos; }
    void seek(qint64 pos) { m_pos = pos; }

    void need(qint64 bytes, const QString &what) const
    {
        if (bytes < 0 || bytes > left())
            refuse(QStringLiteral("truncated: the file ends inside %1 (at byte %2 of %3)").arg(what).arg(m_pos).arg(m_size));
    }
    template<typename T>
    T read(const QString &what)
    {
        need(sizeof(T), what);
        const T value = qFromLittleEndian<T>(m_base + m_pos);
        m_pos += qint64(sizeof(T));
        return value;
    }
    // A count that must fit in a signed 64-bit integer.
    qint64 count(const QString &what)
    {
        const quint64 value = read<quint64>(what);
        if (value > quint64(std::numeric_limits<qint64>::max()))
            refuse(QStringLiteral("%1 claims %2, more than the file holds (truncated or corrupt)").arg(what).arg(value));
        return qint64(value);
    }
    QString string(const QString &what, qint64 limit = std::numeric_limits<qint64>::max())
    {
        const qint64 length = count(QStringLiteral("the length of ") + what);
        if (length > left())
            refuse(QStringLiteral("truncated: %1 claims %2 bytes, more than the file holds (%3 left)").arg(what).arg(length).arg(left()));
        if (length > limit)
            refuse(QStringLiteral("%1 is %2 bytes long, more than %3").arg(what).arg(length).arg(limit));
        const QString text = QString::fromUtf8(reinterpret_cast<const char *>(m_base + m_pos), length);
        m_pos += length;
        return text;
    }
    void skipString(const QString &what)
    {
        const qint64 length = count(QStringLiteral("the length of ") + what);
        if (length > left())
            refuse(QStringLiteral("truncated: %1 claims %2 bytes, more than the file holds (%3 left)").arg(what).arg(length).arg(left()));
        m_pos += length;
    }

private:
    const uchar *m_base;
    qint64 m_size;
    qint64 m_pos = 0;
};

GgufValue readScalar(Reader &r, GgufType type, const QString &what)
{
    GgufValue v;
    v.type = type;
    switch (type) {
    case GgufType::UInt8: v.integer = r.read<quint8>(what); break;
    case GgufType::Int8: v.integer = r.read<qint8>(what); break;
    case GgufType::UInt16: v.integer = r.read<quint16>(what); break;
    case GgufType::Int16: v.integer = r.read<qint16>(what); break;
    case GgufType::UInt32: v.integer = r.read<quint32>(what); break;
    case GgufType::Int32: v.integer = r.read<qint32>(what); break;
    case GgufType::UInt64: {
        const quint64 u = r.read<quint64>(what);
        if (u > quint64(std::numeric_limits<qint64>::max()))
            refuse(QStringLiteral("%1 is %2, too large").arg(what).arg(u));
        v.integer = qint64(u);
        break;
    }
    case GgufType::Int64: v.integer = r.read<qint64>(what); break;
    case GgufType::Float32: v.number = double(r.read<float>(what)); break;
    case GgufType::Float64: v.number = r.read<double>(what); break;
    case GgufType::Bool: {
        const quint8 b = r.read<quint8>(what);
        if (b > 1)
            refuse(QStringLiteral("%1 is a boolean of value %2 (0 or 1)").arg(what).arg(b));
        v.integer = b;
        break;
    }
    case GgufType::String: v.text = r.string(what); break;
    case GgufType::Array: break;
    }
    return v;
}

GgufValue readValue(Reader &r, const QString &key)
{
    const QString what = QStringLiteral("metadata %1").arg(quotedForMessage(key));
    const quint32 id = r.read<quint32>(QStringLiteral("the type of ") + what);
    if (id > quint32(GgufType::Float64))
        refuse(QStringLiteral("%1 has type %2, not a GGUF value type").arg(what).arg(id));
    const GgufType type = GgufType(id);
    if (type != GgufType::Array)
        return readScalar(r, type, what);
    GgufValue v;
    v.type = GgufType::Array;
    const quint32 element = r.read<quint32>(QStringLiteral("the element type of ") + what);
    if (element > quint32(GgufType::Float64))
        refuse(QStringLiteral("%1 is an array of type %2, not a GGUF value type").arg(what).arg(element));
    v.elementType = GgufType(element);
    if (v.elementType == GgufType::Array)
        refuse(QStringLiteral("%1 is an array of arrays, which GGUF readers do not accept").arg(what));
    v.count = r.count(QStringLiteral("the length of ") + what);
    const qint64 smallest = elementBytes(v.elementType);
    if (v.count > r.left() / smallest)
        refuse(QStringLiteral("%1 claims %2 elements, more than the file holds (truncated or corrupt)").arg(what).arg(v.count));
    v.offset = r.position();
    if (v.elementType == GgufType::String) {
        for (qint64 i = 0; i < v.count; ++i)
            r.skipString(QStringLiteral("element %1 of %2").arg(i).arg(what));
    } else {
        r.seek(r.position() + v.count * smallest);
    }
    return v;
}

// a * b, refused past kMaxElements (no overflow on the way there).
qint64 checkedProduct(qint64 a, qint64 b, const QString &what)
{
    if (b != 0 && a > kMaxElements / b)
        refuse(QStringLiteral("%1 has more elements than any model (the product of its dimensions overflows)").arg(what));
    return a * b;
}

} // namespace

bool GgufValue::isInteger() const
{
    switch (type) {
    case GgufType::UInt8: case GgufType::Int8: case GgufType::UInt16: case GgufType::Int16:
    case GgufType::UInt32: case GgufType::Int32: case GgufType::UInt64: case GgufType::Int64: return true;
    default: return false;
    }
}

QString ggufTypeName(GgufType type)
{
    static const char *const names[] = {"UINT8", "INT8",   "UINT16", "INT16", "UINT32", "INT32", "FLOAT32",
                                        "BOOL",  "STRING", "ARRAY",  "UINT64", "INT64", "FLOAT64"};
    const quint32 i = quint32(type);
    return i < 13 ? QLatin1String(names[i]) : QStringLiteral("type %1").arg(i);
}

GgufFile::GgufFile() = default;
GgufFile::GgufFile(GgufFile &&) noexcept = default;
GgufFile &GgufFile::operator=(GgufFile &&) noexcept = default;
GgufFile::~GgufFile() = default;

std::optional<GgufFile> GgufFile::open(const QString &path, QString *error)
{
    GgufFile file;
    file.m_name = QFileInfo(path).fileName();
    // The mapping lives as long as the QFile: shared with every weight that reads it.
    const auto mapped = std::make_shared<QFile>(path);
    file.m_storage = mapped;
    if (!mapped->open(QIODevice::ReadOnly)) {
        *error = file.fail(QStringLiteral("cannot open: %1").arg(mapped->errorString()));
        return std::nullopt;
    }
    file.m_size = mapped->size();
    if (file.m_size > 0) {
        file.m_base = mapped->map(0, file.m_size);
        if (!file.m_base) {
            *error = file.fail(QStringLiteral("cannot map the file: %1").arg(mapped->errorString()));
            return std::nullopt;
        }
    }
    if (!file.parse(error))
        return std::nullopt;
    return file;
}

std::optional<GgufFile> GgufFile::fromBytes(const QByteArray &bytes, const QString &name, QString *error)
{
    GgufFile file;
    file.m_name = name;
    const auto kept = std::make_shared<const QByteArray>(bytes);
    file.m_storage = kept;
    file.m_base = reinterpret_cast<const uchar *>(kept->constData());
    file.m_size = kept->size();
    if (!file.parse(error))
        return std::nullopt;
    return file;
}

bool GgufFile::parse(QString *error)
{
    try {
        Reader r(m_base, m_size);
        if (m_size < 4)
            refuse(QStringLiteral("truncated: %1 bytes, too short to be a GGUF file").arg(m_size));
        if (std::memcmp(m_base, "FUGG", 4) == 0)
            refuse(QStringLiteral("a big-endian GGUF file, which this program does not read"));
        if (std::memcmp(m_base, "GGUF", 4) != 0)
            refuse(QStringLiteral("not a GGUF file (it does not start with \"GGUF\")"));
        r.seek(4);
        const quint32 version = r.read<quint32>(QStringLiteral("the version"));
        if (version != 0 && (version & 0xFFFF) == 0)
            refuse(QStringLiteral("a big-endian GGUF file, which this program does not read"));
        if (version == 1)
            refuse(QStringLiteral("GGUF version 1, which is no longer read (versions 2 and 3 are)"));
        if (version != 2 && version != 3)
            refuse(QStringLiteral("GGUF version %1, which this program does not read (versions 2 and 3)").arg(version));
        m_version = int(version);
        const qint64 tensorCount = r.count(QStringLiteral("the number of tensors"));
        const qint64 keyCount = r.count(QStringLiteral("the number of metadata keys"));
        // The smallest metadata entry: a one-byte key, its type and one byte.
        if (keyCount > r.left() / 14)
            refuse(QStringLiteral("claims %1 metadata keys, more than the file holds (truncated or corrupt)").arg(keyCount));
        for (qint64 k = 0; k < keyCount; ++k) {
            const QString key = r.string(QStringLiteral("metadata key %1").arg(k), kMaxKeyBytes);
            if (key.isEmpty())
                refuse(QStringLiteral("metadata key %1 is empty").arg(k));
            if (m_values.contains(key))
                refuse(QStringLiteral("metadata %1 appears twice").arg(quotedForMessage(key)));
            m_values.insert(key, readValue(r, key));
            m_keys << key;
        }
        qint64 alignment = 32;
        if (const GgufValue *a = find(QStringLiteral("general.alignment"))) {
            if (a->type != GgufType::UInt32)
                refuse(QStringLiteral("general.alignment is %1, not UINT32").arg(ggufTypeName(a->type)));
            alignment = a->integer;
            if (alignment < 1 || (alignment & (alignment - 1)) != 0)
                refuse(QStringLiteral("general.alignment %1 is not a power of two").arg(alignment));
        }
        // The smallest tensor record: a one-byte name, one dimension, its type and offset.
        if (tensorCount > r.left() / 33)
            refuse(QStringLiteral("claims %1 tensors, more than the file holds (truncated or corrupt)").arg(tensorCount));
        std::vector<qint64> relative;
        for (qint64 t = 0; t < tensorCount; ++t) {
            GgufTensor tensor;
            tensor.name = r.string(QStringLiteral("the name of tensor %1").arg(t), kMaxNameBytes);
            const QString what = QStringLiteral("tensor %1").arg(quotedForMessage(tensor.name));
            if (tensor.name.isEmpty())
                refuse(QStringLiteral("tensor %1 has no name").arg(t));
            if (m_tensorIndex.contains(tensor.name))
                refuse(QStringLiteral("%1 appears twice").arg(what));
            const quint32 dims = r.read<quint32>(QStringLiteral("the dimensions of ") + what);
            if (dims < 1 || dims > 4)
                refuse(QStringLiteral("%1 has %2 dimensions (1 to 4)").arg(what).arg(dims));
            tensor.elements = 1;
            for (quint32 d = 0; d < dims; ++d) {
                const qint64 size = r.count(QStringLiteral("a dimension of ") + what);
                if (size < 1)
                    refuse(QStringLiteral("%1: dimension %2 is 0").arg(what).arg(d));
                tensor.dims.push_back(size);
                tensor.elements = checkedProduct(tensor.elements, size, what);
            }
            const quint32 type = r.read<quint32>(QStringLiteral("the type of ") + what);
            const std::optional<GgmlTypeInfo> info = ggmlTypeInfo(type);
            if (!info)
                refuse(QStringLiteral("%1 has type %2, which is not a ggml type").arg(what).arg(type));
            if (!info->readable)
                refuse(QStringLiteral("%1 is %2, which this program cannot read (%3)")
                           .arg(what, QLatin1String(info->name), readableTypeList()));
            tensor.type = GgmlType(type);
            if (tensor.dims[0] % info->blockValues != 0)
                refuse(QStringLiteral("%1: rows of %2 values are not whole blocks of %3 (%4)")
                           .arg(what).arg(tensor.dims[0]).arg(info->blockValues).arg(QLatin1String(info->name)));
            tensor.rowBytes = tensor.dims[0] / info->blockValues * info->blockBytes;
            tensor.bytes = checkedProduct(tensor.rowBytes, tensor.rows(), what);
            const qint64 offset = r.count(QStringLiteral("the offset of ") + what);
            if (offset % alignment != 0)
                refuse(QStringLiteral("%1: its offset %2 is not a multiple of the alignment %3").arg(what).arg(offset).arg(alignment));
            relative.push_back(offset);
            m_tensorIndex.insert(tensor.name, int(m_tensors.size()));
            m_tensors.push_back(std::move(tensor));
        }
        const qint64 dataStart = (r.position() + alignment - 1) / alignment * alignment;
        for (std::size_t t = 0; t < m_tensors.size(); ++t) {
            GgufTensor &tensor = m_tensors[t];
            if (relative[t] > m_size - dataStart || tensor.bytes > m_size - dataStart - relative[t])
                refuse(QStringLiteral("tensor %1: its data (%2 bytes at offset %3) runs past the end of the file (truncated or corrupt)")
                           .arg(quotedForMessage(tensor.name)).arg(tensor.bytes).arg(relative[t]));
            tensor.offset = dataStart + relative[t];
        }
        std::vector<const GgufTensor *> byOffset;
        for (const GgufTensor &t : m_tensors)
            byOffset.push_back(&t);
        std::sort(byOffset.begin(), byOffset.end(), [](auto *a, auto *b) { return a->offset < b->offset; });
        for (std::size_t i = 1; i < byOffset.size(); ++i)
            if (byOffset[i - 1]->offset + byOffset[i - 1]->bytes > byOffset[i]->offset)
                refuse(QStringLiteral("tensors %1 and %2 overlap")
                           .arg(quotedForMessage(byOffset[i - 1]->name), quotedForMessage(byOffset[i]->name)));
        return true;
    } catch (const GgufError &e) {
        *error = fail(e.message);
        return false;
    }
}

const GgufValue *GgufFile::find(const QString &key) const
{
    const auto it = m_values.constFind(key);
    return it == m_values.cend() ? nullptr : &*it;
}

const GgufTensor *GgufFile::findTensor(const QString &name) const
{
    const auto it = m_tensorIndex.constFind(name);
    return it == m_tensorIndex.cend() ? nullptr : &m_tensors[std::size_t(*it)];
}

std::optional<QStringList> GgufFile::strings(const GgufValue &array, const QString &key, QString *error) const
{
    if (array.type != GgufType::Array || array.elementType != GgufType::String) {
        *error = fail(QStringLiteral("%1 is not an array of strings").arg(key));
        return std::nullopt;
    }
    try {
        Reader r(m_base, m_size); // bounds were checked at open
        r.seek(array.offset);
        QStringList out;
        out.reserve(array.count);
        for (qint64 i = 0; i < array.count; ++i)
            out << r.string(key);
        return out;
    } catch (const GgufError &e) {
        *error = fail(e.message);
        return std::nullopt;
    }
}

std::optional<std::vector<double>> GgufFile::numbers(const GgufValue &array, const QString &key, QString *error) const
{
    GgufValue element;
    element.type = array.elementType;
    if (array.type != GgufType::Array || !element.isNumber()) {
        *error = fail(QStringLiteral("%1 is not an array of numbers").arg(key));
        return std::nullopt;
    }
    try {
        Reader r(m_base, m_size);
        r.seek(array.offset);
        std::vector<double> out(std::size_t(array.count));
        for (qint64 i = 0; i < array.count; ++i) {
            const GgufValue v = readScalar(r, array.elementType, key);
            out[std::size_t(i)] = v.isInteger() ? double(v.integer) : v.number;
        }
        return out;
    } catch (const GgufError &e) {
        *error = fail(e.message);
        return std::nullopt;
    }
}

} // namespace attn
