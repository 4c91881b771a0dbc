#pragma once
// Ollama's model store, read without Ollama: a folder (the root) holding
//   manifests/HOST/NAMESPACE/MODEL/TAG   one JSON manifest per model and tag
//   blobs/sha256-HEX                     the layers the manifests name
// The layer of media type application/vnd.ollama.image.model is the model's
// GGUF file itself (Ollama's manifest/paths.go, manifest/manifest.go,
// types/model/name.go, server/images.go; docs/gguf.md section 6.1 here).
//
// Manifests are untrusted: each is parsed on its own, and one that cannot be
// used gives one line saying why (not JSON, no GGUF layer, a digest that is
// not sha256, a missing blob), so that a list of the store can show it
// beside the others.

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace attn {

// Manifests larger than this are refused before they are read (real ones are under 1 KB).
constexpr qint64 kMaxOllamaManifestBytes = 1024 * 1024;

// The store folders to look in, in order: $OLLAMA_MODELS alone when it is set
// (trimmed of spaces and quotes, as Ollama does); otherwise ~/.ollama/models,
// then /usr/share/ollama/.ollama/models (where Linux's installer puts the
// service's store). Folders that do not exist are included: the caller skips them.
QStringList ollamaStoreRoots();

// A model's name as Ollama spells it: [HOST/][NAMESPACE/]MODEL[:TAG].
struct OllamaName
{
    QString host = QStringLiteral("registry.ollama.ai");
    QString nameSpace = QStringLiteral("library");
    QString model;
    QString tag = QStringLiteral("latest");

    // As `ollama list` shows it: "qwen2.5:0.5b" (the default host and
    // namespace left out), "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M".
    QString shown() const;
    // "manifests/HOST/NAMESPACE/MODEL/TAG", relative to the root.
    QString manifestPath() const;
};

// Parses a name (the part after "ollama:"). Refuses, with one line, an empty
// name, more than three parts before the tag, or a part of characters other
// than letters, digits, '_', '-' and '.' (and ':' in the host).
std::optional<OllamaName> parseOllamaName(const QString &name, QString *error);

// What a manifest says about a model.
struct OllamaManifest
{
    QString modelBlob;   // absolute path of blobs/sha256-HEX: the GGUF file
    QString digest;      // "sha256:HEX" as the manifest writes it
    qint64 modelBytes = -1; // the layer's "size", -1 when absent
    QString configBlob;  // the config layer's blob (JSON: model_family, file_type, ...), empty when none
};

// A manifest's JSON, of a store at `root`: the blob of the last layer of media
// type application/vnd.ollama.image.model (as Ollama's own loader takes it).
// Refused, with one line naming what is wrong: not JSON, not an object, no
// "layers" array, no GGUF layer (a model stored one tensor per layer), a
// digest that is not "sha256:" and 64 hex digits, and, when `checkBlob`, a
// blob that is not in blobs/ (named "sha256-HEX").
std::optional<OllamaManifest> parseOllamaManifest(const QByteArray &json, const QString &root, QString *error,
                                                  bool checkBlob = true);

// The same from the manifest file at `path` (at most kMaxOllamaManifestBytes);
// messages start with "manifest NAME: ".
std::optional<OllamaManifest> readOllamaManifest(const QString &path, const QString &root, QString *error,
                                                 bool checkBlob = true);

// Every manifest of the store at `root`, at the one depth Ollama reads
// (manifests/*/*/*/*), sorted by shown name. Files only; nothing is read.
struct OllamaManifestFile
{
    OllamaName name;
    QString path;
};
QList<OllamaManifestFile> ollamaManifestFiles(const QString &root);

// "ollama:NAME[:TAG]" or "NAME[:TAG]" to the GGUF file it names, looked up in
// each of ollamaStoreRoots() in turn; each part of the name matches its
// folder regardless of case, as Ollama compares names. Refused, with one line
// starting with the name as given, when no store has it or its manifest
// cannot be used.
std::optional<QString> resolveOllamaModel(const QString &name, QString *error);

// "ollama:" — what a --model argument starts with to name a model of the store.
bool isOllamaModelName(const QString &model);

} // namespace attn
