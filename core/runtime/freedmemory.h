#pragma once
// How the process keeps memory it frees (glibc's malloc): set once at start
// by the program, and by the tests that time the window as users meet it.

#include <cstddef>

namespace attn {

// A result is tens to hundreds of megabytes in blocks of a few, freed when
// the next result arrives. By default glibc returns such memory to the system
// and the next result faults every page in again (a 1024-token GPT-2 pass
// re-faulted some 700 MB, a sixth of its time), and memory a worker thread
// allocated and the GUI thread frees is unmapped there (kernel time on the
// GUI thread). Kept for reuse instead, up to keptFreedBytes(): an eighth of
// the machine's memory, at most 2 GiB and at least 512 MiB. Blocks of 64 MB
// and more (4096-token heads) are still mapped and unmapped on their own.
// Every thread allocates from the one arena this keeps (freedmemory.cpp
// says why).
void keepFreedMemoryForReuse();
std::size_t keptFreedBytes();

// Gives the kept memory back to the system (a model was closed: the next
// results will be small or far away).
void releaseFreedMemory();

} // namespace attn
