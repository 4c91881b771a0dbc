#pragma once
// The window's list of every model on this computer (contract section 8):
// the models of every store (io/modelstores.h) with what their headers say
// (family, parameter count, the type of most weights, size on disk), each
// model once: the same file reached twice, by a symbolic link, a hard link
// or two names of one Ollama blob, is one entry that says where else it is.
//
// Only headers are read: a GGUF file's metadata and tensor table (the
// mapping, no tensor data) and a safetensors file's JSON header, each with
// every check their readers make, so that a hostile file is one entry with
// its one-line reason, never a crash. A large store takes a while: call it
// on a worker thread.

#include "runtime/cancel.h"
#include "io/modelstores.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace attn {

struct ModelListEntry
{
    ModelStore store = ModelStore::HuggingFace;
    QString name;         // as its store names it
    QString openWith;     // what File › Open Model takes (StoredModel::openWith)
    QString path;         // the file (first part) or folder the model is read from
    QString family;       // model_type ("llama", "qwen2", "gemma3_text"), or GGUF's architecture when
                          // this program does not read it; empty when unknown
    double parameters = 0;  // weights: every tensor's elements for GGUF (as llama.cpp counts them),
                            // the family's count from config.json for a folder; 0 when unknown
    QString format;       // contract's format: "gguf-Q4_K", "safetensors-BF16"; empty when unknown
    QString fileType;     // a GGUF file's own label (general.file_type): "Q4_K_M"; empty when none
    qint64 sizeOnDisk = -1; // bytes of its files (all parts, or the folder's files), -1 when unknown
    int parts = 1;        // files of a split GGUF model
    QString problem;      // why it cannot be opened (one line); empty when it can
    QStringList alsoAt;   // where else the same file is: "Ollama qwen2.5:latest"

    bool canOpen() const { return problem.isEmpty(); }
};

// llama.cpp's name of a general.file_type (llama.h enum llama_ftype): 15 is
// "Q4_K_M", 1 "F16"; empty for a number it does not name.
QString ggufFileTypeName(qint64 fileType);

// What the files of one stored model say; its problem when they cannot be opened.
ModelListEntry describeStoredModel(const StoredModel &model);

// Entries that are the same file merged into one: the entry whose file is
// not a symbolic link, else the first store's, else the first by name, keeps
// its row; the others are named in its alsoAt.
QList<ModelListEntry> mergeSameFiles(const QList<ModelListEntry> &entries);

// Every model of `roots`, described and merged, by store then name. Stops
// early (what was described so far) once `cancel` is raised.
QList<ModelListEntry> listModels(const ModelStoreRoots &roots, const CancelFlag *cancel = nullptr);

} // namespace attn
