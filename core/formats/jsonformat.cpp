#include "formats/jsonformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QVariant>

namespace attn {
namespace {

bool isFlat(const QJsonArray &a)
{
    for (const QJsonValue &v : a)
        if (v.isArray() || v.isObject())
            return false;
    return true;
}

void writeScalar(QByteArray &out, const QJsonValue &v)
{
    if (v.isDouble()) {
        // A whole number is kept as a 64-bit integer (a seed, say): write it
        // exactly, where the double would round it beyond 2^53.
        const QVariant exact = v.toVariant();
        if (exact.typeId() == QMetaType::LongLong) {
            out += QByteArray::number(exact.toLongLong());
            return;
        }
        const double d = v.toDouble();
        // Same as QJsonDocument: shortest text that round-trips exactly.
        out += QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
        return;
    }
    // Strings, booleans and null: let Qt do the escaping.
    QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    out += text.mid(1, text.size() - 2);
}

void write(QByteArray &out, const QJsonValue &v, int depth)
{
    const QByteArray indent(depth * 2, ' ');
    const QByteArray inner((depth + 1) * 2, ' ');
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        if (o.isEmpty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        for (auto it = o.begin(); it != o.end(); ++it) {
            out += inner;
            writeScalar(out, it.key());
            out += ": ";
            write(out, it.value(), depth + 1);
            out += std::next(it) == o.end() ? "\n" : ",\n";
        }
        out += indent + '}';
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        if (isFlat(a)) {
            out += '[';
            for (qsizetype i = 0; i < a.size(); ++i) {
                if (i)
                    out += ", ";
                writeScalar(out, a[i]);
            }
            out += ']';
            return;
        }
        out += "[\n";
        for (qsizetype i = 0; i < a.size(); ++i) {
            out += inner;
            write(out, a[i], depth + 1);
            out += i + 1 == a.size() ? "\n" : ",\n";
        }
        out += indent + ']';
    } else {
        writeScalar(out, v);
    }
}

} // namespace

QByteArray formatJson(const QJsonValue &value)
{
    QByteArray out;
    write(out, value, 0);
    out += '\n';
    return out;
}

} // namespace attn
