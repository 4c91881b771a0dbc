#include "freedmemory.h"

#include <malloc.h>

namespace attn {

void keepFreedMemoryForReuse()
{
    // Older glibc refuses thresholds over 32 MB; setting only the trim
    // threshold would then pin the mmap threshold low, the opposite of the aim.
    if (mallopt(M_MMAP_THRESHOLD, 64 << 20) == 1)
        mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

} // namespace attn
