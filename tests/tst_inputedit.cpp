// Changing the input (model/inputedit.h, ForwardOptions::embeddingEdits)
// against the numpy reference of tests/data/models/input_edits.py: a token's
// embedding moved towards another's, its first dimensions set, a replaced
// token, on the tiny GPT-2 and BERT fixtures; and incremental reuse that
// stops at the first edited position.

#include "modelfixtures.h"

#include "model/forward.h"
#include "model/incremental.h"
#include "model/inputedit.h"
#include "model/modelloader.h"

#include <QJsonArray>
#include <QTest>

using namespace attn;
using fixtures::matrix;

namespace {

constexpr double kTol = 1e-5;

SharedModelParameters load(const char *name)
{
    QString error;
    SharedModelParameters p = loadModel(fixtures::modelDir(name), &error);
    if (!p)
        qWarning("%s", qPrintable(error));
    return p;
}

QJsonObject edits(const char *name)
{
    return fixtures::readJson(QStringLiteral(ATTN_TEST_DATA "/models/input_edits.json"))
        .value(QLatin1String(name))
        .toObject();
}

} // namespace

class TestInputEdit : public QObject
{
    Q_OBJECT

    SharedModelParameters m_gpt2, m_bert;

    // Every head's weights (and GPT-2's next token) of `trace` against case `name`.
    void compareWithReference(const ModelTrace &trace, const QJsonObject &expected)
    {
        const QJsonArray layers = expected.value(QLatin1String("layers")).toArray();
        QCOMPARE(qsizetype(trace.layers.size()), layers.size());
        for (int l = 0; l < layers.size(); ++l) {
            const QJsonArray heads = layers[l].toArray();
            QCOMPARE(qsizetype(trace.layers[std::size_t(l)].weights.size()), heads.size());
            for (int h = 0; h < heads.size(); ++h)
                COMPARE_NEAR(trace.layers[std::size_t(l)].weights[std::size_t(h)], matrix(heads[h]), kTol);
        }
        if (expected.contains(QLatin1String("next_token"))) {
            QVERIFY(trace.nextToken);
            COMPARE_NEAR(trace.nextToken->probabilities, matrix(expected.value(QLatin1String("next_token"))), kTol);
        }
    }

private slots:
    void initTestCase()
    {
        m_gpt2 = load("gpt2-f32");
        m_bert = load("bert-f32");
        QVERIFY(m_gpt2 && m_bert);
    }

    void movedTowardsAnotherToken()
    {
        const QJsonObject expected = edits("gpt2_moved");
        const std::vector<int> ids = fixtures::ids(expected.value(QLatin1String("token_ids")));
        ForwardOptions options;
        options.embeddingEdits.push_back({4, deltaTowards(*m_gpt2, ids[4], 17, 0.3)});
        const QJsonObject recorded = expected.value(QLatin1String("edits")).toArray().first().toObject();
        COMPARE_NEAR(options.embeddingEdits[0].delta, matrix(recorded.value(QLatin1String("delta"))), 1e-7);
        compareWithReference(forward(*m_gpt2, ids, options), expected);
        // Position 5 holds the same token, unedited: the edit is one position's, not the vocabulary row's.
        const ModelTrace plain = forward(*m_gpt2, ids);
        const ModelTrace edited = forward(*m_gpt2, ids, options);
        QVERIFY(edited.hidden[0].row(5) == plain.hidden[0].row(5));
        QVERIFY(edited.hidden[0].row(4) != plain.hidden[0].row(4));
    }

    void tokenEmbeddingNorm()
    {
        // From tests/data/models/embedding_norms.py (wte read from the file with Python's struct).
        QCOMPARE(qRound64(attn::tokenEmbeddingNorm(*m_gpt2, 0).value() * 1e6), qint64(2522584));
        QCOMPARE(qRound64(attn::tokenEmbeddingNorm(*m_gpt2, 3).value() * 1e6), qint64(1485450));
        QCOMPARE(qRound64(attn::tokenEmbeddingNorm(*m_gpt2, 28).value() * 1e6), qint64(1314413));
        QVERIFY(!attn::tokenEmbeddingNorm(*m_gpt2, 29).has_value()); // 29 rows
        QVERIFY(!attn::tokenEmbeddingNorm(*m_gpt2, -1).has_value());
    }

    void movingAllTheWayIsReplacing()
    {
        std::vector<int> ids = fixtures::ids(edits("gpt2_moved").value(QLatin1String("token_ids")));
        ForwardOptions options;
        options.embeddingEdits.push_back({4, deltaTowards(*m_gpt2, ids[4], 17, 1.0)});
        const ModelTrace moved = forward(*m_gpt2, ids, options);
        ids[4] = 17;
        const ModelTrace replaced = forward(*m_gpt2, ids);
        COMPARE_NEAR(moved.nextToken->probabilities, replaced.nextToken->probabilities.cast<double>().eval(), 1e-6);
    }

