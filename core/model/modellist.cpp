#include "model/modellist.h"

#include "io/gguffile.h"
#include "io/ggufsource.h"
#include "io/modelfolder.h"
#include "io/safetensorsfile.h"
#include "io/safetensorssource.h"
#include "io/shardedcheckpoint.h"
#include "model/modelloader.h"
#include "model/openmodel.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <algorithm>
#include <filesystem>

namespace attn {
namespace {

// The bytes of a folder's files, each file once however many links reach it
// (a cache snapshot's files are links into blobs/).
qint64 folderBytes(const QString &folder)
{
    qint64 bytes = 0;
    QSet<QString> seen;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info(it.next());
        const QString target = info.canonicalFilePath();
        if (!target.isEmpty() && !seen.contains(target)) {
            seen.insert(target);
            bytes += info.size();
        }
    }
    return bytes;
}

void describeGguf(const StoredModel &model, ModelListEntry &e)
{
    e.path = model.gguf.first();
    e.sizeOnDisk = 0;
    for (const QString &part : model.gguf)
        e.sizeOnDisk += QFileInfo(part).size();
    std::vector<GgufTensor> tensors;
    qint64 elements = 0;
    bool complete = model.problem.isEmpty();
    QString architecture;
    for (qsizetype i = 0; i < model.gguf.size(); ++i) {
        QString why;
        const std::optional<GgufFile> file = GgufFile::open(model.gguf[i], &why);
        if (!file) {
            if (e.problem.isEmpty())
                e.problem = why;
            complete = false;
            break;
        }
        for (const GgufTensor &t : file->tensors()) {
            tensors.push_back(t);
            elements += t.elements;
        }
        if (i > 0)
            continue;
        if (const GgufValue *a = file->find(QStringLiteral("general.architecture")); a && a->type == GgufType::String)
            architecture = a->text;
        if (const GgufValue *t = file->find(QStringLiteral("general.file_type")); t && t->isInteger())
            e.fileType = ggufFileTypeName(t->integer);
        // The architecture's own keys, checked as opening checks them (a split model's are its first part's).
        if (model.gguf.size() == 1) {
            if (const std::optional<ModelConfig> config = readGgufConfig(*file, &why))
                e.family = config->modelType;
            else if (e.problem.isEmpty())
                e.problem = why;
        }
    }
    if (e.family.isEmpty())
        e.family = architecture;
    if (complete) {
        e.parameters = double(elements);
        e.format = QStringLiteral("gguf-") + ggufStoredType(tensors);
    }
    e.parts = int(model.gguf.size());
    if (e.problem.isEmpty() && e.parts > 1)
        e.problem = QStringLiteral("%1: a model split into %2 files, which this program does not open (it opens "
                                   "GGUF models of one file)").arg(QFileInfo(e.path).fileName()).arg(e.parts);
}

void describeFolder(const QString &folder, ModelListEntry &e)
{
    e.path = folder;
    QString why;
    const std::optional<ModelFiles> files = resolveModelFolder(folder, &why);
    if (!files) {
        e.problem = why;
        return;
    }
    e.sizeOnDisk = folderBytes(files->folder);
    if (const std::optional<ModelConfig> config = readModelConfig(*files, &why)) {
        e.family = config->modelType;
        e.parameters = config->parameterCount();
    } else {
        e.problem = why;
    }
    std::optional<QString> stored;
    if (files->weights.endsWith(shardIndexName())) {
        if (const std::optional<ShardedCheckpoint> shards = openShardedCheckpoint(files->folder, &why))
            stored = SafetensorsSource(*shards, shardIndexName()).storedType();
    } else if (const std::optional<SafetensorsFile> weights = SafetensorsFile::open(files->weights, &why)) {
        stored = SafetensorsSource(*weights).storedType();
    }
    if (stored)
        e.format = QStringLiteral("safetensors-") + *stored;
    else if (e.problem.isEmpty())
        e.problem = why;
}

bool sameFile(const QString &a, const QString &b)
{
    std::error_code error;
    return std::filesystem::equivalent(std::filesystem::path(QFile::encodeName(a).toStdString()),
                                       std::filesystem::path(QFile::encodeName(b).toStdString()), error)
           && !error;
}

} // namespace

