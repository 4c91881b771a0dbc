#include "runtime/blasruntime.h"

#include <cblas.h>

namespace attn {

CpuFeatures detectCpuFeatures()
{
    CpuFeatures f;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    f.avx2 = __builtin_cpu_supports("avx2");
    f.fma = __builtin_cpu_supports("fma");
    f.avx512f = __builtin_cpu_supports("avx512f");
    f.avx512bw = __builtin_cpu_supports("avx512bw");
    f.avx512vl = __builtin_cpu_supports("avx512vl");
    f.avx512dq = __builtin_cpu_supports("avx512dq");
    f.avx512bf16 = __builtin_cpu_supports("avx512bf16");
#endif
    return f;
}

std::string blasCoreName()
{
    const char *name = openblas_get_corename();
    return name ? name : "";
}

std::string betterBlasCoreType(const std::string &current, const CpuFeatures &cpu)
{
    if (current != "Prescott")
        return {};
    const bool skylakeX = cpu.avx512f && cpu.avx512bw && cpu.avx512vl && cpu.avx512dq && cpu.avx2 && cpu.fma;
    if (skylakeX && cpu.avx512bf16)
        return "Cooperlake";
    if (skylakeX)
        return "SkylakeX";
    if (cpu.avx2 && cpu.fma)
        return "Haswell";
    return {};
}

} // namespace attn
