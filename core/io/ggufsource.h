#pragma once
// A GGUF file as a TensorSource: tensors named as the family's GGUF names
// say (model/families/), in Hugging Face's shapes ([out, in]: GGUF's ne
// reversed), F32 read in place and every other type dequantised a band of
// rows at a time when used. For the `llama` architecture the rows of q and k,
// which llama.cpp's converter interleaved pair by pair, are put back in
// Hugging Face's order, so that the numbers equal those of the original.

#include "model/tensorsource.h"

#include <QSet>
#include <vector>

namespace attn {

class GgufFile;
struct GgufTensor;

// The type holding the most bytes of the 2-D tensors (the weights, not the
// norms): "Q4_K" for a file labelled Q4_K_M. Ties go to the name first in
// alphabetical order; "F32" when there is no 2-D tensor.
QString ggufStoredType(const std::vector<GgufTensor> &tensors);

class GgufSource final : public TensorSource
{
public:
    // `unpermuteQueryKey`: the file is of architecture `llama`; q has `heads`
    // heads and k `kvHeads`, each `headDim` rows. The file must outlive the
    // source (the weights it gives keep the mapping alive on their own).
    GgufSource(const GgufFile &file, bool unpermuteQueryKey, int heads, int kvHeads, int headDim);

    QString name() const override;
    bool has(const QString &tensor) const override;
    WeightMatrix matrix(const QString &tensor, Eigen::Index rows, Eigen::Index cols) const override;
    WeightVector vector(const QString &tensor, Eigen::Index size) const override;
    QString storedType() const override;

    // Checks every tensor of the file the model did not read (none of its
    // weights, yet in the file) for scales and values that are not finite, as
    // the ones read are checked: a file is used whole or refused. Throws
    // ModelLoadError naming the tensor.
    void checkUnread() const;

private:
    // The heads of `tensor` when its rows are interleaved by the converter; 0 otherwise.
    int permutedHeads(const QString &tensor) const;

    const GgufFile &m_file;
    mutable QSet<QString> m_read;
    bool m_unpermute;
    int m_heads, m_kvHeads, m_headDim;
};

} // namespace attn
