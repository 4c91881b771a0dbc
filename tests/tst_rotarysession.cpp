// Rotary positions and shared key/value heads on hand-made sessions
// (contract section 9), against tests/data/rotary/make_expected.py (numpy,
// written apart from the engine) and two-dimensional cases worked by hand.

#include "lessons/examples.h"
#include "formats/resultio.h"
#include "attention/rotarypositions.h"
#include "session/sessionio.h"
#include "testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

const QString kData = QStringLiteral(ATTN_TEST_DATA "/rotary");

Eigen::MatrixXd matrixOf(const QJsonValue &v)
{
    const QJsonArray rows = v.toArray();
    const int cols = rows.isEmpty() ? 0 : int(rows[0].toArray().size());
    Eigen::MatrixXd m(rows.size(), cols);
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < cols; ++c)
            m(r, c) = rows[r].toArray()[c].toDouble();
    return m;
}

QJsonObject expectedOf(const QString &name)
{
    QFile file(kData + QLatin1Char('/') + name + QStringLiteral(".expected.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

attn::Session sessionOf(const QString &name)
{
    QString error;
    const std::optional<attn::Session> s = attn::readSession(kData + QLatin1Char('/') + name + QStringLiteral(".attn.json"), &error);
    if (!s)
        qFatal("%s", qPrintable(error));
    return *s;
}

// A session of 2-dimensional vectors in simplified mode, unscaled: scores are x_i turned · x_j turned.
attn::Session twoDimensional(const Eigen::MatrixXd &x)
{
    attn::Session s;
    for (int i = 0; i < x.rows(); ++i)
        s.tokens << QStringLiteral("t%1").arg(i);
    s.embeddings = x;
    s.attention.mode = attn::Mode::Simplified;
    s.attention.headDim = 2;
    s.attention.scale = false;
    s.attention.positionalEncoding = attn::PositionalEncoding::Rotary;
    return s;
}

} // namespace

class TestRotarySession : public QObject
{
    Q_OBJECT
private slots:
    void matchesNumpy_data();
    void matchesNumpy();
    void singlePrecisionAgrees_data() { matchesNumpy_data(); }
    void singlePrecisionAgrees();
    void handWorkedTwoDimensions();
    void onlyTheDistanceCounts();
    void valuesAreNotTurned();
    void sharedHeadsReadTheirGroupsKeys();
    void headsShownOnDemandReadTheirGroupsKeys();
    void resultFileSaysWhatWasTurnedAndShared();
    void badOptionsAreRefused();
    void optionHelpersKeepSessionsValid();
    void examplesShowTheirLessons();
};

void TestRotarySession::matchesNumpy_data()
{
    QTest::addColumn<QString>("name");
    for (const char *name : {"rotary-one-head", "rotary-shared-heads", "rotary-simplified", "rotary-cross",
                             "shared-heads-sinusoidal"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestRotarySession::matchesNumpy()
{
    QFETCH(QString, name);
    const attn::Session s = sessionOf(name);
    const QJsonObject expected = expectedOf(name);
    QVERIFY(!expected.isEmpty());
    const attn::AttentionResult r = attn::computeSession(s, attn::Precision::Double);
    QVERIFY(!r.singlePrecision);
    QVERIFY(maxAbsDiff(r.inputs, matrixOf(expected["inputs"])) < 1e-12);
    const QJsonArray heads = expected["heads"].toArray();
    QCOMPARE(int(r.heads.size()), int(heads.size()));
    for (int h = 0; h < heads.size(); ++h) {
        const QJsonObject e = heads[h].toObject();
        const attn::HeadResult &head = r.heads[std::size_t(h)];
        QVERIFY2(maxAbsDiff(head.queries, matrixOf(e["queries"])) < 1e-12, qPrintable(QString::number(h)));
        QVERIFY(maxAbsDiff(head.keys, matrixOf(e["keys"])) < 1e-12);
        QVERIFY(maxAbsDiff(head.values, matrixOf(e["values"])) < 1e-12);
        QVERIFY(maxAbsDiff(head.scores.toDouble(), matrixOf(e["scores"])) < 1e-12);
        QVERIFY(maxAbsDiff(head.weights.toDouble(), matrixOf(e["weights"])) < 1e-12);
        QVERIFY(maxAbsDiff(head.context, matrixOf(e["context"])) < 1e-12);
    }
    QVERIFY(maxAbsDiff(r.output, matrixOf(expected["output"])) < 1e-12);
}

void TestRotarySession::singlePrecisionAgrees()
{
    QFETCH(QString, name);
    const attn::Session s = sessionOf(name);
    const QJsonObject expected = expectedOf(name);
    const attn::AttentionResult r = attn::computeSession(s, attn::Precision::Single);
    QVERIFY(r.singlePrecision);
    const QJsonArray heads = expected["heads"].toArray();
    for (int h = 0; h < heads.size(); ++h) {
        const QJsonObject e = heads[h].toObject();
        const attn::HeadResult &head = r.heads[std::size_t(h)];
        QVERIFY(maxAbsDiff(head.queries, matrixOf(e["queries"])) < 1e-5);
        QVERIFY(maxAbsDiff(head.keys, matrixOf(e["keys"])) < 1e-5);
        QVERIFY(maxAbsDiff(head.values, matrixOf(e["values"])) < 1e-5);
        QVERIFY(maxAbsDiff(head.weights.toDouble(), matrixOf(e["weights"])) < 1e-5);
        // The numbers files write from a single-precision result are computed again in double.
        QVERIFY(maxAbsDiff(attn::headMatrixInDouble(r, h, false), matrixOf(e["weights"])) < 1e-12);
        QVERIFY(maxAbsDiff(attn::headMatrixInDouble(r, h, true), matrixOf(e["scores"])) < 1e-12);
    }
    QVERIFY(maxAbsDiff(r.output, matrixOf(expected["output"])) < 1e-5);
}

void TestRotarySession::handWorkedTwoDimensions()
{
    // head_dim 2 has one pair, whose frequency is θ^0 = 1 whatever θ: the
    // token at position p turns by p radians. Three copies of x = [1, 0]:
    //   position 0: [1, 0]
    //   position 1: [cos 1, sin 1] = [0.5403023059, 0.8414709848]
    //   position 2: [cos 2, sin 2] = [-0.4161468365, 0.9092974268]
    // and the scores are cos(i - j): ω₁₀ = cos 1 = 0.5403023059,
    // ω₂₀ = cos 2 = -0.4161468365, ω₂₁ = cos 1 again (the same distance).
    const Eigen::MatrixXd x = (Eigen::MatrixXd(3, 2) << 1, 0, 1, 0, 1, 0).finished();
    const attn::AttentionResult r = attn::computeSession(twoDimensional(x), attn::Precision::Double);
    const attn::HeadResult &h = r.heads[0];
    QCOMPARE(h.queries(1, 0), 0.54030230586813977);
    QCOMPARE(h.queries(1, 1), 0.8414709848078965);
    QVERIFY(std::abs(h.queries(2, 0) - -0.41614683654714241) < 1e-15);
    QVERIFY(std::abs(h.queries(2, 1) - 0.90929742682568171) < 1e-15);
    QVERIFY(std::abs(h.scores(1, 0) - 0.54030230586813977) < 1e-15);
    QVERIFY(std::abs(h.scores(2, 0) - -0.41614683654714241) < 1e-15);
    QVERIFY(std::abs(h.scores(2, 1) - 0.54030230586813977) < 1e-15);
    QVERIFY(std::abs(h.scores(0, 0) - 1.0) < 1e-15);
    // Simplified attention's values are x itself, not turned.
    QCOMPARE(h.values(2, 0), 1.0);
    QCOMPARE(h.values(2, 1), 0.0);

    // q = [0.6, -0.2] at position 3 (the practice exercise's kind):
    // (0.6 cos 3 + 0.2 sin 3, -0.2 cos 3 + 0.6 sin 3)
    //   = (0.6 × -0.9899924966 + 0.2 × 0.1411200081, 0.1979984993 + 0.0846720049)
    //   = (-0.5939954980 + 0.0282240016, 0.1979984993 + 0.0846720049) = (-0.5657714963, 0.2826705042)
    const Eigen::RowVectorXd q = attn::rotatedAt((Eigen::RowVectorXd(2) << 0.6, -0.2).finished(), 3, 10000.0);
    QVERIFY(std::abs(q[0] - -0.5657714963) < 1e-9);
    QVERIFY(std::abs(q[1] - 0.2826705042) < 1e-9);
}

void TestRotarySession::onlyTheDistanceCounts()
{
    // The same two vectors placed at (p, p - 2) for every p score the same;
    // at another distance they do not.
    attn::Session s = sessionOf(QStringLiteral("rotary-one-head"));
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(6, 4);
    for (int p = 0; p < 6; ++p)
        x.row(p) = p % 2 == 0 ? s.embeddings.row(0) : s.embeddings.row(1); // "a b a b a b"
    s.embeddings = x;
    const attn::AttentionResult r = attn::computeSession(s, attn::Precision::Double);
    const attn::AttentionMatrix &scores = r.heads[0].scores;
    QVERIFY(std::abs(scores(3, 1) - scores(5, 3)) < 1e-12); // b after b, 2 apart
    QVERIFY(std::abs(scores(2, 0) - scores(4, 2)) < 1e-12); // a after a, 2 apart
    QVERIFY(std::abs(scores(3, 0) - scores(5, 2)) < 1e-12); // b after a, 3 apart
    QVERIFY(std::abs(scores(3, 1) - scores(5, 1)) > 1e-3); // b after b, 4 apart instead of 2
    // Sinusoidal positions added to x do not keep it.
    s.attention.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
    const attn::AttentionResult added = attn::computeSession(s, attn::Precision::Double);
    QVERIFY(std::abs(added.heads[0].scores(3, 1) - added.heads[0].scores(5, 3)) > 1e-3);
}

void TestRotarySession::valuesAreNotTurned()
{
    attn::Session s = sessionOf(QStringLiteral("rotary-one-head"));
    const attn::AttentionResult turned = attn::computeSession(s, attn::Precision::Double);
    s.attention.positionalEncoding = attn::PositionalEncoding::None;
    const attn::AttentionResult plain = attn::computeSession(s, attn::Precision::Double);
    QVERIFY(turned.heads[0].values == plain.heads[0].values);
    QVERIFY(turned.inputs == plain.inputs); // nothing added to x
    QVERIFY(turned.heads[0].queries.row(0) == plain.heads[0].queries.row(0)); // position 0 turns by 0
    QVERIFY(maxAbsDiff(turned.heads[0].queries, plain.heads[0].queries) > 0.1);
    // Turning keeps each pair's length.
    for (int p = 0; p < 6; ++p)
        QVERIFY(std::abs(turned.heads[0].keys.row(p).norm() - plain.heads[0].keys.row(p).norm()) < 1e-12);
}

void TestRotarySession::sharedHeadsReadTheirGroupsKeys()
{
    const attn::Session s = sessionOf(QStringLiteral("rotary-shared-heads")); // 4 heads, 2 key/value heads
    const attn::AttentionResult r = attn::computeSession(s, attn::Precision::Double);
    QCOMPARE(r.keyValueHeadCount(), 2);
    QVERIFY(r.sharesKeyValues());
    QCOMPARE(r.keyValueHeadOf(0), 0);
    QCOMPARE(r.keyValueHeadOf(1), 0);
    QCOMPARE(r.keyValueHeadOf(2), 1);
    QCOMPARE(r.keyValueHeadOf(3), 1);
    QVERIFY(r.heads[0].keys == r.heads[1].keys && r.heads[0].values == r.heads[1].values);
    QVERIFY(r.heads[2].keys == r.heads[3].keys && r.heads[2].values == r.heads[3].values);
    QVERIFY(maxAbsDiff(r.heads[1].keys, r.heads[2].keys) > 0.01);
    QVERIFY(maxAbsDiff(r.heads[0].queries, r.heads[1].queries) > 0.01);
    // Generated key matrices: one per key/value head, the first ones those of one key per head.
    attn::Session generated = s;
    generated.weights = {};
    const attn::AttentionResult g = attn::computeSession(generated, attn::Precision::Double);
    QCOMPARE(int(g.weights->key.size()), 2);
    QCOMPARE(int(g.weights->value.size()), 2);
    QCOMPARE(int(g.weights->query.size()), 4);
    QVERIFY(g.weights->key[1] == attn::generatedWeights(generated.attention.seed, attn::WeightKind::Key, 1, 4, 2));
}

void TestRotarySession::headsShownOnDemandReadTheirGroupsKeys()
{
    // A session large enough for thumbnails (300 tokens > kThumbnailSide),
    // in float, keeping head 0 only: the other heads' weights are computed
    // again from their q and their group's k when shown.
    attn::Session s = largeSession();
    s.embeddings = randomMatrix(7, 300, 32, 1.0);
    s.tokens.clear();
    for (int i = 0; i < 300; ++i)
        s.tokens << QStringLiteral("w%1").arg(i);
    s.attention.heads = 4;
    s.attention.headDim = 8;
    s.attention.kvHeads = 2;
    s.attention.causal = true;
    s.attention.positionalEncoding = attn::PositionalEncoding::Rotary;
    s.attention.ropeTheta = 50.0;
    const attn::AttentionResult exact = attn::computeSession(s, attn::Precision::Double);
    const attn::AttentionResult kept = attn::computeSession(s, attn::Precision::Single, nullptr,
                                                            attn::HeadsKept::only(0));
    QVERIFY(kept.singlePrecision);
    for (int h = 1; h < 4; ++h) {
        QVERIFY(kept.heads[std::size_t(h)].weights.isOnDemand());
        QVERIFY2(maxAbsDiff(kept.heads[std::size_t(h)].weights.toDouble(), exact.heads[std::size_t(h)].weights.toDouble())
                     < 1e-5,
                 qPrintable(QString::number(h)));
        QVERIFY(maxAbsDiff(kept.heads[std::size_t(h)].scores.toDouble(), exact.heads[std::size_t(h)].scores.toDouble())
                < 1e-4);
        // One entry, one row and a block of rows read the same key head.
        QVERIFY(std::abs(kept.heads[std::size_t(h)].weights(299, 17) - exact.heads[std::size_t(h)].weights(299, 17)) < 1e-6);
    }
    QVERIFY(maxAbsDiff(kept.output, exact.output) < 1e-4);
    QVERIFY(maxAbsDiff(attn::averageWeights(kept).toDouble(), attn::averageWeights(exact).toDouble()) < 1e-5);
}

void TestRotarySession::resultFileSaysWhatWasTurnedAndShared()
{
    const attn::Session s = sessionOf(QStringLiteral("rotary-shared-heads"));
    const attn::AttentionResult r = attn::computeSession(s, attn::Precision::Double);
    const QJsonObject o = attn::resultToJsonObject(s, r);
    QCOMPARE(o["positional_encoding"].toString(), QStringLiteral("rotary"));
    QCOMPARE(o["rope_theta"].toDouble(), 100.0);
    QCOMPARE(o["kv_heads"].toInt(), 2);
    const QJsonArray heads = o["heads"].toArray();
    QCOMPARE(heads.size(), 4); // one entry per query head
    QCOMPARE(heads[3].toObject()["kv_head"].toInt(), 1);
    const QJsonArray expected = expectedOf(QStringLiteral("rotary-shared-heads"))["heads"].toArray();
    for (int h = 0; h < 4; ++h)
        for (const char *field : {"queries", "keys", "values"})
            QVERIFY(maxAbsDiff(matrixOf(heads[h].toObject()[field]), matrixOf(expected[h].toObject()[field])) < 1e-12);
    // Without either, none of the new fields.
    const QJsonObject plain = attn::resultToJsonObject(attn::exampleSession(), attn::computeSession(attn::exampleSession()));
    QVERIFY(!plain.contains("kv_heads") && !plain.contains("rope_theta") && !plain.contains("positional_encoding"));
}

void TestRotarySession::badOptionsAreRefused()
{
    // The engine refuses what the reader refuses, for options set in code.
    attn::Session s = sessionOf(QStringLiteral("rotary-one-head"));
    s.attention.headDim = 3;
    QVERIFY_THROWS_EXCEPTION(attn::InputError, attn::computeSession(s));
    s = sessionOf(QStringLiteral("rotary-one-head"));
    s.attention.ropeTheta = std::numeric_limits<double>::quiet_NaN();
    QVERIFY_THROWS_EXCEPTION(attn::InputError, attn::computeSession(s));
    s = sessionOf(QStringLiteral("rotary-shared-heads"));
    s.attention.kvHeads = 3;
    QVERIFY_THROWS_EXCEPTION(attn::InputError, attn::computeSession(s));
    s = sessionOf(QStringLiteral("rotary-shared-heads"));
    s.weights.key.push_back(s.weights.key.front()); // three matrices for two key/value heads
    try {
        attn::computeSession(s);
        QFAIL("three key matrices for two key/value heads were taken");
    } catch (const attn::InputError &e) {
        QCOMPARE(QString::fromStdString(e.what()),
                 QStringLiteral("weights.key: expected 2 matrices (one per key/value head), got 3"));
    }
}

void TestRotarySession::optionHelpersKeepSessionsValid()
{
    attn::AttentionConfig c;
    c.heads = 4;
    c.headDim = 2;
    // Key/value heads: kept to a divisor of heads, 0 for one per head.
    QCOMPARE(attn::withKeyValueHeads(c, 2).kvHeads, 2);
    QCOMPARE(attn::withKeyValueHeads(c, 3).kvHeads, 2);
    QCOMPARE(attn::withKeyValueHeads(c, 4).kvHeads, 0);
    QCOMPARE(attn::withKeyValueHeads(c, 1).kvHeads, 1);
    // More heads keep the group size: 4 heads in 2 groups, then 8 in 4.
    const attn::AttentionConfig eight = attn::withHeadCount(attn::withKeyValueHeads(c, 2), 8, 16);
    QCOMPARE(eight.keyValueHeads(), 4);
    // Simplified attention shares nothing.
    QCOMPARE(attn::withMode(attn::withKeyValueHeads(c, 2), attn::Mode::Simplified, 4).kvHeads, 0);
    // Rotary positions only with an even head width.
    c.headDim = 3;
    QCOMPARE(attn::withPositions(c, attn::PositionalEncoding::Rotary, 6).positionalEncoding,
             attn::PositionalEncoding::None);
    c.headDim = 2;
    const attn::AttentionConfig rotary = attn::withPositions(c, attn::PositionalEncoding::Rotary, 8);
    QVERIFY(rotary.rotary());
    // Simplified with d_model 3 cannot turn pairs: positions go off.
    QCOMPARE(attn::withMode(rotary, attn::Mode::Simplified, 3).positionalEncoding, attn::PositionalEncoding::None);
    // Three heads of d_model 6 would be 2 wide: taken; two of d_model 6 would be 3: head_dim stays.
    QCOMPARE(attn::withHeadCount(rotary, 3, 6).headDim, 2);
    QCOMPARE(attn::withHeadCount(rotary, 2, 6).headDim, 2);
    QVERIFY(attn::configProblem(attn::withHeadCount(rotary, 2, 6), 6).empty());
}

void TestRotarySession::examplesShowTheirLessons()
{
    const std::vector<attn::Example> examples = attn::builtInExamples();
    const auto find = [&](const char *id) {
        return *std::find_if(examples.begin(), examples.end(), [&](const attn::Example &e) { return e.id == QLatin1String(id); });
    };
    // "the cat saw the cat": "cat" one after "the", at positions (1, 0) and (4, 3), scores the same; 4 apart it does not.
    const attn::Session rotary = find("rotary-positions").session;
    QCOMPARE(rotary.tokens, (QStringList{"the", "cat", "saw", "the", "cat"}));
    QVERIFY(rotary.embeddings.row(0) == rotary.embeddings.row(3));
    const attn::AttentionResult r = attn::computeSession(rotary, attn::Precision::Double);
    QVERIFY(r.rotary);
    QVERIFY(std::abs(r.heads[0].scores(4, 3) - r.heads[0].scores(1, 0)) < 1e-12);
    QVERIFY(std::abs(r.heads[0].scores(4, 0) - r.heads[0].scores(1, 0)) > 0.05);
    QCOMPARE(rotary.query, 4);
    // The second "cat" weights the "the" just before it most, so the walkthrough's rotary steps are about that pair.
    const Eigen::RowVectorXd row = r.heads[0].weights.row(4);
    QCOMPARE(int(std::max_element(row.data(), row.data() + row.size()) - row.data()), 3);
    // Four query heads, two key/value heads.
    const attn::AttentionResult shared = attn::computeSession(find("shared-key-value-heads").session);
    QCOMPARE(int(shared.heads.size()), 4);
    QCOMPARE(shared.keyValueHeadCount(), 2);
    QVERIFY(shared.heads[0].values == shared.heads[1].values);
    QVERIFY(!(shared.heads[1].values == shared.heads[2].values));
}

QTEST_GUILESS_MAIN(TestRotarySession)
#include "tst_rotarysession.moc"
