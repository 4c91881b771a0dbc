// Extending a causal trace (model/incremental.h) against the full forward
// pass over the whole text, the independent reference: on the tiny GPT-2
// fixture (and its committed numpy numbers), on a random GPT-2 built here,
// with switched-off heads, a changed middle token, a shorter text, other
// options and BERT, which always falls back.

#include "attention/attention.h"
#include "modelfixtures.h"

#include "learn/trainingpass.h"
#include "model/forward.h"
#include "model/incremental.h"
#include "model/inputedit.h"
#include "model/modelloader.h"
#include "runtime/prng.h"

#include <QJsonArray>
#include <QTest>
#include <cstring>

using namespace attn;
using fixtures::difference;
using fixtures::matrix;


namespace {

// Float against float: the same operations over fewer rows at a time.
constexpr double kTol = 1e-5;
// Float against the float64 reference (as tst_gpt2).
constexpr double kReferenceTol = 2e-5;

SharedModelParameters load(const char *name)
{
    QString error;
    SharedModelParameters p = loadModel(fixtures::modelDir(name), &error);
    if (!p)
        qWarning("%s", qPrintable(error));
    return p;
}

RowMatrix<double> asDouble(const RowMatrix<float> &m) { return m.cast<double>(); }

// Empty when every matrix of `a` is within kTol of `b`'s; else the first that is not.
QString traceDifference(const ModelTrace &a, const ModelTrace &b)
{
    if (a.hidden.size() != b.hidden.size() || a.layers.size() != b.layers.size())
        return QStringLiteral("different numbers of layers");
    for (std::size_t i = 0; i < a.hidden.size(); ++i)
        if (const QString d = difference(a.hidden[i], asDouble(b.hidden[i]), kTol); !d.isEmpty())
            return QStringLiteral("hidden %1: %2").arg(i).arg(d);
    for (std::size_t l = 0; l < a.layers.size(); ++l) {
        const LayerTrace &x = a.layers[l], &y = b.layers[l];
        const std::pair<const RowMatrix<float> *, const RowMatrix<float> *> pairs[] = {
            {&x.queries, &y.queries}, {&x.keys, &y.keys}, {&x.values, &y.values}, {&x.context, &y.context},
            {&x.output, &y.output}};
        for (const auto &[p, q] : pairs)
            if (const QString d = difference(*p, asDouble(*q), kTol); !d.isEmpty())
                return QStringLiteral("layer %1 q/k/v/context/output: %2").arg(l).arg(d);
        if (x.weights.size() != y.weights.size() || x.scores.size() != y.scores.size())
            return QStringLiteral("layer %1: different numbers of heads").arg(l);
        for (std::size_t h = 0; h < x.weights.size(); ++h)
            if (const QString d = difference(x.weights[h], asDouble(y.weights[h]), kTol); !d.isEmpty())
                return QStringLiteral("layer %1 head %2 weights: %3").arg(l).arg(h).arg(d);
        for (std::size_t h = 0; h < x.scores.size(); ++h)
            if (const QString d = difference(x.scores[h], asDouble(y.scores[h]), kTol); !d.isEmpty())
                return QStringLiteral("layer %1 head %2 scores: %3").arg(l).arg(h).arg(d);
    }
    if (a.nextToken.has_value() != b.nextToken.has_value())
        return QStringLiteral("one has a next-token prediction");
    if (a.nextToken) {
        if (a.nextToken->position != b.nextToken->position)
            return QStringLiteral("predicted from position %1, not %2").arg(a.nextToken->position).arg(b.nextToken->position);
        if (const QString d = difference(a.nextToken->probabilities, asDouble(b.nextToken->probabilities), kTol);
            !d.isEmpty())
            return QStringLiteral("next token: %1").arg(d);
    }
    if (a.tokenIds != b.tokenIds)
        return QStringLiteral("different token ids");
    return {};
}

// Whether rows 0 ... rows-1 of `a` are exactly those of `b` (and, for the
// square matrices, their first `rows` columns).
bool prefixIdentical(const ModelTrace &a, const ModelTrace &b, Eigen::Index rows)
{
    for (std::size_t i = 0; i < a.hidden.size(); ++i)
        if (a.hidden[i].topRows(rows) != b.hidden[i].topRows(rows))
            return false;
    for (std::size_t l = 0; l < a.layers.size(); ++l) {
        const LayerTrace &x = a.layers[l], &y = b.layers[l];
        if (x.queries.topRows(rows) != y.queries.topRows(rows) || x.keys.topRows(rows) != y.keys.topRows(rows)
            || x.values.topRows(rows) != y.values.topRows(rows) || x.context.topRows(rows) != y.context.topRows(rows)
            || x.output.topRows(rows) != y.output.topRows(rows))
            return false;
        for (std::size_t h = 0; h < x.weights.size(); ++h)
            if (x.weights[h].topLeftCorner(rows, rows) != y.weights[h].topLeftCorner(rows, rows))
                return false;
        for (std::size_t h = 0; h < x.scores.size(); ++h)
            if (x.scores[h].topLeftCorner(rows, rows) != y.scores[h].topLeftCorner(rows, rows))
                return false;
    }
    return true;
}

std::vector<int> firstIds(const std::vector<int> &ids, int count)
{
    return std::vector<int>(ids.begin(), ids.begin() + count);
}

// A GPT-2 larger than the fixture (more rows than a matrix kernel's block),
// every weight random so no term hides behind a zero.
ModelParameters randomGpt2()
{
    ModelConfig c;
    c.layers = 3;
    c.heads = 4;
    c.dModel = 32;
    c.dFF = 64;
    c.positions = 64;
    c.vocab = 50;
    ModelParameters m = zeroModel(c);
    SplitMix64 rng(7);
    for (const ParameterTensor &t : parameterTensors(m)) {
        const bool gain = t.name.endsWith(QLatin1String("ln_1.weight")) || t.name.endsWith(QLatin1String("ln_2.weight"))
                          || t.name == QLatin1String("ln_f.weight");
        for (Eigen::Index i = 0; i < t.rows * t.cols; ++i)
            t.data[i] = float((gain ? 1.0 : 0.0) + rng.nextSymmetric(0.3));
    }
    return m;
}

std::vector<int> randomIds(int n, int vocab)
{
    SplitMix64 rng(11);
    std::vector<int> ids;
    for (int i = 0; i < n; ++i)
        ids.push_back(int(rng.nextUnit() * vocab) % vocab);
    return ids;
}

} // namespace

