#pragma once
// Matrix types of the model code: row-major, one row per token, so a token's
// vector is contiguous (layer norm, softmax) and tensors load as they are stored.

#include <Eigen/Dense>

namespace attn {

template<typename Scalar>
using RowMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template<typename Scalar>
using RowVector = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;
// A read-only matrix argument: a whole matrix or a block of columns of one
// (a head's slice of Q, K or V) without a copy.
template<typename Scalar>
using MatrixIn = Eigen::Ref<const RowMatrix<Scalar>>;
template<typename Scalar>
using VectorIn = Eigen::Ref<const RowVector<Scalar>>;

} // namespace attn
