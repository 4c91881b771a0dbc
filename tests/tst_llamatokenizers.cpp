// The tokenizers of Llama-family models from tokenizer.json: Qwen 3's real
// file (byte level behind a Split regex, NFC) and Mistral 7B's (SentencePiece
// style, byte fallback), and variants of them shaped as Llama 3, SmolLM2,
// Gemma and Metaspace files (variants.json), against the ids Hugging Face's
// JavaScript port gives (make_expected_hf.mjs); the BOS as transformers adds
// it; display texts and roles; refusals naming their place; load time.

#include "tokenizers/bpetokenizer.h"
#include "tokenizers/tokenizerloader.h"

#include <QElapsedTimer>
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

// tokenizer.json, or tokenizer.json.qz (qCompress's format) when the file is large.
QByteArray tokenizerJson(const QString &dir)
{
    if (QFile::exists(dir + "/tokenizer.json"))
        return readAll(dir + "/tokenizer.json");
    return qUncompress(readAll(dir + "/tokenizer.json.qz"));
}

// Qt's parser drops a U+FEFF that starts a string; an escape keeps it (as
// the loader does).
QJsonObject object(QByteArray json) { return QJsonDocument::fromJson(json.replace("\xEF\xBB\xBF", "\\ufeff")).object(); }
QByteArray bytes(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

std::vector<int> toIds(const QJsonArray &a)
{
    std::vector<int> ids;
    for (const QJsonValue &v : a)
        ids.push_back(v.toInt());
    return ids;
}

QString rowName(const QString &tokenizer, const QString &text, int i)
{
    QString name = QStringLiteral("%1 %2 %3").arg(tokenizer).arg(i).arg(text.left(24));
    name.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return name;
}

// A tokenizer of expected_hf.json: a real file, or a variant of one.
struct Files
{
    QByteArray json;
    QByteArray config; // null: no tokenizer_config.json
};

Files filesOf(const QString &name)
{
    static QHash<QString, QByteArray> bases;
    const QJsonObject variants = object(readAll(kDir + "/variants.json"));
    const QJsonObject v = variants.value(name).toObject();
    const QString base = v.isEmpty() ? name : v.value("base").toString();
    if (!bases.contains(base))
        bases.insert(base, tokenizerJson(kDir + "/" + base));
    if (v.isEmpty())
        return {bases.value(base), readAll(kDir + "/" + base + "/tokenizer_config.json")};
    QJsonObject json = object(bases.value(base));
    const QJsonObject replaced = v.value("tokenizer").toObject();
    for (auto it = replaced.begin(); it != replaced.end(); ++it)
        json.insert(it.key(), it.value());
    QJsonObject model = json.value("model").toObject();
    const QJsonObject modelFields = v.value("model").toObject();
    for (auto it = modelFields.begin(); it != modelFields.end(); ++it)
        model.insert(it.key(), it.value());
    json.insert("model", model);
    const QJsonValue config = v.value("config");
    return {bytes(json), config.isObject() ? bytes(config.toObject()) : QByteArray()};
}

// A tiny SentencePiece-style vocabulary: byte tokens for newline and the
// three bytes of "€", "▁", letters, and merges for "▁ab".
QJsonObject tinySpm()
{
    QJsonObject vocab{{"<unk>", 0}, {"<s>", 1}, {"</s>", 2}, {"<0x0A>", 3}, {"<0xE2>", 4}, {"<0x82>", 5}, {"<0xAC>", 6},
                      {"\u2581", 7}, {"a", 8}, {"b", 9}, {"\u2581a", 10}, {"\u2581ab", 11}};
    const QJsonArray added{QJsonObject{{"id", 0}, {"content", "<unk>"}, {"special", true}, {"normalized", false}},
                           QJsonObject{{"id", 1}, {"content", "<s>"}, {"special", true}, {"normalized", false}},
                           QJsonObject{{"id", 2}, {"content", "</s>"}, {"special", true}, {"normalized", false}}};
    const QJsonObject normalizer{{"type", "Sequence"}, {"normalizers", QJsonArray{QJsonObject{{"type", "Prepend"}, {"prepend", "\u2581"}},
                                  QJsonObject{{"type", "Replace"}, {"pattern", QJsonObject{{"String", " "}}}, {"content", "\u2581"}}}}};
    const QJsonObject model{{"type", "BPE"}, {"vocab", vocab}, {"merges", QJsonArray{"\u2581 a", "\u2581a b"}}, {"unk_token", "<unk>"},
                            {"byte_fallback", true}, {"fuse_unk", true}};
    return {{"added_tokens", added}, {"normalizer", normalizer}, {"pre_tokenizer", QJsonValue::Null}, {"model", model}};
}

QJsonObject bosTemplate(const QString &bos, int id)
{
    return {{"type", "TemplateProcessing"},
            {"single", QJsonArray{QJsonObject{{"SpecialToken", QJsonObject{{"id", bos}, {"type_id", 0}}}},
                                  QJsonObject{{"Sequence", QJsonObject{{"id", "A"}, {"type_id", 0}}}}}},
            {"special_tokens", QJsonObject{{bos, QJsonObject{{"id", bos}, {"ids", QJsonArray{id}}, {"tokens", QJsonArray{bos}}}}}}};
}

} // namespace

