#pragma once
// Finding the files of a model on disk (contract sections 5 and 8): a plain
// folder with config.json, a Hugging Face cache entry (…/hub/models--ORG--NAME,
// whose refs/main names the snapshot to use) or a snapshot folder inside one,
// a GGUF file, or a model of Ollama's store named "ollama:NAME[:TAG]".

#include <QString>
#include <optional>

namespace attn {

// Absolute paths of the files found; optional files are empty when absent.
// In a cache snapshot they are the symbolic links (into blobs/), which open
// like the files themselves.
struct ModelFiles
{
    QString folder;          // the folder read (the snapshot, for a cache entry)
    QString config;          // config.json
    QString weights;         // model.safetensors, or model.safetensors.index.json when sharded
    QString vocabJson;       // GPT-2 byte-level BPE: vocab.json + merges.txt
    QString merges;
    QString tokenizerJson;   // tokenizer.json (either family)
    QString vocabTxt;        // BERT WordPiece: vocab.txt
    QString tokenizerConfig; // tokenizer_config.json
    // A GGUF file (a .gguf file, or the blob an Ollama name resolves to):
    // configuration, weights and tokenizer in one. When set, the fields above
    // are empty but `folder`, the file's folder.
    QString gguf;

    bool isGguf() const { return !gguf.isEmpty(); }
    // The file that holds the weights: the GGUF file, else `weights`.
    const QString &weightsFile() const { return isGguf() ? gguf : weights; }
};

// Resolves `path` to the files of one model. Refuses, with one line naming
// the folder ("DIR: no config.json", "DIR: refs/main names snapshot X, which
// is missing", "DIR: no model.safetensors (pytorch_model.bin is not
// supported; convert it to safetensors)", a dangling symbolic link, ...). Only looks at names and links: the files' contents are
// checked by their readers.
std::optional<ModelFiles> resolveModelFolder(const QString &path, QString *error);

// The snapshot folder of a Hugging Face cache entry (…/models--ORG--NAME):
// the one refs/main names, else its only snapshot. Refused with the line
// resolveModelFolder gives for the entry.
std::optional<QString> cacheEntrySnapshot(const QString &entry, QString *error);

// What --model names (contract section 8): "ollama:NAME[:TAG]" (ollamastore.h),
// a file (a GGUF file: its name ends in .gguf or it starts with "GGUF"), or
// a folder as resolveModelFolder takes it. Refused with one line naming it.
std::optional<ModelFiles> resolveModel(const QString &model, QString *error);

// Whether `path` is a file to open as a GGUF model: its name ends in .gguf
// (any case), or it starts with "GGUF" (an Ollama blob has no suffix).
bool isGgufFile(const QString &path);

} // namespace attn
