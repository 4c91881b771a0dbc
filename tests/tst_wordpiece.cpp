// BERT's WordPiece on the real bert-base-uncased vocabulary: ids from an
// independent Python implementation (tests/data/tokenizers/make_expected.py)
// and from Hugging Face (llama.cpp's table), the published example, typed
// special tokens, and the message each malformed file gives.

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

std::vector<int> toIds(const QJsonArray &a)
{
    std::vector<int> ids;
    for (const QJsonValue &v : a)
        ids.push_back(v.toInt());
    return ids;
}

QString rowName(const QString &text, int i)
{
    QString name = QString::number(i) + QLatin1Char(' ') + text.left(30);
    name.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return name;
}

QStringList texts(const std::vector<ModelToken> &tokens)
{
    QStringList out;
    for (const ModelToken &t : tokens)
        out << t.text;
    return out;
}

} // namespace

class TestWordPiece : public QObject
{
    Q_OBJECT

private:
    TokenizerPtr m_bert;
    TokenizerPtr m_cased;

    void addExpectedRows(const char *table)
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<int>>("ids");
        const QJsonArray rows = QJsonDocument::fromJson(readAll(kDir + "/expected.json")).object().value(table).toArray();
        QVERIFY(rows.size() > 80);
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows[i].toObject();
            QTest::newRow(qPrintable(rowName(row["text"].toString(), i))) << row["text"].toString() << toIds(row["ids"].toArray());
        }
    }

