#pragma once
// How every command speaks: errors as one line on stderr, results on stdout.

#include <QByteArray>
#include <QString>

// "attention-explorer: MESSAGE" on one line (a file name with a newline in it
// stays on that line); returns `code`, the exit status to give.
int printError(const QString &message, int code);

// All of `bytes` to stdout, flushed; false when it could not be written.
bool writeStdout(const QByteArray &bytes);
