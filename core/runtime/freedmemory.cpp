#include "runtime/freedmemory.h"

#include <algorithm>
#include <malloc.h>
#include <unistd.h>

namespace attn {

std::size_t keptFreedBytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    const std::size_t machine = pages > 0 && pageSize > 0 ? std::size_t(pages) * std::size_t(pageSize) : 0;
    return std::clamp<std::size_t>(machine / 8, std::size_t(512) << 20, std::size_t(2) << 30);
}

void keepFreedMemoryForReuse()
{
    // Older glibc refuses thresholds over 32 MB; setting only the trim
    // threshold would then pin the mmap threshold low, the opposite of the aim.
    if (mallopt(M_MMAP_THRESHOLD, 64 << 20) == 1)
        mallopt(M_TRIM_THRESHOLD, int(std::min<std::size_t>(keptFreedBytes(), std::size_t(2047) << 20)));
}

void releaseFreedMemory() { malloc_trim(0); }

} // namespace attn
