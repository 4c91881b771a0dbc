#pragma once
// The commands for trained models (contract section 6): tokenize, compute
// --model and bench --model. Each prints its JSON on stdout, or one line on
// stderr and returns ExitBadInput (a model folder or an option the model
// refuses) or ExitFailure (a file that cannot be written).

#include "cliparse.h"

int runTokenize(const TokenizeArgs &args);
int runModelCompute(const ModelComputeArgs &args);
int runModelBench(const ModelBenchArgs &args);
