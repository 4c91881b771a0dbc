#pragma once
// How the process keeps memory it frees (glibc's malloc): set once at start
// by the program, and by the tests that time the window as users meet it.

namespace attn {

// A large result is tens of megabytes in blocks of a few, freed when the next
// result arrives. By default glibc returns such blocks to the system and the
// next result faults every page in again (15 % of a 1024-token pass), and
// freeing a worker thread's blocks on the GUI thread unmaps them there (the
// kernel's time on the GUI thread); keeping up to 512 MB of freed memory for
// reuse avoids both. Blocks of 64 MB and more (4096-token heads) are still
// mapped and unmapped on their own.
void keepFreedMemoryForReuse();

} // namespace attn
