#include "ggufpretokenizer.h"

#include <QStringList>

namespace attn {
namespace {

// llama-vocab.cpp's regex_exprs, after C++ unescaping.
const char *const kGpt2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)";
const char *const kLlama3 = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}"
                            "| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const char *const kQwen2 = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}"
                           "| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

struct Family
{
    QStringList names;
    QStringList regexes;
    bool ignoreMerges;
    bool addBos;
};

const std::vector<Family> &families()
{
    static const std::vector<Family> table = {
        {{"default"}, {"[\\p{P}\\$\\+<=>\\^~\\|]+", kGpt2, "\\p{N}+", "[0-9][0-9][0-9]"}, false, false},
        {{"gpt-2", "phi-2", "roberta-bpe", "mpt", "olmo", "jais"}, {kGpt2}, false, false},
        {{"llama3", "llama-v3", "llama-bpe", "falcon3", "dbrx", "smaug-bpe"}, {kLlama3}, true, true},
        {{"qwen2", "deepseek-r1-qwen", "megrez", "stablelm2"}, {kQwen2}, false, false},
        {{"smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b"}, {"\\p{N}", kGpt2}, false, false},
    };
    return table;
}

} // namespace

bool ggufPreTokenizer(const QString &pre, GgufPreTokenizer *out, QString *error)
{
    const QString name = pre.isEmpty() ? QStringLiteral("default") : pre;
    for (const Family &f : families()) {
        if (!f.names.contains(name))
            continue;
        *out = {};
        for (const QString &regex : f.regexes) {
            QString why;
            if (!out->preTokenizer.appendSplit(regex, PreTokenizer::Behavior::Isolated, false, &why)) {
                *error = QStringLiteral("tokenizer.ggml.pre: %1: %2").arg(name, why); // never: the table compiles
                return false;
            }
        }
        out->preTokenizer.appendByteLevel(false, false);
        out->ignoreMerges = f.ignoreMerges;
        out->addBos = f.addBos;
        return true;
    }
    *error = QStringLiteral("tokenizer.ggml.pre: \"%1\" is not a pre-tokenizer this program knows").arg(name.left(60));
    return false;
}

} // namespace attn
