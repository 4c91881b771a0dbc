// Tokenizers built from a vocabulary as a GGUF file holds it (tokens by id,
// merges, a pre-tokenizer named by `tokenizer.ggml.pre`): Qwen 3's
// vocabulary with llama.cpp's "qwen2", "llama-bpe" and "smollm"
// pre-tokenizers gives the ids Hugging Face's port gives the tokenizer.json
// files of those shapes (expected_hf.json).

#include "tokenizers/bpetokenizer.h"
#include "tokenizers/ggufpretokenizer.h"
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
