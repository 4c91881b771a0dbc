#pragma once
// Dense layers and embedding rows over weights however they are stored
// (model/weights.h): F32 in place goes straight to BLAS (or the program's own
// kernel where OpenBLAS runs narrower ones); F16, BF16 and quantised weights
// are converted a panel or band of rows at a time into a buffer the thread
// reuses, so a pass never holds more than that as floats. A few rows (typing
// a word) times any weight are dot products over the weight's rows where
// they lie (F32, and BF16 and F16 widened in registers), quantised rows
// converted a cache-sized chunk at a time first.

#include "model/modelparameters.h"

#include <optional>
#include <vector>

namespace attn {

// y = x * W + b, or x * Wᵀ + b for a transposed (nn.Linear) weight; no bias when p.bias is empty.
RowMatrix<float> dense(const MatrixIn<float> &x, const DenseParameters &p);

// x * W, or x * Wᵀ, the bias not added: dense() without its last step.
RowMatrix<float> product(const MatrixIn<float> &x, const DenseParameters &p);

// dense(x, *layer) for each layer, in order. For a few rows (typing a word)
// their weights' rows are shared between the two threads in one go: one
// handing over of work for q, k and v together, not three.
std::vector<RowMatrix<float>> denseEach(const MatrixIn<float> &x, const std::vector<const DenseParameters *> &layers);

// Row `row` of a weight (a token's embedding) as floats.
RowVector<float> weightRow(const WeightMatrix &w, Eigen::Index row);

// h * Wᵀ for W [vocab, d_model]: the logits of one position (tied or separate unembedding).
RowVector<float> unembed(const RowVector<float> &h, const WeightMatrix &w);

// Whether dense() multiplies with the program's own kernel
// (model/attentionkernels.h, denseProduct) instead of OpenBLAS, for inputs
// of 128 rows or more: true, false, or (nullopt) as the program decides,
// (false also sends a few rows times a stored weight to OpenBLAS, in bands),
// which is where OpenBLAS runs narrower kernels than the processor can
// (model/denseops.cpp). For tests and benchmarks; not while a pass runs.
void useOwnDenseProducts(std::optional<bool> own);

// How many rows of `cols` floats one band converts at a time.
Eigen::Index bandRows(Eigen::Index cols);

} // namespace attn