Q_DECLARE_METATYPE(std::set<attn::LayerHead>)

class TestIncremental : public QObject
{
    Q_OBJECT

    SharedModelParameters m_gpt2;
    QJsonObject m_expected;
    std::vector<int> m_ids; // the fixture's 7 tokens

private slots:
    void initTestCase()
    {
        m_gpt2 = load("gpt2-f32");
        QVERIFY(m_gpt2);
        m_expected = fixtures::expected("gpt2");
        m_ids = fixtures::ids(m_expected.value(QLatin1String("token_ids")));
        QCOMPARE(int(m_ids.size()), 7);
    }

    void extendingEqualsTheFullPass_data()
    {
        QTest::addColumn<int>("kept");
        QTest::addColumn<std::set<LayerHead>>("ablated");
        QTest::addColumn<bool>("keepScores");
        const std::set<LayerHead> none, some{{0, 1}, {1, 0}, {1, 2}};
        for (int kept : {6, 4, 1}) {
            const QByteArray name = QByteArray::number(7 - kept) + " new";
            QTest::newRow(name + ", scores") << kept << none << true;
            QTest::newRow(name + ", no scores") << kept << none << false;
            QTest::newRow(name + ", heads switched off") << kept << some << true;
        }
    }
    void extendingEqualsTheFullPass()
    {
        QFETCH(int, kept);
        QFETCH(std::set<LayerHead>, ablated);
        QFETCH(bool, keepScores);
        ForwardOptions options;
        options.ablatedHeads = ablated;
        options.keepScores = keepScores;
        const ModelTrace previous = forward(*m_gpt2, firstIds(m_ids, kept), options);
        QCOMPARE(reusablePrefix(*m_gpt2, previous, m_ids, options), kept);
        const ModelTrace extended = extendTrace(*m_gpt2, previous, m_ids, options);
        const ModelTrace full = forward(*m_gpt2, m_ids, options);
        const QString why = traceDifference(extended, full);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(prefixIdentical(extended, previous, kept));
        QCOMPARE(extended.layers[0].scores.size(), keepScores ? std::size_t(3) : std::size_t(0));
        // Against the committed numpy numbers too (they have no heads switched off).
        if (!ablated.empty())
            return;
        const QJsonArray layers = m_expected.value(QLatin1String("layers")).toArray();
        for (int l = 0; l < layers.size(); ++l) {
            const QJsonObject el = layers[l].toObject();
            const LayerTrace &t = extended.layers[std::size_t(l)];
            COMPARE_NEAR(t.queries, matrix(el[QLatin1String("q")]), kReferenceTol);
            COMPARE_NEAR(t.keys, matrix(el[QLatin1String("k")]), kReferenceTol);
            COMPARE_NEAR(t.values, matrix(el[QLatin1String("v")]), kReferenceTol);
            COMPARE_NEAR(t.context, matrix(el[QLatin1String("context")]), kReferenceTol);
            const QJsonArray heads = el[QLatin1String("heads")].toArray();
            for (int h = 0; h < heads.size(); ++h) {
                const QJsonObject eh = heads[h].toObject();
                COMPARE_NEAR(t.weights[std::size_t(h)], matrix(eh[QLatin1String("weights")]), kReferenceTol);
                if (keepScores)
                    COMPARE_NEAR(t.scores[std::size_t(h)], matrix(eh[QLatin1String("scores")]), kReferenceTol);
            }
        }
        const QJsonArray hidden = m_expected.value(QLatin1String("hidden")).toArray();
        for (int i = 0; i < hidden.size(); ++i)
            COMPARE_NEAR(extended.hidden[std::size_t(i)], matrix(hidden[i]), kReferenceTol);
        COMPARE_NEAR(extended.nextToken->probabilities, matrix(m_expected.value(QLatin1String("next_token"))),
                     kReferenceTol);
    }

