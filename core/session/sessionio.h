#pragma once
// Reading and writing session files (contract section 2).

#include "session/session.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace attn {

// Files larger than this are refused before they are read.
constexpr qint64 kMaxSessionFileBytes = 256 * 1024 * 1024;

// Parses a session. On failure returns nothing and sets `error` to one line,
// "NAME: PATH: what is wrong", where PATH is the JSON path of the field.
std::optional<Session> parseSession(const QByteArray &json, const QString &name, QString *error);

// Reads and parses a file; `error` names the file by its file name.
std::optional<Session> readSession(const QString &path, QString *error);

QByteArray sessionToJson(const Session &session);

// Writes atomically: on any failure the old file is left as it was.
bool writeSession(const QString &path, const Session &session, QString *error);

// Writes bytes atomically (QSaveFile); shared by every writer of the project.
bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error);

} // namespace attn
