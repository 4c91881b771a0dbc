#pragma once
// The result file that `compute` writes (contract section 3).

#include "session/session.h"

#include <QByteArray>
#include <QJsonObject>

namespace attn {

QJsonObject resultToJsonObject(const Session &session, const AttentionResult &result);
QByteArray resultToJson(const Session &session, const AttentionResult &result);

} // namespace attn
