// The pipeline view: which numbers it picks (PipelineModel), where the steps
// go (PipelineLayout), and what it paints.
#include "document.h"
#include "pipelinepainter.h"
#include "pipelineview.h"

#include <QBuffer>
#include <QPainter>
#include <QSvgGenerator>
#include <QTest>
#include <cmath>

namespace {

// Everything the painter writes, as text: drawText() lands in the SVG verbatim.
QString paintedText(const PipelinePainter &painter, const QSize &size)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    QPainter p(&svg);
    painter.paint(p, QRectF(QPoint(0, 0), size), QPalette());
    p.end();
    return QString::fromUtf8(buffer.data());
}

QString sentenceOf(int words)
{
    QStringList list;
    for (int k = 0; k < words; ++k)
        list << QStringLiteral("w%1").arg(k);
    return list.join(QLatin1Char(' '));
}

} // namespace

class TestPipeline : public QObject
{
    Q_OBJECT
private slots:
    void modelMatchesResult_data();
    void modelMatchesResult();
    void sumShownIsOne();
    void causalMasksLaterKeys();
    void selectsHeaviestKeys_data();
    void selectsHeaviestKeys();
    void simplifiedTextbookNumbers();
    void longVectorsAreCut();
    void clampsHeadAndQuery();
    void crossAttentionLabels();
    void sharedHeadsAndRotaryAreNamed();
    void showsErrorWithoutResult();
    void widgetPaintsStepsLeftToRight();
    void savePictures();
};

void TestPipeline::modelMatchesResult_data()
{
    QTest::addColumn<int>("query");
    QTest::newRow("journey") << 1;
    QTest::newRow("with") << 3;
}

void TestPipeline::modelMatchesResult()
{
    QFETCH(int, query);
    Document doc(attn::exampleSession());
    doc.setQuery(query);
    const SnapshotPtr snap = doc.snapshot();
    QVERIFY(snap->result);
    const attn::HeadResult &h = snap->result->heads[0];
    const PipelineModel m = buildPipelineModel(*snap, query, 0, 100, 100);
    QVERIFY(m.isValid());
    QCOMPARE(m.query, query);
    QCOMPARE(m.queryToken, snap->rowTokens[query]);
    QVERIFY(m.scaled);
    QCOMPARE(m.sqrtDk, std::sqrt(2.0));
    QCOMPARE(int(m.queryValues.size()), 2);
    QCOMPARE(m.hiddenDims, 0);
    for (int d = 0; d < 2; ++d) {
        QCOMPARE(m.queryValues[size_t(d)], h.queries(query, d));
        QCOMPARE(m.contextValues[size_t(d)], h.context(query, d));
    }
    QCOMPARE(int(m.rows.size()), 6);
    QCOMPARE(m.hiddenKeys, 0);
    for (int j = 0; j < 6; ++j) {
        const PipelineKeyRow &row = m.rows[size_t(j)];
        QCOMPARE(row.key, j);
        QCOMPARE(row.label, snap->columnTokens[j]);
        QCOMPARE(row.score, h.scores(query, j));
        QCOMPARE(row.scaled, h.scores(query, j) / std::sqrt(2.0));
        QCOMPARE(row.weight, h.weights(query, j));
        QVERIFY(!row.masked);
        QCOMPARE(row.isSelf, j == query);
    }
}

void TestPipeline::sumShownIsOne()
{
    Document doc(attn::exampleSession());
    const PipelineModel m = buildPipelineModel(*doc.snapshot(), 1, 0, 100, 100);
    QVERIFY(std::abs(m.weightSum - 1.0) < 1e-12);
    PipelinePainter painter;
    painter.setSnapshot(doc.snapshot());
    painter.setQuery(1);
    const QString svg = paintedText(painter, {640, 330});
    QVERIFY2(svg.contains(QStringLiteral("Σ = 1.00")), qPrintable(svg.left(300)));
    QVERIFY(svg.contains(QStringLiteral("÷ √d_k = ÷ 1.414")));
    QVERIFY(svg.contains(QStringLiteral("“journey”")));
}

void TestPipeline::causalMasksLaterKeys()
{
    Document doc(attn::exampleSession());
    attn::AttentionConfig cfg = doc.session().attention;
    cfg.causal = true;
    doc.setAttention(cfg);
    doc.setQuery(2);
    const PipelineModel m = buildPipelineModel(*doc.snapshot(), 2, 0, 100, 100);
    QCOMPARE(int(m.rows.size()), 6);
    for (int j = 0; j < 6; ++j) {
        QCOMPARE(m.rows[size_t(j)].masked, j > 2);
        if (j > 2)
            QCOMPARE(m.rows[size_t(j)].weight, 0.0);
    }
    QVERIFY(std::abs(m.weightSum - 1.0) < 1e-12);
    PipelinePainter painter;
    painter.setSnapshot(doc.snapshot());
    painter.setQuery(2);
    QVERIFY(paintedText(painter, {640, 330}).contains(QStringLiteral("masked")));
}

