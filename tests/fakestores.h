#pragma once
// The fake model stores of tests/data/stores/stores.json (make_stores.py),
// laid out under a temporary folder: each file of a store written from its
// "json", its exact "text", or a "copy" of a file of the repository.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace fakestores {

inline QJsonObject all()
{
    QFile f(QStringLiteral(ATTN_TEST_DATA "/stores/stores.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read stores.json");
    return QJsonDocument::fromJson(f.readAll()).object();
}

// Lays out store `which` ("ollama", "lmstudio", "llamacpp") under `base`;
// returns the store's root, or empty when a file could not be written.
inline QString layOut(const QString &which, const QString &base)
{
    const QJsonObject store = all().value(which).toObject();
    const QString root = base + QLatin1Char('/') + store.value(QLatin1String("root")).toString();
    for (const QJsonValue &v : store.value(QLatin1String("files")).toArray()) {
        const QJsonObject file = v.toObject();
        const QString path = root + QLatin1Char('/') + file.value(QLatin1String("path")).toString();
        if (!QDir().mkpath(QFileInfo(path).path()))
            return {};
        QByteArray bytes;
        if (file.contains(QLatin1String("copy"))) {
            QFile from(QStringLiteral(ATTN_TEST_DATA "/../../") + file.value(QLatin1String("copy")).toString());
            if (!from.open(QIODevice::ReadOnly))
                return {};
            bytes = from.readAll();
        } else if (file.contains(QLatin1String("text"))) {
            bytes = file.value(QLatin1String("text")).toString().toUtf8();
        } else {
            const QJsonValue json = file.value(QLatin1String("json"));
            bytes = json.isObject() ? QJsonDocument(json.toObject()).toJson() : QJsonDocument(json.toArray()).toJson();
        }
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size())
            return {};
    }
    return root;
}

} // namespace fakestores
