#pragma once
// Finding the files of a model on disk (contract section 5): a plain folder
// with config.json, a Hugging Face cache entry (…/hub/models--ORG--NAME,
// whose refs/main names the snapshot to use) or a snapshot folder inside one.

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
};

// Resolves `path` to the files of one model. Refuses, with one line naming
// the folder ("DIR: no config.json", "DIR: refs/main names snapshot X, which
// is missing", "DIR: no model.safetensors (pytorch_model.bin is not
// supported; convert it to safetensors)", a dangling symbolic link, ...). Only looks at names and links: the files' contents are
// checked by their readers.
std::optional<ModelFiles> resolveModelFolder(const QString &path, QString *error);

} // namespace attn
