#include "io/shardedcheckpoint.h"

#include "io/jsonduplicates.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <map>

namespace attn {
namespace {

// The shard names of the index must stay inside the folder: a plain name,
// no separator, not "." or "..".
bool isPlainFileName(const QString &name)
{
    return !name.isEmpty() && !name.contains(QLatin1Char('/')) && !name.contains(QLatin1Char('\\'))
           && name != QLatin1String(".") && name != QLatin1String("..") && !name.contains(QChar(0));
}

} // namespace

std::optional<ShardedCheckpoint> openShardedCheckpoint(const QString &folder, QString *error)
{
    const QDir dir(folder);
    const QString indexName = shardIndexName();
    const auto refuse = [&](const QString &what) {
        *error = indexName + QLatin1String(": ") + what;
        return std::nullopt;
    };
    QFile index(dir.filePath(indexName));
    if (index.size() > kMaxShardIndexBytes)
        return refuse(QStringLiteral("%1 bytes, more than an index holds (%2)").arg(index.size()).arg(kMaxShardIndexBytes));
    if (!index.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("cannot be read (%1)").arg(index.errorString()));
    const QByteArray json = index.readAll();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (doc.isNull())
        return refuse(QStringLiteral("not valid JSON: %1 at byte %2").arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return refuse(QStringLiteral("not a JSON object"));
    if (const std::optional<QStringList> dup = detail::findDuplicateKey(json)) {
        if (dup->size() == 2 && dup->at(0) == QLatin1String("weight_map"))
            return refuse(QStringLiteral("weight_map lists tensor %1 twice").arg(quotedForMessage(dup->at(1))));
        return refuse(QStringLiteral("key %1 appears twice").arg(quotedForMessage(dup->join(QLatin1Char('.')))));
    }
    const QJsonValue map = doc.object().value(QLatin1String("weight_map"));
    if (!map.isObject())
        return refuse(QStringLiteral("no \"weight_map\" object"));

    // The shards in the order of their names, each opened once.
    std::map<QString, int> shardNumbers;
    ShardedCheckpoint checkpoint;
    const QJsonObject weightMap = map.toObject();
    for (auto it = weightMap.begin(); it != weightMap.end(); ++it) {
        if (!it.value().isString())
            return refuse(QStringLiteral("weight_map %1 is not a file name").arg(quotedForMessage(it.key())));
        const QString shard = it.value().toString();
        if (!isPlainFileName(shard))
            return refuse(QStringLiteral("weight_map %1: shard %2 is not a file name in the folder")
                              .arg(quotedForMessage(it.key()), quotedForMessage(shard)));
        shardNumbers.emplace(shard, 0);
    }
    if (shardNumbers.empty())
        return refuse(QStringLiteral("weight_map lists no tensors"));
    for (auto &[shard, number] : shardNumbers) {
        const QString path = dir.filePath(shard);
        if (!QFileInfo(path).isFile())
            return refuse(QStringLiteral("shard %1 is not in %2").arg(quotedForMessage(shard), QDir::toNativeSeparators(folder)));
        std::optional<SafetensorsFile> file = SafetensorsFile::open(path, error);
        if (!file)
            return std::nullopt;
        number = int(checkpoint.shards.size());
        checkpoint.shards.push_back(std::move(*file));
    }

    // Every tensor in exactly one shard, the one the index names.
    for (std::size_t s = 0; s < checkpoint.shards.size(); ++s) {
        const SafetensorsFile &file = checkpoint.shards[s];
        for (const TensorInfo &t : file.tensors()) {
            const auto other = checkpoint.shardOf.constFind(t.name);
            if (other != checkpoint.shardOf.cend())
                return refuse(QStringLiteral("tensor %1 is in both %2 and %3")
                                  .arg(quotedForMessage(t.name), checkpoint.shards[std::size_t(*other)].name(), file.name()));
            checkpoint.shardOf.insert(t.name, int(s));
        }
    }
    for (auto it = weightMap.begin(); it != weightMap.end(); ++it) {
        const int listed = shardNumbers.at(it.value().toString());
        const auto held = checkpoint.shardOf.constFind(it.key());
        if (held == checkpoint.shardOf.cend() || *held != listed)
            return refuse(QStringLiteral("weight_map puts tensor %1 in %2, which does not hold it")
                              .arg(quotedForMessage(it.key()), checkpoint.shards[std::size_t(listed)].name()));
    }
    for (auto it = checkpoint.shardOf.cbegin(); it != checkpoint.shardOf.cend(); ++it)
        if (!weightMap.contains(it.key()))
            return refuse(QStringLiteral("tensor %1 of %2 is not in weight_map")
                              .arg(quotedForMessage(it.key()), checkpoint.shards[std::size_t(*it)].name()));
    return checkpoint;
}

} // namespace attn
