#pragma once
// A model folder (config.json + model.safetensors, Hugging Face layout) read into ModelParameters.

#include "model/modelparameters.h"

#include <QString>
#include <optional>

namespace attn {

class GgufFile;
class SafetensorsFile;
struct ShardedCheckpoint;
class TensorSource;

// config.json larger than this is refused before it is read (real ones are about 1 KB).
constexpr qint64 kMaxConfigBytes = 1024 * 1024;

// Reads a .gguf file (loadGgufModel), or DIR/config.json and DIR/model.safetensors, or, when there is no
// model.safetensors, DIR/model.safetensors.index.json and its shards. On failure returns null and
// sets `error` to one line naming the file and what is wrong in it, e.g.
//   model.safetensors: no tensor "h.1.ln_2.weight"
// Nothing is allocated for a tensor before its shape has been checked
// against the config and its bytes against the file.
SharedModelParameters loadModel(const QString &folder, QString *error);

// The weights of an already parsed config from an open file. Names may carry
// the family's prefix ("transformer.", "bert.") or not; tensors the model does
// not use (h.N.attn.bias, pooler.*, lm_head.weight when tied, ...) are ignored;
// old BERT checkpoints' LayerNorm gamma/beta are read as weight/bias.
std::optional<ModelParameters> loadParameters(const ModelConfig &config, const SafetensorsFile &file, QString *error);
// The same from any source of tensors (model/tensorsource.h), under the
// family's GGUF names when `ggufNames`, else its Hugging Face names.
std::optional<ModelParameters> loadParameters(const ModelConfig &config, const TensorSource &source, QString *error,
                                              bool ggufNames);

// A GGUF file (llama.cpp's format): the recipe from its metadata, the
// weights left in the mapping and dequantised when used. Refused, with one
// line naming the file, as loadModel refuses a folder.
SharedModelParameters loadGgufModel(const QString &path, QString *error);
// The same from a file already open (its mapping stays alive with the weights).
SharedModelParameters loadGgufModel(const GgufFile &file, QString *error);
// The recipe alone, from the file's metadata (no tensor is read).
std::optional<ModelConfig> readGgufConfig(const GgufFile &file, QString *error);

// GGUF files up to this size (256 MiB) have every tensor checked for
// non-finite values at open; larger ones as their weights are used.
qint64 ggufCheckedWholeBytes();
// For tests, which need a small file checked as a large one is: the size
// above which blocks are checked as used (nullopt: 256 MiB again).
void setGgufCheckedWholeBytes(std::optional<qint64> bytes);

// A quantised file holds far more weights per byte than a float one: GGUF
// models up to this many are opened (an 8B model is 8,000 million).
constexpr double kMaxGgufParameters = 80e9;
// The same from the shards of an index (a missing tensor is named against the index).
std::optional<ModelParameters> loadParameters(const ModelConfig &config, const ShardedCheckpoint &checkpoint,
                                              QString *error);

} // namespace attn
