#pragma once
// What the command-line tests of model folders share (tst_cli_model,
// tst_cli_modelexport): the program run as a separate process with no
// display, the tiny checkpoints of tests/data/models made into folders, and
// the command lines they are given.

#include "headlessrun.h"
#include "modelfixtures.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSize>
#include <QTemporaryDir>

namespace climodel {

using Run = HeadlessRun;

inline Run runApp(const QStringList &arguments) { return runHeadless(QStringLiteral(ATTN_APP_PATH), arguments); }

inline const char *const kGpt2Text = "Hello world!<|endoftext|> the the end";

// A model folder: a fixture checkpoint (config.json + model.safetensors)
// with the tiny tokenizer of its family next to it.
inline QString makeModel(const QTemporaryDir &dir, const QString &fixture)
{
    const QString family = fixture.section('-', 0, 0);
    const QString folder = dir.filePath(fixture);
    if (!QDir().mkpath(folder) || !fixtures::copyInto(fixtures::modelDir(fixture.toLatin1().constData()), folder)
        || !fixtures::copyInto(QStringLiteral(ATTN_TEST_DATA "/models/cli/%1-tokenizer").arg(family), folder))
        qFatal("cannot make the model folder");
    return folder;
}

inline QJsonObject parse(const Run &run)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

inline QStringList computeArgs(const QString &model, const QString &text, const QStringList &more = {})
{
    return QStringList{QStringLiteral("compute"), QStringLiteral("--model"), model, QStringLiteral("--text"), text}
        + more;
}

// Exactly equal numbers: the same weights, bit for bit, read back.
inline bool sameLayer(const QJsonValue &a, const QJsonValue &b) { return a == b; }

inline QStringList exportArgs(const QString &model, const QString &out, const QStringList &more = {})
{
    return QStringList{QStringLiteral("export"), QStringLiteral("--model"), model, QStringLiteral("--text"),
                       QLatin1String(kGpt2Text), QStringLiteral("-o"), out}
        + more;
}

// A PNG's size from its IHDR chunk (the first, at byte 16): no QtGui needed.
inline QSize pngSize(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = f.read(24);
    if (head.size() < 24 || !head.startsWith("\x89PNG\r\n\x1a\n") || head.mid(12, 4) != "IHDR")
        return {};
    const auto be32 = [&head](int at) {
        return int((uchar(head[at]) << 24) | (uchar(head[at + 1]) << 16) | (uchar(head[at + 2]) << 8) | uchar(head[at + 3]));
    };
    return {be32(16), be32(20)};
}

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace climodel
