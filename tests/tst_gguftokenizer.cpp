// The tokenizer a GGUF file carries (tokenizerFromGguf): every converted
// family file and quantised file of tests/data/gguf gives the token ids of
// tests/data/gguf/expected.json (the folder's own ids, from
// ../families/expected.json, where the file converts a folder exactly);
// llama.cpp's defaults (BOS by tokenizer and pre-tokenizer, the "default"
// pre-tokenizer when none is named, a merge listed twice keeping its first
// rank) on vocabularies built here by hand; and each refusal, one line
// naming the key, on files written by tests/ggufwriter.h.

#include "ggufwriter.h"

#include "io/gguffile.h"
#include "tokenizers/bytelevel.h"
#include "tokenizers/gguftokenizer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace attn;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

const QString kData = QStringLiteral(ATTN_TEST_DATA);

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::vector<int> idsOf(const QJsonValue &v)
{
    std::vector<int> ids;
    for (const QJsonValue &id : v.toArray())
        ids.push_back(id.toInt());
    return ids;
}

// The 256 byte stand-ins of GPT-2's byte level (ids 0-255), then `more`.
QStringList byteVocabulary(const QStringList &more)
{
    QStringList tokens;
    for (int b = 0; b < 256; ++b)
        tokens << QString(QChar(bytelevel::byteToChar(uchar(b))));
    return tokens + more;
}

int byteId(char c) { return uchar(c); }

// A gpt2 tokenizer's metadata: the byte vocabulary plus "12" (256), "123"
// (257), "34" (258), "23" (259), "<s>" (260, control) and "<x>" (261,
// user-defined).
GgufWriter bpeFile(const QStringList &merges = {QStringLiteral("1 2"), QStringLiteral("12 3")})
{
    GgufWriter w;
    const QStringList tokens = byteVocabulary({"12", "123", "34", "23", "<s>", "<x>"});
    std::vector<qint32> types(std::size_t(tokens.size()), 1);
    types[260] = 3;
    types[261] = 4;
    w.str("tokenizer.ggml.model", "gpt2").strings("tokenizer.ggml.tokens", tokens).i32s("tokenizer.ggml.token_type", types)
        .strings("tokenizer.ggml.merges", merges);
    return w;
}

TokenizerPtr open(const GgufWriter &w, QString *error, int vocab = -1)
{
    const std::optional<GgufFile> file = GgufFile::fromBytes(w.bytes(), QStringLiteral("test.gguf"), error);
    if (!file)
        qFatal("the writer's file does not open: %s", qPrintable(*error));
    return tokenizerFromGguf(*file, error, vocab);
}

TokenizerPtr openOrFail(const GgufWriter &w)
{
    QString error;
    TokenizerPtr t = open(w, &error);
    if (!t)
        qFatal("%s", qPrintable(error));
    return t;
}

} // namespace

class TestGgufTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void familyFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<std::vector<int>>("ids");
        const QJsonObject files = readJson(kData + "/gguf/expected.json")["files"].toObject();
        const QJsonObject cases = readJson(kData + "/families/expected.json")["cases"].toObject();
        for (auto it = files.begin(); it != files.end(); ++it) {
            const QJsonObject e = it.value().toObject();
            std::vector<int> ids = idsOf(e["token_ids"]);
            if (e["same_as_folder"].toBool())
                for (const QJsonValue &c : cases)
                    if (c["folders"].toObject().contains(e["folder"].toString()))
                        ids = idsOf(c["token_ids"]);
            QVERIFY2(!ids.empty(), qPrintable(it.key()));
            QTest::newRow(qPrintable(it.key())) << it.key() << ids;
        }
        QCOMPARE(files.size(), 14);
    }

    void familyFiles()
    {
        QFETCH(QString, file);
        QFETCH(std::vector<int>, ids);
        QString error;
        const std::optional<GgufFile> gguf = GgufFile::open(kData + "/gguf/" + file, &error);
        QVERIFY2(gguf, qPrintable(error));
        const TokenizerPtr t = tokenizerFromGguf(*gguf, &error);
        QVERIFY2(t, qPrintable(error));
        const QString text = readJson(kData + "/gguf/expected.json")["text"].toString();
        QCOMPARE(t->encodeIds(text), ids);
    }

    void tokensShowTheirText()
    {
        // Llama 3's BOS (from the pre-tokenizer llama-bpe) covers none of the
        // text; pieces show spaces, not "Ġ"; Gemma's SentencePiece falls back
        // to a byte token for "y".
        QString error;
        const std::optional<GgufFile> llama = GgufFile::open(kData + "/gguf/families/llama.gguf", &error);
        QVERIFY2(llama, qPrintable(error));
        const std::vector<ModelToken> tokens = tokenizerFromGguf(*llama, &error)->encode("The robot");
        QCOMPARE(int(tokens.size()), 3);
        QCOMPARE(tokens[0], (ModelToken{288, "", "<|begin_of_text|>", ModelToken::Role::Special}));
        QCOMPARE(tokens[2], (ModelToken{262, " robot", " robot", ModelToken::Role::Text}));
        const std::optional<GgufFile> gemma = GgufFile::open(kData + "/gguf/families/gemma.gguf", &error);
        const std::vector<ModelToken> g = tokenizerFromGguf(*gemma, &error)->encode("heavy");
        QCOMPARE(g.back(), (ModelToken{125, "y", "<0x79>", ModelToken::Role::Byte}));
    }

    void bos_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("pre");     // "" : no key
        QTest::addColumn<int>("addBos");      // -1: no key
        QTest::addColumn<bool>("expected");
        // llama-vocab.cpp: SentencePiece adds BOS; BPE only with Llama 3's
        // pre-tokenizers; the key overrides both.
        QTest::newRow("llama, no key") << "llama" << "" << -1 << true;
        QTest::newRow("llama, false") << "llama" << "" << 0 << false;
        QTest::newRow("gpt2 llama-bpe, no key") << "gpt2" << "llama-bpe" << -1 << true;
        QTest::newRow("gpt2 llama-bpe, false") << "gpt2" << "llama-bpe" << 0 << false;
        QTest::newRow("gpt2 qwen2, no key") << "gpt2" << "qwen2" << -1 << false;
        QTest::newRow("gpt2 qwen2, true") << "gpt2" << "qwen2" << 1 << true;
        QTest::newRow("gpt2 no pre, no key") << "gpt2" << "" << -1 << false;
    }

    void bos()
    {
        QFETCH(QString, model);
        QFETCH(QString, pre);
        QFETCH(int, addBos);
        QFETCH(bool, expected);
        GgufWriter w = bpeFile();
        if (model == QLatin1String("llama")) {
            w = GgufWriter();
            w.str("tokenizer.ggml.model", "llama").strings("tokenizer.ggml.tokens", {"<unk>", "<s>", "</s>", "\u2581a"})
                .f32s("tokenizer.ggml.scores", {0, 0, 0, -1}).i32s("tokenizer.ggml.token_type", {2, 3, 3, 1});
        }
        if (!pre.isEmpty())
            w.str("tokenizer.ggml.pre", pre);
        if (addBos >= 0)
            w.boolean("tokenizer.ggml.add_bos_token", addBos == 1);
        w.u32("tokenizer.ggml.bos_token_id", model == QLatin1String("llama") ? 1 : 260);
        const std::vector<int> ids = openOrFail(w)->encodeIds("a");
        const int bos = model == QLatin1String("llama") ? 1 : 260;
        QCOMPARE(!ids.empty() && ids.front() == bos, expected);
    }

    void defaultIdsAndEos()
    {
        // SentencePiece without id keys: llama.cpp's BOS 1, EOS 2; add_eos_token appends EOS.
        GgufWriter w;
        w.str("tokenizer.ggml.model", "llama").strings("tokenizer.ggml.tokens", {"<unk>", "<s>", "</s>", "\u2581a"})
            .i32s("tokenizer.ggml.scores", {0, 0, 0, -1}).i32s("tokenizer.ggml.token_type", {2, 3, 3, 1})
            .boolean("tokenizer.ggml.add_eos_token", true);
        const TokenizerPtr t = openOrFail(w);
        QCOMPARE(t->encodeIds("a"), (std::vector<int>{1, 3, 2}));
        QCOMPARE(t->specialIds().unk, 0);
        // BPE's default BOS is id 11 (a placeholder llama.cpp keeps when it is a token).
        GgufWriter b = bpeFile();
        b.boolean("tokenizer.ggml.add_bos_token", true);
        QCOMPARE(openOrFail(b)->encodeIds("a").front(), 11);
    }

    void preTokenizerByName()
    {
        // Merges "3 4" (rank 0), "1 2", "12 3". GPT-2's regex keeps "12345"
        // whole: 3+4 first, then 1+2 → 12, 34, 5. llama.cpp's default (no
        // pre named) cuts digits into threes first: "123" "45" → 123, 4, 5.
        const QStringList merges{"3 4", "1 2", "12 3"};
        GgufWriter none = bpeFile(merges);
        QCOMPARE(openOrFail(none)->encodeIds("12345"), (std::vector<int>{257, byteId('4'), byteId('5')}));
        GgufWriter gpt2 = bpeFile(merges);
        gpt2.str("tokenizer.ggml.pre", "gpt-2");
        QCOMPARE(openOrFail(gpt2)->encodeIds("12345"), (std::vector<int>{256, 258, byteId('5')}));
    }

    void mergeListedTwiceKeepsItsFirstRank()
    {
        // "1 2" at ranks 0 and 2, "2 3" at 1: the first rank merges 1+2 first
        // (12, 3); the last would merge 2+3 first (1, 23).
        GgufWriter w = bpeFile({"1 2", "2 3", "1 2"});
        QCOMPARE(openOrFail(w)->encodeIds("123"), (std::vector<int>{256, byteId('3')}));
    }

    void specialTokensInTheText()
    {
        // Control and user-defined tokens typed in the text are found whole;
        // only the control one is shown as special.
        const std::vector<ModelToken> tokens = openOrFail(bpeFile())->encode("1<s>2<x>");
        QCOMPARE(int(tokens.size()), 4);
        QCOMPARE(tokens[1].id, 260);
        QCOMPARE(tokens[1].role, ModelToken::Role::Special);
        QCOMPARE(tokens[3].id, 261);
        QCOMPARE(tokens[3].role, ModelToken::Role::Text);
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("vocab");
        QTest::addColumn<QString>("message");
        const auto row = [](const char *name, const GgufWriter &w, const QString &message, int vocab = -1) {
            QTest::newRow(name) << w.bytes() << vocab << QStringLiteral("test.gguf: ") + message;
        };
        row("no tokenizer", GgufWriter().u32("general.alignment", 32),
            "tokenizer.ggml.model is missing: the file carries no tokenizer");
        row("model of another kind", GgufWriter().str("tokenizer.ggml.model", "bert"),
            "tokenizer.ggml.model \"bert\" is not a tokenizer this program reads (gpt2, llama)");
        row("model not a string", GgufWriter().u32("tokenizer.ggml.model", 2),
            "tokenizer.ggml.model is UINT32, not a string");
        row("no tokens", GgufWriter().str("tokenizer.ggml.model", "gpt2"), "tokenizer.ggml.tokens is missing");
        row("tokens of numbers", GgufWriter().str("tokenizer.ggml.model", "gpt2").i32s("tokenizer.ggml.tokens", {1, 2}),
            "tokenizer.ggml.tokens is ARRAY of INT32, not an array of strings");
        row("empty vocabulary", GgufWriter().str("tokenizer.ggml.model", "llama").strings("tokenizer.ggml.tokens", {}),
            "tokenizer.ggml.tokens is empty");
        row("vocabulary and embedding differ", bpeFile(),
            "tokenizer.ggml.tokens holds 262 tokens, but token_embd.weight has 300 rows (one per token)", 300);
        row("embedding larger than the vocabulary, from the file",
            bpeFile().tensor("token_embd.weight", {4, 263}, std::vector<float>(4 * 263, 0.5f)),
            "tokenizer.ggml.tokens holds 262 tokens, but token_embd.weight has 263 rows (one per token)");
        GgufWriter noMerges;
        noMerges.str("tokenizer.ggml.model", "gpt2").strings("tokenizer.ggml.tokens", byteVocabulary({}));
        row("gpt2 without merges", noMerges, "tokenizer.ggml.merges is missing");
        row("merge of no token", bpeFile({"1 2", "1 zz"}),
            "tokenizer.ggml.merges: entry 1 (\"1 zz\") names \"zz\", which is not a token");
        row("merge making no token", bpeFile({"4 5"}),
            "tokenizer.ggml.merges: entry 0 (\"4 5\") names \"45\", which is not a token");
        row("merge without a space", bpeFile({"12"}),
            "tokenizer.ggml.merges: entry 0 (\"12\") is not two tokens with a space between them");
        row("bos id a string", bpeFile().str("tokenizer.ggml.bos_token_id", "<s>"),
            "tokenizer.ggml.bos_token_id is STRING, not an integer");
        row("eos id outside the vocabulary", bpeFile().u32("tokenizer.ggml.eos_token_id", 300),
            "tokenizer.ggml.eos_token_id is 300, not a token of the 262 in tokenizer.ggml.tokens");
        row("add_bos_token not a bool", bpeFile().u32("tokenizer.ggml.add_bos_token", 1),
            "tokenizer.ggml.add_bos_token is UINT32, not BOOL");
        row("unknown pre-tokenizer", bpeFile().str("tokenizer.ggml.pre", "nonesuch"),
            "tokenizer.ggml.pre: \"nonesuch\" is not a pre-tokenizer this program knows");
        row("pre not a string", bpeFile().u32("tokenizer.ggml.pre", 7), "tokenizer.ggml.pre is UINT32, not a string");
        GgufWriter floatTypes;
        floatTypes.str("tokenizer.ggml.model", "llama").strings("tokenizer.ggml.tokens", {"a", "b"})
            .f32s("tokenizer.ggml.token_type", {1, 1});
        row("token types as floats", floatTypes,
            "tokenizer.ggml.token_type is ARRAY of FLOAT32, not an array of integers");
        GgufWriter shortTypes;
        shortTypes.str("tokenizer.ggml.model", "llama").strings("tokenizer.ggml.tokens", {"a", "b", "c"})
            .i32s("tokenizer.ggml.token_type", {1, 1});
        row("fewer token types than tokens", shortTypes, "tokenizer.ggml.token_type holds 2 values for 3 tokens");
        GgufWriter stringScores;
        stringScores.str("tokenizer.ggml.model", "llama").strings("tokenizer.ggml.tokens", {"a", "b"})
            .strings("tokenizer.ggml.scores", {"1", "2"});
        row("scores as strings", stringScores, "tokenizer.ggml.scores is ARRAY of STRING, not an array of numbers");
    }

    void refusals()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, vocab);
        QFETCH(QString, message);
        QString error;
        const std::optional<GgufFile> file = GgufFile::fromBytes(bytes, QStringLiteral("test.gguf"), &error);
        QVERIFY2(file, qPrintable(error));
        QVERIFY(!tokenizerFromGguf(*file, &error, vocab));
        QCOMPARE(error, message);
    }

    void hostileFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("words");
        for (const QJsonValue &f : readJson(kData + "/gguf/hostile/hostile.json")["files"].toArray()) {
            const QString name = f["file"].toString();
            for (const char *tokenizerFault : {"vocab-size-mismatch", "merge-", "pre-unknown", "tokenizer-unknown",
                                               "token-count-zero"})
                if (name.startsWith(QLatin1String(tokenizerFault)))
                    QTest::newRow(qPrintable(name)) << name << f["words"].toVariant().toStringList();
        }
    }

    void hostileFiles()
    {
        // The tokenizer's faults of the hostile table: the file opens (its
        // structure is sound) and its tokenizer is refused with hostile.json's words.
        QFETCH(QString, file);
        QFETCH(QStringList, words);
        QString error;
        const std::optional<GgufFile> gguf = GgufFile::open(kData + "/gguf/hostile/" + file, &error);
        QVERIFY2(gguf, qPrintable(error));
        QVERIFY(!tokenizerFromGguf(*gguf, &error));
        QVERIFY(error.startsWith(file + QStringLiteral(": ")));
        QVERIFY(!error.contains(QLatin1Char('\n')));
        for (const QString &w : words)
            QVERIFY2(error.mid(file.size()).contains(w, Qt::CaseInsensitive), qPrintable(error));
        QVERIFY2(tokenizerFromGguf(*GgufFile::open(kData + "/gguf/hostile/base.gguf", &error), &error), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestGgufTokenizer)
#include "tst_gguftokenizer.moc"
