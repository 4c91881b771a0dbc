#include "io/modelstores.h"

#include "io/huggingfacecache.h"
#include "io/modelfolder.h"
#include "io/ollamastore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QUrl>
#include <algorithm>
#include <functional>

namespace attn {
namespace {

// A store of more models than this is not one a person made; the rest is left out.
constexpr int kMaxModelsPerStore = 10000;
// The GGUF files looked at inside one cache snapshot (quantisations of one repository).
constexpr int kMaxFilesPerSnapshot = 1000;
// llama.cpp's sidecars and manifests are a few hundred bytes.
constexpr qint64 kMaxSidecarBytes = 64 * 1024;

const QDir::Filters kFolders = QDir::Dirs | QDir::NoDotAndDotDot;

// gguf-split's names: PREFIX-00001-of-00003.gguf (llama.cpp's llama_split_path).
const QRegularExpression &splitName()
{
    static const QRegularExpression form(QRegularExpression::anchoredPattern(QStringLiteral("(.+)-(\\d{5})-of-(\\d{5})\\.gguf")),
                                         QRegularExpression::CaseInsensitiveOption);
    return form;
}

// A vision model's projector sits beside its language model; it is no model of its own.
bool isProjector(const QString &fileName) { return fileName.startsWith(QLatin1String("mmproj"), Qt::CaseInsensitive); }

void sortByName(QList<StoredModel> &models)
{
    std::stable_sort(models.begin(), models.end(), [](const StoredModel &a, const StoredModel &b) {
        return a.name.compare(b.name, Qt::CaseInsensitive) < 0;
    });
}

// The models among GGUF files: each file one model, but a projector none
// and the parts of a split model one (named by its first part), whose
// missing parts make it one that cannot be used.
QList<StoredModel> ggufModels(QStringList paths, ModelStore store, const std::function<QString(const QString &)> &nameOf)
{
    QList<StoredModel> out;
    paths.sort();
    struct Split
    {
        int count = 0;
        QString prefix;
        QMap<int, QString> parts;
    };
    QMap<QString, Split> splits;
    for (const QString &path : paths) {
        const QFileInfo info(path);
        if (isProjector(info.fileName()))
            continue;
        const QRegularExpressionMatch m = splitName().match(info.fileName());
        const int part = m.hasMatch() ? m.captured(2).toInt() : 0;
        const int count = m.hasMatch() ? m.captured(3).toInt() : 0;
        if (part >= 1 && part <= count && count > 1) {
            Split &s = splits[info.path() + QLatin1Char('/') + m.captured(1) + QLatin1Char('/') + m.captured(3)];
            s.count = count;
            s.prefix = info.path() + QLatin1Char('/') + m.captured(1);
            s.parts.insert(part, path);
            continue;
        }
        StoredModel model;
        model.store = store;
        model.name = nameOf(path);
        model.openWith = path;
        model.gguf = {path};
        out.append(model);
    }
    for (const Split &s : splits) {
        const auto partName = [&](int k) {
            return QStringLiteral("%1-%2-of-%3.gguf").arg(QFileInfo(s.prefix).fileName())
                .arg(k, 5, 10, QLatin1Char('0')).arg(s.count, 5, 10, QLatin1Char('0'));
        };
        StoredModel model;
        model.store = store;
        const QString first = s.parts.first();
        model.name = nameOf(first);
        model.openWith = first;
        for (int k = 1; k <= s.count; ++k) {
            if (!s.parts.contains(k)) {
                model.problem = QStringLiteral("part %1 of %2 is missing (%3)").arg(k).arg(s.count).arg(partName(k));
                break;
            }
            model.gguf << s.parts.value(k);
        }
        if (!model.problem.isEmpty())
            model.gguf = {first};
        out.append(model);
    }
    return out;
}

// "OWNER/REPO/PATH" of a Hugging Face download address
// (https://huggingface.co/OWNER/REPO/resolve/REVISION/PATH); empty for any other.
QString repositoryFileOf(const QString &address)
{
    const QUrl url(address);
    if (!url.isValid() || !url.host().endsWith(QLatin1String("huggingface.co"), Qt::CaseInsensitive))
        return {};
    const QStringList parts = url.path().split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.size() < 5 || parts[2] != QLatin1String("resolve"))
        return {};
    return (parts.mid(0, 2) + parts.mid(4)).join(QLatin1Char('/'));
}

QJsonObject smallJsonObject(const QString &path)
{
    QFile file(path);
    if (file.size() > kMaxSidecarBytes || !file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.read(kMaxSidecarBytes)).object();
}

} // namespace