class TestLlamaTokenizers : public QObject
{
    Q_OBJECT

private:
    QHash<QString, TokenizerPtr> m_tokenizers;

    TokenizerPtr tokenizer(const QString &name)
    {
        if (!m_tokenizers.contains(name)) {
            const Files f = filesOf(name);
            QString error;
            const TokenizerPtr t = parseTokenizerJson(f.json, &error, "tokenizer.json", f.config);
            if (!t)
                qWarning("%s: %s", qPrintable(name), qPrintable(error));
            m_tokenizers.insert(name, t);
        }
        return m_tokenizers.value(name);
    }

private slots:
    void expected_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<int>>("ids");
        QTest::addColumn<QStringList>("pieces");
        const QJsonObject all = object(readAll(kDir + "/expected_hf.json"));
        QCOMPARE(all.keys(), (QStringList{"gemma-shaped", "llama3-shaped", "metaspace", "mistral", "qwen3", "smollm-shaped"}));
        for (const QString &name : all.keys()) {
            const QJsonArray rows = all.value(name).toArray();
            QVERIFY(rows.size() >= 35);
            for (int i = 0; i < rows.size(); ++i) {
                const QJsonObject row = rows[i].toObject();
                QStringList pieces;
                for (const QJsonValue &p : row["tokens"].toArray())
                    pieces << p.toString();
                QTest::newRow(qPrintable(rowName(name, row["text"].toString(), i)))
                    << name << row["text"].toString() << toIds(row["ids"].toArray()) << pieces;
            }
        }
    }

    void expected()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(std::vector<int>, ids);
        QFETCH(QStringList, pieces);
        const TokenizerPtr t = tokenizer(name);
        QVERIFY(t);
        const std::vector<ModelToken> tokens = t->encode(text);
        QCOMPARE(t->encodeIds(text), ids);
        // What each token shows: the vocabulary's piece decoded ("▁the" and
        // "Ġthe" as " the"), a byte token by its name, a BOS by its text.
        for (size_t i = 0; i < tokens.size(); ++i) {
            const ModelToken &token = tokens[i];
            QString piece = pieces[qsizetype(i)];
            if (token.role == ModelToken::Role::Text && name != "qwen3" && !name.endsWith("shaped")) {
                QCOMPARE(token.text, piece.replace(QStringLiteral("\u2581"), QStringLiteral(" ")));
            } else if (token.role == ModelToken::Role::Byte) {
                QCOMPARE(token.text, piece);
                QCOMPARE(token.bytes.size(), 1);
            } else if (token.role == ModelToken::Role::Special) {
                QCOMPARE(token.text, piece);
            }
        }
    }

    void qwenFolder()
    {
        // The real folder as a model's: Qwen adds no BOS.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile json(dir.filePath("tokenizer.json"));
        QVERIFY(json.open(QIODevice::WriteOnly) && json.write(tokenizerJson(kDir + "/qwen3")) > 0);
        json.close();
        QVERIFY(QFile::copy(kDir + "/qwen3/tokenizer_config.json", dir.filePath("tokenizer_config.json")));
        QString error;
        QElapsedTimer timer;
        timer.start();
        const TokenizerPtr t = loadTokenizerFromFolder(dir.path(), "qwen2", &error);
        const qint64 ms = timer.elapsed();
        QVERIFY2(t, qPrintable(error));
        // A figure to read, not to assert: the suites run it beside other
        // tests and under the sanitizers (about 0.35 s of CPU here alone).
        qInfo("Qwen 3's tokenizer.json (151,669 tokens, 151,387 merges) loaded in %lld ms", ms);
        QCOMPARE(t->vocabSize(), 151669);
        QCOMPARE(t->specialIds().bos, -1);
        QCOMPARE(t->specialIds().eos, 151645); // <|im_end|>
        QCOMPARE(t->specialIds().pad, 151643);
        const std::vector<ModelToken> tokens = t->encode("Hello world");
        QCOMPARE(tokens.size(), size_t(2));
        QCOMPARE(tokens[0], (ModelToken{9707, "Hello", "Hello"}));
        QCOMPARE(tokens[1], (ModelToken{1879, " world", " world"}));
        QVERIFY(loadTokenizerFromFolder(dir.path(), "qwen3", &error));
    }

    void mistralFolder()
    {
        // Mistral adds <s>, which covers none of the text; byte tokens show
        // as themselves; a typed <s> is special too.
        QString error;
        const TokenizerPtr t = loadTokenizerFromFolder(kDir + "/mistral", "mistral", &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->vocabSize(), 32000);
        QCOMPARE(t->specialIds().bos, 1);
        QCOMPARE(t->specialIds().eos, 2);
        QCOMPARE(t->specialIds().unk, 0);
        const std::vector<ModelToken> tokens = t->encode("Hi\n<s>");
        QCOMPARE(tokens.size(), size_t(4));
        QCOMPARE(tokens[0], (ModelToken{1, "", "<s>", ModelToken::Role::Special}));
        QCOMPARE(tokens[1], (ModelToken{15359, " Hi", " Hi"}));
        QCOMPARE(tokens[2], (ModelToken{13, "\n", "<0x0A>", ModelToken::Role::Byte}));
        QCOMPARE(tokens[3], (ModelToken{1, "<s>", "<s>", ModelToken::Role::Special}));
        QCOMPARE(t->idToText(28705), QStringLiteral(" "));
        QCOMPARE(t->idToText(13), QStringLiteral("<0x0A>"));
        for (const QString &type : {"llama", "gemma", "gemma2", "gemma3_text", "phi3"})
            QVERIFY(loadTokenizerFromFolder(kDir + "/mistral", type, &error));
    }

    void byteFallbackAndUnknown()
    {
        // Hand-worked on tinySpm(): "ab €\n" -> "▁ab▁€\n": ▁ab (merged),
        // ▁, € as its three bytes, \n as <0x0A>; "c" has no token and no
        // byte tokens for 0x63: <unk>, and "cc" one fused <unk>.
        QString error;
        const TokenizerPtr t = parseTokenizerJson(bytes(tinySpm()), &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->encodeIds(QStringLiteral("ab \u20AC\n")), (std::vector<int>{11, 7, 4, 5, 6, 3}));
        QCOMPARE(t->encodeIds("acc b"), (std::vector<int>{10, 0, 7, 9}));
        QJsonObject unfused = tinySpm();
        QJsonObject model = unfused["model"].toObject();
        model["fuse_unk"] = false;
        unfused["model"] = model;
        QCOMPARE(parseTokenizerJson(bytes(unfused), &error)->encodeIds("acc b"), (std::vector<int>{10, 0, 0, 7, 9}));
        model["byte_fallback"] = false;
        unfused["model"] = model;
        QCOMPARE(parseTokenizerJson(bytes(unfused), &error)->encodeIds(QStringLiteral("a\u20AC")), (std::vector<int>{10, 0}));
        // No template and no config: no BOS.
        QCOMPARE(t->encode("a").front().role, ModelToken::Role::Text);
    }

    void ignoreMerges()
    {
        // "▁ab" is a token, but with only the merge "▁ a" the merges stop at
        // ▁a + b; ignore_merges takes the whole piece (models/bpe/model.rs).
        QJsonObject json = tinySpm();
        QJsonObject model = json["model"].toObject();
        model["merges"] = QJsonArray{"\u2581 a"};
        json["model"] = model;
        QString error;
        QCOMPARE(parseTokenizerJson(bytes(json), &error)->encodeIds("ab"), (std::vector<int>{10, 9}));
        model["ignore_merges"] = true;
        json["model"] = model;
        QCOMPARE(parseTokenizerJson(bytes(json), &error)->encodeIds("ab"), (std::vector<int>{11}));
    }

    void bos_data()
    {
        // tokenizer_config.json against the template, as transformers decides
        // (tokenizerconfig.cpp): the Llama and Gemma classes rebuild the
        // template from add_bos_token (default true); other classes keep it
        // unless add_bos_token or add_eos_token is named.
        QTest::addColumn<bool>("withTemplate");
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<std::vector<int>>("ids");
        const std::vector<int> bos{1, 10}, none{10}, both{1, 10, 2};
        QTest::newRow("template, no config") << true << QByteArray() << bos;
        QTest::newRow("no template, no config") << false << QByteArray() << none;
        QTest::newRow("Llama class adds by default") << false << QByteArray("{\"tokenizer_class\": \"LlamaTokenizer\", \"bos_token\": \"<s>\"}") << bos;
        QTest::newRow("Llama class, add_bos_token false") << true << QByteArray("{\"tokenizer_class\": \"LlamaTokenizerFast\", \"add_bos_token\": false, \"bos_token\": \"<s>\"}") << none;
        QTest::newRow("Gemma class, add_eos_token") << false << QByteArray("{\"tokenizer_class\": \"GemmaTokenizer\", \"add_eos_token\": true, \"bos_token\": {\"content\": \"<s>\"}, \"eos_token\": \"</s>\"}") << both;
        QTest::newRow("generic class keeps template") << true << QByteArray("{\"tokenizer_class\": \"PreTrainedTokenizerFast\", \"bos_token\": \"<s>\"}") << bos;
        QTest::newRow("generic class, add_bos_token false") << true << QByteArray("{\"tokenizer_class\": \"Qwen2Tokenizer\", \"add_bos_token\": false, \"bos_token\": null}") << none;
        QTest::newRow("generic class, add_bos_token true") << false << QByteArray("{\"tokenizer_class\": \"PreTrainedTokenizerFast\", \"add_bos_token\": true, \"bos_token\": \"<s>\"}") << bos;
        QTest::newRow("generic class, add_eos_token only") << true << QByteArray("{\"add_eos_token\": true, \"eos_token\": \"</s>\"}") << std::vector<int>{10, 2};
    }

    void bos()
    {
        QFETCH(bool, withTemplate);
        QFETCH(QByteArray, config);
        QFETCH(std::vector<int>, ids);
        QJsonObject json = tinySpm();
        if (withTemplate)
            json["post_processor"] = bosTemplate("<s>", 1);
        QString error;
        const TokenizerPtr t = parseTokenizerJson(bytes(json), &error, "tokenizer.json", config);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->encodeIds("a"), ids);
    }

    void refused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("message");
        QTest::newRow("model type") << "model.type" << "\"Unigram\"" << QByteArray()
                                    << "tokenizer.json: model.type: expected \"BPE\" or \"WordPiece\", got \"Unigram\"";
        QTest::newRow("normalizer") << "normalizer" << "{\"type\": \"Sequence\", \"normalizers\": [{\"type\": \"NFC\"}, {\"type\": \"Lowercase\"}]}" << QByteArray()
                                    << "tokenizer.json: normalizer.normalizers[1].type: \"Lowercase\" is not supported (expected \"NFC\", \"NFD\", \"NFKC\", \"NFKD\", \"Prepend\", \"Replace\", \"Sequence\")";
        QTest::newRow("pre-tokenizer") << "pre_tokenizer" << "{\"type\": \"Sequence\", \"pretokenizers\": [{\"type\": \"Whitespace\"}]}" << QByteArray()
                                       << "tokenizer.json: pre_tokenizer.pretokenizers[0].type: \"Whitespace\" is not supported (expected \"ByteLevel\", \"Split\", \"Metaspace\", \"Digits\", \"Sequence\")";
        QTest::newRow("bad regex") << "pre_tokenizer" << "{\"type\": \"Split\", \"pattern\": {\"Regex\": \"(a\"}, \"behavior\": \"Isolated\"}" << QByteArray()
                                   << "tokenizer.json: pre_tokenizer.pattern.Regex: missing closing parenthesis at character 2";
        QTest::newRow("behaviour") << "pre_tokenizer" << "{\"type\": \"Split\", \"pattern\": {\"String\": \" \"}, \"behavior\": \"Sideways\"}" << QByteArray()
                                   << "tokenizer.json: pre_tokenizer.behavior: expected \"Removed\", \"Isolated\", \"MergedWithPrevious\", \"MergedWithNext\" or \"Contiguous\", got \"Sideways\"";
        QTest::newRow("after byte level") << "pre_tokenizer" << "{\"type\": \"Sequence\", \"pretokenizers\": [{\"type\": \"ByteLevel\"}, {\"type\": \"Digits\"}]}" << QByteArray()
                                          << "tokenizer.json: pre_tokenizer.pretokenizers[1]: a step after ByteLevel is not supported (ByteLevel must come last)";
        QTest::newRow("metaspace scheme") << "pre_tokenizer" << "{\"type\": \"Metaspace\", \"replacement\": \"_\", \"prepend_scheme\": \"sometimes\"}" << QByteArray()
                                          << "tokenizer.json: pre_tokenizer.prepend_scheme: expected \"always\", \"first\" or \"never\", got \"sometimes\"";
        QTest::newRow("byte_fallback") << "model.byte_fallback" << "\"yes\"" << QByteArray()
                                       << "tokenizer.json: model.byte_fallback: expected true/false, got a string";
        QTest::newRow("unk") << "model.unk_token" << "\"<nope>\"" << QByteArray()
                             << "tokenizer.json: model.unk_token: \"<nope>\" is not in model.vocab";
        QTest::newRow("dropout") << "model.dropout" << "0.1" << QByteArray()
                                 << "tokenizer.json: model.dropout: random merges (dropout) are not supported";
        QTest::newRow("template id") << "post_processor" << "{\"type\": \"TemplateProcessing\", \"single\": [{\"SpecialToken\": {\"id\": \"<s>\"}}, {\"Sequence\": {\"id\": \"A\"}}], \"special_tokens\": {\"<s>\": {\"ids\": [99]}}}" << QByteArray()
                                     << "tokenizer.json: post_processor.special_tokens.<s>.ids[0]: expected an id of the vocabulary, got a number";
        QTest::newRow("processor") << "post_processor" << "{\"type\": \"Shuffle\"}" << QByteArray()
                                   << "tokenizer.json: post_processor.type: \"Shuffle\" is not supported (expected \"ByteLevel\", \"TemplateProcessing\", \"RobertaProcessing\", \"BertProcessing\", \"Sequence\")";
        QTest::newRow("added flag") << "added_tokens" << "[{\"id\": 1, \"content\": \"<s>\", \"lstrip\": 1}]" << QByteArray()
                                    << "tokenizer.json: added_tokens[0].lstrip: expected true/false, got a number";
        QTest::newRow("config bos") << "" << "" << QByteArray("{\"add_bos_token\": true, \"bos_token\": \"<start>\"}")
                                    << "tokenizer_config.json: bos_token: \"<start>\" is not a token of tokenizer.json";
        QTest::newRow("config flag") << "" << "" << QByteArray("{\"add_bos_token\": \"yes\"}")
                                     << "tokenizer_config.json: add_bos_token: expected true/false, got a string";
        QTest::newRow("config no bos") << "" << "" << QByteArray("{\"tokenizer_class\": \"LlamaTokenizer\"}")
                                       << "tokenizer_config.json: add_bos_token: true, but there is no bos_token";
        QTest::newRow("config not JSON") << "" << "" << QByteArray("{") << "tokenizer_config.json: not valid JSON at byte 1: unterminated object";
    }

    void refused()
    {
        // Each malformed field is one line naming the file and its place.
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QByteArray, config);
        QFETCH(QString, message);
        QJsonObject json = tinySpm();
        if (!field.isEmpty()) {
            const QJsonValue v = QJsonDocument::fromJson("[" + value.toUtf8() + "]").array().at(0);
            const QStringList path = field.split('.');
            if (path.size() == 1) {
                json[path[0]] = v;
            } else {
                QJsonObject inner = json[path[0]].toObject();
                inner[path[1]] = v;
                json[path[0]] = inner;
            }
        }
        QString error;
        QVERIFY(!parseTokenizerJson(bytes(json), &error, "tokenizer.json", config));
        QCOMPARE(error, message);
    }

    void slowPath()
    {
        // An id written 7.0 or a token spelled with an escape the fast scan
        // leaves to Qt's parser: the same tokenizer either way.
        QString error;
        const QByteArray plain = bytes(tinySpm());
        QByteArray odd = plain;
        odd.replace("\"\u2581\":7", "\"\\u2581\":7.0");
        QVERIFY(odd != plain);
        const TokenizerPtr a = parseTokenizerJson(plain, &error), b = parseTokenizerJson(odd, &error);
        QVERIFY2(a && b, qPrintable(error));
        QCOMPARE(b->encodeIds(QStringLiteral("ab \u20AC\n")), a->encodeIds(QStringLiteral("ab \u20AC\n")));
        // A token listed twice (which only the fast scan keeps) is refused.
        QByteArray twice = plain;
        twice.replace("\"b\":9", "\"a\":9");
        QVERIFY(!parseTokenizerJson(twice, &error));
        QCOMPARE(error, QStringLiteral("tokenizer.json: model.vocab: a token is listed twice"));
    }

    void fuzzSeeds()
    {
        // The fuzz corpus's tokenizer.json seeds load (a fuzzer starting
        // from refused files would explore little).
        const QByteArray spm = readAll(ATTN_TEST_DATA "/fuzz/bpe/tokenizer-json-sentencepiece.bin").mid(1);
        const qsizetype cut = spm.indexOf('\0');
        QString error;
        const TokenizerPtr a = parseTokenizerJson(spm.left(cut), &error, "tokenizer.json", spm.mid(cut + 1));
        QVERIFY2(a, qPrintable(error));
        QCOMPARE(a->encodeIds("ab"), (std::vector<int>{1, 11, 2})); // add_bos_token and add_eos_token
        const TokenizerPtr b = parseTokenizerJson(readAll(ATTN_TEST_DATA "/fuzz/bpe/tokenizer-json-split.bin").mid(1), &error);
        QVERIFY2(b, qPrintable(error));
        const std::vector<ModelToken> tokens = b->encode("x 12");
        QCOMPARE(tokens.front().id, 258);
        QByteArray text;
        for (const ModelToken &t : tokens)
            text += t.bytes;
        // ByteLevel's add_prefix_space puts a space before each piece that has
        // none (byte_level.rs): "x", " ", "12" become " x", " ", " 12".
        QCOMPARE(text, QByteArray(" x  12"));
    }

    void extraTokenizers()
    {
        // Tokenizer files that cannot be committed (Llama 3's, Gemma's),
        // with their expected_hf.json: ATTN_EXTRA_TOKENIZERS=DIR, one folder each.
        const QString root = qEnvironmentVariable("ATTN_EXTRA_TOKENIZERS");
        if (root.isEmpty())
            QSKIP("ATTN_EXTRA_TOKENIZERS is not set");
        for (const QString &name : QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QString dir = root + "/" + name;
            QString error;
            QElapsedTimer timer;
            timer.start();
            const TokenizerPtr t = loadTokenizerJson(dir + "/tokenizer.json", &error, dir + "/tokenizer_config.json");
            QVERIFY2(t, qPrintable(error));
            qInfo("%s: loaded in %lld ms", qPrintable(name), timer.elapsed());
            int same = 0;
            for (const QJsonValue &row : QJsonDocument::fromJson(readAll(dir + "/expected_hf.json")).array()) {
                const QString text = row["text"].toString();
                QVERIFY2(t->encodeIds(text) == toIds(row["ids"].toArray()), qPrintable(name + ": " + text));
                ++same;
            }
            qInfo("%s: %d texts as Hugging Face's port gives them", qPrintable(name), same);
        }
    }
};

QTEST_GUILESS_MAIN(TestLlamaTokenizers)
#include "tst_llamatokenizers.moc"
