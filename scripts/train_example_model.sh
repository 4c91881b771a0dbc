#!/bin/bash
# Trains the model shipped in resources/examples/models/induction with the
# program's own `train` command: the induction task with its defaults (two
# layers of four heads, d_model 64, 32 symbols a-z A-F, 64-token context,
# 8,000 steps) and a fixed seed. About 1-2 minutes on two cores.
#
# Usage: scripts/train_example_model.sh [PATH_TO_ATTENTION_EXPLORER]
# (default build/ci/app/attention-explorer; build it first).
#
# The same binary on the same processor gives the same weights bit for bit;
# another BLAS or processor may round differently and end a few ulps away,
# which is why tests/tst_shippedmodel.cpp checks what the model does (a
# previous-token head in layer 0, an induction head in layer 1), not its bytes.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
app=${1:-"$root/build/ci/app/attention-explorer"}
out="$root/resources/examples/models/induction"

mkdir -p "$(dirname "$out")"
"$app" train --task induction --seed 1 --report-every 1000 -o "$out"
ls -l "$out"
