#pragma once
// A model read from whichever form resolveModel found it in (io/modelfolder.h):
// a Hugging Face folder (config.json, safetensors weights, tokenizer files)
// or a GGUF file (configuration, weights and tokenizer in one file). Every
// entry point goes through these: compute, tokenize, export and bench
// --model, and the window's model document.

#include "io/modelfolder.h"
#include "model/memoryestimate.h"
#include "model/modelparameters.h"
#include "tokenizers/tokenizerloader.h"

#include <optional>

namespace attn {

// The configuration alone, without the weights (tokenize needs no more):
// config.json, or the GGUF file's metadata. Refused with one line naming the file.
std::optional<ModelConfig> readModelConfig(const ModelFiles &files, QString *error);

// The weights (loadModel or loadGgufModel).
SharedModelParameters loadModel(const ModelFiles &files, QString *error);

// The tokenizer: the folder's files for the config's family, or the GGUF
// file's metadata, whose vocabulary must have `config.vocab` tokens.
TokenizerPtr loadModelTokenizer(const ModelFiles &files, const ModelConfig &config, QString *error);

// What the weights file holds, for the memory estimate, from its header alone.
std::optional<WeightsOnDisk> weightsOnDisk(const ModelFiles &files, const ModelConfig &config, QString *error);

} // namespace attn
