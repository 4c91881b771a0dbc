#pragma once
// Ending an atomic write (QSaveFile) so that a failed write never replaces
// the old file: shared by session files, model files and exports.

#include <QSaveFile>
#include <QString>

namespace attn {

// Flushes and commits `file`; on failure cancels it (the old file stays) and
// `error` gets "NAME: cannot write: REASON". Flush first: Qt 6.4's QSaveFile
// commits even when flushing its buffer failed, and a full disk would put a
// truncated file in place of the old one. Qt often gives no reason for a
// failed write; errno does.
bool commitSaveFile(QSaveFile &file, const QString &name, QString *error);

} // namespace attn