void TestPipeline::selectsHeaviestKeys_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("query");
    QTest::newRow("query 1") << false << 1;
    QTest::newRow("query 300") << false << 300;
    QTest::newRow("causal query 300") << true << 300;
    QTest::newRow("causal query 5") << true << 5;
}

void TestPipeline::selectsHeaviestKeys()
{
    QFETCH(bool, causal);
    QFETCH(int, query);
    Document doc(attn::exampleSession());
    doc.setSentence(sentenceOf(512));
    QCOMPARE(doc.tokenCount(), 512);
    attn::AttentionConfig cfg = doc.session().attention;
    cfg.causal = causal;
    doc.setAttention(cfg);
    const SnapshotPtr snap = doc.snapshot();
    const Eigen::RowVectorXd w = snap->result->heads[0].weights.row(query);

    const PipelineModel m = buildPipelineModel(*snap, query, 0, 16, 10);
    QVERIFY(int(m.rows.size()) <= 16);
    QVERIFY(!m.rows.empty());
    Eigen::Index heaviest = 0;
    w.maxCoeff(&heaviest);
    bool hasHeaviest = false, hasSelf = false;
    double shownSum = 0.0, lightestShown = 1.0;
    for (size_t r = 0; r < m.rows.size(); ++r) {
        const PipelineKeyRow &row = m.rows[r];
        if (r > 0)
            QVERIFY(row.key > m.rows[r - 1].key); // sentence order
        QCOMPARE(row.weight, w(row.key));
        hasHeaviest |= row.key == heaviest;
        hasSelf |= row.key == query;
        shownSum += row.weight;
        if (row.key != query)
            lightestShown = std::min(lightestShown, row.weight);
    }
    QVERIFY(hasHeaviest);
    QVERIFY(hasSelf);
    QCOMPARE(m.hiddenKeys, 512 - int(m.rows.size()));
    const int maskedShown = int(std::count_if(m.rows.begin(), m.rows.end(), [](const auto &r) { return r.masked; }));
    QCOMPARE(m.hiddenMasked + maskedShown, causal ? 512 - 1 - query : 0);
    QVERIFY(std::abs(m.hiddenWeight - (w.sum() - shownSum)) < 1e-12);
    // Nothing left out outweighs what is shown.
    for (int j = 0; j < 512; ++j) {
        const bool shown = std::any_of(m.rows.begin(), m.rows.end(), [&](const PipelineKeyRow &r) { return r.key == j; });
        if (!shown)
            QVERIFY(w(j) <= lightestShown);
    }

    // The painter at the default size cuts to what fits and says what is left.
    PipelinePainter painter;
    painter.setSnapshot(snap);
    painter.setQuery(query);
    const PipelineModel fitted = painter.model(QRectF(0, 0, 640, 330));
    QVERIFY(int(fitted.rows.size()) <= 16);
    QVERIFY(fitted.rows.size() >= 8);
    QVERIFY(paintedText(painter, {640, 330}).contains(QStringLiteral("… %1 more keys").arg(fitted.hiddenKeys)));
}

void TestPipeline::simplifiedTextbookNumbers()
{
    Document doc(attn::exampleSession());
    attn::AttentionConfig cfg = doc.session().attention;
    cfg.mode = attn::Mode::Simplified;
    cfg.scale = false;
    cfg.outputProjection = false;
    doc.setAttention(cfg);
    QVERIFY(doc.hasResult());
    const PipelineModel m = buildPipelineModel(*doc.snapshot(), 1, 0, 100, 100);
    QVERIFY(!m.scaled);
    QCOMPARE(m.rows[0].label, QStringLiteral("Your"));
    QVERIFY(std::abs(m.rows[0].score - (0.55 * 0.43 + 0.87 * 0.15 + 0.66 * 0.89)) < 1e-12);
    QVERIFY(std::abs(m.rows[0].score - 0.9544) < 1e-12);
    QCOMPARE(m.rows[0].scaled, m.rows[0].score);
    const double expected[] = {0.4419, 0.6515, 0.5683};
    QCOMPARE(int(m.contextValues.size()), 3);
    for (int d = 0; d < 3; ++d)
        QVERIFY2(std::abs(m.contextValues[size_t(d)] - expected[d]) < 1e-4, qPrintable(QString::number(m.contextValues[size_t(d)])));
    QCOMPARE(m.queryValues, (std::vector<double>{0.55, 0.87, 0.66}));
}

