#include "io/safetensorsfile.h"

#include "io/jsonduplicates.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace attn {

QString quotedForMessage(const QString &text)
{
    QString out;
    const QString shown = text.left(80);
    for (qsizetype i = 0; i < shown.size(); ++i) {
        const QChar c = shown[i];
        const bool pairStart = c.isHighSurrogate() && i + 1 < shown.size() && shown[i + 1].isLowSurrogate();
        const bool pairEnd = c.isLowSurrogate() && i > 0 && shown[i - 1].isHighSurrogate();
        if (c.category() == QChar::Other_Control || c == QChar::LineSeparator || c == QChar::ParagraphSeparator
            || (c.isSurrogate() && !pairStart && !pairEnd))
            out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\') + c;
        else
            out += c;
    }
    return QLatin1Char('"') + out + (text.size() > 80 ? QStringLiteral("…\"") : QStringLiteral("\""));
}

namespace {

QString describe(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (d == std::floor(d) && std::abs(d) < 9.2e18)
            return QString::number(v.toInteger());
        return QString::number(d, 'g', 17);
    }
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("a list");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

// Integers exactly as written (Qt keeps integer literals as 64-bit
// integers); anything else, including 1.5, -1 and 2^64, is refused.
std::optional<qint64> nonNegativeInteger(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const qint64 i = v.toInteger(-1);
    if (i < 0)
        return std::nullopt;
    return i;
}

} // namespace

SafetensorsFile::SafetensorsFile() = default;
SafetensorsFile::SafetensorsFile(SafetensorsFile &&) noexcept = default;
SafetensorsFile &SafetensorsFile::operator=(SafetensorsFile &&) noexcept = default;
SafetensorsFile::~SafetensorsFile() = default;