QString ggufFileTypeName(qint64 fileType)
{
    // llama.h's enum llama_ftype (LLAMA_FTYPE_MOSTLY_* without the prefix); 5, 6 and 33-35 were removed.
    static const char *const names[] = {
        "F32", "F16", "Q4_0", "Q4_1", "Q4_1_SOME_F16", nullptr, nullptr, "Q8_0", "Q5_0", "Q5_1",
        "Q2_K", "Q3_K_S", "Q3_K_M", "Q3_K_L", "Q4_K_S", "Q4_K_M", "Q5_K_S", "Q5_K_M", "Q6_K", "IQ2_XXS",
        "IQ2_XS", "Q2_K_S", "IQ3_XS", "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S", "IQ3_M", "IQ2_S", "IQ2_M",
        "IQ4_XS", "IQ1_M", "BF16", nullptr, nullptr, nullptr, "TQ1_0", "TQ2_0", "MXFP4_MOE",
    };
    if (fileType < 0 || fileType >= qint64(std::size(names)) || !names[fileType])
        return {};
    return QLatin1String(names[fileType]);
}

ModelListEntry describeStoredModel(const StoredModel &model)
{
    ModelListEntry e;
    e.store = model.store;
    e.name = model.name;
    e.openWith = model.openWith;
    e.problem = model.problem;
    if (!model.gguf.isEmpty())
        describeGguf(model, e);
    else if (!model.folder.isEmpty())
        describeFolder(model.folder, e);
    else
        e.path = model.openWith;
    return e;
}

QList<ModelListEntry> mergeSameFiles(const QList<ModelListEntry> &entries)
{
    // Files of one size only can be one file: each is compared with those of its size.
    QHash<qint64, QList<int>> bySize;
    for (int i = 0; i < entries.size(); ++i) {
        const QFileInfo info(entries[i].path);
        if (info.exists())
            bySize[info.isDir() ? -1 : info.size()].append(i);
    }
    std::vector<int> groupOf(std::size_t(entries.size()));
    for (int i = 0; i < entries.size(); ++i)
        groupOf[std::size_t(i)] = i;
    for (const QList<int> &same : std::as_const(bySize))
        for (qsizetype a = 0; a < same.size(); ++a)
            for (qsizetype b = 0; b < a; ++b)
                if (groupOf[std::size_t(same[b])] == same[b] && sameFile(entries[same[a]].path, entries[same[b]].path)) {
                    groupOf[std::size_t(same[a])] = same[b];
                    break;
                }
    QHash<int, QList<int>> members;
    for (int i = 0; i < entries.size(); ++i)
        members[groupOf[std::size_t(i)]].append(i);
    QList<ModelListEntry> out;
    for (int i = 0; i < entries.size(); ++i) {
        if (groupOf[std::size_t(i)] != i)
            continue;
        QList<int> group = members.value(i);
        // The file itself before a link to it, then the stores in their order, then names.
        std::stable_sort(group.begin(), group.end(), [&](int a, int b) {
            const bool linkA = QFileInfo(entries[a].path).isSymLink(), linkB = QFileInfo(entries[b].path).isSymLink();
            if (linkA != linkB)
                return !linkA;
            if (entries[a].store != entries[b].store)
                return entries[a].store < entries[b].store;
            return entries[a].name.compare(entries[b].name, Qt::CaseInsensitive) < 0;
        });
        ModelListEntry kept = entries[group.first()];
        for (qsizetype k = 1; k < group.size(); ++k)
            kept.alsoAt << modelStoreName(entries[group[k]].store) + QLatin1Char(' ') + entries[group[k]].name;
        out.append(kept);
    }
    return out;
}

QList<ModelListEntry> listModels(const ModelStoreRoots &roots, const CancelFlag *cancel)
{
    QList<ModelListEntry> described;
    for (const StoredModel &model : findStoredModels(roots, cancel)) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        described.append(describeStoredModel(model));
    }
    QList<ModelListEntry> merged = mergeSameFiles(described);
    std::stable_sort(merged.begin(), merged.end(), [](const ModelListEntry &a, const ModelListEntry &b) {
        if (a.store != b.store)
            return a.store < b.store;
        return a.name.compare(b.name, Qt::CaseInsensitive) < 0;
    });
    return merged;
}

} // namespace attn
