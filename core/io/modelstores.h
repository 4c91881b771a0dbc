#pragma once
// Where the models already on this computer are, read without the programs
// that put them there: the Hugging Face cache, Ollama's store, LM Studio's
// folders and llama.cpp's download cache (contract section 8; the layouts
// and their sources are in docs/gguf.md section 6), and the models this
// program trained. Only names, links and the stores' own small records
// (Ollama manifests, llama.cpp's sidecars) are read here; what a model's
// files hold is read by model/modellist.
//
// Every store is untrusted and may be missing or unreadable: a store that
// cannot be listed is skipped without a word, a record that cannot be used
// is one model with its one-line reason, and the walk has fixed depths and
// caps, so that no store, however large or looped by links, keeps a list
// from finishing.

#include "runtime/cancel.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace attn {

enum class ModelStore { HuggingFace, Ollama, LmStudio, LlamaCpp, TrainedHere };

// "Hugging Face", "Ollama", "LM Studio", "llama.cpp", "Trained here".
QString modelStoreName(ModelStore store);

// The folders each store is read from, in order. Folders that do not exist
// are kept: the listing skips them.
struct ModelStoreRoots
{
    QStringList huggingFace; // hub folders holding models--ORG--NAME entries
    QStringList ollama;      // roots holding manifests/ and blobs/
    QStringList lmStudio;    // models folders holding PUBLISHER/REPO/*.gguf
    QStringList llamaCpp;    // download caches holding OWNER_REPO_FILE.gguf
    QStringList trainedHere; // model folders, each one model
};

// From the environment: huggingFaceHubCache(); ollamaStoreRoots();
// ~/.lmstudio/models then ~/.cache/lm-studio/models (older installs);
// $LLAMA_CACHE, else $XDG_CACHE_HOME/llama.cpp, else ~/.cache/llama.cpp
// (llama.cpp's fs_get_cache_directory on Linux). `trainedHere` is left empty.
ModelStoreRoots modelStoreRootsFromEnvironment();

// One model as its store records it, before its files are read.
struct StoredModel
{
    ModelStore store = ModelStore::HuggingFace;
    QString name;        // as the store names it: "qwen2.5:0.5b", "ORG/NAME", "PUBLISHER/REPO/FILE.gguf"
    QString openWith;    // what File › Open Model and --model take: a folder, a GGUF file, "ollama:NAME"
    QStringList gguf;    // a GGUF model's file, or the parts of a split one in order (part 1 first)
    QString folder;      // a model folder (config.json and safetensors): the snapshot, for a cache entry
    QString problem;     // why the store's own record cannot be used; empty when it can
};

// The models of every store of `roots`, store by store in the order of
// ModelStore, each store's by name. Stops early (what was found so far)
// once `cancel` is raised.
QList<StoredModel> findStoredModels(const ModelStoreRoots &roots, const CancelFlag *cancel = nullptr);

// The models of one store's folder (tests and findStoredModels).
QList<StoredModel> findHuggingFaceModels(const QString &hub);
QList<StoredModel> findOllamaModels(const QString &root);
QList<StoredModel> findLmStudioModels(const QString &models);
QList<StoredModel> findLlamaCppModels(const QString &cache);

} // namespace attn
