#pragma once
// The headless commands (compute, export) and --help / --version.

#include <QStringList>

enum ExitCode { ExitOk = 0, ExitFailure = 1, ExitBadInput = 2 };

// True when the arguments ask for a command that needs no window.
bool isHeadlessCommand(const QStringList &arguments);

// True for a headless command that paints (export): it needs fonts, hence a
// QGuiApplication, on the offscreen platform so that no display is needed.
bool needsGuiApplication(const QStringList &arguments);

// Runs a headless command; prints results on stdout and one-line errors on stderr.
int runHeadlessCommand(const QStringList &arguments);

// The usage text shown by --help.
QString usageText();
