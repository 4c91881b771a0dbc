#pragma once
// JSON text that people can read: objects indented, and every list of plain
// numbers or strings (a matrix row, the tokens) kept on one line.

#include <QByteArray>
#include <QJsonValue>

namespace attn {

// Numbers are written in the shortest form that reads back as the same double.
QByteArray formatJson(const QJsonValue &value);

} // namespace attn
