#pragma once
// Reading a GGUF file's metadata for the model families (model/families/),
// as ConfigFields reads config.json: each getter checks the key's type and
// range and throws ConfigError naming the key, so that a hostile file's
// wrong type or absurd value is one line, not a wrong number.

#include "model/configfields.h"

#include <QString>
#include <optional>

namespace attn {

class GgufFile;

class GgufFields
{
public:
    // Keys starting with '.' are the architecture's own: ".block_count" is
    // "llama.block_count" in a file of architecture "llama".
    GgufFields(const GgufFile &file, QString architecture) : m_file(file), m_architecture(std::move(architecture)) {}

    const QString &architecture() const { return m_architecture; }
    const GgufFile &file() const { return m_file; }
    QString key(const char *key) const;
    bool has(const char *key) const;
    // An integer key (any integer type) in [min, max]; `fallback` when absent, if given.
    int integer(const char *key, int min, int max, std::optional<int> fallback = std::nullopt) const;
    // A number (float or integer) in (0, max]; `fallback` when absent.
    double positive(const char *key, double max, double fallback) const;
    QString string(const char *key, const QString &fallback) const;
    bool boolean(const char *key, bool fallback) const;
    // The rows of a 2-D tensor (its ne[1]: the vocabulary of token_embd); `what` names it when absent.
    int tensorRows(const QString &tensor, int max) const;

private:
    const GgufFile &m_file;
    QString m_architecture;
};

} // namespace attn