QString modelStoreName(ModelStore store)
{
    switch (store) {
    case ModelStore::HuggingFace: return QStringLiteral("Hugging Face");
    case ModelStore::Ollama: return QStringLiteral("Ollama");
    case ModelStore::LmStudio: return QStringLiteral("LM Studio");
    case ModelStore::LlamaCpp: return QStringLiteral("llama.cpp");
    case ModelStore::TrainedHere: return QStringLiteral("Trained here");
    }
    return {};
}

ModelStoreRoots modelStoreRootsFromEnvironment()
{
    ModelStoreRoots roots;
    roots.huggingFace = {huggingFaceHubCache()};
    roots.ollama = ollamaStoreRoots();
    roots.lmStudio = {QDir::homePath() + QStringLiteral("/.lmstudio/models"),
                      QDir::homePath() + QStringLiteral("/.cache/lm-studio/models")};
    if (const QString cache = qEnvironmentVariable("LLAMA_CACHE"); !cache.isEmpty())
        roots.llamaCpp = {cache};
    else if (const QString xdg = qEnvironmentVariable("XDG_CACHE_HOME"); !xdg.isEmpty())
        roots.llamaCpp = {xdg + QStringLiteral("/llama.cpp")};
    else
        roots.llamaCpp = {QDir::homePath() + QStringLiteral("/.cache/llama.cpp")};
    return roots;
}

QList<StoredModel> findHuggingFaceModels(const QString &hub)
{
    QList<StoredModel> out;
    const QDir dir(hub);
    const QLatin1String prefix("models--");
    QStringList entries = dir.entryList({prefix + QLatin1Char('*')}, kFolders, QDir::Name);
    entries = entries.mid(0, kMaxModelsPerStore);
    for (const QString &entryName : entries) {
        StoredModel model;
        model.store = ModelStore::HuggingFace;
        // Hub repository names cannot contain "--": the first one separates the organisation.
        model.name = entryName.mid(prefix.size());
        if (const qsizetype split = model.name.indexOf(QLatin1String("--")); split >= 0)
            model.name = model.name.left(split) + QLatin1Char('/') + model.name.mid(split + 2);
        const QString entry = dir.absoluteFilePath(entryName);
        model.openWith = entry;
        QString why;
        const std::optional<QString> snapshot = cacheEntrySnapshot(entry, &why);
        if (snapshot && !QFileInfo::exists(*snapshot + QStringLiteral("/config.json"))) {
            // A repository of GGUF files (llama.cpp's -hf downloads land here too): each one a model.
            QStringList files;
            QDirIterator it(*snapshot, {QStringLiteral("*.gguf")}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext() && files.size() < kMaxFilesPerSnapshot)
                files << it.next();
            const QString base = *snapshot + QLatin1Char('/');
            const QString repo = model.name;
            const QList<StoredModel> found = ggufModels(files, ModelStore::HuggingFace, [&](const QString &path) {
                return repo + QLatin1Char('/') + path.mid(base.size());
            });
            if (!found.isEmpty()) {
                out += found;
                continue;
            }
        }
        if (const std::optional<ModelFiles> files = resolveModelFolder(entry, &why))
            model.folder = files->folder;
        else
            model.problem = why;
        out.append(model);
    }
    sortByName(out);
    return out;
}

QList<StoredModel> findOllamaModels(const QString &root)
{
    QList<StoredModel> out;
    for (const OllamaManifestFile &manifest : ollamaManifestFiles(root)) {
        StoredModel model;
        model.store = ModelStore::Ollama;
        model.name = manifest.name.shown();
        model.openWith = QStringLiteral("ollama:") + model.name;
        QString why;
        if (const std::optional<OllamaManifest> m = readOllamaManifest(manifest.path, root, &why))
            model.gguf = {m->modelBlob};
        else
            model.problem = why;
        out.append(model);
        if (out.size() >= kMaxModelsPerStore)
            break;
    }
    return out; // ollamaManifestFiles sorts by shown name
}

