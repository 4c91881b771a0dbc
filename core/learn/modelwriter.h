#pragma once
// Writes a trained model as a model folder that attn::loadModel, `compute
// --model` and Hugging Face transformers open: config.json, model.safetensors
// under the names Hugging Face writes, and a byte-level tokenizer with one
// token per symbol of the task, so its tiny vocabulary round-trips
// (learn/tokenizerwriter.h). A GPT-2 (contract section 5) gets GPT2Config's
// fields and vocab.json with merges.txt; a Llama-style model (the `llama`
// family of section 8) gets LlamaConfig's fields, `model.`-prefixed [out, in]
// weights, and tokenizer.json with tokenizer_config.json, whose
// post-processor puts the beginning token (kBeginningOfText) before every text.

#include "model/modelparameters.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <vector>

namespace attn {

// The folder is written as DIR.tmp-XXXXXX beside DIR and swapped into place
// in one atomic rename, so a failure or a kill (even kill -9) leaves DIR the
// whole old model or the whole new one; what a killed save left beside DIR is
// cleared by the next save (so two saves into one DIR must not run at once).
// `symbols`: the bytes each token id stands for. `training` goes into
// config.json as "attention_explorer_training". False and one line in `error`
// on failure.
bool saveModelFolder(const ModelParameters &model, const std::vector<QByteArray> &symbols,
                     const QJsonObject &training, const QString &dir, QString *error);

// Clears what a killed save left beside DIR: DIR.tmp-XXXXXX (a half-written
// new model) goes; DIR.old-XXXXXX is the previous model when the kill came
// between moving it aside and moving the new one in (only where folders
// cannot be swapped atomically), so it takes DIR's place again if DIR is
// missing, and goes otherwise. saveModelFolder calls it first.
void recoverInterruptedSave(const QString &dir);

// The config.json of `model` (Hugging Face GPT2Config fields).
QJsonObject gpt2ConfigJson(const ModelConfig &config);
// The config.json of a Llama-style model, its keys as LlamaConfig writes them;
// `beginning`: the bos_token_id (-1: none).
QJsonObject llamaConfigJson(const ModelConfig &config, int beginning);

// Checks that DIR can be written (its parent exists and is a writable folder,
// DIR itself is a folder or absent), before minutes of training. Empty when fine.
QString checkOutputFolder(const QString &dir);

} // namespace attn