void TestPipeline::longVectorsAreCut()
{
    Document doc(attn::exampleSession());
    doc.setDModel(64);
    attn::AttentionConfig cfg = doc.session().attention;
    cfg.headDim = 32;
    doc.setAttention(cfg);
    const PipelineModel m = buildPipelineModel(*doc.snapshot(), 1, 0, 100, 10);
    QCOMPARE(m.headDim, 32);
    QCOMPARE(int(m.queryValues.size()), 10);
    QCOMPARE(int(m.contextValues.size()), 10);
    QCOMPARE(m.hiddenDims, 22);
    PipelinePainter painter;
    painter.setSnapshot(doc.snapshot());
    QVERIFY(painter.model(QRectF(0, 0, 640, 330)).hiddenDims > 0);
    QVERIFY(paintedText(painter, {640, 330}).contains(QStringLiteral("… (+22)")));
}

void TestPipeline::clampsHeadAndQuery()
{
    Document doc(attn::exampleSession());
    const PipelineModel high = buildPipelineModel(*doc.snapshot(), 99, 7, 100, 100);
    QCOMPARE(high.head, 0);
    QCOMPARE(high.query, 5);
    const PipelineModel low = buildPipelineModel(*doc.snapshot(), -3, -1, 100, 100);
    QCOMPARE(low.head, 0);
    QCOMPARE(low.query, 0);
}

void TestPipeline::crossAttentionLabels()
{
    Document doc(attn::exampleSession());
    attn::Session s = doc.session();
    attn::SourceSequence source;
    source.tokens = QStringList{QStringLiteral("Ihre"), QStringLiteral("Reise")};
    source.embeddings = Eigen::MatrixXd::Constant(2, 3, 0.5);
    s.source = source;
    doc.setSession(s, QStringLiteral("cross"));
    QVERIFY(doc.hasResult());
    const PipelineModel m = buildPipelineModel(*doc.snapshot(), 1, 0, 100, 100);
    QCOMPARE(m.queryToken, QStringLiteral("journey"));
    QCOMPARE(int(m.rows.size()), 2);
    QCOMPARE(m.rows[0].label, QStringLiteral("Ihre"));
    QCOMPARE(m.rows[1].label, QStringLiteral("Reise"));
    QVERIFY(!m.rows[1].isSelf); // key 1 is another sequence's token
}

void TestPipeline::sharedHeadsAndRotaryAreNamed()
{
    // The "Shared key/value heads" example: 4 query heads, 2 key/value heads.
    attn::Session s = attn::exampleSession();
    s.embeddings = Eigen::MatrixXd::Constant(6, 8, 0.25) + Eigen::MatrixXd::Identity(6, 8);
    s.attention.heads = 4;
    s.attention.headDim = 2;
    s.attention.kvHeads = 2;
    s.attention.outputProjection = true;
    Document doc(s);
    QVERIFY(doc.hasResult());
    const PipelineModel m = buildPipelineModel(*doc.snapshot(), 1, 3, 100, 100);
    QCOMPARE(m.keyValueHead, 1);
    QCOMPARE(m.sharedWith, (std::vector<int>{2, 3}));
    QCOMPARE(m.queryTitle, QStringLiteral("query q"));
    PipelinePainter painter;
    painter.setSnapshot(doc.snapshot());
    painter.setQuery(1);
    painter.setHead(3);
    const QString text = paintedText(painter, {760, 330});
    QVERIFY2(text.contains(QStringLiteral("“journey”, head 3 · k/v 1")), qPrintable(text.left(4000)));
    QCOMPARE(PipelinePainter::sharingNote(m),
             QStringLiteral("Heads 2 and 3 share these keys and values; only their queries differ."));
    QVERIFY(text.contains(QStringLiteral("Heads 2 and 3")));
    // Without sharing, nothing of the kind.
    const PipelineModel plain = buildPipelineModel(*Document(attn::exampleSession()).snapshot(), 1, 0, 100, 100);
    QCOMPARE(plain.keyValueHead, -1);
    QVERIFY(plain.sharedWith.empty());
    // Rotary positions: q is turned, and the title says so.
    s.attention.positionalEncoding = attn::PositionalEncoding::Rotary;
    doc.setSession(s, QStringLiteral("rotary"));
    QCOMPARE(buildPipelineModel(*doc.snapshot(), 1, 0, 100, 100).queryTitle, QStringLiteral("q = rot(x·W_q)"));
    QCOMPARE(buildPipelineModel(*doc.snapshot(), 1, 0, 100, 100).queryValues[0], doc.result().heads[0].queries(1, 0));
}

