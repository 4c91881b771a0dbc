#pragma once
// A cheap identity of a model file, for sessions to notice that the file
// they were made with has changed.

#include <QString>

namespace attn {

// "size:N sha256:HEX", where the hash covers the first MiB (the whole
// safetensors header of any usual model: names, shapes, offsets, metadata),
// 64 samples of 4 KiB spread evenly over the rest and the last 4 KiB; a file
// of at most 1.25 MiB is hashed whole. About 1.3 MiB read, whatever the size.
//
// Why not more or less: a full hash of a 500 MB checkpoint costs seconds; the
// header alone misses a retrained model (same names and shapes, new weights),
// which the samples of the data catch. The modification time is left out on
// purpose: copying a model or downloading it again changes it while the
// contents stay the same. Empty, with a one-line error, when it cannot be read.
QString fileIdentity(const QString &path, QString *error);

} // namespace attn
