// The Llama-style pronoun model shipped in resources/examples/models/
// pronoun-llama (trained by scripts/train_example_model.sh: the pronoun task,
// every word scored, four query heads sharing two key/value heads) still
// teaches what its lesson says:
//   - at "it", both query heads of key/value group 0 (heads 0 and 1 of layer
//     0, which read the same keys) attend to the thing, and switching those
//     two off loses its verb while switching the other group off does not;
//   - at "he" or "she" a head of group 1 attends to the person;
//   - the next word is the verb of the noun the pronoun stands for;
//   - in layer 1 one head rests on the beginning token at each article of a
//     sentence that opens with "The" (the first-token sink) and leaves it at
//     the pronoun.
// Which noun each pronoun stands for, and its verb, are written here by hand
// from the task's rule ("it" is the thing, "he" the man, boy or king, "she"
// the woman, girl or queen; each noun has a verb of its own), not read from
// the model or the task's generator. The head numbers are this model's: the
// menu entry's description names them too.

#include "model/forward.h"
#include "model/headscores.h"
#include "model/modelloader.h"
#include "lessons/shippedmodel.h"
#include "shippedmodelload.h"
#include "tokenizers/tokenizerloader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace attn;

namespace {

const QString kFolder = QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/pronoun-llama");
const QString kLesson = QStringLiteral("The small boy found the old red lamp and it");

// The position of the last token whose text is `word`; -1 when none.
int lastPosition(const std::vector<ModelToken> &tokens, const QString &word)
{
    for (int i = int(tokens.size()) - 1; i >= 0; --i)
        if (tokens[std::size_t(i)].text == word)
            return i;
    return -1;
}

std::vector<int> idsOf(const std::vector<ModelToken> &tokens)
{
    std::vector<int> ids;
    for (const ModelToken &t : tokens)
        ids.push_back(t.id);
    return ids;
}

} // namespace