void TestPipeline::showsErrorWithoutResult()
{
    auto snap = std::make_shared<AttentionSnapshot>();
    snap->rowTokens = snap->columnTokens = QStringList{QStringLiteral("a")};
    snap->error = QStringLiteral("head_dim too large");
    const PipelineModel m = buildPipelineModel(*snap, 0, 0, 10, 10);
    QVERIFY(!m.isValid());
    QCOMPARE(m.error, snap->error);
    PipelinePainter painter;
    painter.setSnapshot(snap);
    QVERIFY(paintedText(painter, {640, 330}).contains(snap->error));
}

void TestPipeline::widgetPaintsStepsLeftToRight()
{
    Document doc(attn::exampleSession());
    PipelineView view;
    view.resize(640, 330);
    view.setSnapshot(doc.snapshot());
    view.setQuery(1);
    const PipelineLayout layout = view.currentLayout();
    for (int s = 1; s < PipelineLayout::StepCount; ++s) {
        QVERIFY(layout.steps[size_t(s)].left() >= layout.steps[size_t(s - 1)].right());
        QVERIFY(layout.arrows[size_t(s - 1)].left() >= layout.steps[size_t(s - 1)].right() - 1e-9);
    }
    QVERIFY(layout.steps[0].left() >= 0);
    QVERIFY(layout.steps[3].right() <= 640);

    const QImage image = view.grab().toImage();
    const QRgb background = image.pixel(2, 2);
    int inked = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            inked += image.pixel(x, y) != background;
    QVERIFY2(inked > 2000, qPrintable(QString::number(inked)));
    // The weight bar of the heaviest key shows in the highlight colour.
    const PipelineModel m = view.currentModel();
    const auto heaviest = std::max_element(m.rows.begin(), m.rows.end(),
                                           [](const auto &a, const auto &b) { return a.weight < b.weight; });
    const int row = int(heaviest - m.rows.begin());
    const QPoint barStart(int(layout.steps[2].left() + 2), int(layout.rowsTop + (row + 0.5) * layout.rowHeight));
    QCOMPARE(QColor(image.pixel(barStart)), view.palette().color(QPalette::Highlight));
}

void TestPipeline::savePictures()
{
    const QString dir = qEnvironmentVariable("ATTN_SAVE_PICTURES");
    if (dir.isEmpty())
        QSKIP("set ATTN_SAVE_PICTURES=DIR to save pictures for a look");
    QPalette dark(QColor(0x35, 0x35, 0x35), QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
    auto save = [&](Document &doc, const QString &name, QSize size = {640, 330}, bool useDark = false) {
        PipelineView view;
        if (useDark)
            view.setPalette(dark);
        view.resize(size);
        view.setSnapshot(doc.snapshot());
        view.setQuery(doc.query());
        QVERIFY(view.grab().save(dir + QStringLiteral("/pipeline-%1.png").arg(name)));
    };
    Document doc(attn::exampleSession());
    save(doc, QStringLiteral("example"));
    save(doc, QStringLiteral("example-900"), {900, 400});
    save(doc, QStringLiteral("dark"), {640, 330}, true);
    attn::AttentionConfig cfg = doc.session().attention;
    cfg.causal = true;
    doc.setAttention(cfg);
    doc.setQuery(2);
    save(doc, QStringLiteral("causal"));
    cfg.causal = false;
    cfg.mode = attn::Mode::Simplified;
    cfg.scale = false;
    doc.setAttention(cfg);
    doc.setQuery(1);
    save(doc, QStringLiteral("simplified"));
    Document words;
    words.setSentence(QStringLiteral("The quick brown fox jumps over the lazy dog while the cat sleeps on a warm mat "
                                     "by the old door"));
    words.setQuery(3);
    save(words, QStringLiteral("20tokens"));
    Document many;
    many.setSentence(sentenceOf(512));
    many.setQuery(300);
    save(many, QStringLiteral("512"));
    save(many, QStringLiteral("512-900"), {900, 400});
    Document wide;
    wide.setDModel(64);
    save(wide, QStringLiteral("dmodel64"));
    attn::AttentionConfig wideCfg = wide.session().attention;
    wideCfg.headDim = 32;
    wideCfg.heads = 2;
    wide.setAttention(wideCfg);
    save(wide, QStringLiteral("dmodel64-hd32"));
    save(wide, QStringLiteral("narrow"), {420, 260});
}

QTEST_MAIN(TestPipeline)
#include "tst_pipeline.moc"