private slots:
    void initTestCase()
    {
        QString error;
        m_bert = loadBertTokenizer(kDir + "/bert-base-uncased/vocab.txt", QString(), &error);
        QVERIFY2(m_bert, qPrintable(error));
        m_cased = parseBertTokenizer(readAll(kDir + "/bert-base-uncased/vocab.txt"), "{\"do_lower_case\": false}", &error);
        QVERIFY2(m_cased, qPrintable(error));
    }

    void vocabulary()
    {
        QCOMPARE(m_bert->kind(), ModelTokenizer::Kind::WordPiece);
        QCOMPARE(m_bert->vocabSize(), 30522);
        const SpecialTokenIds s = m_bert->specialIds();
        QCOMPARE(s.pad, 0);
        QCOMPARE(s.unk, 100);
        QCOMPARE(s.cls, 101);
        QCOMPARE(s.sep, 102);
        QCOMPARE(s.mask, 103);
        QCOMPARE(s.bos, -1);
        QCOMPARE(m_bert->idToText(2075), QStringLiteral("##ing"));
        QCOMPARE(m_bert->idToText(30522), QString());
    }

    void publishedExample()
    {
        // transformers' documentation example for bert-base-uncased.
        QCOMPARE(m_bert->encodeIds("Hello, my dog is cute"), (std::vector<int>{101, 7592, 1010, 2026, 3899, 2003, 10140, 102}));
    }

    void pieces()
    {
        const std::vector<ModelToken> tokens = m_bert->encode("Tokenization");
        QCOMPARE(texts(tokens), (QStringList{"[CLS]", "token", "##ization", "[SEP]"}));
        QCOMPARE(tokens[1].bytes, QByteArray("token"));
        QCOMPARE(tokens[2].bytes, QByteArray("ization"));
        QCOMPARE(tokens[0].bytes, QByteArray());
        // [UNK] stands for the whole (normalised) word.
        const std::vector<ModelToken> unknown = m_bert->encode(QStringLiteral("🙂"));
        QCOMPARE(unknown[1], (ModelToken{100, "\xF0\x9F\x99\x82", QStringLiteral("[UNK]")}));
    }

    void maskTyped()
    {
        const std::vector<ModelToken> tokens = m_bert->encode("the [MASK] sat");
        QCOMPARE(texts(tokens), (QStringList{"[CLS]", "the", "[MASK]", "sat", "[SEP]"}));
        QCOMPARE(tokens[2].id, 103);
        QCOMPARE(tokens[2].bytes, QByteArray("[MASK]"));
        // Only the exact spelling is special, as in transformers.
        QVERIFY(!m_bert->encodeIds("the [mask] sat").empty());
        QCOMPARE(m_bert->encodeIds("the [mask] sat")[2], 1031); // "["
    }

    void expected_data() { addExpectedRows("bert"); }
    void expected()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<int>, ids);
        QCOMPARE(m_bert->encodeIds(text), ids);
    }

    void cased_data() { addExpectedRows("bert_cased"); }
    void cased()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<int>, ids);
        QCOMPARE(m_cased->encodeIds(text), ids);
    }

    void huggingFace_data()
    {
        // llama.cpp's table (bge's vocabulary is bert-base-uncased's): the ids
        // Hugging Face gives, without [CLS] and [SEP].
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<int>>("ids");
        QStringList inputs = QString::fromUtf8(readAll(kDir + "/llama.cpp/ggml-vocab-bert-bge.gguf.inp"))
                                 .split(QStringLiteral("\n__ggml_vocab_test__\n"));
        inputs.removeLast();
        QStringList lines = QString::fromUtf8(readAll(kDir + "/llama.cpp/ggml-vocab-bert-bge.gguf.out")).split('\n');
        lines.removeLast();
        QCOMPARE(inputs.size(), lines.size());
        for (int i = 0; i < inputs.size(); ++i) {
            std::vector<int> ids{101};
            for (const QString &n : lines[i].split(' ', Qt::SkipEmptyParts))
                ids.push_back(n.toInt());
            ids.push_back(102);
            QTest::newRow(qPrintable(rowName(inputs[i], i))) << inputs[i] << ids;
        }
    }

    void huggingFace()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<int>, ids);
        QCOMPARE(m_bert->encodeIds(text), ids);
    }

    void tokenizerJson()
    {
        // The same vocabulary as Hugging Face's tokenizer.json.
        QJsonObject vocab;
        const QStringList lines = QString::fromUtf8(readAll(kDir + "/bert-base-uncased/vocab.txt")).split('\n', Qt::SkipEmptyParts);
        for (int i = 0; i < lines.size(); ++i)
            vocab.insert(lines[i], i);
        QJsonArray added;
        for (const int id : {0, 100, 101, 102, 103})
            added.append(QJsonObject{{"id", id}, {"content", lines[id]}, {"special", true}});
        const QJsonObject root{
            {"added_tokens", added},
            {"normalizer", QJsonObject{{"type", "BertNormalizer"}, {"lowercase", true}, {"strip_accents", QJsonValue()}}},
            {"model", QJsonObject{{"type", "WordPiece"}, {"unk_token", "[UNK]"}, {"vocab", vocab}}}};
        QString error;
        const TokenizerPtr t = parseTokenizerJson(QJsonDocument(root).toJson(), &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->specialIds().mask, 103);
        const QJsonArray rows = QJsonDocument::fromJson(readAll(kDir + "/expected.json")).object().value("bert").toArray();
        for (const QJsonValue &row : rows)
            QCOMPARE(t->encodeIds(row["text"].toString()), toIds(row["ids"].toArray()));
    }

    void folder()
    {
        QString error;
        const TokenizerPtr t = loadTokenizerFromFolder(kDir + "/bert-base-uncased", "bert", &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->encodeIds("Hello"), (std::vector<int>{101, 7592, 102}));
        QVERIFY(!loadTokenizerFromFolder(kDir + "/gpt2", "bert", &error));
        QCOMPARE(error, QStringLiteral("gpt2: no tokenizer: expected vocab.txt or tokenizer.json"));
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("vocab");
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("message");
        const QByteArray ok = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\na\n";
        QTest::newRow("empty") << QByteArray() << QByteArray() << "vocab.txt: empty";
        QTest::newRow("no [UNK]") << QByteArray("[CLS]\n[SEP]\n") << QByteArray() << "vocab.txt: no \"[UNK]\" token";
        QTest::newRow("no [SEP]") << QByteArray("[UNK]\n[CLS]\n") << QByteArray() << "vocab.txt: no \"[SEP]\" token";
        QTest::newRow("not UTF-8") << QByteArray("[UNK]\n[CLS]\n\xC3(\n") << QByteArray() << "vocab.txt: line 3: not valid UTF-8";
        QTest::newRow("too many lines") << QByteArray(1024 * 1024 + 1, '\n') << QByteArray()
                                        << "vocab.txt: more than 1048576 lines";
        QTest::newRow("config empty") << ok << QByteArray("") << "tokenizer_config.json: empty";
        QTest::newRow("config not JSON") << ok << QByteArray("{\"do_lower_case\": tru}")
                                         << "tokenizer_config.json: not valid JSON at byte 19: illegal value";
        QTest::newRow("config a list") << ok << QByteArray("[]") << "tokenizer_config.json: expected an object, got a list";
        QTest::newRow("lower case a string") << ok << QByteArray("{\"do_lower_case\": \"yes\"}")
                                             << "tokenizer_config.json: do_lower_case: expected true/false, got a string";
        QTest::newRow("chinese a number") << ok << QByteArray("{\"tokenize_chinese_chars\": 1}")
                                          << "tokenizer_config.json: tokenize_chinese_chars: expected true/false, got a number";
        QTest::newRow("accents a string") << ok << QByteArray("{\"strip_accents\": \"no\"}")
                                          << "tokenizer_config.json: strip_accents: expected true/false or null, got a string";
        QTest::newRow("unk a number") << ok << QByteArray("{\"unk_token\": 5}")
                                      << "tokenizer_config.json: unk_token: expected a token such as \"[UNK]\", got a number";
        QTest::newRow("unk renamed, absent") << ok << QByteArray("{\"unk_token\": {\"content\": \"<unk>\"}}")
                                             << "vocab.txt: no \"<unk>\" token";
    }

    void badFiles()
    {
        QFETCH(QByteArray, vocab);
        QFETCH(QByteArray, config);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!parseBertTokenizer(vocab, config, &error));
        QCOMPARE(error, message);
    }

    void smallVocabulary()
    {
        // CRLF line ends, a renamed mask token, accents kept while lower-casing.
        QString error;
        const TokenizerPtr t = parseBertTokenizer("[PAD]\r\n[UNK]\r\n[CLS]\r\n[SEP]\r\n<mask>\r\ncafé\r\ncafe\r\n",
                                                  "{\"mask_token\": \"<mask>\", \"strip_accents\": false}", &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->specialIds().mask, 4);
        QCOMPARE(t->encodeIds(QStringLiteral("CAFÉ <mask> cafe")), (std::vector<int>{2, 5, 4, 6, 3}));
    }

    void badTokenizerJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("other normalizer") << QByteArray("{\"model\": {\"type\": \"WordPiece\"}, \"normalizer\": {\"type\": \"NFKC\"}}")
                                          << "tokenizer.json: normalizer.type: only \"BertNormalizer\" is supported, got \"NFKC\"";
        QTest::newRow("prefix a number") << QByteArray("{\"model\": {\"type\": \"WordPiece\", \"continuing_subword_prefix\": 2}}")
                                         << "tokenizer.json: model.continuing_subword_prefix: expected a string, got a number";
        QTest::newRow("max chars zero") << QByteArray("{\"model\": {\"type\": \"WordPiece\", \"max_input_chars_per_word\": 0}}")
                                        << "tokenizer.json: model.max_input_chars_per_word: expected a whole number from 1 to 1000000, got a number";
        QTest::newRow("no vocab") << QByteArray("{\"model\": {\"type\": \"WordPiece\"}}")
                                  << "tokenizer.json: model.vocab: expected an object of token -> id, got nothing";
        QTest::newRow("no [CLS]") << QByteArray("{\"model\": {\"type\": \"WordPiece\", \"vocab\": {\"[UNK]\": 0, \"[SEP]\": 1}}}")
                                  << "tokenizer.json: model.vocab: no \"[CLS]\" token";
    }

    void badTokenizerJson()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!parseTokenizerJson(json, &error));
        QCOMPARE(error, message);
    }

    void longTexts()
    {
        // Not timed: 4000 words, a 200,000-letter word ([UNK] at once), and
        // many 100-letter words that WordPiece must cut letter by letter.
        QString words;
        for (int i = 0; i < 4000; ++i)
            words += QStringLiteral("word%1, ").arg(i * 7919 % 10007);
        QCOMPARE(m_bert->encode(words).size(), size_t(18263)); // counted by make_expected.py's Bert
        QCOMPARE(m_bert->encodeIds(QString(200000, QLatin1Char('x'))), (std::vector<int>{101, 100, 102}));
        const QString hard = (QString(100, QLatin1Char('q')) + QLatin1Char(' ')).repeated(500);
        QCOMPARE(m_bert->encode(hard).size(), size_t(2 + 500 * 100));
    }
};

QTEST_GUILESS_MAIN(TestWordPiece)
#include "tst_wordpiece.moc"
