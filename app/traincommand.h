#pragma once
// `attention-explorer train`: trains a small GPT-2 or Llama-style model on a task and writes it as a model folder (contract section 7).

struct TrainArgs;

// Prints one JSON line per report and a last one holding "steps_per_second";
// SIGINT or SIGTERM stops the run and saves what was learned (exit 0). Returns the exit code.
int runTrain(const TrainArgs &args);