std::optional<SafetensorsFile> SafetensorsFile::open(const QString &path, QString *error)
{
    SafetensorsFile file;
    file.m_name = QFileInfo(path).fileName();
    // The mapping lives as long as the QFile: shared with every weight read in place.
    const auto mapped = std::make_shared<QFile>(path);
    file.m_storage = mapped;
    if (!mapped->open(QIODevice::ReadOnly)) {
        *error = file.fail(QStringLiteral("cannot open: %1").arg(mapped->errorString()));
        return std::nullopt;
    }
    file.m_size = mapped->size();
    if (file.m_size >= 8) {
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

std::optional<SafetensorsFile> SafetensorsFile::fromBytes(const QByteArray &bytes, const QString &name, QString *error)
{
    SafetensorsFile file;
    file.m_name = name;
    const auto kept = std::make_shared<const QByteArray>(bytes);
    file.m_storage = kept;
    file.m_base = reinterpret_cast<const uchar *>(kept->constData());
    file.m_size = kept->size();
    if (!file.parse(error))
        return std::nullopt;
    return file;
}

QString SafetensorsFile::fail(const QString &what) const { return m_name + QLatin1String(": ") + what; }

bool SafetensorsFile::parse(QString *error)
{
    const auto refuse = [&](const QString &what) {
        *error = fail(what);
        return false;
    };
    if (m_size < 8)
        return refuse(m_size == 0 ? QStringLiteral("file is empty")
                                  : QStringLiteral("file is %1 bytes, shorter than the 8-byte header length").arg(m_size));
    const quint64 n = qFromLittleEndian<quint64>(m_base);
    if (n > quint64(kMaxSafetensorsHeaderBytes))
        return refuse(QStringLiteral("header length %1 is larger than the %2-byte limit").arg(n).arg(kMaxSafetensorsHeaderBytes));
    if (n > quint64(m_size - 8))
        return refuse(QStringLiteral("header length %1 runs past the end of the file (%2 bytes follow the length)")
                          .arg(n).arg(m_size - 8));
    if (n == 0)
        return refuse(QStringLiteral("header is empty (length 0)"));
    m_headerLength = qint64(n);
    const qint64 dataSize = m_size - 8 - m_headerLength;
    const QByteArray header = QByteArray::fromRawData(reinterpret_cast<const char *>(m_base + 8), qsizetype(n));

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(header, &parseError);
    if (doc.isNull())
        return refuse(QStringLiteral("header is not valid JSON: %1 at byte %2 of the header")
                          .arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return refuse(QStringLiteral("header is a list, not an object"));
    if (const std::optional<QStringList> dup = detail::findDuplicateKey(header)) {
        const QString first = dup->at(0);
        if (dup->size() == 1)
            return refuse(first == QLatin1String("__metadata__")
                              ? QStringLiteral("__metadata__ appears twice in the header")
                              : QStringLiteral("tensor %1 appears twice in the header").arg(quotedForMessage(first)));
        const QString inner = quotedForMessage(dup->mid(1).join(QLatin1Char('.')));
        return refuse(first == QLatin1String("__metadata__")
                          ? QStringLiteral("__metadata__: key %1 appears twice").arg(inner)
                          : QStringLiteral("tensor %1: field %2 appears twice").arg(quotedForMessage(first), inner));
    }

    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        const QString key = it.key();
        const QJsonValue value = it.value();
        if (key == QLatin1String("__metadata__")) {
            if (!value.isObject())
                return refuse(QStringLiteral("__metadata__ is %1, not an object of strings").arg(describe(value)));
            const QJsonObject meta = value.toObject();
            for (auto m = meta.begin(); m != meta.end(); ++m) {
                if (!m.value().isString())
                    return refuse(QStringLiteral("__metadata__ %1 is %2, not a string")
                                      .arg(quotedForMessage(m.key()), describe(m.value())));
                m_metadata.insert(m.key(), m.value().toString());
            }
            continue;
        }
        const QString tensor = QStringLiteral("tensor %1").arg(quotedForMessage(key));
        const auto refuseField = [&](const QString &what) { return refuse(tensor + QLatin1String(": ") + what); };
        if (!value.isObject())
            return refuse(QStringLiteral("%1 is %2, not an object").arg(tensor, describe(value)));
        const QJsonObject entry = value.toObject();
        TensorInfo info;
        info.name = key;

        const QJsonValue dtype = entry.value(QLatin1String("dtype"));
        if (dtype.isUndefined())
            return refuseField(QStringLiteral("no dtype"));
        if (!dtype.isString())
            return refuseField(QStringLiteral("dtype is %1, not a string").arg(describe(dtype)));
        const std::optional<Dtype> known = dtypeFromName(dtype.toString());
        if (!known)
            return refuseField(QStringLiteral("unknown or unsupported dtype %1").arg(quotedForMessage(dtype.toString())));
        info.dtype = *known;

        const QJsonValue shape = entry.value(QLatin1String("shape"));
        if (shape.isUndefined())
            return refuseField(QStringLiteral("no shape"));
        if (!shape.isArray())
            return refuseField(QStringLiteral("shape is %1, not a list").arg(describe(shape)));
        const QJsonArray dims = shape.toArray();
        quint64 elements = 1;
        bool overflow = false;
        for (qsizetype d = 0; d < dims.size(); ++d) {
            const std::optional<qint64> dim = nonNegativeInteger(dims.at(d));
            if (!dim)
                return refuseField(QStringLiteral("shape[%1] is %2, not a non-negative integer").arg(d).arg(describe(dims.at(d))));
            info.shape.push_back(*dim);
            overflow = overflow || __builtin_mul_overflow(elements, quint64(*dim), &elements);
        }
        const quint64 elementSize = quint64(dtypeSize(info.dtype));
        quint64 needed = 0;
        overflow = overflow || __builtin_mul_overflow(elements, elementSize, &needed)
                   || needed > quint64(std::numeric_limits<qint64>::max());
        if (overflow)
            return refuseField(QStringLiteral("shape %1 of %2 is too large (its byte count overflows 64 bits)")
                                   .arg(shapeText(info.shape), dtypeName(info.dtype)));
        info.elements = qint64(elements);

        const QJsonValue offsets = entry.value(QLatin1String("data_offsets"));
        if (offsets.isUndefined())
            return refuseField(QStringLiteral("no data_offsets"));
        if (!offsets.isArray() || offsets.toArray().size() != 2)
            return refuseField(QStringLiteral("data_offsets is %1, not a list of two integers")
                                   .arg(offsets.isArray() ? QStringLiteral("a list of %1").arg(offsets.toArray().size())
                                                          : describe(offsets)));
        for (int k = 0; k < 2; ++k) {
            const std::optional<qint64> v = nonNegativeInteger(offsets.toArray().at(k));
            if (!v)
                return refuseField(QStringLiteral("data_offsets[%1] is %2, not a non-negative integer")
                                       .arg(k).arg(describe(offsets.toArray().at(k))));
            (k == 0 ? info.begin : info.end) = *v;
        }
        const QString span = QStringLiteral("data_offsets [%1, %2]").arg(info.begin).arg(info.end);
        if (info.end < info.begin)
            return refuseField(span + QStringLiteral(" end before they begin"));
        if (quint64(info.end - info.begin) != needed)
            return refuseField(QStringLiteral("%1 hold %2 bytes, shape %3 of %4 needs %5")
                                   .arg(span).arg(info.end - info.begin)
                                   .arg(shapeText(info.shape), dtypeName(info.dtype)).arg(needed));
        if (info.end > dataSize)
            return refuseField(QStringLiteral("%1 end past the data, which holds %2 bytes").arg(span).arg(dataSize));
        m_tensors.push_back(std::move(info));
    }

    // As the reference validator: sorted by offsets, the tensors must tile
    // the data buffer from 0 to the end of the file, without gaps or overlaps.
    std::sort(m_tensors.begin(), m_tensors.end(), [](const TensorInfo &a, const TensorInfo &b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    qint64 expected = 0;
    const TensorInfo *previous = nullptr;
    for (const TensorInfo &t : m_tensors) {
        const QString span = QStringLiteral("data_offsets [%1, %2]").arg(t.begin).arg(t.end);
        if (t.begin < expected)
            return refuse(QStringLiteral("tensor %1: %2 overlap tensor %3 [%4, %5]")
                              .arg(quotedForMessage(t.name), span, quotedForMessage(previous->name))
                              .arg(previous->begin).arg(previous->end));
        if (t.begin > expected)
            return refuse(previous ? QStringLiteral("tensor %1: %2 leave bytes [%3, %4) unused after tensor %5")
                                         .arg(quotedForMessage(t.name), span).arg(expected).arg(t.begin)
                                         .arg(quotedForMessage(previous->name))
                                   : QStringLiteral("tensor %1: %2 leave bytes [0, %3) of the data unused")
                                         .arg(quotedForMessage(t.name), span).arg(t.begin));
        expected = t.end;
        previous = &t;
    }
    if (expected != dataSize)
        return refuse(QStringLiteral("the tensors end at byte %1 of the data, but the file holds %2 bytes of data "
                                     "(%3 unused at the end)").arg(expected).arg(dataSize).arg(dataSize - expected));
    for (int i = 0; i < int(m_tensors.size()); ++i)
        m_index.insert(m_tensors[std::size_t(i)].name, i);
    return true;
}

QStringList SafetensorsFile::names() const
{
    QStringList out;
    for (const TensorInfo &t : m_tensors)
        out << t.name;
    return out;
}

const TensorInfo *SafetensorsFile::find(const QString &name) const
{
    const auto it = m_index.constFind(name);
    return it == m_index.cend() ? nullptr : &m_tensors[std::size_t(*it)];
}

QByteArrayView SafetensorsFile::rawBytes(const TensorInfo &info) const
{
    const uchar *data = m_base + 8 + m_headerLength;
    return QByteArrayView(data + info.begin, info.end - info.begin);
}

} // namespace attn