    void firstDimensionsSet()
    {
        const QJsonObject expected = edits("gpt2_first_dims");
        const std::vector<int> ids = fixtures::ids(expected.value(QLatin1String("token_ids")));
        ForwardOptions options;
        options.embeddingEdits.push_back({1, deltaSettingFirstDims(*m_gpt2, ids[1], {0.5f, -1.25f, 2.0f})});
        const ModelTrace trace = forward(*m_gpt2, ids, options);
        QCOMPARE(trace.hidden[0](1, 0), 0.5f + m_gpt2->positionEmbedding(1, 0));
        QCOMPARE(trace.hidden[0](1, 3), m_gpt2->tokenEmbedding(ids[1], 3) + m_gpt2->positionEmbedding(1, 3));
        compareWithReference(trace, expected);
    }

    void replacedToken()
    {
        const QJsonObject expected = edits("gpt2_replaced");
        compareWithReference(forward(*m_gpt2, fixtures::ids(expected.value(QLatin1String("token_ids")))), expected);
    }

    // BERT: the edit goes in before the embedding LayerNorm.
    void bertMoved()
    {
        const QJsonObject expected = edits("bert_moved");
        const std::vector<int> ids = fixtures::ids(expected.value(QLatin1String("token_ids")));
        ForwardOptions options;
        options.embeddingEdits.push_back({1, deltaTowards(*m_bert, ids[1], 27, 0.4)});
        compareWithReference(forward(*m_bert, ids, options), expected);
    }

    void badEditsAreRefused()
    {
        const std::vector<int> ids = fixtures::ids(edits("gpt2_moved").value(QLatin1String("token_ids")));
        const int d = m_gpt2->config.dModel;
        for (const EmbeddingEdit &bad : {EmbeddingEdit{7, RowVector<float>::Zero(d)},
                                         EmbeddingEdit{-1, RowVector<float>::Zero(d)},
                                         EmbeddingEdit{2, RowVector<float>::Zero(d - 1)}}) {
            ForwardOptions options;
            options.embeddingEdits.push_back(bad);
            QVERIFY_THROWS_EXCEPTION(ModelInputError, forward(*m_gpt2, ids, options));
            QVERIFY_THROWS_EXCEPTION(ModelInputError, forward(*m_bert, ids, options));
        }
        QVERIFY_THROWS_EXCEPTION(ModelInputError, deltaTowards(*m_gpt2, 0, m_gpt2->config.vocab, 0.5));
        QVERIFY_THROWS_EXCEPTION(ModelInputError, deltaSettingFirstDims(*m_gpt2, 0, std::vector<float>(13, 0.f)));
    }

    // Reuse stops at the first position whose edit differs, never after it.
    void incrementalReuseStopsAtAnEdit()
    {
        const std::vector<int> ids = fixtures::ids(edits("gpt2_moved").value(QLatin1String("token_ids")));
        ForwardOptions edited;
        edited.embeddingEdits.push_back({4, deltaTowards(*m_gpt2, ids[4], 17, 0.3)});
        const ModelTrace plain = forward(*m_gpt2, ids);
        QCOMPARE(reusablePrefix(*m_gpt2, plain, ids, edited), 4);
        const ModelTrace extended = extendTrace(*m_gpt2, plain, ids, edited);
        compareWithReference(extended, edits("gpt2_moved"));
        // The same edit again: everything but the last position is reused.
        QCOMPARE(reusablePrefix(*m_gpt2, extended, ids, edited), 6);
        // A different amount at the same position, or the edit taken away.
        ForwardOptions other;
        other.embeddingEdits.push_back({4, deltaTowards(*m_gpt2, ids[4], 17, 0.31)});
        QCOMPARE(reusablePrefix(*m_gpt2, extended, ids, other), 4);
        QCOMPARE(reusablePrefix(*m_gpt2, extended, ids, {}), 4);
        // Split into two edits that add up to the same delta: still the same input.
        ForwardOptions split;
        split.embeddingEdits.push_back({4, edited.embeddingEdits[0].delta * 0.5f});
        split.embeddingEdits.push_back({4, edited.embeddingEdits[0].delta * 0.5f});
        QCOMPARE(reusablePrefix(*m_gpt2, extended, ids, split), 6);
        const ModelTrace fromPlain = extendTrace(*m_gpt2, plain, ids, other);
        const ModelTrace full = forward(*m_gpt2, ids, other);
        COMPARE_NEAR(fromPlain.nextToken->probabilities, full.nextToken->probabilities.cast<double>().eval(), 1e-6);
    }
};

QTEST_GUILESS_MAIN(TestInputEdit)
#include "tst_inputedit.moc"
