// The dense-layer kernel (see attentionkernels.h, denseProduct), included by
// each instruction set's file after attentionkernelbody.h, whose primitives
// and register tile it uses. No #include, no include guard, nothing outside
// an anonymous namespace but the entry point (attentionkernelbody.h says why).

namespace {

// One register tile of a dense product: `rows` (at most kRows) rows of up to
// kPanel outputs, each the sum over k < depth of x[r][k] times the panel's
// element (k, c), in that order, after what y holds when Accumulate.
template<bool Accumulate>
inline void denseTile(const float *const x[kRows], const float *panel, long depth, float *const y[kRows], long rows,
                      long cols)
{
    Reg acc[kRows][kVectors];
    for (long r = 0; r < kRows; ++r)
        for (long c = 0; c < kVectors; ++c) {
            if constexpr (Accumulate)
                acc[r][c] = c * kWidth < cols ? loadPart(y[r] + c * kWidth, cols - c * kWidth) : zero();
            else
                acc[r][c] = zero();
        }
    for (long k = 0; k < depth; ++k) {
        Reg b[kVectors];
        for (long c = 0; c < kVectors; ++c)
            b[c] = loadu(panel + k * kPanel + c * kWidth);
        for (long r = 0; r < kRows; ++r) {
            const Reg a = broadcast(x[r][k]);
            for (long c = 0; c < kVectors; ++c)
                acc[r][c] = multiplyAdd(a, b[c], acc[r][c]);
        }
    }
    if (cols >= kPanel) {
        for (long r = 0; r < rows; ++r)
            for (long c = 0; c < kVectors; ++c)
                storeu(y[r] + c * kWidth, acc[r][c]);
        return;
    }
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c * kWidth < cols; ++c)
            storePart(y[r] + c * kWidth, acc[r][c], cols - c * kWidth);
}

} // namespace

void denseProduct(const float *x, long ldx, long rows, const float *packed, long depth, long cols, float *y, long ldy,
                  bool accumulate)
{
    const long panels = (cols + kPanel - 1) / kPanel;
    // Panel by panel: each (depth x kPanel) stays in the cache while every
    // row group passes over it.
    for (long t = 0; t < panels; ++t) {
        const float *panel = packed + t * depth * kPanel;
        for (long r0 = 0; r0 < rows; r0 += kRows) {
            const long count = smaller(kRows, rows - r0);
            const float *xr[kRows];
            float *yr[kRows];
            rowPointers(x, ldx, r0, count, xr);
            rowPointers(y + t * kPanel, ldy, r0, count, yr);
            if (accumulate)
                denseTile<true>(xr, panel, depth, yr, count, cols - t * kPanel);
            else
                denseTile<false>(xr, panel, depth, yr, count, cols - t * kPanel);
        }
    }
}

void rowDots(const float *x, long ldx, long rows, const float *w, long ldw, long depth, long cols, float *y, long ldy)
{
    // 4 rows of x by 4 rows of w: 16 accumulators and 4 vectors of w in registers.
    constexpr long kDotRows = 4, kDotCols = 4;
    for (long r0 = 0; r0 < rows; r0 += kDotRows) {
        const long nr = smaller(kDotRows, rows - r0);
        for (long j0 = 0; j0 < cols; j0 += kDotCols) {
            const long nc = smaller(kDotCols, cols - j0);
            Reg acc[kDotRows][kDotCols];
            for (long r = 0; r < kDotRows; ++r)
                for (long c = 0; c < kDotCols; ++c)
                    acc[r][c] = zero();
            for (long k = 0; k < depth; k += kWidth) {
                const long n = smaller(kWidth, depth - k);
                Reg b[kDotCols];
                for (long c = 0; c < kDotCols; ++c) {
                    const float *from = w + (j0 + c) * ldw + k;
                    b[c] = c >= nc ? zero() : n == kWidth ? loadu(from) : loadPart(from, n);
                }
                for (long r = 0; r < nr; ++r) {
                    const float *from = x + (r0 + r) * ldx + k;
                    const Reg a = n == kWidth ? loadu(from) : loadPart(from, n);
                    for (long c = 0; c < kDotCols; ++c)
                        acc[r][c] = multiplyAdd(a, b[c], acc[r][c]);
                }
            }
            for (long r = 0; r < nr; ++r)
                for (long c = 0; c < nc; ++c)
                    y[(r0 + r) * ldy + j0 + c] = sumOfLanes(acc[r][c]);
        }
    }
}
