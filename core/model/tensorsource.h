#pragma once
// Where a model's named tensors come from: a safetensors file, the shards of
// an index, or (later) a GGUF file. The loader (model/modelloader.cpp) reads
// every format through this one interface, so no family is written twice.

#include "model/weights.h"

#include <QString>

namespace attn {

// What a tensor source throws for a tensor it cannot give: one line naming
// the file and what is wrong ("model.safetensors: no tensor \"norm.weight\"").
struct ModelLoadError
{
    QString message;
};

class TensorSource
{
public:
    virtual ~TensorSource() = default;
    // The file messages about the checkpoint as a whole name.
    virtual QString name() const = 0;
    virtual bool has(const QString &tensor) const = 0;
    // The 2-D tensor [rows, cols] (row-major, as Hugging Face shapes it): F32
    // read in place where it can be, other types stored and converted when
    // used. Checks the shape, the type and (where the format allows it without
    // reading a whole large file) that every value is finite.
    virtual WeightMatrix matrix(const QString &tensor, Eigen::Index rows, Eigen::Index cols) const = 0;
    // The 1-D tensor of `size` values, always converted to floats (norms, biases: small).
    virtual WeightVector vector(const QString &tensor, Eigen::Index size) const = 0;
    // The type most weights are stored in ("F32", "BF16").
    virtual QString storedType() const = 0;
};

} // namespace attn
