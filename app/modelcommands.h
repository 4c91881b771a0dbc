#pragma once
// The commands for trained models (contract section 6): tokenize, compute
// --model, export --model (modelexport.cpp) and bench --model. Each prints its
// JSON on stdout, or one line on stderr and returns ExitBadInput (a model
// folder or an option the model refuses) or ExitFailure (a file that cannot
// be written).

#include "cliparse.h"

#include "model/forward.h"
#include "model/modelparameters.h"
#include "tokenizers/tokenizerloader.h"

#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

int runTokenize(const TokenizeArgs &args);
int runModelCompute(const ModelComputeArgs &args);
int runModelExport(const ModelExportArgs &args);
int runModelBench(const ModelBenchArgs &args);

// One text through one model, as compute --model and export --model share it.
struct ModelRun
{
    attn::SharedModelParameters model;
    attn::TokenizerPtr tokenizer;
    std::vector<int> ids;
    std::vector<QString> texts; // each token's decoded text
    std::set<attn::LayerHead> ablatedHeads;
    std::shared_ptr<const attn::ModelTrace> trace;
};

// What the model refuses of a command's options, as one line (empty: nothing);
// it may fill in the forward pass's options (the heads switched off).
using ModelOptionsCheck = std::function<QString(const attn::ModelConfig &, attn::ForwardOptions *)>;

// Loads DIR, checks the options against its config, tokenizes TEXT (refused
// when empty or too long) and runs it. Unset after printing the one-line
// error; *exitCode is then what the command returns.
std::optional<ModelRun> loadAndRun(const QString &dir, const QString &text, const ModelOptionsCheck &check,
                                   int *exitCode);
// The version 2 result file, exactly as compute --model writes it.
QByteArray modelResultBytes(const ModelRun &run, int top, bool rollout);
