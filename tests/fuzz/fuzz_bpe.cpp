// libFuzzer target: GPT-2's byte-level BPE. The first byte chooses what the
// rest is: a text for the real GPT-2 vocabulary (its tokens' bytes must give
// the text's UTF-8 back, every id in range), or a tokenizer.json (and a
// tokenizer_config.json after a NUL byte), or a vocab.json and merges.txt
// separated by a NUL byte. A file may be refused,
// never crash; a tokenizer it gives must encode a fixed text to ids in range.

#include "tokenizers/tokenizerloader.h"

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <cstdlib>

namespace {

void checkIds(const attn::ModelTokenizer &t, const QString &text)
{
    for (const attn::ModelToken &token : t.encode(text))
        if (token.id < 0 || token.id >= t.vocabSize() || token.text != t.idToText(token.id))
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const attn::TokenizerPtr gpt2 = [] {
        QString error;
        auto t = attn::loadGpt2Tokenizer(QStringLiteral(ATTN_TEST_DATA "/tokenizers/gpt2/vocab.json"),
                                         QStringLiteral(ATTN_TEST_DATA "/tokenizers/gpt2/merges.txt"), &error);
        if (!t)
            std::abort();
        return t;
    }();
    if (size == 0)
        return 0;
    const QByteArray rest(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    QString error;
    switch (data[0] % 3) {
    case 0: {
        const QString text = QString::fromUtf8(rest);
        QByteArray bytes;
        for (const attn::ModelToken &token : gpt2->encode(text)) {
            if (token.id < 0 || token.id >= gpt2->vocabSize() || token.bytes.isEmpty())
                std::abort();
            bytes += token.bytes;
        }
        if (bytes != text.toUtf8())
            std::abort();
        break;
    }
    case 1: {
        const qsizetype cut = rest.indexOf('\0');
        const QByteArray json = cut < 0 ? rest : rest.left(cut);
        const QByteArray config = cut < 0 ? QByteArray() : rest.mid(cut + 1);
        if (const attn::TokenizerPtr t = attn::parseTokenizerJson(json, &error, QStringLiteral("tokenizer.json"), config))
            checkIds(*t, QStringLiteral("Hello world <|endoftext|> [MASK] <s> 🙂 ab 123\n€"));
        else if (error.isEmpty() || error.contains(QLatin1Char('\n')))
            std::abort();
        break;
    }
    default: {
        const qsizetype cut = rest.indexOf('\0');
        const QByteArray vocab = cut < 0 ? rest : rest.left(cut);
        const QByteArray merges = cut < 0 ? QByteArray() : rest.mid(cut + 1);
        if (const attn::TokenizerPtr t = attn::parseGpt2Tokenizer(vocab, merges, &error))
            checkIds(*t, QStringLiteral("Hello world <|endoftext|> 🙂 ab"));
        else if (error.isEmpty() || error.contains(QLatin1Char('\n')))
            std::abort();
        break;
    }
    }
    return 0;
}
