#include "model/ops.h"

#include <algorithm>
#include <cmath>

namespace attn {

template<typename S>
RowMatrix<S> layerNorm(const MatrixIn<S> &x, const VectorIn<S> &weight, const VectorIn<S> &bias, double epsilon)
{
    RowMatrix<S> out(x.rows(), x.cols());
    const S d = S(x.cols());
    Eigen::Array<S, 1, Eigen::Dynamic> centred(x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        // Two passes (mean, then the centred squares): one pass loses digits
        // in float when the mean is large against the spread.
        centred = x.row(r).array() - x.row(r).sum() / d;
        const S variance = centred.square().sum() / d;
        const S inverse = S(1) / std::sqrt(variance + S(epsilon));
        out.row(r) = (centred * inverse * weight.array() + bias.array()).matrix();
    }
    return out;
}

template<typename S>
RowMatrix<S> rmsNorm(const MatrixIn<S> &x, const VectorIn<S> &weight, double epsilon)
{
    RowMatrix<S> out(x.rows(), x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const S meanSquare = x.row(r).squaredNorm() / S(x.cols());
        const S inverse = S(1) / std::sqrt(meanSquare + S(epsilon));
        out.row(r) = (x.row(r).array() * inverse * weight.array()).matrix();
    }
    return out;
}

template<typename S>
void rmsNormEachHead(RowMatrix<S> &x, int heads, const VectorIn<S> &weight, double epsilon)
{
    const Eigen::Index d = weight.size();
    for (Eigen::Index r = 0; r < x.rows(); ++r)
        for (int h = 0; h < heads; ++h) {
            auto head = x.row(r).segment(h * d, d);
            const S inverse = S(1) / std::sqrt(head.squaredNorm() / S(d) + S(epsilon));
            head = (head.array() * inverse * weight.array()).matrix();
        }
}

template<typename S>
S geluNew(S x)
{
    const S c = S(0.7978845608028654); // sqrt(2 / pi)
    return S(0.5) * x * (S(1) + std::tanh(c * (x + S(0.044715) * x * x * x)));
}

template<typename S>
S geluErf(S x)
{
    return S(0.5) * x * (S(1) + std::erf(x * S(0.7071067811865476)));
}

template<typename S>
void activate(RowMatrix<S> &x, Activation activation)
{
    auto a = x.array();
    switch (activation) {
    case Activation::GeluTanh: {
        // Eigen's vectorised tanh: the MLP of a 1024-token GPT-2 pass has 37 M entries.
        const S c = S(0.7978845608028654);
        a = S(0.5) * a * (S(1) + (c * (a + S(0.044715) * a.cube())).tanh());
        break;
    }
    case Activation::GeluErf: a = a.unaryExpr([](S v) { return geluErf(v); }); break;
    case Activation::Relu: a = a.max(S(0)); break;
    case Activation::Silu: a = a / (S(1) + (-a).exp()); break;
    case Activation::QuickGelu: a = a / (S(1) + (S(-1.702) * a).exp()); break;
    }
}

template<typename S>
RowMatrix<S> linear(const MatrixIn<S> &x, const MatrixIn<S> &weight, const VectorIn<S> &bias)
{
    RowMatrix<S> y(x.rows(), weight.cols());
    y.noalias() = x * weight;
    y.rowwise() += bias;
    return y;
}

template<typename S>
RowMatrix<S> mlp(const MatrixIn<S> &x, const MatrixIn<S> &w1, const VectorIn<S> &b1, const MatrixIn<S> &w2,
                 const VectorIn<S> &b2, Activation activation)
{
    RowMatrix<S> inner = linear<S>(x, w1, b1);
    activate(inner, activation);
    return linear<S>(inner, w2, b2);
}

template<typename S>
void addResidual(RowMatrix<S> &h, const MatrixIn<S> &delta)
{
    h += delta;
}

template<typename S>
RowVector<S> softmax(const VectorIn<S> &logits)
{
    RowVector<S> p = (logits.array() - logits.maxCoeff()).exp().matrix();
    p /= p.sum();
    return p;
}

#define ATTN_OPS_INSTANTIATE(S)                                                                                      \
    template RowMatrix<S> layerNorm<S>(const MatrixIn<S> &, const VectorIn<S> &, const VectorIn<S> &, double);       \
    template RowMatrix<S> rmsNorm<S>(const MatrixIn<S> &, const VectorIn<S> &, double);                             \
    template void rmsNormEachHead<S>(RowMatrix<S> &, int, const VectorIn<S> &, double);                              \
    template S geluNew<S>(S);                                                                                        \
    template S geluErf<S>(S);                                                                                        \
    template void activate<S>(RowMatrix<S> &, Activation);                                                           \
    template RowMatrix<S> linear<S>(const MatrixIn<S> &, const MatrixIn<S> &, const VectorIn<S> &);                  \
    template RowMatrix<S> mlp<S>(const MatrixIn<S> &, const MatrixIn<S> &, const VectorIn<S> &, const MatrixIn<S> &, \
                                 const VectorIn<S> &, Activation);                                                   \
    template void addResidual<S>(RowMatrix<S> &, const MatrixIn<S> &);                                               \
    template RowVector<S> softmax<S>(const VectorIn<S> &);

ATTN_OPS_INSTANTIATE(float)
ATTN_OPS_INSTANTIATE(double)

} // namespace attn
