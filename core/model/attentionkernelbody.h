// The body of the attention kernels (see attentionkernels.h), included by one
// file per instruction set after it defines, in its own namespace:
//   Reg, kWidth (floats in Reg), kRows, kVectors (the register tile),
//   loadu(const float *), storeu(float *, Reg), broadcast(float), zero(),
//   multiplyAdd(a, b, c) = a * b + c.
// No #include and nothing outside an anonymous namespace but the two entry
// points: an inline function compiled here with AVX flags must never be
// shared with (and picked by the linker for) code that runs everywhere.
// No include guard: each instruction set's file includes it once.

namespace {

constexpr long kPanel = kWidth * kVectors;

inline long smaller(long a, long b)
{
    return a < b ? a : b;
}

// Rows past the last are read as the last row again (and not stored), so a
// partial group runs the same instructions as a full one.
template<typename Pointer>
inline void rowPointers(Pointer base, long stride, long first, long count, Pointer out[kRows])
{
    for (long r = 0; r < kRows; ++r)
        out[r] = base + (first + smaller(r, count - 1)) * stride;
}

inline void scoreTile(const float *const q[kRows], const float *panel, long dk, float *const s[kRows], long rows)
{
    Reg acc[kRows][kVectors];
    for (long r = 0; r < kRows; ++r)
        for (long c = 0; c < kVectors; ++c)
            acc[r][c] = zero();
    for (long k = 0; k < dk; ++k) {
        Reg b[kVectors];
        for (long c = 0; c < kVectors; ++c)
            b[c] = loadu(panel + k * kPanel + c * kWidth);
        for (long r = 0; r < kRows; ++r) {
            const Reg a = broadcast(q[r][k]);
            for (long c = 0; c < kVectors; ++c)
                acc[r][c] = multiplyAdd(a, b[c], acc[r][c]);
        }
    }
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < kVectors; ++c)
            storeu(s[r] + c * kWidth, acc[r][c]);
}

template<long Vectors>
inline void contextTile(const float *const w[kRows], long keys, const float *v, long ldv, float *const z[kRows],
                        long rows)
{
    Reg acc[kRows][Vectors];
    for (long r = 0; r < kRows; ++r)
        for (long c = 0; c < Vectors; ++c)
            acc[r][c] = zero();
    for (long j = 0; j < keys; ++j) {
        Reg b[Vectors];
        for (long c = 0; c < Vectors; ++c)
            b[c] = loadu(v + j * ldv + c * kWidth);
        for (long r = 0; r < kRows; ++r) {
            const Reg a = broadcast(w[r][j]);
            for (long c = 0; c < Vectors; ++c)
                acc[r][c] = multiplyAdd(a, b[c], acc[r][c]);
        }
    }
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < Vectors; ++c)
            storeu(z[r] + c * kWidth, acc[r][c]);
}

} // namespace

void scores(const float *q, long ldq, long rows, const float *packed, long dk, long panels, float *s, long lds)
{
    // Panel by panel, so that each panel of K (dk x kPanel) stays in the
    // first-level cache while every row group of the block passes over it.
    for (long t = 0; t < panels; ++t) {
        const float *panel = packed + t * dk * kPanel;
        for (long r0 = 0; r0 < rows; r0 += kRows) {
            const long count = smaller(kRows, rows - r0);
            const float *qr[kRows];
            float *sr[kRows];
            rowPointers(q, ldq, r0, count, qr);
            rowPointers(s + t * kPanel, lds, r0, count, sr);
            scoreTile(qr, panel, dk, sr, count);
        }
    }
}

void context(const float *w, long ldw, long rows, long keys, const float *v, long ldv, float *z, long ldz)
{
    for (long c0 = 0; c0 < ldv; c0 += kPanel) {
        const long vectors = smaller(kVectors, (ldv - c0) / kWidth);
        for (long r0 = 0; r0 < rows; r0 += kRows) {
            const long count = smaller(kRows, rows - r0);
            const float *wr[kRows];
            float *zr[kRows];
            rowPointers(w, ldw, r0, count, wr);
            rowPointers(z + c0, ldz, r0, count, zr);
            switch (vectors) {
            case 1:
                contextTile<1>(wr, keys, v + c0, ldv, zr, count);
                break;
            case 2:
                contextTile<2>(wr, keys, v + c0, ldv, zr, count);
                break;
            case 3:
                contextTile<3>(wr, keys, v + c0, ldv, zr, count);
                break;
            default:
                contextTile<kVectors>(wr, keys, v + c0, ldv, zr, count);
                break;
            }
        }
    }
}
