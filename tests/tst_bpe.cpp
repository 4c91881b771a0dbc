// GPT-2's byte-level BPE on the real vocabulary: ids from an independent
// Python implementation (tests/data/tokenizers/make_expected.py) and from
// Hugging Face (llama.cpp's table), display texts, round trips, and the
// message each malformed file gives.

#include "tokenizers/bytelevel.h"
#include "tokenizers/tokenizerloader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
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

// A small but valid byte-level vocabulary: the 256 byte symbols, then "ab".
QByteArray tinyVocab(const QString &extra = QString())
{
    QJsonObject vocab;
    for (int b = 0; b < 256; ++b)
        vocab.insert(QString(QChar(bytelevel::byteToChar(uchar(b)))), b);
    vocab.insert(QStringLiteral("ab"), 256);
    if (!extra.isEmpty())
        vocab.insert(extra, 257);
    return QJsonDocument(vocab).toJson(QJsonDocument::Compact);
}

} // namespace

class TestBpe : public QObject
{
    Q_OBJECT

private:
    TokenizerPtr m_gpt2;

private slots:
    void initTestCase()
    {
        QString error;
        m_gpt2 = loadGpt2Tokenizer(kDir + "/gpt2/vocab.json", kDir + "/gpt2/merges.txt", &error);
        QVERIFY2(m_gpt2, qPrintable(error));
    }

    void byteTable()
    {
        QCOMPARE(bytelevel::byteToChar(' '), u'\u0120');  // Ġ
        QCOMPARE(bytelevel::byteToChar('\n'), u'\u010A'); // Ċ
        QCOMPARE(bytelevel::byteToChar('A'), u'A');
        QCOMPARE(bytelevel::byteToChar(0xAD), u'\u0143'); // the last of the 68 moved bytes
        for (int b = 0; b < 256; ++b)
            QCOMPARE(bytelevel::charToByte(bytelevel::byteToChar(uchar(b))), b);
        QCOMPARE(bytelevel::charToByte(u'\u0144'), -1);
    }

    void vocabulary()
    {
        QCOMPARE(m_gpt2->kind(), ModelTokenizer::Kind::BytePairEncoding);
        QCOMPARE(m_gpt2->vocabSize(), 50257);
        QCOMPARE(m_gpt2->specialIds().bos, 50256);
        QCOMPARE(m_gpt2->specialIds().eos, 50256);
        QCOMPARE(m_gpt2->specialIds().mask, -1);
        QCOMPARE(m_gpt2->idToText(50256), QStringLiteral("<|endoftext|>"));
        QCOMPARE(m_gpt2->idToText(995), QStringLiteral(" world"));
        QCOMPARE(m_gpt2->idToText(198), QStringLiteral("\n"));
        QCOMPARE(m_gpt2->idToText(8582), QStringLiteral("\\xF0\\x9F"));
        QCOMPARE(m_gpt2->idToText(-1), QString());
        QCOMPARE(m_gpt2->idToText(50257), QString());
    }

    void publishedExample()
    {
        // The contract's example, and what a chip shows for each token.
        const std::vector<ModelToken> tokens = m_gpt2->encode(QStringLiteral("Hello world"));
        QCOMPARE(tokens.size(), size_t(2));
        QCOMPARE(tokens[0], (ModelToken{15496, "Hello", QStringLiteral("Hello")}));
        QCOMPARE(tokens[1], (ModelToken{995, " world", QStringLiteral(" world")}));
    }

    void emojiPieces()
    {
        // 🙂 is F0 9F 99 82; GPT-2 splits it into two byte pieces.
        const std::vector<ModelToken> tokens = m_gpt2->encode(QStringLiteral("🙂"));
        QCOMPARE(tokens.size(), size_t(2));
        QCOMPARE(tokens[0], (ModelToken{8582, "\xF0\x9F", QStringLiteral("\\xF0\\x9F")}));
        QCOMPARE(tokens[1], (ModelToken{25081, "\x99\x82", QStringLiteral("\\x99\\x82")}));
    }

