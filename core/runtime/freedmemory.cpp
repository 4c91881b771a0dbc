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
    // One arena for every thread: a worker thread's own arena lives in heaps
    // of 64 MB that glibc unmaps as soon as one is wholly free, whatever the
    // trim threshold, so a pass of a large model (a few hundred megabytes of
    // attention rows, freed two texts later) faulted its pages in again on
    // every typed word: 9,000 faults and 160 ms of a 390 ms word at 256
    // tokens of a Qwen2.5-0.5B-shaped model, none with one arena. The lock
    // the threads then share is taken once per block, and blocks are large.
    mallopt(M_ARENA_MAX, 1);
}

void releaseFreedMemory() { malloc_trim(0); }

} // namespace attn
