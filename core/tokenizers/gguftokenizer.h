#pragma once
// The tokenizer a GGUF file carries in its metadata (tokenizer.ggml.*), as
// llama.cpp reads it (llama-vocab.cpp, llama_vocab::impl::load): "gpt2" is a
// byte-level BPE vocabulary with its merges and the pre-tokenizer
// `tokenizer.ggml.pre` names; "llama" is SentencePiece's vocabulary merged by
// token score, with <0xNN> byte fallback. Control and user-defined tokens are
// found in the text first. A BOS is put in front when `add_bos_token` says so,
// or, when the file does not say, as llama.cpp decides: always for "llama",
// for "gpt2" only with Llama 3's pre-tokenizers.
//
// The metadata is untrusted: every key of the wrong type, a vocabulary that
// is empty or of another size than the model's embedding, a merge that names
// no token, a special id outside the vocabulary and an unknown model or
// pre-tokenizer is refused with one line starting with the file's name and
// naming the key.

#include "tokenizers/tokenizerloader.h"

namespace attn {

class GgufFile;

// `modelVocab`: the rows of the model's token embedding, which the vocabulary
// must match exactly (llama.cpp sizes token_embd.weight by the vocabulary, and
// converters pad the vocabulary to the embedding); -1 reads them from the
// file's token_embd.weight (no check when the file has none).
TokenizerPtr tokenizerFromGguf(const GgufFile &file, QString *error, int modelVocab = -1);

// The size check of tokenizerFromGguf alone (no token is read), so that a
// file whose vocabulary and embedding disagree is refused for that before
// its weights are read: the one-line message, or empty.
QString ggufVocabularyProblem(const GgufFile &file, int modelVocab = -1);

} // namespace attn