    // Typing one token at a time, each step extending the last.
    void typingTokenByToken()
    {
        const ModelParameters model = randomGpt2();
        const std::vector<int> ids = randomIds(48, model.config.vocab);
        ModelTrace trace = forward(model, firstIds(ids, 30));
        for (int n = 31; n <= 48; ++n) {
            const std::vector<int> now = firstIds(ids, n);
            QCOMPARE(reusablePrefix(model, trace, now, {}), n - 1);
            trace = extendTrace(model, trace, now);
            const QString why = traceDifference(trace, forward(model, now));
            QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("%1 tokens: ").arg(n) + why));
        }
        // Half the text at once, with a head switched off.
        ForwardOptions options;
        options.ablatedHeads = {{1, 3}, {2, 0}};
        const ModelTrace half = forward(model, firstIds(ids, 24), options);
        const ModelTrace extended = extendTrace(model, half, ids, options);
        const QString why = traceDifference(extended, forward(model, ids, options));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(prefixIdentical(extended, half, 24));
    }

    // A trace put together without the output projections (as by hand): the
    // extended one has them for every position, as the full pass does.
    void aPrefixWithoutItsOutputGetsItWhole()
    {
        const ModelParameters model = randomGpt2();
        const std::vector<int> ids = randomIds(40, model.config.vocab);
        ModelTrace previous = forward(model, firstIds(ids, 33));
        for (LayerTrace &layer : previous.layers)
            layer.output = RowMatrix<float>();
        const ModelTrace extended = extendTrace(model, previous, ids);
        for (const LayerTrace &layer : extended.layers)
            QVERIFY(layer.keptOutput());
        const QString why = traceDifference(extended, forward(model, ids));
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void aChangedMiddleTokenRecomputesFromThere()
    {
        const ModelTrace previous = forward(*m_gpt2, m_ids);
        std::vector<int> edited = m_ids;
        edited[3] = (edited[3] + 1) % m_gpt2->config.vocab;
        edited.push_back(5);
        QCOMPARE(reusablePrefix(*m_gpt2, previous, edited, {}), 3);
        const ModelTrace extended = extendTrace(*m_gpt2, previous, edited);
        const QString why = traceDifference(extended, forward(*m_gpt2, edited));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(prefixIdentical(extended, previous, 3));
        // Position 3 itself is new: its key differs from the old one.
        QVERIFY(extended.layers[0].keys.row(3) != previous.layers[0].keys.row(3));
    }

    // An edited embedding (model/inputedit.h) is a changed input at its position: reuse stops there.
    void anEditedEmbeddingRecomputesFromItsPosition()
    {
        const ModelTrace previous = forward(*m_gpt2, m_ids);
        ForwardOptions edited;
        edited.embeddingEdits.push_back({3, deltaTowards(*m_gpt2, m_ids[3], m_ids[1], 0.5)});
        QCOMPARE(reusablePrefix(*m_gpt2, previous, m_ids, edited), 3);
        const ModelTrace extended = extendTrace(*m_gpt2, previous, m_ids, edited);
        const QString why = traceDifference(extended, forward(*m_gpt2, m_ids, edited));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(prefixIdentical(extended, previous, 3));
        // Typing on after the edited text keeps the edit's rows.
        std::vector<int> longer = m_ids;
        longer.push_back(5);
        QCOMPARE(reusablePrefix(*m_gpt2, extended, longer, edited), 7);
        QCOMPARE(reusablePrefix(*m_gpt2, extended, longer, {}), 3);
    }

    // A shorter text (or the same one) recomputes only its last position.
    void aShorterTextRecomputesItsLastPosition()
    {
        const ModelTrace previous = forward(*m_gpt2, m_ids);
        for (int n : {7, 5, 1}) {
            const std::vector<int> shorter = firstIds(m_ids, n);
            QCOMPARE(reusablePrefix(*m_gpt2, previous, shorter, {}), n - 1);
            const ModelTrace extended = extendTrace(*m_gpt2, previous, shorter);
            const QString why = traceDifference(extended, forward(*m_gpt2, shorter));
            QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("%1 tokens: ").arg(n) + why));
            QVERIFY(prefixIdentical(extended, previous, n - 1));
        }
    }

    void otherOptionsOrTextFallBackToTheFullPass()
    {
        const ModelTrace previous = forward(*m_gpt2, firstIds(m_ids, 5));
        ForwardOptions ablated;
        ablated.ablatedHeads = {{0, 0}};
        ForwardOptions noScores;
        noScores.keepScores = false;
        for (const ForwardOptions &options : {ablated, noScores}) {
            QCOMPARE(reusablePrefix(*m_gpt2, previous, m_ids, options), 0);
            const ModelTrace extended = extendTrace(*m_gpt2, previous, m_ids, options);
            const QString why = traceDifference(extended, forward(*m_gpt2, m_ids, options));
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        std::vector<int> otherStart = m_ids;
        otherStart[0] = (otherStart[0] + 1) % m_gpt2->config.vocab;
        QCOMPARE(reusablePrefix(*m_gpt2, previous, otherStart, {}), 0);
        // A trace that is not a forward pass's (a default one) is never read.
        QCOMPARE(reusablePrefix(*m_gpt2, ModelTrace{}, m_ids, {}), 0);
        QCOMPARE(extendTrace(*m_gpt2, ModelTrace{}, m_ids).hidden.size(), std::size_t(3));
    }

    void badInputIsRefusedAsForwardDoes()
    {
        const ModelTrace previous = forward(*m_gpt2, firstIds(m_ids, 5));
        std::vector<int> bad = m_ids;
        bad.push_back(m_gpt2->config.vocab);
        QVERIFY_THROWS_EXCEPTION(ModelInputError, extendTrace(*m_gpt2, previous, bad));
        QVERIFY_THROWS_EXCEPTION(ModelInputError, extendTrace(*m_gpt2, previous, {}));
        ForwardOptions missingHead;
        missingHead.ablatedHeads = {{9, 0}};
        QVERIFY_THROWS_EXCEPTION(ModelInputError, extendTrace(*m_gpt2, previous, m_ids, missingHead));
    }

    // Switching heads off or on in the same text: the layers before the first
    // that changed are taken as they were, the rest computed, and the trace
    // equals the full pass with those heads off, bit for bit.
    void switchingHeadsRecomputesOnlyTheLayersAfter()
    {
        ForwardOptions none, offInLayer1, offInBoth;
        offInLayer1.ablatedHeads = {{1, 2}};
        offInBoth.ablatedHeads = {{0, 1}, {1, 2}};
        const ModelTrace before = forward(*m_gpt2, m_ids, none);
        QCOMPARE(reusableLayers(*m_gpt2, before, m_ids, offInLayer1), 1);
        QCOMPARE(reusableLayers(*m_gpt2, before, m_ids, offInBoth), 0); // layer 0 changes too: all of it
        QCOMPARE(reusableLayers(*m_gpt2, before, m_ids, none), 0);     // nothing changes: no shortcut needed
        QCOMPARE(reusableLayers(*m_gpt2, before, firstIds(m_ids, 5), offInLayer1), 0); // another text
        ForwardOptions noScores = offInLayer1;
        noScores.keepScores = false;
        QCOMPARE(reusableLayers(*m_gpt2, before, m_ids, noScores), 0);

        const ModelTrace switched = extendTrace(*m_gpt2, before, m_ids, offInLayer1);
        const ModelTrace full = forward(*m_gpt2, m_ids, offInLayer1);
        auto sameBits = [](const RowMatrix<float> &a, const RowMatrix<float> &b) {
            return a.rows() == b.rows() && a.cols() == b.cols()
                && std::memcmp(a.data(), b.data(), sizeof(float) * std::size_t(a.size())) == 0;
        };
        for (std::size_t i = 0; i < full.hidden.size(); ++i)
            QVERIFY2(sameBits(switched.hidden[i], full.hidden[i]), qPrintable(QStringLiteral("hidden %1").arg(i)));
        for (std::size_t l = 0; l < full.layers.size(); ++l) {
            QVERIFY(sameBits(switched.layers[l].context, full.layers[l].context));
            for (std::size_t h = 0; h < full.layers[l].weights.size(); ++h)
                QVERIFY(sameBits(switched.layers[l].weights[h], full.layers[l].weights[h]));
        }
        QVERIFY(sameBits(switched.nextToken->probabilities, full.nextToken->probabilities));
        // Layer 0 is what it was; head 1:2 adds nothing now.
        QVERIFY(sameBits(switched.layers[0].context, before.layers[0].context));
        QVERIFY((switched.layers[1].headContext(2).array() == 0.0f).all());
        QVERIFY(!sameBits(switched.hidden[2], before.hidden[2]));
        // And back on: the trace before, exactly.
        const ModelTrace back = extendTrace(*m_gpt2, switched, m_ids, none);
        for (std::size_t i = 0; i < before.hidden.size(); ++i)
            QVERIFY(sameBits(back.hidden[i], before.hidden[i]));
        QVERIFY(sameBits(back.nextToken->probabilities, before.nextToken->probabilities));
    }

    // A raised cancel flag stops the pass (the window's scheduler raises it
    // when a newer text comes); the trace made without one does not keep it.
    void aRaisedCancelFlagStopsThePass()
    {
        std::atomic<bool> cancel{true};
        ForwardOptions options;
        options.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(attn::Cancelled, forward(*m_gpt2, m_ids, options));
        const ModelTrace previous = forward(*m_gpt2, firstIds(m_ids, 5));
        QVERIFY_THROWS_EXCEPTION(attn::Cancelled, extendTrace(*m_gpt2, previous, m_ids, options));
        cancel = false;
        const ModelTrace trace = forward(*m_gpt2, m_ids, options);
        QVERIFY(trace.options.cancel == nullptr);
        QCOMPARE(trace.layers.size(), std::size_t(m_gpt2->config.layers));
    }

    // BERT's positions all see each other: always the full pass.
    void bertFallsBack()
    {
        const SharedModelParameters bert = load("bert-f32");
        QVERIFY(bert);
        const QJsonObject expected = fixtures::expected("bert");
        const std::vector<int> ids = fixtures::ids(expected.value(QLatin1String("token_ids")));
        const ModelTrace previous = forward(*bert, firstIds(ids, int(ids.size()) - 1));
        QCOMPARE(reusablePrefix(*bert, previous, ids, {}), 0);
        const ModelTrace extended = extendTrace(*bert, previous, ids);
        const ModelTrace full = forward(*bert, ids);
        for (std::size_t i = 0; i < full.hidden.size(); ++i)
            QVERIFY(extended.hidden[i] == full.hidden[i]);
        for (std::size_t l = 0; l < full.layers.size(); ++l)
            for (std::size_t h = 0; h < full.layers[l].weights.size(); ++h)
                QVERIFY(extended.layers[l].weights[h] == full.layers[l].weights[h]);
        QVERIFY(!extended.nextToken);
    }
};

QTEST_GUILESS_MAIN(TestIncremental)
#include "tst_incremental.moc"
