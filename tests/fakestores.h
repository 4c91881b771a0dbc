#pragma once
// The fake model stores of tests/data/stores/stores.json (make_stores.py),
// laid out under a temporary folder: each file of a store written from its
// "json", its exact "text", or a "copy" of a file of the repository, or made
// a symbolic "link" to a relative target (a cache snapshot's files).

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace fakestores {

inline QJsonObject all()
{
    QFile f(QStringLiteral(ATTN_TEST_DATA "/stores/stores.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read stores.json");
    return QJsonDocument::fromJson(f.readAll()).object();
}

// Lays out store `which` ("ollama", "lmstudio", "llamacpp", "huggingface") under `base`;
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
        if (file.contains(QLatin1String("link"))) {
            if (!QFile::link(file.value(QLatin1String("link")).toString(), path))
                return {};
            continue;
        }
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

// Where each store is when nothing in the environment moves it, under a home folder.
inline QList<QPair<QString, QString>> homePlaces()
{
    return {{QStringLiteral("huggingface"), QStringLiteral(".cache/huggingface/hub")},
            {QStringLiteral("ollama"), QStringLiteral(".ollama/models")},
            {QStringLiteral("lmstudio"), QStringLiteral(".lmstudio/models")},
            {QStringLiteral("llamacpp"), QStringLiteral(".cache/llama.cpp")}};
}

// Lays out every store of stores.json where the programs that fill them keep
// it under the home folder `home` (homePlaces()); false when a file could not
// be written. Links inside a store are relative, so they survive the move.
inline bool layOutHome(const QString &home)
{
    const QString staging = home + QStringLiteral("/.staging");
    for (const auto &[which, place] : homePlaces()) {
        const QString root = layOut(which, staging);
        const QString target = home + QLatin1Char('/') + place;
        if (root.isEmpty() || !QDir().mkpath(QFileInfo(target).path()) || !QDir().rename(root, target))
            return false;
    }
    return QDir(staging).removeRecursively();
}

} // namespace fakestores
