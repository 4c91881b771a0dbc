#pragma once
// One weight tensor of a model: a read-only Eigen map over either the memory-
// mapped checkpoint (F32 data used as stored: no copy, only the pages the
// forward pass touches become resident) or storage of its own (converted
// F16/BF16, transposed BERT weights, training).
//
// It is an Eigen::Map, so it goes wherever a matrix is read (MatrixIn, Eigen
// expressions) unchanged. Copies of a mapped weight share the mapping (the
// data is immutable); copies of an owned weight copy the values, so a trainer
// can keep the weights of its last good step. writable() is the only way to
// change values: a mapped weight first becomes an owned copy.

#include "model/modeltypes.h"

#include <memory>
#include <new>
#include <utility>

namespace attn {

template<typename Plain, typename StrideType>
class Weights : public Eigen::Map<const Plain, Eigen::Unaligned, StrideType>
{
    using View = Eigen::Map<const Plain, Eigen::Unaligned, StrideType>;

public:
    Weights() : View(nullptr, Plain::RowsAtCompileTime == 1 ? 1 : 0, 0, makeStride(0)) {}
    Weights(Plain values) : View(nullptr, Plain::RowsAtCompileTime == 1 ? 1 : 0, 0, makeStride(0)),
                            m_owned(std::move(values))
    {
        viewOwned();
    }
    template<typename Derived>
    Weights(const Eigen::EigenBase<Derived> &values) : Weights(Plain(values))
    {
    }
    Weights(const Weights &other) : View(other), m_owned(other.m_owned), m_mapping(other.m_mapping)
    {
        if (!m_mapping)
            viewOwned();
    }
    Weights(Weights &&other) noexcept
        : View(other), m_owned(std::move(other.m_owned)), m_mapping(std::move(other.m_mapping))
    {
        if (!m_mapping)
            viewOwned();
        other.viewOwned();
    }
    Weights &operator=(Weights other) noexcept
    {
        std::swap(m_owned, other.m_owned);
        std::swap(m_mapping, other.m_mapping);
        rebind(other.data(), other.rows(), other.cols(), other.outerStride());
        if (!m_mapping)
            viewOwned();
        return *this;
    }
    ~Weights() = default;

    // `rows` x `cols` floats at `data`, each row `stride` floats after the one
    // before, inside memory that `mapping` keeps alive. `data` must be aligned
    // for float (the loader copies misaligned tensors instead).
    static Weights mapped(const float *data, Eigen::Index rows, Eigen::Index cols, Eigen::Index stride,
                          std::shared_ptr<const void> mapping)
    {
        Weights w;
        w.m_mapping = std::move(mapping);
        w.rebind(data, rows, cols, stride);
        return w;
    }

    // Columns [start, start + count): for a row vector, its elements. A
    // mapped weight gives a view of the same mapping (c_attn's q | k | v).
    Weights columns(Eigen::Index start, Eigen::Index count) const
    {
        if (!m_mapping)
            return Weights(Plain(this->middleCols(start, count)));
        return mapped(this->data() + start, this->rows(), count, this->outerStride(), m_mapping);
    }

    // True while the values are read from the checkpoint's mapping.
    bool isMapped() const { return m_mapping != nullptr; }

    // The values to change (training); a mapped weight becomes an owned copy first.
    Plain &writable()
    {
        if (m_mapping) {
            m_owned = Plain(*static_cast<const View *>(this));
            m_mapping.reset();
            viewOwned();
        }
        return m_owned;
    }

private:
    static StrideType makeStride(Eigen::Index outer)
    {
        if constexpr (StrideType::OuterStrideAtCompileTime == Eigen::Dynamic)
            return StrideType(outer);
        else
            return StrideType();
    }
    void rebind(const float *data, Eigen::Index rows, Eigen::Index cols, Eigen::Index stride)
    {
        // Eigen's documented way to point a Map at other data: construct it anew in place.
        View *view = this;
        view->~View();
        new (view) View(data, rows, cols, makeStride(stride));
    }
    void viewOwned() { rebind(m_owned.data(), m_owned.rows(), m_owned.cols(), m_owned.cols()); }

    Plain m_owned;                        // the values, unless mapped
    std::shared_ptr<const void> m_mapping; // keeps the mapped file alive
};

// A [rows, cols] weight; rows may lie further apart than cols (a column block of c_attn).
using WeightMatrix = Weights<RowMatrix<float>, Eigen::OuterStride<>>;
// A bias or LayerNorm parameter: contiguous.
using WeightVector = Weights<RowVector<float>, Eigen::InnerStride<1>>;

} // namespace attn
