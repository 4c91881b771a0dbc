#pragma once
// The two small matrix products of blockwise attention (scores of a block of
// query rows, and their weights times V), and the product of a dense layer,
// compiled once per instruction set and chosen when the program runs:
// packaged builds target plain x86-64, but most processors they meet can do
// four or eight times the work per instruction with AVX2 or AVX-512.
//
// Every output element is one fixed sequence of multiply-adds over its inner
// dimension, whatever the row's place in its block or the block's size, so a
// row has the same bits whether computed alone or with others.

#include <cstdint>

namespace attn::kernels {

// How a weight's elements are stored where rowDots reads them in place: as
// floats, or as 16 bits each (std::uint16_t) of a bfloat16 or an IEEE half.
enum class RowElement { Float, BFloat16, Half };

// What softmaxWithExtras also does with a row while it is in registers;
// each part is skipped when its pointer is null.
struct RowExtras
{
    // Pooling a thumbnail line: high[j] = max(high[j], in[j]) and
    // low[j] = max(low[j], -in[j]) over the raw scores (both, or neither),
    // weightHigh[j] = max(weightHigh[j], out[j]) over the weights.
    float *high = nullptr, *low = nullptr, *weightHigh = nullptr;
    bool firstRow = false; // the line's first row: its values are stored, not compared
    // The heads' summed weights: sum[j] = out[j] for the first head
    // (firstTerm), sum[j] + out[j] for the others.
    float *sum = nullptr;
    bool firstTerm = false;
};

struct AttentionKernels
{
    const char *name;  // "avx512", "avx2" or "sse2"
    long vectorWidth;  // floats per vector register
    long panelWidth;   // keys per packed panel of K (see packedKeysSize)
    long rowGroup;     // query rows computed together; blocks of a multiple of it waste nothing
    long narrowValues; // narrowContext takes V up to this wide (0: never)

    // s[r * lds + j] = sum over k < dk of q[r * ldq + k] * key j's element k,
    // for r < rows and j < cols. Packed keys: panel t holds keys
    // [t * panelWidth, (t + 1) * panelWidth), element k of key t * panelWidth + c
    // at packed[(t * dk + k) * panelWidth + c] (zero past the last key).
    void (*scores)(const float *q, long ldq, long rows, const float *packed, long dk, long cols, float *s, long lds);
    // z[r * ldz + c] = sum over j < keys of w[r * ldw + j] * v[j * ldv + c], for
    // r < rows and c < ldv; ldv is a multiple of vectorWidth (V zero padded).
    void (*context)(const float *w, long ldw, long rows, long keys, const float *v, long ldv, float *z, long ldz);
    // context for V at most narrowValues wide, given transposed:
    // z[r * ldz + c] = sum over j < keys of w[r * ldw + j] * vt[c * ldvt + j],
    // for r < rows and c < dv. With the keys along the vector lanes, a head
    // of width 5 does not pay for a whole vector of V per weight.
    void (*narrowContext)(const float *w, long ldw, long rows, long keys, const float *vt, long ldvt, long dv,
                          float *z, long ldz);
    // out[0, visible) = the softmax of in[0, visible) * scale, as
    // scaledSoftmaxRows computes a row (model/attentionop.h) but always
    // multiplied by the reciprocal of the sum; with `max`, that reciprocal and
    // the largest scaled score are kept. `out` may be `in`; nothing past
    // `visible` is read or written.
    void (*softmax)(const float *in, float *out, long visible, float scale, float *max, float *inverseSum);
    // into[j] = max(into[j], sign * in[j]) for j < count: pooling a block of
    // rows into one line of a thumbnail (sign -1 keeps the smallest, negated).
    void (*largest)(const float *in, long count, float sign, float *into);
    // softmax, and the RowExtras of the row (over [0, visible) only), the
    // weights the same bits as softmax's.
    void (*softmaxWithExtras)(const float *in, float *out, long visible, float scale, float *max, float *inverseSum,
                              const RowExtras &extras);
    // y[r * ldy + j] = (accumulate ? y[r * ldy + j] : 0) + the sum over
    // k < depth of x[r * ldx + k] * element (k, j) of `packed`, for r < rows
    // and j < cols; `packed` holds panels of panelWidth columns as scores()
    // reads its keys (element (k, c) of panel t at packed[(t * depth + k) *
    // panelWidth + c], zero past the last column). A dense layer over a
    // depth in pieces adds piece after piece (model/denseops.cpp).
    void (*denseProduct)(const float *x, long ldx, long rows, const float *packed, long depth, long cols, float *y,
                         long ldy, bool accumulate);
    // y[r * ldy + j] = the dot product of x's row r (x + r * ldx) and w's
    // row j (element j * ldw of w), both `depth` long, for r < rows and
    // j < cols: a few rows (typing a word) times a weight whose rows are its
    // output features, with nothing packed. w's elements are `element`
    // (widened to floats in registers, so a BF16 or F16 weight travels from
    // memory in its own size). Each of w's rows is read once, from its
    // start to its end. Four vectors of sums take the terms: the term k goes
    // to vector k / vectorWidth % 4, lane k % vectorWidth, one multiply-add
    // at a time (fused where the set fuses); then the vectors are added as
    // (0 + 1) + (2 + 3), and the lanes from the first to the last.
    void (*rowDots)(const float *x, long ldx, long rows, const void *w, RowElement element, long ldw, long depth,
                    long cols, float *y, long ldy);
    // In place: values[c] becomes the largest of the `width` values from c
    // on, for c <= count - width (later ones are left undefined): the
    // largest of a thumbnail cell's keys is then at most two reads.
    void (*slidingLargest)(float *values, long count, long width);
};

// The set attention uses: the fastest this processor (and its operating
// system) can run, unless useAttentionKernels() chose another.
const AttentionKernels &activeAttentionKernels();

// Every set this processor can run, fastest first, ending with a null pointer.
const AttentionKernels *const *runnableAttentionKernels();

// For tests, which run every set through attention: one of
// runnableAttentionKernels(), or null for the fastest again. Not while
// attention runs on another thread.
void useAttentionKernels(const AttentionKernels *kernels);

} // namespace attn::kernels
