#include "io/modelfolder.h"

#include "io/ollamastore.h"
#include "io/shardedcheckpoint.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace attn {
namespace {

// What a file of the model is: absent, a usable file, or a reason it is not.
struct Lookup
{
    QString path;    // set when usable
    QString problem; // set when present but unusable
};

Lookup lookUp(const QDir &dir, const QString &shown, const QString &name)
{
    const QFileInfo info(dir.filePath(name));
    if (info.isSymLink() && !info.exists())
        return {{}, QStringLiteral("%1: %2 is a symbolic link to %3, which is missing (an unfinished download?)")
                        .arg(shown, name, info.symLinkTarget())};
    if (!info.exists())
        return {};
    if (info.isDir())
        return {{}, QStringLiteral("%1: %2 is a folder, not a file").arg(shown, name)};
    if (!info.isReadable())
        return {{}, QStringLiteral("%1: %2 cannot be read (permissions)").arg(shown, name)};
    return {info.absoluteFilePath(), {}};
}

// A cache entry's refs/main: the commit hash naming the snapshot folder. It
// becomes part of a path, so anything but a plain name is refused.
std::optional<QString> snapshotOf(const QDir &entry, const QString &shown, QString *error)
{
    QFile ref(entry.filePath(QStringLiteral("refs/main")));
    if (ref.open(QIODevice::ReadOnly)) {
        const QString hash = QString::fromUtf8(ref.read(256)).trimmed();
        static const QRegularExpression plainName(QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z0-9_.-]{1,100}")));
        if (!plainName.match(hash).hasMatch() || hash == QLatin1String(".") || hash == QLatin1String("..")) {
            *error = QStringLiteral("%1: refs/main does not hold a snapshot name").arg(shown);
            return std::nullopt;
        }
        if (!QFileInfo(entry.filePath(QStringLiteral("snapshots/") + hash)).isDir()) {
            *error = QStringLiteral("%1: refs/main names snapshot %2, which is missing").arg(shown, hash);
            return std::nullopt;
        }
        return entry.filePath(QStringLiteral("snapshots/") + hash);
    }
    // No refs/main (a download of one revision only): a single snapshot is unambiguous.
    const QStringList snapshots = QDir(entry.filePath(QStringLiteral("snapshots"))).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    if (snapshots.size() == 1)
        return entry.filePath(QStringLiteral("snapshots/") + snapshots.first());
    *error = snapshots.isEmpty()
                 ? QStringLiteral("%1: no refs/main and no snapshot in snapshots/").arg(shown)
                 : QStringLiteral("%1: no refs/main, and snapshots/ holds %2 snapshots: open one of them").arg(shown).arg(snapshots.size());
    return std::nullopt;
}

} // namespace

std::optional<ModelFiles> resolveModelFolder(const QString &path, QString *error)
{
    QString shown = QDir::toNativeSeparators(QDir::cleanPath(path));
    QFileInfo info(path);
    if (!info.exists()) {
        *error = QStringLiteral("%1: no such folder").arg(shown);
        return std::nullopt;
    }
    if (!info.isDir()) {
        *error = QStringLiteral("%1: not a folder").arg(shown);
        return std::nullopt;
    }
    QDir dir(info.absoluteFilePath());
    // …/models--ORG--NAME/snapshots itself: the entry it belongs to.
    if (dir.dirName() == QLatin1String("snapshots") && QFileInfo(dir.filePath(QStringLiteral("../refs"))).isDir()) {
        dir.cdUp();
        shown = QDir::toNativeSeparators(dir.path());
    }
    const bool cacheEntry = QFileInfo(dir.filePath(QStringLiteral("snapshots"))).isDir()
                            && !QFileInfo::exists(dir.filePath(QStringLiteral("config.json")));
    if (cacheEntry) {
        const std::optional<QString> snapshot = snapshotOf(dir, shown, error);
        if (!snapshot)
            return std::nullopt;
        dir.setPath(*snapshot);
        shown = QDir::toNativeSeparators(QDir::cleanPath(*snapshot));
    }

    ModelFiles files;
    files.folder = dir.absolutePath();
    const auto find = [&](const QString &name, QString *into) {
        const Lookup found = lookUp(dir, shown, name);
        if (!found.problem.isEmpty()) {
            *error = found.problem;
            return false;
        }
        *into = found.path;
        return true;
    };
    if (!find(QStringLiteral("config.json"), &files.config) || !find(QStringLiteral("model.safetensors"), &files.weights)
        || !find(QStringLiteral("vocab.json"), &files.vocabJson) || !find(QStringLiteral("merges.txt"), &files.merges)
        || !find(QStringLiteral("tokenizer.json"), &files.tokenizerJson) || !find(QStringLiteral("vocab.txt"), &files.vocabTxt)
        || !find(QStringLiteral("tokenizer_config.json"), &files.tokenizerConfig))
        return std::nullopt;
    if (files.config.isEmpty()) {
        *error = QStringLiteral("%1: no config.json").arg(shown);
        return std::nullopt;
    }
    // Sharded: the index stands for the weights (its shards are checked by the loader).
    if (files.weights.isEmpty() && !find(shardIndexName(), &files.weights))
        return std::nullopt;
    if (files.weights.isEmpty()) {
        const auto has = [&](const char *name) { return QFileInfo::exists(dir.filePath(QLatin1String(name))); };
        if (has("pytorch_model.bin") || has("pytorch_model.bin.index.json"))
            *error = QStringLiteral("%1: no model.safetensors (pytorch_model.bin is not supported; convert it to safetensors)").arg(shown);
        else if (has("tf_model.h5") || has("flax_model.msgpack"))
            *error = QStringLiteral("%1: no model.safetensors (TensorFlow and Flax weights are not supported; convert "
                                    "them to safetensors)").arg(shown);
        else
            *error = QStringLiteral("%1: no model.safetensors").arg(shown);
        return std::nullopt;
    }
    return files;
}

std::optional<QString> cacheEntrySnapshot(const QString &entry, QString *error)
{
    return snapshotOf(QDir(entry), QDir::toNativeSeparators(QDir::cleanPath(entry)), error);
}

bool isGgufFile(const QString &path)
{
    if (!QFileInfo(path).isFile())
        return false;
    if (path.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive))
        return true;
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(4) == "GGUF";
}

std::optional<ModelFiles> resolveModel(const QString &model, QString *error)
{
    QString gguf;
    if (isOllamaModelName(model)) {
        const std::optional<QString> blob = resolveOllamaModel(model, error);
        if (!blob)
            return std::nullopt;
        gguf = *blob;
    } else if (QFileInfo(model).isFile()) {
        if (!isGgufFile(model)) {
            *error = QStringLiteral("%1: not a model folder or a GGUF file").arg(QDir::toNativeSeparators(QDir::cleanPath(model)));
            return std::nullopt;
        }
        gguf = model;
    } else {
        return resolveModelFolder(model, error);
    }
    ModelFiles files;
    const QFileInfo info(gguf);
    files.gguf = info.absoluteFilePath();
    files.folder = info.absolutePath();
    return files;
}

} // namespace attn
