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

// `n` (at most kWidth) weights from element `at` of w, as floats; the lanes past them zero.
template<RowElement Element>
inline const void *elementAt(const void *w, long at)
{
    return static_cast<const char *>(w) + at * (Element == RowElement::Float ? 4 : 2);
}

// kWidth weights from element `at` of w, as floats.
template<RowElement Element>
inline Reg weightVector(const void *w, long at)
{
    if constexpr (Element == RowElement::Float)
        return loadu(static_cast<const float *>(w) + at);
    else if constexpr (Element == RowElement::BFloat16)
        return widenBfloat16(static_cast<const std::uint16_t *>(w) + at);
    else
        return widenHalf(static_cast<const std::uint16_t *>(w) + at);
}

// The last `n` (fewer than kWidth) weights of a row from element `at`, the
// lanes past them zero; nothing past the row is read (it may end the mapping).
template<RowElement Element>
inline Reg weightPart(const void *w, long at, long n)
{
    if constexpr (Element == RowElement::Float) {
        return loadPart(static_cast<const float *>(w) + at, n);
    } else {
        const std::uint16_t *p = static_cast<const std::uint16_t *>(w) + at;
        std::uint16_t part[kWidth];
        for (long l = 0; l < kWidth; ++l)
            part[l] = l < n ? p[l] : 0;
        return weightVector<Element>(part, 0);
    }
}

// Vectors of one weight row multiplied at a time, each into its own sums:
// four independent multiply-add chains keep a core's memory traffic ahead
// of the adder's latency.
constexpr long kAlong = 4;
// How far ahead along a weight's rows the next bytes are asked from memory.
// One row streamed from its start to its end (the next row follows it in
// the file) is what the processor's own prefetching follows best; asking
// 2 KiB ahead as well carries the stream across page boundaries.
constexpr long kAheadBytes = 2048;

// One step of rowStreamDots: kAlong vectors of each of its Ws rows of w
// from element k times the same elements of x's rows, vector a of w's row p
// into acc[p][r][a]. Each vector of x is loaded once for all Ws rows of w.
template<RowElement Element, long Rows, long Ws>
inline void streamStep(const float *x, long ldx, const void *const (&w)[Ws], long k, Reg (&acc)[Ws][Rows][kAlong])
{
    constexpr long kAhead = kAheadBytes / (Element == RowElement::Float ? 4 : 2);
    for (long a = 0; a < kAlong; ++a) {
        const long at = k + a * kWidth;
        Reg b[Ws];
        for (long p = 0; p < Ws; ++p) {
            b[p] = weightVector<Element>(w[p], at);
            __builtin_prefetch(elementAt<Element>(w[p], at + kAhead));
        }
        for (long r = 0; r < Rows; ++r) {
            const Reg v = loadu(x + r * ldx + at);
            for (long p = 0; p < Ws; ++p)
                acc[p][r][a] = multiplyAdd(v, b[p], acc[p][r][a]);
        }
    }
}

