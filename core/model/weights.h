#pragma once
// One weight tensor of a model: a read-only Eigen map over either the memory-
// mapped checkpoint (F32 data used as stored: no copy, only the pages the
// forward pass touches become resident) or storage of its own (training);
// or, for a checkpoint stored in another type (F16, BF16, GGUF's quantised
// blocks), no floats at all: its StoredRows convert rows when they are used
// (model/denseops.h), so no float copy of the whole model is ever resident.
//
// It is an Eigen::Map, so it goes wherever a matrix is read (MatrixIn, Eigen
// expressions) unchanged. Copies of a mapped weight share the mapping (the
// data is immutable); copies of an owned weight copy the values, so a trainer
// can keep the weights of its last good step. writable() is the only way to
// change values: a mapped or stored weight first becomes an owned copy.
//
// A stored weight is an empty map (0 columns): code that reads a weight as
// a matrix asks isStored() first, or converts rows with toFloat().

#include "model/attentionkernels.h"
#include "model/modeltypes.h"

#include <QString>
#include <algorithm>
#include <memory>
#include <new>
#include <utility>

namespace attn {

// Rows of a stored weight that the few-rows kernel reads as they are
// (kernels' rowDots widens BF16 and F16 in registers): row r's first
// element is element r * stride of `data`. Null `data`: they must be converted.
struct RowsInPlace
{
    const void *data = nullptr;
    Eigen::Index stride = 0;
    kernels::RowElement element = kernels::RowElement::Float;

