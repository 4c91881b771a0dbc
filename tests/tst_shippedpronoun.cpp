// The pronoun model shipped in resources/examples/models/pronoun (trained by
// scripts/train_example_model.sh) still teaches what its lesson says: at the
// pronoun, a head of layer 0 attends to the noun the pronoun stands for
// (wherever it is, first or second), the model guesses that noun's verb, and
// with layer 0's heads switched off it no longer knows which noun it was.
//
// Each sentence's noun and verb are written here by hand, from the task's
// rule, not read from the model or the task.

#include "model/forward.h"
#include "model/modelloader.h"
#include "lessons/shippedmodel.h"
#include "shippedmodelload.h"
#include "tokenizers/tokenizerloader.h"

#include <QTemporaryDir>
#include <QTest>

using namespace attn;

namespace {

const QString kFolder = QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/pronoun");

} // namespace

class TestShippedPronoun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        ATTN_LOAD_SHIPPED(kFolder, m_model, m_tokenizer);
        QCOMPARE(m_model->config.layers, 2);
        QCOMPARE(m_model->config.vocab, 58);
    }

    void headsFindTheNoun_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("noun");
        QTest::addColumn<QString>("verb");
        QTest::newRow("lesson: it") << "The girl passed the red box and it" << " box" << " fell";
        QTest::newRow("lesson: she") << "The girl passed the red box and she" << " girl" << " waved";
        QTest::newRow("thing first") << "Today, the old robot followed the small queen twice and it" << " robot"
                                     << " beeped";
        QTest::newRow("person second") << "Today, the old robot followed the small queen twice and she" << " queen"
                                       << " frowned";
        QTest::newRow("he") << "The big new ball hit the king again and he" << " king" << " nodded";
        QTest::newRow("no adjectives") << "The man found the lamp and it" << " lamp" << " flickered";
    }

    void headsFindTheNoun()
    {
        QFETCH(QString, text);
        QFETCH(QString, noun);
        QFETCH(QString, verb);
        const std::vector<ModelToken> tokens = m_tokenizer->encode(text);
        int nounAt = -1;
        for (std::size_t i = 0; i < tokens.size(); ++i)
            if (tokens[i].text == noun)
                nounAt = int(i);
        QVERIFY(nounAt >= 0);
        std::vector<int> ids;
        for (const ModelToken &t : tokens)
            ids.push_back(t.id);
        const ModelTrace trace = forward(*m_model, ids);
        const int pronoun = int(ids.size()) - 1;
        float best = 0;
        for (const RowMatrix<float> &w : trace.layers[0].weights)
            best = std::max(best, w(pronoun, nounAt));
        QVERIFY2(best > 0.8f, qPrintable(QString::number(best)));
        QVERIFY(trace.nextToken);
        const auto top = topPredictions(trace.nextToken->probabilities, 1);
        QCOMPARE(m_tokenizer->idToText(top.front().first), verb);
        QVERIFY2(top.front().second > 0.9f, qPrintable(QString::number(top.front().second)));
    }

    // Layer 0's heads carry the noun to the pronoun: without them the verb is lost.
    void switchingOffLayerZeroLosesTheNoun()
    {
        const std::vector<int> ids = m_tokenizer->encodeIds(QStringLiteral("The girl passed the red box and it"));
        const int fell = m_tokenizer->encodeIds(QStringLiteral(" fell")).front();
        ForwardOptions options;
        for (int h = 0; h < m_model->config.heads; ++h)
            options.ablatedHeads.insert({0, h});
        const ModelTrace trace = forward(*m_model, ids, options);
        const float p = trace.nextToken->probabilities[fell];
        QVERIFY2(p < 0.5f, qPrintable(QString::number(p)));
        QVERIFY(forward(*m_model, ids).nextToken->probabilities[fell] > 0.9f);
    }

    void unpacksTheEmbeddedCopy()
    {
        QTemporaryDir cache;
        QString error;
        const std::optional<ShippedModel> shipped = shippedModel(ShippedLesson::Pronouns, &error, cache.path());
        QVERIFY2(shipped, qPrintable(error));
        for (const char *name : {"config.json", "model.safetensors", "vocab.json", "merges.txt"}) {
            QFile a(kFolder + QLatin1Char('/') + QLatin1String(name)), b(shipped->folder + QLatin1Char('/') + QLatin1String(name));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), name);
        }
        QCOMPARE(shipped->exampleText, QStringLiteral("The girl passed the red box and it"));
        // Beside the induction model, not over it.
        const std::optional<ShippedModel> other = shippedModel(ShippedLesson::InductionHeads, &error, cache.path());
        QVERIFY(other && other->folder != shipped->folder);
    }

private:
    SharedModelParameters m_model;
    TokenizerPtr m_tokenizer;
};

QTEST_GUILESS_MAIN(TestShippedPronoun)
#include "tst_shippedpronoun.moc"
