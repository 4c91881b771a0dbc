#!/bin/bash
# Trains the models shipped in resources/examples/models with the program's
# own `train` command, each task with its defaults and a fixed seed:
#   induction: two layers of four heads, d_model 64, 32 symbols a-z A-F,
#              64-token context, 8,000 steps (about 1-2 minutes on two cores);
#   pronoun:   two layers of two heads, d_model 64, 58 words, 32-token
#              context, 1,500 steps (about a minute);
#   pronoun-llama: the pronoun task with the Llama block (RMSNorm, rotary
#              positions, SwiGLU, no biases, <|begin_of_text|> first): four
#              query heads sharing two key/value heads, a 64-token context
#              (two to five sentences a sequence) and every next word scored,
#              not only the verb, 1,500 steps (one to two minutes). Scoring
#              every word gives each head something to keep out of: one
#              key/value group's heads link "it" to the thing, the other's
#              "he"/"she" to the person, and layer 1's heads rest on the
#              beginning token where they have nothing to fetch.
#
# Usage: scripts/train_example_model.sh [PATH_TO_ATTENTION_EXPLORER]
# (default build/ci/app/attention-explorer; build it first).
#
# The same binary on the same processor gives the same weights bit for bit;
# another BLAS or processor may round differently and end a few ulps away,
# which is why tests/tst_shippedmodel.cpp checks what the model does (a
# previous-token head in layer 0, an induction head in layer 1) and
# tests/tst_shippedpronoun.cpp what the pronoun model does (layer 0's heads
# attend from the pronoun to its noun) and tests/tst_shippedllama.cpp what the
# Llama-style one does, not their bytes.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
app=${1:-"$root/build/ci/app/attention-explorer"}
models="$root/resources/examples/models"

mkdir -p "$models"
for task in induction pronoun; do
  "$app" train --task "$task" --seed 1 --report-every 500 -o "$models/$task"
  ls -l "$models/$task"
done
"$app" train --task pronoun --family llama --heads 4 --kv-heads 2 --context 64 --every-token \
  --seed 1 --report-every 500 -o "$models/pronoun-llama"
ls -l "$models/pronoun-llama"
