// Tokenizers built from a vocabulary as a GGUF file holds it (tokens by id,
// merges, a pre-tokenizer named by `tokenizer.ggml.pre`): Qwen 3's
// vocabulary with llama.cpp's "qwen2", "llama-bpe" and "smollm"
// pre-tokenizers gives the ids Hugging Face's port gives the tokenizer.json
// files of those shapes (expected_hf.json).

#include "tokenizers/bpetokenizer.h"
#include "tokenizers/ggufpretokenizer.h"
#include "tokenizers/sentencepiecetokenizer.h"
#include "tokenizers/tokenizerloader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace attn;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

const QString kDir = QStringLiteral(ATTN_TEST_DATA "/tokenizers");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// Qwen 3's vocabulary as a GGUF file lists it: tokens by id (the added ones
// too), merges as ids, which ids are special.
struct Vocabulary
{
    QStringList tokens;
    std::vector<BpeMerge> merges;
    std::vector<std::pair<QString, int>> specials;
};

const Vocabulary &qwen()
{
    static const Vocabulary v = [] {
        Vocabulary out;
        const QJsonObject root = QJsonDocument::fromJson(qUncompress(readAll(kDir + "/qwen3/tokenizer.json.qz"))).object();
        const QJsonObject vocab = root["model"]["vocab"].toObject();
        const QJsonArray added = root["added_tokens"].toArray();
        out.tokens.resize(vocab.size() + added.size());
        QHash<QString, int> ids;
        for (auto it = vocab.begin(); it != vocab.end(); ++it) {
            out.tokens[it.value().toInt()] = it.key();
            ids.insert(it.key(), it.value().toInt());
        }
        for (const QJsonValue &a : added) {
            out.tokens[a["id"].toInt()] = a["content"].toString();
            out.specials.push_back({a["content"].toString(), a["id"].toInt()});
        }
        for (const QJsonValue &m : root["model"]["merges"].toArray()) {
            const QJsonArray pair = m.toArray();
            out.merges.push_back({ids.value(pair[0].toString()), ids.value(pair[1].toString()),
                                  ids.value(pair[0].toString() + pair[1].toString())});
        }
        return out;
    }();
    return v;
}

TokenizerPtr fromGguf(const QString &pre, const std::vector<int> &prefix)
{
    GgufPreTokenizer g;
    QString error;
    if (!ggufPreTokenizer(pre, &g, &error))
        qFatal("%s", qPrintable(error));
    BpeVocabulary vocabulary;
    vocabulary.tokens = qwen().tokens;
    vocabulary.merges = qwen().merges;
    vocabulary.ignoreMerges = g.ignoreMerges;
    TokenizerSteps steps;
    steps.preTokenizer = g.preTokenizer;
    for (const auto &[content, id] : qwen().specials) {
        steps.added.add({content, id});
        steps.addedIds.insert(id, true);
    }
    steps.prefix = prefix;
    return std::make_shared<BpeTokenizer>(vocabulary, steps);
}

} // namespace

class TestGgufVocab : public QObject
{
    Q_OBJECT

private slots:
    void preTokenizers_data()
    {
        QTest::addColumn<QString>("pre");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<bool>("bos");
        QTest::newRow("qwen2") << "qwen2" << "qwen3" << false;
        QTest::newRow("llama-bpe") << "llama-bpe" << "llama3-shaped" << true;
        QTest::newRow("smollm") << "smollm" << "smollm-shaped" << false;
    }

    void preTokenizers()
    {
        // llama.cpp has no NFC step: texts that NFC changes are left out.
        QFETCH(QString, pre);
        QFETCH(QString, shape);
        QFETCH(bool, bos);
        const TokenizerPtr t = fromGguf(pre, bos ? std::vector<int>{151644} : std::vector<int>{});
        const QJsonArray rows = QJsonDocument::fromJson(readAll(kDir + "/expected_hf.json")).object()[shape].toArray();
        int compared = 0;
        for (const QJsonValue &row : rows) {
            const QString text = row["text"].toString();
            if (text.normalized(QString::NormalizationForm_C) != text)
                continue;
            std::vector<int> ids;
            for (const QJsonValue &id : row["ids"].toArray())
                ids.push_back(id.toInt());
            QVERIFY2(t->encodeIds(text) == ids, qPrintable(text));
            ++compared;
        }
        QCOMPARE(compared, rows.size() - 1); // the combining accents
    }

