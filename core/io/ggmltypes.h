#pragma once
// ggml's tensor types as GGUF files store them (ggml-common.h, gguf-py
// constants.py): the block each type packs its values in, and turning rows
// of blocks back into floats exactly as ggml's dequantize_row_* functions
// define them (ggml-quants.c), one block type at a time.

#include <QString>
#include <QtGlobal>
#include <optional>

namespace attn {

// The ids GGUF writes (ggml_type); only those this program reads have names here.
enum class GgmlType : quint32 {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8,
    Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, BF16 = 30,
};

struct GgmlTypeInfo
{
    const char *name;   // "Q4_K"
    int blockValues;    // values per block (1 for F32, F16, BF16)
    int blockBytes;     // bytes per block
    bool readable;      // this program dequantises it
};

// What a type id is: nothing for an id ggml never used; readable false for a
// type ggml has but this program does not read (IQ2_XXS, TQ1_0, Q8_K, ...).
std::optional<GgmlTypeInfo> ggmlTypeInfo(quint32 type);

// Converts `blocks` consecutive blocks of `type` at `src` (any alignment) to
// blocks * blockValues floats. Returns false, writing nothing further, at the
// first block whose scale (or, for float types, value) is not finite; `bad`
// then holds that block's index.
bool dequantizeBlocks(GgmlType type, const uchar *src, qint64 blocks, float *dst, qint64 *bad);

// IEEE half precision to float (exact).
float halfToFloat(quint16 bits);

} // namespace attn
