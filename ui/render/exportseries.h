#pragma once
// One file per head in one go, for slides: "out.png" becomes out-head0.png,
// out-head1.png, ... Written all or nothing: every file is painted into a
// temporary file first and only when all of them are complete are they
// renamed into place.

#include "exporter.h"

#include <QStringList>

// The name of file `index` of `count`: "-head" and the 0-based index go
// before the suffix ("slides/out.png" -> "slides/out-head3.png"). Indices are
// padded to the width of the last one, so that file lists sort in order:
// out-head00.png ... out-head11.png for 12 heads.
QString eachHeadPath(const QString &path, int index, int count);
QStringList eachHeadPaths(const QString &path, int count);

// Why every head of `options.view` cannot go into its own file (a view that
// shows all heads or none, the JSON result that holds them all, or any
// reason checkExport gives), as one line naming the file; empty when it can.
QString checkEachHead(const SnapshotPtr &snapshot, const ExportOptions &options, const QString &path);

// Writes head 0 ... H-1 of options.view (options.head is ignored) to
// eachHeadPaths(path, H). On failure nothing new is in place and `error` has
// one line naming the file that failed; `written` gets the files written
// (all of them, or none). Only a rename failing midway, after every file was
// complete, leaves the files renamed before it.
bool exportEachHead(const attn::Session &session, const SnapshotPtr &snapshot, const ExportOptions &options,
                    const QString &path, QStringList *written, QString *error);