QList<StoredModel> findLmStudioModels(const QString &models)
{
    // PUBLISHER/REPO/FILE.gguf, the one depth LM Studio reads.
    QStringList files;
    const QDir root(models);
    for (const QString &publisher : root.entryList(kFolders, QDir::Name)) {
        const QDir publisherDir(root.filePath(publisher));
        for (const QString &repo : publisherDir.entryList(kFolders, QDir::Name)) {
            const QDir repoDir(publisherDir.filePath(repo));
            for (const QString &file : repoDir.entryList({QStringLiteral("*.gguf")}, QDir::Files, QDir::Name))
                if (files.size() < kMaxModelsPerStore)
                    files << repoDir.absoluteFilePath(file);
        }
    }
    const QString base = root.absolutePath() + QLatin1Char('/');
    QList<StoredModel> out = ggufModels(files, ModelStore::LmStudio, [&](const QString &path) { return path.mid(base.size()); });
    sortByName(out);
    return out;
}

QList<StoredModel> findLlamaCppModels(const QString &cache)
{
    const QDir dir(cache);
    // What llama.cpp recorded about each download names it best: a manifest
    // (manifest=OWNER=REPO=TAG.json naming the file OWNER_REPO_FILE), else the
    // file's .json sidecar's address; else the file's own name stands.
    QHash<QString, QString> names;
    for (const QString &manifest : dir.entryList({QStringLiteral("manifest=*.json")}, QDir::Files)) {
        const QStringList parts = manifest.chopped(5).split(QLatin1Char('='));
        const QString file = smallJsonObject(dir.filePath(manifest)).value(QLatin1String("ggufFile")).toObject()
                                 .value(QLatin1String("rfilename")).toString();
        if (parts.size() != 4 || file.isEmpty())
            continue;
        const QString repo = parts[1] + QLatin1Char('/') + parts[2];
        names.insert(QString(parts[1] + QLatin1Char('_') + parts[2] + QLatin1Char('_') + file).replace(QLatin1Char('/'), QLatin1Char('_')),
                     repo + QLatin1Char('/') + file);
    }
    QStringList files;
    for (const QString &file : dir.entryList({QStringLiteral("*.gguf")}, QDir::Files, QDir::Name).mid(0, kMaxModelsPerStore))
        files << dir.absoluteFilePath(file);
    QList<StoredModel> out = ggufModels(files, ModelStore::LlamaCpp, [&](const QString &path) {
        const QString file = QFileInfo(path).fileName();
        if (names.contains(file))
            return names.value(file);
        const QString fromUrl = repositoryFileOf(smallJsonObject(path + QStringLiteral(".json")).value(QLatin1String("url")).toString());
        return fromUrl.isEmpty() ? file : fromUrl;
    });
    sortByName(out);
    return out;
}

QList<StoredModel> findStoredModels(const ModelStoreRoots &roots, const CancelFlag *cancel)
{
    QList<StoredModel> out;
    const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto each = [&](const QStringList &folders, const std::function<QList<StoredModel>(const QString &)> &find) {
        for (const QString &folder : folders) {
            if (cancelled())
                return;
            // A store that is not there, or not readable, is no store.
            const QFileInfo info(folder);
            if (info.isDir() && info.isReadable() && info.isExecutable())
                out += find(QDir::cleanPath(info.absoluteFilePath()));
        }
    };
    each(roots.huggingFace, findHuggingFaceModels);
    each(roots.ollama, findOllamaModels);
    each(roots.lmStudio, findLmStudioModels);
    each(roots.llamaCpp, findLlamaCppModels);
    for (const QString &folder : roots.trainedHere) {
        StoredModel model;
        model.store = ModelStore::TrainedHere;
        model.name = QFileInfo(folder).fileName();
        model.openWith = folder;
        QString why;
        if (const std::optional<ModelFiles> files = resolveModelFolder(folder, &why))
            model.folder = files->folder;
        else
            model.problem = why;
        out.append(model);
    }
    return out;
}

} // namespace attn
