#pragma once
// Writes a trained GPT-2 as a model folder (contract section 5) that
// attn::loadModel, `compute --model` and Hugging Face transformers open:
// config.json, model.safetensors under the names Hugging Face writes, and a
// byte-level tokenizer (vocab.json, merges.txt) with one token per symbol and
// no merges, so the task's tiny vocabulary round-trips (the bytes the model
// does not know get ids past its vocabulary, see vocabJson).

#include "model/modelparameters.h"

#include <QJsonObject>
#include <QString>
#include <vector>

namespace attn {

// The folder is written as DIR.tmp-XXXXXX beside DIR and renamed into place,
// so a failure (or a kill) leaves any old DIR as it was. `symbols`: the byte
// each token id stands for. `training` goes into config.json as
// "attention_explorer_training". False and one line in `error` on failure.
bool saveModelFolder(const ModelParameters &model, const std::vector<unsigned char> &symbols,
                     const QJsonObject &training, const QString &dir, QString *error);

// The config.json of `model` (Hugging Face GPT2Config fields).
QJsonObject gpt2ConfigJson(const ModelConfig &config);

// Checks that DIR can be written (its parent exists and is a writable folder,
// DIR itself is a folder or absent), before minutes of training. Empty when fine.
QString checkOutputFolder(const QString &dir);

} // namespace attn
