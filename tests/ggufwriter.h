#pragma once
// Writes small GGUF files for tests, from ggml's docs/gguf.md (version 3,
// little-endian, alignment 32): metadata of any type, and F32 tensors. Not
// the reader's code: a test that builds its input here checks the reader
// against the specification, not against itself.

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QtEndian>
#include <cstring>
#include <vector>

class GgufWriter
{
public:
    enum Type : quint32 { U8 = 0, I8 = 1, U16 = 2, I16 = 3, U32 = 4, I32 = 5, F32 = 6, Bool = 7, Str = 8, Arr = 9,
                          U64 = 10, I64 = 11, F64 = 12 };

    GgufWriter &u32(const QString &key, quint32 v) { return scalar(key, U32, le(v)); }
    GgufWriter &i32(const QString &key, qint32 v) { return scalar(key, I32, le(v)); }
    GgufWriter &f32(const QString &key, float v) { return scalar(key, F32, le(v)); }
    GgufWriter &boolean(const QString &key, bool v) { return scalar(key, Bool, QByteArray(1, v ? '\1' : '\0')); }
    GgufWriter &str(const QString &key, const QString &v) { return scalar(key, Str, string(v)); }
    GgufWriter &strings(const QString &key, const QStringList &v)
    {
        QByteArray body;
        for (const QString &s : v)
            body += string(s);
        return array(key, Str, v.size(), body);
    }
    GgufWriter &i32s(const QString &key, const std::vector<qint32> &v)
    {
        QByteArray body;
        for (const qint32 x : v)
            body += le(x);
        return array(key, I32, qint64(v.size()), body);
    }
    GgufWriter &f32s(const QString &key, const std::vector<float> &v)
    {
        QByteArray body;
        for (const float x : v)
            body += le(x);
        return array(key, F32, qint64(v.size()), body);
    }
    // A tensor of F32 values; `dims` as GGUF lists them (ne[0] first).
    GgufWriter &tensor(const QString &name, const std::vector<qint64> &dims, const std::vector<float> &values)
    {
        m_tensors.push_back({name, dims, values});
        return *this;
    }

    QByteArray bytes() const
    {
        QByteArray out("GGUF");
        out += le(quint32(3)) + le(quint64(m_tensors.size())) + le(quint64(m_count));
        out += m_kv;
        QByteArray data;
        for (const Tensor &t : m_tensors) {
            out += string(t.name) + le(quint32(t.dims.size()));
            for (const qint64 d : t.dims)
                out += le(quint64(d));
            out += le(quint32(0)) + le(quint64(data.size()));
            for (const float v : t.values)
                data += le(v);
            data += QByteArray((32 - data.size() % 32) % 32, '\0');
        }
        out += QByteArray((32 - out.size() % 32) % 32, '\0');
        return out + data;
    }

private:
    struct Tensor
    {
        QString name;
        std::vector<qint64> dims;
        std::vector<float> values;
    };
    template<typename T>
    static QByteArray le(T v)
    {
        QByteArray b(sizeof(T), '\0');
        qToLittleEndian(v, b.data());
        return b;
    }
    static QByteArray string(const QString &s)
    {
        const QByteArray utf8 = s.toUtf8();
        return le(quint64(utf8.size())) + utf8;
    }
    GgufWriter &scalar(const QString &key, Type type, const QByteArray &value)
    {
        m_kv += string(key) + le(quint32(type)) + value;
        ++m_count;
        return *this;
    }
    GgufWriter &array(const QString &key, Type element, qint64 count, const QByteArray &body)
    {
        m_kv += string(key) + le(quint32(Arr)) + le(quint32(element)) + le(quint64(count)) + body;
        ++m_count;
        return *this;
    }

    QByteArray m_kv;
    qint64 m_count = 0;
    std::vector<Tensor> m_tensors;
};