// rowDots for exactly `Rows` rows of x, Ws rows of w at a time: each row of
// w read once from its start to its end, each vector widened once and
// multiplied with every row of x in registers. The term k goes into sum
// k / kWidth % kAlong, lane k % kWidth; the sums are added (0 + 1) + (2 +
// 3), then the lanes in order, whatever Ws is. Two rows of w at a time load
// each vector of x once for both: the loads, not the multiplies, are what a
// few rows of x wait on (one row of x streams faster one row of w at a time).
template<RowElement Element, long Rows, long Ws = 1>
void rowStreamDots(const float *x, long ldx, const void *w, long ldw, long depth, long cols, float *y, long ldy)
{
    constexpr long kStep = kAlong * kWidth;
    const long steps = depth - depth % kStep, vectors = depth - depth % kWidth;
    long j = 0;
    for (; j + Ws <= cols; j += Ws) {
        const void *row[Ws];
        for (long p = 0; p < Ws; ++p)
            row[p] = elementAt<Element>(w, (j + p) * ldw);
        Reg acc[Ws][Rows][kAlong];
        for (long p = 0; p < Ws; ++p)
            for (long r = 0; r < Rows; ++r)
                for (long a = 0; a < kAlong; ++a)
                    acc[p][r][a] = zero();
        for (long k = 0; k < steps; k += kStep)
            streamStep<Element, Rows, Ws>(x, ldx, row, k, acc);
        for (long k = steps; k < depth; k += kWidth) {
            const long a = k / kWidth % kAlong;
            const bool whole = k < vectors;
            for (long p = 0; p < Ws; ++p) {
                const Reg b = whole ? weightVector<Element>(row[p], k) : weightPart<Element>(row[p], k, depth - k);
                for (long r = 0; r < Rows; ++r) {
                    const Reg v = whole ? loadu(x + r * ldx + k) : loadPart(x + r * ldx + k, depth - k);
                    acc[p][r][a] = multiplyAdd(v, b, acc[p][r][a]);
                }
            }
        }
        for (long p = 0; p < Ws; ++p)
            for (long r = 0; r < Rows; ++r)
                y[r * ldy + j + p] = sumOfLanes(add(add(acc[p][r][0], acc[p][r][1]), add(acc[p][r][2], acc[p][r][3])));
    }
    if constexpr (Ws > 1)
        if (j < cols)
            rowStreamDots<Element, Rows>(x, ldx, elementAt<Element>(w, j * ldw), ldw, depth, cols - j, y + j, ldy);
}

// Two rows of w at a time for 2 or 3 rows of x where their 2 x Rows x
// kAlong sums fit the registers (32 of them: kVectors >= 4).
template<RowElement Element, long Rows>
void streamDots(const float *x, long ldx, const void *w, long ldw, long depth, long cols, float *y, long ldy)
{
    constexpr long kWs = kVectors >= 4 && Rows >= 2 && Rows <= 3 ? 2 : 1;
    rowStreamDots<Element, Rows, kWs>(x, ldx, w, ldw, depth, cols, y, ldy);
}

template<RowElement Element>
void rowDotsOf(const float *x, long ldx, long rows, const void *w, long ldw, long depth, long cols, float *y, long ldy)
{
    // Rows of x at a time: 16 sums of 4 x kAlong fit 32 vector registers, 8 of 2 x kAlong fit 16.
    constexpr long kGroup = kVectors >= 4 ? 4 : 2;
    for (long r0 = 0; r0 < rows; r0 += kGroup) {
        const float *xr = x + r0 * ldx;
        float *yr = y + r0 * ldy;
        switch (smaller(kGroup, rows - r0)) {
        case 1:
            streamDots<Element, 1>(xr, ldx, w, ldw, depth, cols, yr, ldy);
            break;
        case 2:
            streamDots<Element, 2>(xr, ldx, w, ldw, depth, cols, yr, ldy);
            break;
        case 3:
            streamDots<Element, kGroup < 3 ? 1 : 3>(xr, ldx, w, ldw, depth, cols, yr, ldy);
            break;
        default:
            streamDots<Element, kGroup>(xr, ldx, w, ldw, depth, cols, yr, ldy);
            break;
        }
    }
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

void rowDots(const float *x, long ldx, long rows, const void *w, RowElement element, long ldw, long depth, long cols,
             float *y, long ldy)
{
    switch (element) {
    case RowElement::Float:
        rowDotsOf<RowElement::Float>(x, ldx, rows, w, ldw, depth, cols, y, ldy);
        break;
    case RowElement::BFloat16:
        rowDotsOf<RowElement::BFloat16>(x, ldx, rows, w, ldw, depth, cols, y, ldy);
        break;
    case RowElement::Half:
        rowDotsOf<RowElement::Half>(x, ldx, rows, w, ldw, depth, cols, y, ldy);
        break;
    }
}
