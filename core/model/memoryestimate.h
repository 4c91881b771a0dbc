#pragma once
// How much memory a forward pass of a model will take, worked out from its
// config.json and the header of its weights file before anything large is
// allocated, and how much this machine and process can still give. A run
// that cannot fit is refused with both figures instead of dying halfway.

#include "model/modelconfig.h"

#include <QString>
#include <optional>

namespace attn {

// What model.safetensors holds, from its header alone.
struct WeightsOnDisk
{
    qint64 fileBytes = 0;   // mapped whole while the model is open
    qint64 elements = 0;    // every tensor's values
    qint64 f32Elements = 0; // of those, F32 at a float-aligned address: used in place (the rest are converted)
};

// Reads the header of `path` (the file is mapped, not read). Nothing, with the
// reader's one-line message in `error`, when the header is malformed.
std::optional<WeightsOnDisk> weightsOnDisk(const QString &path, QString *error);

// The loader uses GPT-2's aligned F32 weights in place from the mapping (only
// the others get float copies); BERT's dense weights are transposed, so a BERT
// model is counted as copied whole (an upper bound).

// Bytes, by what they hold; each part an upper bound for its kind.
struct MemoryEstimate
{
    double mappedWeights = 0; // the weights file, mapped
    double weightCopies = 0;  // weights the loader holds as floats
    double activations = 0;   // per layer: queries, keys, values, context, hidden state; the MLP's widest step
    double attention = 0;     // weights (and raw scores when kept) of every head of every layer
    double result = 0;        // the JSON result of those numbers, built in memory before it is written

    double total() const { return mappedWeights + weightCopies + activations + attention + result; }
};

// One forward pass of `tokens` tokens. `keepScores`: the raw scores are kept
// beside the weights. `resultNumbers`: how many numbers a result written from
// the trace holds (0 when none is written).
MemoryEstimate estimateRunMemory(const ModelConfig &config, const WeightsOnDisk &weights, int tokens, bool keepScores,
                                 double resultNumbers);

// What the process can still allocate: MemAvailable of /proc/meminfo, or the
// address space left under RLIMIT_AS (ulimit -v) when that is smaller.
struct MemoryLimit
{
    double bytes = 0;   // infinity when nothing could be read
    QString what;       // "free memory (MemAvailable)" or "address space left under ulimit -v"
};
MemoryLimit availableMemory();

// "1.5 GiB", "640 MiB", "12 KiB".
QString formatBytes(double bytes);

} // namespace attn