    // Row `row`, column `column`'s address.
    const void *at(Eigen::Index row, Eigen::Index column) const
    {
        const Eigen::Index size = element == kernels::RowElement::Float ? 4 : 2;
        return static_cast<const char *>(data) + (row * stride + column) * size;
    }
};

// A weight the checkpoint stores in another type than float: its values
// are whole rows converted when asked for. Immutable; shared between copies.
class StoredRows
{
public:
    StoredRows(Eigen::Index rows, Eigen::Index cols) : m_rows(rows), m_cols(cols) {}
    virtual ~StoredRows() = default;
    Eigen::Index rows() const { return m_rows; }
    Eigen::Index cols() const { return m_cols; }
    // Rows [first, first + count) as floats, one row after the other, into
    // `out` (count * cols() floats).
    virtual void toFloat(Eigen::Index first, Eigen::Index count, float *out) const = 0;
    // The stored type, as messages and result files name it: "BF16", "Q4_K".
    virtual QString typeName() const = 0;
    // Where the rows are when they need no conversion but a widening (BF16, F16).
    virtual RowsInPlace inPlace() const { return {}; }

private:
    Eigen::Index m_rows, m_cols;
};

// Rows [first, first + count) of another stored weight (Phi-3's fused q | k | v rows).
class StoredRowSlice final : public StoredRows
{
public:
    StoredRowSlice(std::shared_ptr<const StoredRows> whole, Eigen::Index first, Eigen::Index count)
        : StoredRows(count, whole->cols()), m_whole(std::move(whole)), m_first(first)
    {
    }
    void toFloat(Eigen::Index first, Eigen::Index count, float *out) const override
    {
        m_whole->toFloat(m_first + first, count, out);
    }
    QString typeName() const override { return m_whole->typeName(); }
    RowsInPlace inPlace() const override
    {
        RowsInPlace whole = m_whole->inPlace();
        if (whole.data)
            whole.data = whole.at(m_first, 0);
        return whole;
    }

private:
    std::shared_ptr<const StoredRows> m_whole;
    Eigen::Index m_first;
};

// Columns [first, first + count) of another stored weight (GPT-2's c_attn q | k | v).
class StoredColumnSlice final : public StoredRows
{
public:
    StoredColumnSlice(std::shared_ptr<const StoredRows> whole, Eigen::Index first, Eigen::Index count)
        : StoredRows(whole->rows(), count), m_whole(std::move(whole)), m_first(first)
    {
    }
    void toFloat(Eigen::Index first, Eigen::Index count, float *out) const override
    {
        std::unique_ptr<float[]> row(new float[std::size_t(m_whole->cols())]);
        for (Eigen::Index r = 0; r < count; ++r) {
            m_whole->toFloat(first + r, 1, row.get());
            std::copy_n(row.get() + m_first, cols(), out + r * cols());
        }
    }
    QString typeName() const override { return m_whole->typeName(); }
    RowsInPlace inPlace() const override
    {
        RowsInPlace whole = m_whole->inPlace();
        if (whole.data)
            whole.data = whole.at(0, m_first);
        return whole;
    }

private:
    std::shared_ptr<const StoredRows> m_whole;
    Eigen::Index m_first;
};

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
    Weights(const Weights &other)
        : View(other), m_owned(other.m_owned), m_mapping(other.m_mapping), m_stored(other.m_stored)
    {
        if (!m_mapping)
            viewOwned();
    }
    Weights(Weights &&other) noexcept
        : View(other), m_owned(std::move(other.m_owned)), m_mapping(std::move(other.m_mapping)),
          m_stored(std::move(other.m_stored))
    {
        if (!m_mapping)
            viewOwned();
        other.viewOwned();
    }
    Weights &operator=(Weights other) noexcept
    {
        std::swap(m_owned, other.m_owned);
        std::swap(m_mapping, other.m_mapping);
        std::swap(m_stored, other.m_stored);
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

    // A weight whose values `rows` gives when converted (see StoredRows).
    static Weights stored(std::shared_ptr<const StoredRows> rows)
    {
        Weights w;
        w.m_stored = std::move(rows);
        return w;
    }

    // Columns [start, start + count): for a row vector, its elements. A
    // mapped or stored weight gives a view of the same data (c_attn's q | k | v).
    Weights columns(Eigen::Index start, Eigen::Index count) const
    {
        if (m_stored)
            return stored(std::make_shared<StoredColumnSlice>(m_stored, start, count));
        if (!m_mapping)
            return Weights(Plain(this->middleCols(start, count)));
        return mapped(this->data() + start, this->rows(), count, this->outerStride(), m_mapping);
    }

    // Rows [start, start + count) (Phi-3's fused q | k | v, gate | up), as columns() does.
    Weights rowRange(Eigen::Index start, Eigen::Index count) const
    {
        if (m_stored)
            return stored(std::make_shared<StoredRowSlice>(m_stored, start, count));
        if (!m_mapping)
            return Weights(Plain(this->middleRows(start, count)));
        return mapped(this->data() + start * this->outerStride(), count, this->cols(), this->outerStride(),
                      m_mapping);
    }

    // True while the values are read from the checkpoint's mapping.
    bool isMapped() const { return m_mapping != nullptr; }
    // True when the values are converted as they are used (toFloat).
    bool isStored() const { return m_stored != nullptr; }
    const StoredRows *storedRows() const { return m_stored.get(); }
    // The shape, stored or not.
    Eigen::Index rowCount() const { return m_stored ? m_stored->rows() : this->rows(); }
    Eigen::Index colCount() const { return m_stored ? m_stored->cols() : this->cols(); }

    // Rows [first, first + count) as floats, one after the other, into `out`.
    void toFloat(Eigen::Index first, Eigen::Index count, float *out) const
    {
        if (m_stored) {
            m_stored->toFloat(first, count, out);
            return;
        }
        for (Eigen::Index r = 0; r < count; ++r)
            std::copy_n(this->data() + (first + r) * this->outerStride(), this->cols(), out + r * this->cols());
    }

    // The values to change (training); a mapped or stored weight becomes an owned copy first.
    Plain &writable()
    {
        if (m_stored) {
            m_owned.resize(m_stored->rows(), m_stored->cols());
            m_stored->toFloat(0, m_stored->rows(), m_owned.data());
            m_stored.reset();
            viewOwned();
        } else if (m_mapping) {
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

    Plain m_owned;                        // the values, unless mapped or stored
    std::shared_ptr<const void> m_mapping; // keeps the mapped file alive
    std::shared_ptr<const StoredRows> m_stored; // converts the values when they are used
};

// A [rows, cols] weight; rows may lie further apart than cols (a column block of c_attn).
using WeightMatrix = Weights<RowMatrix<float>, Eigen::OuterStride<>>;
// A bias or LayerNorm parameter: contiguous.
using WeightVector = Weights<RowVector<float>, Eigen::InnerStride<1>>;

} // namespace attn
