#pragma once
// Which OpenBLAS kernels run, and a remedy when OpenBLAS chose badly.
//
// OpenBLAS picks its kernels for the processor when the library loads. Before
// 0.3.25 (Debian 12 ships 0.3.21) it falls back to its slowest x86-64 kernels,
// "Prescott" (SSE3), on Intel processors newer than itself, even when they have
// AVX-512: on this project's 2-core build machines sgemm then runs at about 70
// instead of 290-380 GFLOP/s (OpenBLAS issue #4267). The environment variable
// OPENBLAS_CORETYPE overrides the choice, but only before the library loads.

#include <string>

namespace attn {

struct CpuFeatures
{
    bool avx2 = false, fma = false, avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false,
         avx512bf16 = false;
};

CpuFeatures detectCpuFeatures();

// The OpenBLAS kernel family in use, e.g. "Cooperlake", as OpenBLAS names it.
std::string blasCoreName();

// The OPENBLAS_CORETYPE that fits `cpu` when OpenBLAS runs `current` (its
// Prescott fallback) on a processor that can do better; empty otherwise.
std::string betterBlasCoreType(const std::string &current, const CpuFeatures &cpu);

} // namespace attn
