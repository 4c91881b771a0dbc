// libFuzzer target: the tokenizer on arbitrary UTF-8. Every token must be a
// non-empty, in-order, non-overlapping slice of the sentence that equals its
// text, and contain no whitespace at its ends.

#include "session/tokenizer.h"

#include <QString>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString sentence = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const std::vector<attn::Token> tokens = attn::tokenize(sentence);
    int end = 0;
    for (const attn::Token &t : tokens) {
        if (t.length <= 0 || t.start < end || t.start + t.length > sentence.size())
            std::abort();
        if (sentence.mid(t.start, t.length) != t.text)
            std::abort();
        if (t.text.front().isSpace() || t.text.back().isSpace())
            std::abort();
        end = t.start + t.length;
    }
    return 0;
}
