#include "model/attentionkernels.h"

#include <atomic>

namespace attn::kernels {

// The entry points of attentionkernel_<isa>.cpp (each also includes attentionkernelbody.h).
#define ATTN_DECLARE_KERNELS(isa)                                                                                   \
    namespace isa {                                                                                                 \
    void scores(const float *q, long ldq, long rows, const float *packed, long dk, long cols, float *s, long lds);    \
    void context(const float *w, long ldw, long rows, long keys, const float *v, long ldv, float *z, long ldz);      \
    void narrowContext(const float *w, long ldw, long rows, long keys, const float *vt, long ldvt, long dv, float *z, \
                       long ldz);                                                                                   \
    void softmax(const float *in, float *out, long visible, float scale, float *max, float *inverseSum);            \
    void largest(const float *in, long count, float sign, float *into);                                             \
    void softmaxWithExtras(const float *in, float *out, long visible, float scale, float *max, float *inverseSum,     \
                           const RowExtras &extras);                                                                \
    void slidingLargest(float *values, long count, long width);                                                     \
    void denseProduct(const float *x, long ldx, long rows, const float *packed, long depth, long cols, float *y,     \
                      long ldy, bool accumulate);                                                                   \
    void rowDots(const float *x, long ldx, long rows, const void *w, RowElement element, long ldw, long depth,       \
                 long cols, float *y, long ldy);                                                                    \
    }
#if defined(__x86_64__)
ATTN_DECLARE_KERNELS(avx512)
ATTN_DECLARE_KERNELS(avx2)
ATTN_DECLARE_KERNELS(sse2)
#else
ATTN_DECLARE_KERNELS(portable)
#endif
#undef ATTN_DECLARE_KERNELS

namespace {

// Vector width, panel width (kWidth * kVectors), rows and kNarrowMost as each file sets them.
#if defined(__x86_64__)
constexpr AttentionKernels kAvx512{"avx512", 16, 64, 6, 8, avx512::scores, avx512::context, avx512::narrowContext,
                                avx512::softmax, avx512::largest, avx512::softmaxWithExtras,
                                avx512::denseProduct, avx512::rowDots, avx512::slidingLargest};
constexpr AttentionKernels kAvx2{"avx2", 8, 16, 6, 4, avx2::scores, avx2::context, avx2::narrowContext,
                                avx2::softmax, avx2::largest, avx2::softmaxWithExtras,
                                avx2::denseProduct, avx2::rowDots, avx2::slidingLargest};
constexpr AttentionKernels kSse2{"sse2", 4, 8, 6, 2, sse2::scores, sse2::context, sse2::narrowContext,
                                sse2::softmax, sse2::largest, sse2::softmaxWithExtras,
                                sse2::denseProduct, sse2::rowDots, sse2::slidingLargest};
#else
constexpr AttentionKernels kPortable{"portable", 1, 4, 6, 0, portable::scores, portable::context,
                                portable::narrowContext,
                                portable::softmax, portable::largest, portable::softmaxWithExtras,
                                portable::denseProduct, portable::rowDots, portable::slidingLargest};
#endif

struct Runnable
{
    const AttentionKernels *sets[4] = {};

    Runnable()
    {
#if defined(__x86_64__)
        // GCC's checks also ask the operating system whether it saves the
        // wider registers (XGETBV), not only whether the processor has them.
        __builtin_cpu_init();
        int count = 0;
        if (__builtin_cpu_supports("avx512f"))
            sets[count++] = &kAvx512;
        // The AVX2 set also converts halves (F16C): every processor with
        // AVX2 and FMA has it (Intel since Haswell, AMD since Piledriver), and
        // Clang's check cannot name it.
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            sets[count++] = &kAvx2;
        sets[count] = &kSse2; // part of x86-64 itself
#else
        sets[0] = &kPortable;
#endif
    }
};

const Runnable &runnable()
{
    static const Runnable sets;
    return sets;
}

std::atomic<const AttentionKernels *> chosen{nullptr};

} // namespace

const AttentionKernels &activeAttentionKernels()
{
    const AttentionKernels *set = chosen.load(std::memory_order_relaxed);
    return set ? *set : *runnable().sets[0];
}

void useAttentionKernels(const AttentionKernels *kernels)
{
    chosen.store(kernels, std::memory_order_relaxed);
}

const AttentionKernels *const *runnableAttentionKernels()
{
    return runnable().sets;
}

} // namespace attn::kernels
