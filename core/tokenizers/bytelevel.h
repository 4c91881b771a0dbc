#pragma once
// GPT-2's byte level: every byte has a printable stand-in character in the
// vocabulary (openai/gpt-2 encoder.py bytes_to_unicode), and text is cut into
// words by GPT-2's pattern before byte-pair encoding.

#include <QString>
#include <QStringList>

namespace attn::bytelevel {

// Bytes 33–126, 161–172 and 174–255 stand for themselves; the 68 others map
// in order to U+0100 onwards (space → "Ġ" U+0120, newline → "Ċ" U+010A).
char16_t byteToChar(unsigned char byte);
// The inverse: the byte a character stands for, or -1.
int charToByte(char16_t c);

// Splits as `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
// does in Python's `regex`. The pieces concatenate to the text again.
QStringList preTokenize(const QString &text);

} // namespace attn::bytelevel
