#pragma once
// The pre-tokenizer a GGUF file names by `tokenizer.ggml.pre` (its regexes
// are not in the file: llama.cpp keeps them in llama-vocab.cpp, in the
// llm_tokenizer_bpe constructor), for building a byte-level BpeTokenizer from
// a GGUF vocabulary: each regex cuts the pieces of the one before, matches
// and the text between them both kept, then the byte level.

#include "pretokenizer.h"

#include <QString>

namespace attn {

struct GgufPreTokenizer
{
    PreTokenizer preTokenizer;
    bool ignoreMerges = false; // llama.cpp sets it for Llama 3's
    bool addBos = false;       // the default when the file has no add_bos_token
};

// False, with `error` naming the key and the name, for a name this program
// does not know. A missing key is "default" (llama.cpp's four regexes, not
// GPT-2's one).
bool ggufPreTokenizer(const QString &pre, GgufPreTokenizer *out, QString *error);

} // namespace attn
