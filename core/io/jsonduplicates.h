#pragma once
// Finds a repeated key in a JSON text. QJsonDocument keeps the last of two
// equal keys silently; a safetensors header with two entries for one tensor
// name must be refused instead (internal to core/io).

#include <QByteArray>
#include <QStringList>
#include <optional>

namespace attn::detail {

// For JSON that QJsonDocument already accepted: the path of keys to the
// first key that repeats inside its object (e.g. {"h.0", "dtype"}), or nothing.
std::optional<QStringList> findDuplicateKey(const QByteArray &json);

} // namespace attn::detail
