// libFuzzer target: BERT's WordPiece. The first byte chooses what the rest
// is: a text for the real bert-base-uncased vocabulary ([CLS] first, [SEP]
// last, every id in range), or a vocab.txt and a tokenizer_config.json
// separated by a NUL byte. A file may be refused, never crash.

#include "tokenizers/tokenizerloader.h"

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <cstdlib>

namespace {

void check(const attn::ModelTokenizer &t, const QString &text)
{
    const std::vector<attn::ModelToken> tokens = t.encode(text);
    if (tokens.size() < 2 || tokens.front().id != t.specialIds().cls || tokens.back().id != t.specialIds().sep)
        std::abort();
    for (const attn::ModelToken &token : tokens)
        if (token.id < 0 || token.id >= t.vocabSize() || token.text != t.idToText(token.id))
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const attn::TokenizerPtr bert = [] {
        QString error;
        auto t = attn::loadBertTokenizer(QStringLiteral(ATTN_TEST_DATA "/tokenizers/bert-base-uncased/vocab.txt"), QString(), &error);
        if (!t)
            std::abort();
        return t;
    }();
    if (size == 0)
        return 0;
    const QByteArray rest(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    if (data[0] % 2 == 0) {
        check(*bert, QString::fromUtf8(rest));
        return 0;
    }
    const qsizetype cut = rest.indexOf('\0');
    const QByteArray vocab = cut < 0 ? rest : rest.left(cut);
    const QByteArray config = cut < 0 ? QByteArray() : rest.mid(cut + 1);
    QString error;
    if (const attn::TokenizerPtr t = attn::parseBertTokenizer(vocab, config, &error))
        check(*t, QStringLiteral("Hello, my dog is cute [MASK] café 中文 🙂"));
    else if (error.isEmpty() || error.contains(QLatin1Char('\n')))
        std::abort();
    return 0;
}