class TestShippedLlama : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        ATTN_LOAD_SHIPPED(kFolder, m_model, m_tokenizer);
    }

    // The modern block, as contract section 8 reads a llama folder.
    void recipeIsLlama()
    {
        const ModelConfig &c = m_model->config;
        QCOMPARE(c.modelType, QStringLiteral("llama"));
        QCOMPARE(c.layers, 2);
        QCOMPARE(c.heads, 4);
        QCOMPARE(c.kvHeads(), 2); // each key/value head read by two query heads
        QCOMPARE(c.positionKind, PositionKind::Rotary);
        QCOMPARE(c.rotary.dimensions, c.headDim());
        QCOMPARE(c.norm, NormKind::RmsNorm);
        QCOMPARE(c.mlp, MlpKind::Gated);
        QVERIFY(!c.queryKeyValueBias && !c.outputBias && !c.mlpBias);
        QCOMPARE(c.vocab, 59); // the task's 58 words and the beginning token
        QFile config(kFolder + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QJsonObject training = QJsonDocument::fromJson(config.readAll())["attention_explorer_training"].toObject();
        QCOMPARE(training.value("task").toString(), QStringLiteral("pronoun"));
        QCOMPARE(training.value("family").toString(), QStringLiteral("llama"));
        QVERIFY(training.value("every_token").toBool());
        // The tokenizer puts the beginning token first, as Llama's do.
        const std::vector<ModelToken> tokens = m_tokenizer->encode(kLesson);
        QCOMPARE(tokens.front().text, QStringLiteral("<|begin_of_text|>"));
        QCOMPARE(int(tokens.size()), 11);
    }

    void itFindsTheThing_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("noun");
        QTest::addColumn<QString>("verb");
        QTest::newRow("lesson") << kLesson << " lamp" << " flickered";
        QTest::newRow("pronoun lesson's sentence") << "The girl passed the red box and it" << " box" << " fell";
        QTest::newRow("thing first") << "The little robot hit the old woman twice and it" << " robot" << " beeped";
        QTest::newRow("opener") << "Today, the red red king hit the small door and it" << " door" << " opened";
        QTest::newRow("then") << "Then, the king found the big lamp slowly and it" << " lamp" << " flickered";
        QTest::newRow("ball") << "The big new ball passed the little king twice and it" << " ball" << " rolled";
        // The second sentence's thing, not the first's: the nearer "it" refers to "cup".
        QTest::newRow("two sentences") << "The girl passed the red box and it fell. The king hit the cup and it"
                                       << " cup" << " broke";
    }

    void itFindsTheThing()
    {
        QFETCH(QString, text);
        QFETCH(QString, noun);
        QFETCH(QString, verb);
        const std::vector<ModelToken> tokens = m_tokenizer->encode(text);
        const int nounAt = lastPosition(tokens, noun), pronoun = int(tokens.size()) - 1;
        QVERIFY(nounAt > 0);
        const ModelTrace trace = forward(*m_model, idsOf(tokens));
        // Heads 0 and 1 share key/value head 0 (query head h reads h / 2).
        for (int head : {0, 1}) {
            const float w = trace.layers[0].weights[std::size_t(head)](pronoun, nounAt);
            QVERIFY2(w > 0.7f, qPrintable(QStringLiteral("head 0:%1 %2").arg(head).arg(w)));
        }
        checkGuess(trace, verb);
    }

    void heOrSheFindsThePerson_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("noun");
        QTest::addColumn<QString>("verb");
        QTest::newRow("king") << "The king hit the cup slowly and he" << " king" << " nodded";
        QTest::newRow("queen") << "Later, the robot saw the old queen and she" << " queen" << " frowned";
        QTest::newRow("girl") << "Today, the small new lamp hit the girl twice and she" << " girl" << " waved";
        QTest::newRow("man") << "Later, the small new man hit the little box slowly and he" << " man" << " smiled";
    }

    void heOrSheFindsThePerson()
    {
        QFETCH(QString, text);
        QFETCH(QString, noun);
        QFETCH(QString, verb);
        const std::vector<ModelToken> tokens = m_tokenizer->encode(text);
        const int nounAt = lastPosition(tokens, noun), pronoun = int(tokens.size()) - 1;
        QVERIFY(nounAt > 0);
        const ModelTrace trace = forward(*m_model, idsOf(tokens));
        // Heads 2 and 3 share key/value head 1: one of them is sure, the other leans the same way.
        const float a = trace.layers[0].weights[2](pronoun, nounAt), b = trace.layers[0].weights[3](pronoun, nounAt);
        QVERIFY2(std::max(a, b) > 0.9f && std::min(a, b) > 0.5f, qPrintable(QStringLiteral("%1 %2").arg(a).arg(b)));
        checkGuess(trace, verb);
    }

    // The boy and the woman are found without a head pointing at them (the
    // pronoun's person when neither other person of its kind is there); the
    // verb is still theirs.
    void everyPersonGetsItsVerb_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("verb");
        QTest::newRow("boy") << "The big boy reached the old red door again and he" << " laughed";
        QTest::newRow("woman") << "Today, the red woman saw the big door and she" << " sighed";
    }

    void everyPersonGetsItsVerb()
    {
        QFETCH(QString, text);
        QFETCH(QString, verb);
        checkGuess(forward(*m_model, m_tokenizer->encodeIds(text)), verb);
    }

    // The heads of group 0 carry the thing to "it": without them its verb is
    // lost; without the other group's heads nothing changes.
    void switchingOffOneGroup()
    {
        const std::vector<int> ids = m_tokenizer->encodeIds(kLesson);
        const int flickered = m_tokenizer->encodeIds(QStringLiteral(" flickered")).back();
        auto withoutHeads = [&](int first, int second) {
            ForwardOptions options;
            options.ablatedHeads = {{0, first}, {0, second}};
            return forward(*m_model, ids, options).nextToken->probabilities[flickered];
        };
        QVERIFY(forward(*m_model, ids).nextToken->probabilities[flickered] > 0.9f);
        const float withoutThing = withoutHeads(0, 1), withoutPerson = withoutHeads(2, 3);
        QVERIFY2(withoutThing < 0.5f, qPrintable(QString::number(withoutThing)));
        QVERIFY2(withoutPerson > 0.9f, qPrintable(QString::number(withoutPerson)));
    }

    // In a sentence that opens with "The", head 1:3 puts most of its weight on
    // the beginning token at every article ("The", "the"), where it has
    // nothing to fetch, and almost none at the pronoun.
    void firstTokenSink_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("lesson") << kLesson;
        QTest::newRow("king") << "The king hit the cup slowly and he";
        QTest::newRow("robot") << "The little robot hit the old woman twice and it";
        QTest::newRow("door") << "The small door passed the old woman and it";
        QTest::newRow("car") << "The car saw the boy twice and he";
    }

    void firstTokenSink()
    {
        QFETCH(QString, text);
        const std::vector<ModelToken> tokens = m_tokenizer->encode(text);
        const ModelTrace trace = forward(*m_model, idsOf(tokens));
        const RowMatrix<float> &w = trace.layers[1].weights[3];
        int articles = 0;
        for (int i = 1; i < int(tokens.size()); ++i)
            if (tokens[std::size_t(i)].text == QLatin1String("The") || tokens[std::size_t(i)].text == QLatin1String(" the")) {
                QVERIFY2(w(i, 0) > 0.7f, qPrintable(QStringLiteral("%1: %2").arg(tokens[std::size_t(i)].text).arg(w(i, 0))));
                ++articles;
            }
        QCOMPARE(articles, 2);
        const int pronoun = int(tokens.size()) - 1;
        QVERIFY2(w(pronoun, 0) < 0.1f, qPrintable(QString::number(w(pronoun, 0))));
    }

    // The grid's "First token" score of that head on the lesson's sentence:
    // its share over every word after the first is well above the share
    // attention spread evenly would give it (word i sees i + 1 tokens).
    void firstTokenScoreOfTheLesson()
    {
        const std::vector<int> ids = m_tokenizer->encodeIds(kLesson);
        const ModelTrace trace = forward(*m_model, ids);
        double even = 0;
        for (int i = 1; i < int(ids.size()); ++i)
            even += 1.0 / (i + 1);
        even /= double(ids.size() - 1); // 0.202 for these 11 tokens
        const double share = headScores(trace.layers[1].weights[3], ids).firstToken;
        QVERIFY2(share > 1.8 * even, qPrintable(QStringLiteral("%1 against %2").arg(share).arg(even)));
    }

    // compute --model opens the folder as it lies, beginning token first.
    void computeOpensTheFolder()
    {
        QTemporaryDir tmp;
        const QString result = tmp.filePath(QStringLiteral("result.json"));
        QProcess compute;
        compute.start(QStringLiteral(ATTN_APP_PATH), {"compute", "--model", kFolder, "--text", kLesson, "-o", result});
        QVERIFY(compute.waitForFinished(60000));
        QCOMPARE(compute.exitCode(), 0);
        QFile f(result);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject r = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonArray tokens = r.value("tokens").toArray();
        QCOMPARE(tokens.size(), 11);
        QCOMPARE(tokens.first().toString(), QStringLiteral("<|begin_of_text|>"));
        QCOMPARE(tokens[8].toString(), QStringLiteral(" lamp"));
        QCOMPARE(r.value("model").toObject().value("kv_heads").toInt(), 2);
        QCOMPARE(r.value("next_token").toObject().value("top").toArray().first().toObject().value("token").toString(),
                 QStringLiteral(" flickered"));
        const double w = r.value("layers").toArray()[0].toObject().value("heads").toArray()[0].toObject()
                             .value("weights").toArray()[10].toArray()[8].toDouble();
        QVERIFY2(w > 0.7, qPrintable(QString::number(w)));
    }

    void unpacksTheEmbeddedCopy()
    {
        QTemporaryDir cache;
        QString error;
        const std::optional<ShippedModel> shipped = shippedModel(ShippedLesson::LlamaPronouns, &error, cache.path());
        QVERIFY2(shipped, qPrintable(error));
        for (const char *name : {"config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"}) {
            QFile a(kFolder + QLatin1Char('/') + QLatin1String(name)), b(shipped->folder + QLatin1Char('/') + QLatin1String(name));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), name);
        }
        QVERIFY(!QFile::exists(shipped->folder + QStringLiteral("/vocab.json")));
        QCOMPARE(shipped->exampleText, kLesson);
        // "it" and "lamp", counted with the beginning token at 0.
        const std::vector<ModelToken> tokens = m_tokenizer->encode(shipped->exampleText);
        QCOMPARE(tokens[std::size_t(shipped->exampleQuery)].text, QStringLiteral(" it"));
        QCOMPARE(tokens[std::size_t(shipped->exampleKey)].text, QStringLiteral(" lamp"));
        // Beside the GPT-2 pronoun model, not over it.
        const std::optional<ShippedModel> other = shippedModel(ShippedLesson::Pronouns, &error, cache.path());
        QVERIFY(other && other->folder != shipped->folder);
    }

private:
    void checkGuess(const ModelTrace &trace, const QString &verb)
    {
        QVERIFY(trace.nextToken);
        const auto top = topPredictions(trace.nextToken->probabilities, 1);
        QCOMPARE(m_tokenizer->idToText(top.front().first), verb);
        QVERIFY2(top.front().second > 0.9f, qPrintable(QString::number(top.front().second)));
    }

    SharedModelParameters m_model;
    TokenizerPtr m_tokenizer;
};

QTEST_GUILESS_MAIN(TestShippedLlama)
#include "tst_shippedllama.moc"
