#pragma once
// The pieces every command's parser is built from (cliparse.cpp and
// modelcliparse.cpp), internal to the attn_cliparse library.

#include "cliparse.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace cliparse {

QCommandLineOption valueOption(const char *name, const char *help, const char *value,
                               const QString &defaultValue = QString());
QCommandLineOption flagOption(const char *name, const char *help);

// Adds --help last (where the help text has always listed it) and parses.
// False when the command stops here: a usage error or a --help request,
// either recorded in `command`.
bool parseOrStop(QCommandLineParser &parser, const QStringList &arguments, CommandLine *command);

} // namespace cliparse
