// The model shipped in resources/examples/models/induction (trained by
// scripts/train_example_model.sh) still shows what the lesson says it shows:
// on random stretches repeated once, a layer-0 head attends to the previous
// token and a layer-1 head to the token after the current token's earlier
// occurrence, and the model predicts the repeat.

#include "model/forward.h"
#include "model/headscores.h"
#include "model/modelloader.h"
#include "runtime/prng.h"
#include "lessons/shippedmodel.h"
#include "shippedmodelload.h"
#include "tokenizers/tokenizerloader.h"

#include <QDateTime>
#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

using namespace attn;

namespace {

const QString kFolder = QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/induction");
const char kSymbols[] = "abcdefghijklmnopqrstuvwxyzABCDEF"; // the task's 32 symbols, ids 0 ... 31

// `prefix` random tokens, then `stretch` random tokens twice.
QString repeatedRandomText(std::uint64_t seed, int prefix, int stretch)
{
    SplitMix64 rng(seed);
    auto randomSymbol = [&] { return QLatin1Char(kSymbols[int(rng.nextUnit() * 32)]); };
    QString text, repeat;
    for (int i = 0; i < prefix; ++i)
        text += randomSymbol();
    for (int i = 0; i < stretch; ++i)
        repeat += randomSymbol();
    return text + repeat + repeat;
}

} // namespace

class TestShippedModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        ATTN_LOAD_SHIPPED(kFolder, m_model, m_tokenizer);
    }

    void smallAndAsTrained()
    {
        const ModelConfig &c = m_model->config;
        QCOMPARE(c.layers, 2);
        QCOMPARE(c.vocab, 32);
        QCOMPARE(c.positions, 64);
        qint64 bytes = 0;
        for (QDirIterator it(kFolder, QDir::Files); it.hasNext();)
            bytes += QFileInfo(it.next()).size();
        QVERIFY2(bytes < 600 * 1024, qPrintable(QString::number(bytes))); // ships in the package: a few hundred KB
        // One token per symbol, in the task's order.
        QCOMPARE(m_tokenizer->encodeIds(QStringLiteral("abzAF")), (std::vector<int>{0, 1, 25, 26, 31}));
    }

    void headsShowTheLesson_data()
    {
        QTest::addColumn<QString>("text");
        // The example text the lesson opens with, then held-out random repeats
        // of other lengths and offsets.
        QTest::newRow("example") << QStringLiteral("qmEjxBtrkwaDcsqmEjxBtrkwaDcs");
        QTest::newRow("8 after 3") << repeatedRandomText(101, 3, 8);
        QTest::newRow("12 after 0") << repeatedRandomText(102, 0, 12);
        QTest::newRow("20 after 5") << repeatedRandomText(103, 5, 20);
        QTest::newRow("28 after 7") << repeatedRandomText(104, 7, 28);
    }
    void headsShowTheLesson()
    {
        QFETCH(QString, text);
        const std::vector<int> ids = m_tokenizer->encodeIds(text);
        QCOMPARE(int(ids.size()), int(text.size()));
        ForwardOptions options;
        options.keepScores = false;
        const ModelTrace trace = forward(*m_model, ids, options);
        const auto scores = traceHeadScores(trace, ids);
        const std::optional<int> previous = bestHead(scores[0], &HeadScores::previousToken);
        const std::optional<int> induction = bestHead(scores[1], &HeadScores::induction);
        QVERIFY(previous && induction);
        const double p = scores[0][std::size_t(*previous)].previousToken;
        const double i = scores[1][std::size_t(*induction)].induction;
        qInfo("layer 0 head %d: previous-token %.3f; layer 1 head %d: induction %.3f", *previous, p, *induction, i);
        QVERIFY2(p > 0.8, qPrintable(QStringLiteral("layer 0 head %1: previous-token %2").arg(*previous).arg(p)));
        QVERIFY2(i > 0.5, qPrintable(QStringLiteral("layer 1 head %1: induction %2").arg(*induction).arg(i)));
    }

    // The binary carries the same files and unpacks them once into the cache.
    void unpacksTheEmbeddedCopy()
    {
        QTemporaryDir cache;
        QString error;
        const std::optional<ShippedModel> shipped = shippedModel(ShippedLesson::InductionHeads, &error, cache.path());
        QVERIFY2(shipped, qPrintable(error));
        QVERIFY(shipped->folder.startsWith(cache.path()));
        for (const char *name : {"config.json", "model.safetensors", "vocab.json", "merges.txt"}) {
            QFile a(kFolder + QLatin1Char('/') + QLatin1String(name)), b(shipped->folder + QLatin1Char('/') + QLatin1String(name));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), name);
        }
        QVERIFY(loadModel(shipped->folder, &error));
        // A second call finds the copy, and no staging folder is left behind.
        const QDateTime written = QFileInfo(shipped->folder + QStringLiteral("/model.safetensors")).lastModified();
        QCOMPARE(shippedModel(ShippedLesson::InductionHeads, &error, cache.path())->folder, shipped->folder);
        QCOMPARE(QFileInfo(shipped->folder + QStringLiteral("/model.safetensors")).lastModified(), written);
        QCOMPARE(QDir(QFileInfo(shipped->folder).path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 1);
        QVERIFY(QString(shipped->exampleText).size() == 28);
        // A cache that cannot be written: one line, no crash.
        QVERIFY(!shippedModel(ShippedLesson::InductionHeads, &error, QStringLiteral("/proc/nonexistent")));
        QVERIFY(!error.isEmpty() && !error.contains('\n'));
    }

    void predictsTheRepeat()
    {
        // Cut inside the repeat: the next token is the one that followed the
        // current token the first time.
        const QString text = QStringLiteral("qmEjxBtrkwaDcsqmEjxBt");
        const ModelTrace trace = forward(*m_model, m_tokenizer->encodeIds(text));
        QVERIFY(trace.nextToken);
        const auto top = topPredictions(trace.nextToken->probabilities, 1);
        QCOMPARE(QLatin1Char(kSymbols[top.front().first]), QLatin1Char('r'));
        QVERIFY2(top.front().second > 0.5f, qPrintable(QString::number(top.front().second)));
    }

private:
    SharedModelParameters m_model;
    TokenizerPtr m_tokenizer;
};

QTEST_GUILESS_MAIN(TestShippedModel)
#include "tst_shippedmodel.moc"
