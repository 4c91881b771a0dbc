// Rotary positions taught on a model's layer (model/layerrotation.h and the
// walkthrough's steps, model/rotarywalkthrough.h), against
// tests/data/rotarymodel/make_expected.py, which turns the checkpoints' own
// rotated q and k back and forth in numpy with the frequencies transformers
// computes from config.json: q and k before their turn, each pair's angle,
// and the score of the same two vectors at other positions (the same
// distance apart: always the layer's score; other distances: other scores).
// The cases cover llama3 and linear rope scaling, partial rotary (phi3) and
// Gemma 3's local base on a windowed layer.

#include "model/forward.h"
#include "model/layerrotation.h"
#include "model/layerview.h"
#include "model/modelloader.h"
#include "model/rotarywalkthrough.h"
#include "lessons/walkthrough.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>

using namespace attn;

namespace {

QJsonArray expectedCases()
{
    QFile f(QStringLiteral(ATTN_TEST_DATA "/rotarymodel/expected.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("no rotarymodel/expected.json");
    return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toArray();
}

std::vector<double> numbers(const QJsonValue &v)
{
    std::vector<double> out;
    for (const QJsonValue &x : v.toArray())
        out.push_back(x.toDouble());
    return out;
}

// Float32 maths against float64 numbers of order 1 to 50.
bool near(double actual, double expected, double tolerance = 2e-4)
{
    return std::abs(actual - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

// The layer's view of the fixture run on its own text (expected.json's ids).
struct Layer
{
    SharedModelParameters model;
    std::shared_ptr<const ModelTrace> trace;
    AttentionResult result;
};

Layer runLayer(const QString &folder, int layer)
{
    QString error;
    Layer l;
    l.model = loadModel(QStringLiteral(ATTN_TEST_DATA "/families/") + folder, &error);
    if (!l.model)
        qFatal("%s", qPrintable(error));
    QFile f(QStringLiteral(ATTN_TEST_DATA "/families/expected.json"));
    f.open(QIODevice::ReadOnly);
    const QJsonObject all = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toObject();
    QString caseName = folder;
    std::vector<int> ids;
    for (const QJsonValue &id : all.value(caseName).toObject().value(QStringLiteral("token_ids")).toArray())
        ids.push_back(id.toInt());
    l.trace = std::make_shared<const ModelTrace>(forward(*l.model, ids));
    l.result = layerAttention(*l.model, l.trace, layer);
    return l;
}

} // namespace

class TestRotaryWalkthrough : public QObject
{
    Q_OBJECT

private slots:
    void againstNumpy_data()
    {
        QTest::addColumn<int>("index");
        const QJsonArray cases = expectedCases();
        QCOMPARE(cases.size(), 5);
        for (int i = 0; i < cases.size(); ++i) {
            const QJsonObject c = cases[i].toObject();
            QTest::newRow(qPrintable(QStringLiteral("%1 layer %2").arg(c["folder"].toString()).arg(c["layer"].toInt())))
                << i;
        }
    }

    void againstNumpy()
    {
        QFETCH(int, index);
        const QJsonObject c = expectedCases()[index].toObject();
        const int layer = c["layer"].toInt(), head = c["head"].toInt(), query = c["query"].toInt(), key = c["key"].toInt();
        const Layer l = runLayer(c["folder"].toString(), layer);
        QVERIFY(l.result.rotation);
        const LayerRotation &r = *l.result.rotation;
        QCOMPARE(r.dimensions, c["rotary_dims"].toInt());
        QCOMPARE(l.result.keyValueHeadOf(head), c["kv_head"].toInt());
        const std::vector<double> frequencies = numbers(c["frequencies"]);
        QCOMPARE(int(r.frequencies.size()), int(frequencies.size()));
        for (int i = 0; i < int(frequencies.size()); ++i) {
            QVERIFY(near(double(r.frequencies[std::size_t(i)]), frequencies[std::size_t(i)], 1e-6));
            QVERIFY(near(rotaryAngleAt(r, i, query), numbers(c["angles_at_query"])[std::size_t(i)], 1e-6));
        }

        // q and k before their turn, from the layer's own (turned) ones.
        const RowVector<float> q = l.result.heads[std::size_t(head)].queries.row(query).cast<float>();
        const RowVector<float> k = l.result.heads[std::size_t(head)].keys.row(key).cast<float>();
        const RowVector<float> qBefore = rotatedBackFrom(r, q, query), kBefore = rotatedBackFrom(r, k, key);
        const std::vector<double> qExpected = numbers(c["q_before"]), kExpected = numbers(c["k_before"]);
        for (int d = 0; d < r.headDim; ++d) {
            QVERIFY2(near(qBefore[d], qExpected[std::size_t(d)]), qPrintable(QStringLiteral("q dim %1").arg(d)));
            QVERIFY2(near(kBefore[d], kExpected[std::size_t(d)]), qPrintable(QStringLiteral("k dim %1").arg(d)));
        }
        // Partial rotary: what is past the turned dimensions never changes.
        for (int d = r.dimensions; d < r.headDim; ++d)
            QCOMPARE(qBefore[d], q[d]);

        // The same two vectors at other positions.
        for (const QJsonValue &t : c["together"].toArray()) {
            const double score = rotaryScoreAt(r, qBefore, kBefore, t["query_at"].toInt(), t["key_at"].toInt());
            QVERIFY2(near(score, t["score"].toDouble()), qPrintable(QString::number(t["query_at"].toInt())));
            QVERIFY(near(score, c["score"].toDouble())); // the distance alone decides it
        }
        int different = 0;
        for (const QJsonValue &t : c["apart"].toArray()) {
            const double score = rotaryScoreAt(r, qBefore, kBefore, t["query_at"].toInt(), t["key_at"].toInt());
            QVERIFY2(near(score, t["score"].toDouble()), qPrintable(QString::number(t["query_at"].toInt())));
            different += near(score, c["score"].toDouble()) ? 0 : 1;
        }
        QVERIFY(different >= 3); // other distances, other scores

        // The walkthrough's two steps carry the same numbers.
        WalkthroughLimits limits;
        limits.maxKeys = 30;
        const RotaryStepInput in{l.result, head, query, key, {}, {}, limits};
        const WalkthroughStep turn = modelRotationStep(in);
        QCOMPARE(turn.kind, WalkthroughStepKind::RotatePositions);
        // Line 1: q̃; then one line a pair (angle, the pair turned); then q as computed.
        const std::vector<double> &shownBefore = turn.lines[1].numbers;
        for (int d = 0; d < r.headDim; ++d)
            QVERIFY(near(shownBefore[std::size_t(d)], qExpected[std::size_t(d)]));
        for (int i = 0; i < r.pairs(); ++i)
            QVERIFY(near(turn.lines[std::size_t(2 + i)].numbers[0], numbers(c["angles_at_query"])[std::size_t(i)], 1e-6));
        const std::vector<double> qAfter = numbers(c["q_after"]);
        for (int d = 0; d < r.headDim; ++d)
            QVERIFY(near(turn.lines[std::size_t(2 + r.pairs())].numbers[std::size_t(d)], qAfter[std::size_t(d)]));
        const WalkthroughStep distance = modelDistanceStep(in);
        QCOMPARE(distance.kind, WalkthroughStepKind::RelativePositions);
        int together = 0;
        for (const FormulaLine &line : distance.lines)
            if (line.key < 0 && line.numbers.size() == 1) {
                QVERIFY(near(line.numbers[0], c["score"].toDouble()));
                ++together;
            }
        QVERIFY(together >= 5);
        QVERIFY(near(distance.lines.back().numbers[0], c["score"].toDouble()));
    }

    // The steps come after the query is picked, for a model with rotary
    // positions only; GPT-2's learned positions get none.
    void stepsOnlyForRotaryModels()
    {
        const Layer llama = runLayer(QStringLiteral("llama"), 0);
        const QStringList tokens = QStringList(QStringLiteral("t")) << QStringLiteral("u");
        std::vector<WalkthroughStepKind> kinds;
        for (const WalkthroughStep &s : buildWalkthrough(tokens, tokens, llama.result, 5, 1))
            kinds.push_back(s.kind);
        QCOMPARE(kinds[0], WalkthroughStepKind::PickQuery);
        // The llama checkpoint's 4 heads share 2 key/value heads: that step comes first.
        QCOMPARE(llama.result.kvHeads, 2);
        QCOMPARE(kinds[1], WalkthroughStepKind::SharedKeyValues);
        QCOMPARE(kinds[2], WalkthroughStepKind::RotatePositions);
        QCOMPARE(kinds[3], WalkthroughStepKind::RelativePositions);
        QCOMPARE(kinds[4], WalkthroughStepKind::Scores);
        // The key singled out: the one query 5 weights most besides itself and the first token.
        const int key = rotaryStepKey(llama.result, 1, 5);
        QVERIFY(key >= 1 && key < 5);
        for (int j = 1; j < 5; ++j)
            QVERIFY(llama.result.heads[1].weights(5, j) <= llama.result.heads[1].weights(5, key));
        QCOMPARE(rotaryStepKey(llama.result, 1, 1), 0); // query 1 sees only the first token besides itself
        QCOMPARE(rotaryStepKey(llama.result, 1, 0), 0); // query 0 sees only itself

        QString error;
        const SharedModelParameters gpt2 = loadModel(QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/induction"), &error);
        QVERIFY2(gpt2, qPrintable(error));
        QVERIFY(!layerRotation(gpt2->config, 0));
        const auto trace = std::make_shared<const ModelTrace>(forward(*gpt2, {1, 2, 3, 4}));
        const AttentionResult plain = layerAttention(*gpt2, trace, 0);
        QVERIFY(!plain.rotation);
        for (const WalkthroughStep &s : buildWalkthrough(tokens, tokens, plain, 3, 0))
            QVERIFY(s.kind != WalkthroughStepKind::RotatePositions && s.kind != WalkthroughStepKind::RelativePositions);
    }
};

QTEST_GUILESS_MAIN(TestRotaryWalkthrough)
#include "tst_rotarywalkthrough.moc"
