#pragma once
// The models already in the user's Hugging Face cache, so that one
// downloaded once with transformers opens with a click, offline.

#include <QList>
#include <QString>

namespace attn {

struct CachedModel
{
    QString name;    // "ORG/NAME", or "NAME" for a repository without an organisation (models--gpt2)
    QString path;    // the cache entry folder …/models--ORG--NAME
    bool usable = false;
    QString problem; // why not usable: the one line resolveModelFolder gives
};

// Where huggingface_hub keeps repositories: $HF_HUB_CACHE, else
// $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub (huggingface_hub's environment variables).
QString huggingFaceHubCache();

// The model entries (models--*) of `hubFolder`, sorted by name; datasets and
// spaces are left out. A missing folder is an empty list, not an error.
QList<CachedModel> listCachedModels(const QString &hubFolder = huggingFaceHubCache());

} // namespace attn
