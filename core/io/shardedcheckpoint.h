#pragma once
// A checkpoint sharded the way Hugging Face writes large ones:
// model.safetensors.index.json, whose "weight_map" names for every tensor the
// file that holds it (model-00001-of-00002.safetensors, ...). Each shard is
// mapped and validated like a single model.safetensors.

#include "io/safetensorsfile.h"

#include <QHash>
#include <QString>
#include <optional>
#include <vector>

namespace attn {

// The index file name, as Hugging Face writes it.
inline QString shardIndexName() { return QStringLiteral("model.safetensors.index.json"); }

// model.safetensors.index.json larger than this is refused before it is read
// (one line per tensor: real ones are tens of KB).
constexpr qint64 kMaxShardIndexBytes = 16 * 1024 * 1024;

struct ShardedCheckpoint
{
    std::vector<SafetensorsFile> shards; // in the order of their names
    QHash<QString, int> shardOf;         // tensor name -> position in shards

    // The shard that holds `name`; nullptr when the index does not list it.
    const SafetensorsFile *fileOf(const QString &name) const
    {
        const auto it = shardOf.constFind(name);
        return it == shardOf.cend() ? nullptr : &shards[std::size_t(*it)];
    }
};

// Reads FOLDER/model.safetensors.index.json and maps its shards. Refuses,
// with one line naming the file, an index that is not a JSON object with a
// "weight_map" object of strings, a shard name that is not a plain file name
// of the folder ("../x", "a/b"), a missing or unreadable shard, a tensor the
// index lists but its shard lacks, one that two shards hold, and one a shard
// holds that the index does not list.
std::optional<ShardedCheckpoint> openShardedCheckpoint(const QString &folder, QString *error);

} // namespace attn