    void sentencePieceByScore()
    {
        // Hand-worked: "abc" -> "▁abc"; the pairs that are tokens: ▁a (-3),
        // ab (-5), bc (-2). bc first (highest), then ▁a; "▁abc" and "abc" are
        // no tokens: ▁a, bc. A merge list ranked ab before bc would give
        // ▁a + bc too, but "xab c" shows the order: ab (-5) is the only pair
        // in "▁xab", so ▁, x, ab; then "▁c".
        using T = SentencePieceVocabulary::TokenType;
        SentencePieceVocabulary v;
        v.tokens = {"<unk>", "<s>", "</s>", "<0x0A>", "<0xC3>", "<0xA9>", "\u2581", "a", "b", "c", "x", "ab", "bc", "\u2581a", "\u2581c"};
        v.scores = {0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -5, -2, -3, -4};
        v.types = {T::Unknown, T::Control, T::Control, T::Byte, T::Byte, T::Byte};
        v.special.unk = 0;
        v.special.bos = 1;
        v.special.eos = 2;
        const SentencePieceTokenizer t(v);
        QCOMPARE(t.encodeIds("abc"), (std::vector<int>{1, 13, 12}));
        QCOMPARE(t.encodeIds("xab c"), (std::vector<int>{1, 6, 10, 11, 14}));
        // é is no token: its two bytes; a typed </s> is found first, and a
        // space goes in front of the text after it.
        const std::vector<ModelToken> tokens = t.encode(QStringLiteral("\u00E9</s>a"));
        QCOMPARE(t.encodeIds(QStringLiteral("\u00E9</s>a")), (std::vector<int>{1, 6, 4, 5, 2, 13}));
        QCOMPARE(tokens[0], (ModelToken{1, "", "<s>", ModelToken::Role::Special}));
        QCOMPARE(tokens[2], (ModelToken{4, "\xC3", "<0xC3>", ModelToken::Role::Byte}));
        QCOMPARE(tokens[5], (ModelToken{13, " a", " a"}));
        v.addSpacePrefix = false; // Gemma's GGUF files
        v.addBos = false;
        QCOMPARE(SentencePieceTokenizer(v).encodeIds("abc"), (std::vector<int>{7, 12}));
    }

    void sentencePieceOnMistral()
    {
        // Mistral's vocabulary with each token scored by the rank of the merge
        // that makes it (the order Hugging Face's converter gave the merges,
        // from SentencePiece's scores): the same ids as its tokenizer.json.
        const QJsonObject root = QJsonDocument::fromJson(readAll(kDir + "/mistral/tokenizer.json").replace("\xEF\xBB\xBF", "\\ufeff")).object();
        const QJsonObject vocab = root["model"]["vocab"].toObject();
        SentencePieceVocabulary v;
        v.tokens.resize(vocab.size());
        v.scores.assign(size_t(vocab.size()), 0.0f);
        v.types.assign(size_t(vocab.size()), SentencePieceVocabulary::TokenType::Normal);
        for (auto it = vocab.begin(); it != vocab.end(); ++it) {
            v.tokens[it.value().toInt()] = it.key();
            if (it.key().startsWith("<0x") && it.key().size() == 6)
                v.types[size_t(it.value().toInt())] = SentencePieceVocabulary::TokenType::Byte;
        }
        const QJsonArray merges = root["model"]["merges"].toArray();
        for (int rank = 0; rank < merges.size(); ++rank) {
            const QStringList pair = merges[rank].toString().split(' ');
            const int id = vocab.value(pair[0] + pair[1]).toInt();
            if (v.scores[size_t(id)] == 0.0f)
                v.scores[size_t(id)] = -float(rank) - 1;
        }
        for (const int id : {0, 1, 2})
            v.types[size_t(id)] = SentencePieceVocabulary::TokenType::Control;
        v.special.unk = 0;
        v.special.bos = 1;
        v.special.eos = 2;
        const SentencePieceTokenizer t(v);
        int same = 0;
        const QJsonArray rows = QJsonDocument::fromJson(readAll(kDir + "/expected_hf.json")).object()["mistral"].toArray();
        for (const QJsonValue &row : rows) {
            std::vector<int> ids;
            for (const QJsonValue &id : row["ids"].toArray())
                ids.push_back(id.toInt());
            if (t.encodeIds(row["text"].toString()) == ids)
                ++same;
            else
                qInfo() << "differs:" << row["text"].toString();
        }
        QCOMPARE(same, rows.size());
    }

    void defaultIsNotGpt2()
    {
        // No `tokenizer.ggml.pre` is llama.cpp's "default": punctuation runs
        // first, then digits in threes ("1234" -> "123", "4").
        const TokenizerPtr t = fromGguf(QString(), {});
        const std::vector<int> ids = t->encodeIds("x=1234");
        QStringList texts;
        for (const int id : ids)
            texts << t->idToText(id);
        QCOMPARE(texts, (QStringList{"x", "=", "1", "2", "3", "4"})); // Qwen has single digits only
        GgufPreTokenizer g;
        QString error;
        QVERIFY(!ggufPreTokenizer("tekken-9", &g, &error));
        QCOMPARE(error, QStringLiteral("tokenizer.ggml.pre: \"tekken-9\" is not a pre-tokenizer this program knows"));
        QVERIFY(ggufPreTokenizer("llama3", &g, &error));
        QVERIFY(g.ignoreMerges && g.addBos);
    }
};

QTEST_GUILESS_MAIN(TestGgufVocab)
#include "tst_ggufvocab.moc"