    void expected_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<int>>("ids");
        const QJsonArray rows = QJsonDocument::fromJson(readAll(kDir + "/expected.json")).object().value("gpt2").toArray();
        QVERIFY(rows.size() > 80);
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows[i].toObject();
            QTest::newRow(qPrintable(rowName(row["text"].toString(), i))) << row["text"].toString() << toIds(row["ids"].toArray());
        }
    }

    void expected()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<int>, ids);
        const std::vector<ModelToken> tokens = m_gpt2->encode(text);
        QCOMPARE(m_gpt2->encodeIds(text), ids);
        // Round trip: the bytes of the tokens are the UTF-8 text again.
        QByteArray bytes;
        for (const ModelToken &t : tokens) {
            QVERIFY(!t.bytes.isEmpty());
            QCOMPARE(t.text, m_gpt2->idToText(t.id));
            bytes += t.bytes;
        }
        QCOMPARE(bytes, text.toUtf8());
    }

    void huggingFace_data()
    {
        // llama.cpp's table: hard strings and the ids Hugging Face gives them.
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<int>>("ids");
        QStringList texts = QString::fromUtf8(readAll(kDir + "/llama.cpp/ggml-vocab-gpt-2.gguf.inp"))
                                .split(QStringLiteral("\n__ggml_vocab_test__\n"));
        texts.removeLast();
        QStringList lines = QString::fromUtf8(readAll(kDir + "/llama.cpp/ggml-vocab-gpt-2.gguf.out")).split('\n');
        lines.removeLast();
        QCOMPARE(texts.size(), lines.size());
        for (int i = 0; i < texts.size(); ++i) {
            std::vector<int> ids;
            for (const QString &n : lines[i].split(' ', Qt::SkipEmptyParts))
                ids.push_back(n.toInt());
            QTest::newRow(qPrintable(rowName(texts[i], i))) << texts[i] << ids;
        }
    }

    void huggingFace()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<int>, ids);
        QCOMPARE(m_gpt2->encodeIds(text), ids);
    }

    void specialTokenTyped()
    {
        const std::vector<int> ids = m_gpt2->encodeIds(QStringLiteral("Hello<|endoftext|>world"));
        QCOMPARE(ids, (std::vector<int>{15496, 50256, 6894}));
        const std::vector<ModelToken> t = m_gpt2->encode(QStringLiteral("<|endoftext|>"));
        QCOMPARE(t.size(), size_t(1));
        QCOMPARE(t[0], (ModelToken{50256, "<|endoftext|>", QStringLiteral("<|endoftext|>"), ModelToken::Role::Special}));
    }

    void loneSurrogate()
    {
        // Not UTF-8-encodable: taken as U+FFFD (EF BF BD) instead.
        const QString text = QStringLiteral("a") + QChar(0xD800) + QStringLiteral("b");
        QByteArray bytes;
        for (const ModelToken &t : m_gpt2->encode(text))
            bytes += t.bytes;
        QCOMPARE(bytes, QByteArray("a\xEF\xBF\xBD" "b"));
    }

    void displayText_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("ascii") << QByteArray(" world") << QStringLiteral(" world");
        QTest::newRow("two-byte") << QByteArray("na\xC3\xAFve") << QStringLiteral("naïve");
        QTest::newRow("emoji whole") << QByteArray("\xF0\x9F\x99\x82") << QStringLiteral("🙂");
        QTest::newRow("emoji start") << QByteArray("\xF0\x9F") << QStringLiteral("\\xF0\\x9F");
        QTest::newRow("continuation") << QByteArray("\x82 a") << QStringLiteral("\\x82 a");
        QTest::newRow("overlong") << QByteArray("\xC0\xAF") << QStringLiteral("\\xC0\\xAF");
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << QStringLiteral("\\xED\\xA0\\x80");
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << QStringLiteral("\\xF4\\x90\\x80\\x80");
        QTest::newRow("empty") << QByteArray() << QString();
    }

    void displayText()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        QCOMPARE(displayTextForBytes(bytes), text);
    }

    void tokenizerJson_data()
    {
        QTest::addColumn<bool>("pairs");
        QTest::newRow("merges as \"a b\"") << false;
        QTest::newRow("merges as [a, b]") << true;
    }

    void tokenizerJson()
    {
        // The same vocabulary written as Hugging Face's tokenizer.json.
        QFETCH(bool, pairs);
        QJsonArray merges;
        const QStringList lines = QString::fromUtf8(readAll(kDir + "/gpt2/merges.txt")).split('\n', Qt::SkipEmptyParts);
        for (int i = 1; i < lines.size(); ++i)
            merges.append(pairs ? QJsonValue(QJsonArray::fromStringList(lines[i].split(' '))) : QJsonValue(lines[i]));
        const QJsonObject root{
            {"added_tokens", QJsonArray{QJsonObject{{"id", 50256}, {"content", "<|endoftext|>"}, {"special", true}}}},
            {"pre_tokenizer", QJsonObject{{"type", "ByteLevel"}, {"add_prefix_space", false}}},
            {"model", QJsonObject{{"type", "BPE"}, {"vocab", QJsonDocument::fromJson(readAll(kDir + "/gpt2/vocab.json")).object()},
                                  {"merges", merges}}}};
        QString error;
        const TokenizerPtr t = parseTokenizerJson(QJsonDocument(root).toJson(), &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->vocabSize(), 50257);
        QCOMPARE(t->specialIds().eos, 50256);
        const QJsonArray rows = QJsonDocument::fromJson(readAll(kDir + "/expected.json")).object().value("gpt2").toArray();
        for (const QJsonValue &row : rows)
            QCOMPARE(t->encodeIds(row["text"].toString()), toIds(row["ids"].toArray()));
    }

    void folder()
    {
        QString error;
        const TokenizerPtr t = loadTokenizerFromFolder(kDir + "/gpt2", "gpt2", &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->encodeIds("Hello world"), (std::vector<int>{15496, 995}));
        QVERIFY(!loadTokenizerFromFolder(kDir + "/gpt2", "t5", &error));
        QCOMPARE(error, QStringLiteral("gpt2: no tokenizer for model_type \"t5\" (expected \"gpt2\", \"bert\" or one of llama, "
                                       "mistral, qwen2, qwen3, gemma, gemma2, gemma3_text, gemma3, phi3)"));
        QVERIFY(!loadTokenizerFromFolder(kDir + "/gpt2", "llama", &error));
        QCOMPARE(error, QStringLiteral("gpt2: no tokenizer: expected tokenizer.json"));
        QVERIFY(!loadTokenizerFromFolder(kDir + "/llama.cpp", "gpt2", &error));
        QCOMPARE(error, QStringLiteral("llama.cpp: no tokenizer: expected vocab.json and merges.txt, or tokenizer.json"));
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("vocab");
        QTest::addColumn<QByteArray>("merges");
        QTest::addColumn<QString>("message");
        const QByteArray ok = "#version: 0.2\na b\n";
        QTest::newRow("empty vocab") << QByteArray() << ok << "vocab.json: empty";
        QTest::newRow("not JSON") << QByteArray("{\"a\": 1,,}") << ok
                                  << "vocab.json: not valid JSON at byte 9: unterminated object";
        QTest::newRow("cut short") << QByteArray("{\"a\": 1") << ok
                                   << "vocab.json: not valid JSON at byte 7: invalid termination by number";
        QTest::newRow("a list") << QByteArray("[1, 2]") << ok << "vocab.json: expected an object, got a list";
        QTest::newRow("no tokens") << QByteArray("{}") << ok << "vocab.json: no tokens";
        QTest::newRow("id a string") << QByteArray("{\"a\": \"0\"}") << ok
                                     << "vocab.json: \"a\": expected an integer id, got a string";
        QTest::newRow("id fractional") << QByteArray("{\"a\": 0.5}") << ok
                                       << "vocab.json: \"a\": expected an integer id, got 0.5";
        QTest::newRow("id negative") << QByteArray("{\"a\": -1}") << ok
                                     << "vocab.json: \"a\": id -1 out of range (1 tokens need ids 0 to 0)";
        QTest::newRow("id too large") << QByteArray("{\"a\": 0, \"b\": 7}") << ok
                                      << "vocab.json: \"b\": id 7 out of range (2 tokens need ids 0 to 1)";
        QTest::newRow("id huge") << QByteArray("{\"a\": 1e300}") << ok
                                 << "vocab.json: \"a\": id 1e+300 out of range (1 tokens need ids 0 to 0)";
        QTest::newRow("duplicate id") << QByteArray("{\"a\": 0, \"b\": 0}") << ok
                                      << "vocab.json: \"a\" and \"b\" both have id 0";
        QTest::newRow("no byte symbols") << QByteArray("{\"a\": 0}") << ok
                                         << "vocab.json: no token for byte 0x00 (\"Ā\"), which byte-level BPE needs";
        QTest::newRow("three symbols") << tinyVocab() << QByteArray("#version: 0.2\na b c\n")
                                       << "merges.txt: line 2: expected two symbols separated by one space, got \"a b c\"";
        QTest::newRow("one symbol") << tinyVocab() << QByteArray("#version: 0.2\na b\nab\n")
                                    << "merges.txt: line 3: expected two symbols separated by one space, got \"ab\"";
        QTest::newRow("symbol not in vocab") << tinyVocab() << QByteArray("#version: 0.2\na b\nab xy\n")
                                             << "merges.txt: line 3: \"xy\" is not in vocab.json";
        QTest::newRow("merged pair not in vocab") << tinyVocab() << QByteArray("#version: 0.2\na c\n")
                                                  << "merges.txt: line 2: \"ac\" (the merged pair) is not in vocab.json";
        QTest::newRow("too many merges") << tinyVocab() << QByteArray("#version: 0.2\n") + QByteArray("a b\n").repeated(1024 * 1024)
                                         << "merges.txt: more than 1048576 lines";
        QTest::newRow("not UTF-8") << tinyVocab() << QByteArray("#version: 0.2\na b\n\xFF b\n")
                                   << "merges.txt: line 3: not valid UTF-8";
    }

    void badFiles()
    {
        QFETCH(QByteArray, vocab);
        QFETCH(QByteArray, merges);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!parseGpt2Tokenizer(vocab, merges, &error));
        QCOMPARE(error, message);
    }

    void tinyVocabularyWorks()
    {
        // The base of the bad-file rows is itself fine; blank lines, a
        // missing #version line and CRLF line ends are accepted.
        QString error;
        const TokenizerPtr t = parseGpt2Tokenizer(tinyVocab(), "a b\r\n\r\n", &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->encodeIds("abc ab"), (std::vector<int>{256, 'c', ' ', 256}));
    }

    void badTokenizerJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        const QByteArray pre = "\"pre_tokenizer\": {\"type\": \"ByteLevel\"}";
        QTest::newRow("not JSON") << QByteArray("{\"model\": }") << "tokenizer.json: not valid JSON at byte 11: object is missing after a comma";
        QTest::newRow("no model") << QByteArray("{}") << "tokenizer.json: model: expected an object, got nothing";
        QTest::newRow("unigram") << QByteArray("{\"model\": {\"type\": \"Unigram\"}}")
                                 << "tokenizer.json: model.type: expected \"BPE\" or \"WordPiece\", got \"Unigram\"";
        QTest::newRow("other pre-tokenizer") << QByteArray("{\"model\": {\"type\": \"BPE\"}, \"pre_tokenizer\": {\"type\": \"Whitespace\"}}")
                                             << "tokenizer.json: pre_tokenizer.type: \"Whitespace\" is not supported (expected \"ByteLevel\", "
                                                "\"Split\", \"Metaspace\", \"Digits\", \"Sequence\")";
        QTest::newRow("vocab a list") << QByteArray("{\"model\": {\"type\": \"BPE\", \"vocab\": []}, " + pre + "}")
                                      << "tokenizer.json: model.vocab: expected an object of token -> id, got a list";
        QTest::newRow("added id clash") << QByteArray("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}}, " + pre
                                                      + ", \"added_tokens\": [{\"id\": 0, \"content\": \"<s>\"}]}")
                                        << "tokenizer.json: added_tokens[0]: id 0 is \"a\" in model.vocab, not \"<s>\"";
        QTest::newRow("added no content") << QByteArray("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}}, " + pre
                                                        + ", \"added_tokens\": [{\"id\": 1}]}")
                                          << "tokenizer.json: added_tokens[0].content: expected a non-empty string, got nothing";
        QTest::newRow("added id gap") << QByteArray("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}}, " + pre
                                                    + ", \"added_tokens\": [{\"id\": 5, \"content\": \"<s>\"}]}")
                                      << "tokenizer.json: model.vocab: \"<s>\": id 5 out of range (2 tokens need ids 0 to 1)";
        QByteArray vocab = tinyVocab();
        QTest::newRow("merges not a list") << QByteArray("{\"model\": {\"type\": \"BPE\", \"vocab\": " + vocab + "}, " + pre + "}")
                                           << "tokenizer.json: model.merges: expected a list, got nothing";
        QTest::newRow("merge a number") << QByteArray("{\"model\": {\"type\": \"BPE\", \"vocab\": " + vocab + ", \"merges\": [\"a b\", 3]}, " + pre + "}")
                                        << "tokenizer.json: model.merges[1]: expected \"a b\" or [\"a\", \"b\"], got a number";
        QTest::newRow("merge three") << QByteArray("{\"model\": {\"type\": \"BPE\", \"vocab\": " + vocab + ", \"merges\": [[\"a\", \"b\", \"c\"]]}, " + pre + "}")
                                     << "tokenizer.json: model.merges[0]: expected \"a b\" or [\"a\", \"b\"], got a list";
        QTest::newRow("merge unknown") << QByteArray("{\"model\": {\"type\": \"BPE\", \"vocab\": " + vocab + ", \"merges\": [\"a c\"]}, " + pre + "}")
                                       << "tokenizer.json: model.merges[0]: \"ac\" (the merged pair) is not in model.vocab";
    }

    void badTokenizerJson()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!parseTokenizerJson(json, &error));
        QCOMPARE(error, message);
    }

    void fileLimits()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        QVERIFY(!loadGpt2Tokenizer(dir.filePath("vocab.json"), dir.filePath("merges.txt"), &error));
        QCOMPARE(error, QStringLiteral("vocab.json: no such file"));
        QFile big(dir.filePath("vocab.json"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        QVERIFY(big.resize(kMaxTokenizerFileBytes + 1)); // sparse: no disk used
        big.close();
        QVERIFY(!loadGpt2Tokenizer(dir.filePath("vocab.json"), dir.filePath("merges.txt"), &error));
        QCOMPARE(error, QStringLiteral("vocab.json: larger than 64 MiB"));
        QVERIFY(!loadTokenizerJson(dir.path(), &error));
        QCOMPARE(error, QFileInfo(dir.path()).fileName() + QStringLiteral(": is a folder, not a file"));
    }

    void longTexts()
    {
        // Not timed, but each would take minutes with a quadratic merge loop.
        QString words;
        for (int i = 0; i < 4000; ++i)
            words += QStringLiteral("word%1 ").arg(i * 7919 % 10007);
        const QString texts[] = {words, QString(200000, QLatin1Char('a')), QString(100000, QLatin1Char(' ')) + "x",
                                 QString::fromUtf8("\xF0\x9F\x99\x82").repeated(20000)};
        for (const QString &text : texts) {
            QByteArray bytes;
            const std::vector<ModelToken> tokens = m_gpt2->encode(text);
            for (const ModelToken &t : tokens)
                bytes += t.bytes;
            QCOMPARE(bytes, text.toUtf8());
        }
        QVERIFY(m_gpt2->encode(words).size() > 8000);
    }
};

QTEST_GUILESS_MAIN(TestBpe)
#include "tst_bpe.moc"
