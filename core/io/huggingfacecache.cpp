#include "io/huggingfacecache.h"

#include "io/modelfolder.h"

#include <QDir>
#include <algorithm>

namespace attn {

QString huggingFaceHubCache()
{
    const auto env = [](const char *name) { return qEnvironmentVariable(name); };
    if (!env("HF_HUB_CACHE").isEmpty())
        return env("HF_HUB_CACHE");
    if (!env("HUGGINGFACE_HUB_CACHE").isEmpty()) // the older name, still read by huggingface_hub
        return env("HUGGINGFACE_HUB_CACHE");
    if (!env("HF_HOME").isEmpty())
        return QDir(env("HF_HOME")).filePath(QStringLiteral("hub"));
    if (!env("XDG_CACHE_HOME").isEmpty())
        return QDir(env("XDG_CACHE_HOME")).filePath(QStringLiteral("huggingface/hub"));
    return QDir::home().filePath(QStringLiteral(".cache/huggingface/hub"));
}

QList<CachedModel> listCachedModels(const QString &hubFolder)
{
    QList<CachedModel> models;
    const QDir hub(hubFolder);
    const QLatin1String prefix("models--");
    for (const QString &entry : hub.entryList({prefix + QLatin1Char('*')}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        CachedModel model;
        // Hub repository names cannot contain "--", so the first one separates the organisation.
        model.name = entry.mid(prefix.size());
        const qsizetype split = model.name.indexOf(QLatin1String("--"));
        if (split >= 0)
            model.name = model.name.left(split) + QLatin1Char('/') + model.name.mid(split + 2);
        model.path = hub.absoluteFilePath(entry);
        model.usable = bool(resolveModelFolder(model.path, &model.problem));
        if (model.usable)
            model.problem.clear();
        models.append(model);
    }
    std::sort(models.begin(), models.end(), [](const CachedModel &a, const CachedModel &b) {
        return a.name.compare(b.name, Qt::CaseInsensitive) < 0;
    });
    return models;
}

} // namespace attn
