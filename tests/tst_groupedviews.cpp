// Grouped-query attention in the window, on the llama test checkpoint (4
// query heads reading 2 key/value heads: heads 0 and 1 share one, 2 and 3
// the other): the layers × heads grid stands each group together on a band
// of its own under its key/value head's name, the head box names each head's
// group and shades every other one, the pipeline says whose keys and values
// the head reads and which heads share them, and switching a query head off
// through the document leaves its group partner alone (the numbers against
// tests/data/families/make_fixtures.py's run with that head off).

#include "headbox.h"
#include "modelfixtures.h"
#include "modelgridview.h"
#include "modelwindowfixture.h"
#include "pipelineview.h"

#include <QComboBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QStandardPaths>

namespace {

const QString kLlama = QStringLiteral(ATTN_TEST_DATA "/families/llama");

QJsonObject expectedLlama()
{
    return fixtures::readJson(QStringLiteral(ATTN_TEST_DATA "/families/expected.json"))
        .value(QStringLiteral("cases")).toObject().value(QStringLiteral("llama")).toObject();
}

int distance(QColor a, QColor b)
{
    return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue())});
}

} // namespace

class TestGroupedViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void gridHeadBoxAndPipelineShowTheGroups()
    {
        ModelWindowFixture f;
        f.window.sentenceEdit()->setText(QStringLiteral("The robot moved the box because it was heavy"));
        QVERIFY(f.open(kLlama));
        QVERIFY(f.model()->trace());
        QCOMPARE(f.model()->config()->kvHeads(), 2);

        // The grid: groups of two, further apart than two heads of one group, each under "kv g".
        ModelGridView *grid = f.actions()->grid();
        QCOMPARE(grid->marks().kvGroup, 2);
        const ModelGridLayout layout = grid->gridLayout();
        QCOMPARE(layout.kvGroup, 2);
        const double inside = grid->tileRect(0, 1).left() - grid->tileRect(0, 0).right();
        const double between = grid->tileRect(0, 2).left() - grid->tileRect(0, 1).right();
        QVERIFY2(between >= inside + 5, qPrintable(QStringLiteral("%1 vs %2").arg(between).arg(inside)));
        const QRectF group0 = layout.groupRect(0), group1 = layout.groupRect(1);
        QVERIFY(group0.contains(grid->tileRect(1, 1)) && !group0.intersects(grid->tileRect(0, 2)));
        QVERIFY(group1.contains(grid->tileRect(0, 2)) && group1.contains(grid->tileRect(1, 3)));
        // The second group's band is shaded: the gap between its two tiles has the alternate colour.
        const QImage image = grid->grab().toImage();
        // (Layer 1: layer 0's head 0 is selected, its outline in the gap.)
        const QPointF gap1((grid->tileRect(1, 2).right() + grid->tileRect(1, 3).left()) / 2, grid->tileRect(1, 2).center().y());
        const QPointF gap0((grid->tileRect(1, 0).right() + grid->tileRect(1, 1).left()) / 2, grid->tileRect(1, 0).center().y());
        QVERIFY(distance(image.pixelColor(gap1.toPoint()), grid->palette().color(QPalette::AlternateBase)) <= 2);
        QVERIFY(distance(image.pixelColor(gap0.toPoint()), grid->palette().color(QPalette::Base)) <= 2);
        // Sorted by a score, a column is a rank: no groups then.
        ModelGridScores sorted;
        sorted.values = {{0.1, 0.4, 0.3, 0.2}, {0.4, 0.3, 0.2, 0.1}};
        sorted.sorted = true;
        grid->setScores(sorted);
        QCOMPARE(grid->gridLayout().kvGroup, 1);
        grid->setScores({});

        // The head box: each head's group, every other group shaded, a tooltip naming the partners.
        QComboBox *box = f.window.headBox();
        QCOMPARE(box->itemText(boxItemOfHead(box, 0)), QStringLiteral("0 of 4 · kv 0"));
        QCOMPARE(box->itemText(boxItemOfHead(box, 3)), QStringLiteral("3 of 4 · kv 1"));
        QVERIFY(!box->itemData(boxItemOfHead(box, 1), Qt::BackgroundRole).isValid());
        QVERIFY(box->itemData(boxItemOfHead(box, 2), Qt::BackgroundRole).isValid());
        QCOMPARE(box->itemData(boxItemOfHead(box, 2), Qt::ToolTipRole).toString(),
                 QStringLiteral("Query head 2 reads key/value head 1, as head 3 does"));

        // The pipeline: whose keys and values, shared with which heads.
        f.window.selectHead(3);
        QVERIFY(f.idle());
        const PipelineModel pipeline = f.window.pipeline()->currentModel();
        QCOMPARE(pipeline.keyValueHead, 1);
        QCOMPARE(pipeline.sharedWith, (std::vector<int>{2, 3}));
        QCOMPARE(PipelinePainter::sharingNote(pipeline),
                 QStringLiteral("Heads 2 and 3 share these keys and values; only their queries differ."));
        // Its keys are its group's: head 2's, not head 1's.
        const attn::AttentionResult &result = f.doc.result();
        QCOMPARE(result.heads[3].keys, result.heads[2].keys);
        QVERIFY(result.heads[3].keys != result.heads[1].keys);
    }

    // Switching off query head 1 of layer 0 through the document: head 0,
    // which reads the same key/value head, computes what it did before, and
    // every later number is the reference's with head 1 off.
    void switchingOffAHeadLeavesItsGroupAlone()
    {
        const QJsonObject expected = expectedLlama();
        const QJsonObject ablated = expected.value(QStringLiteral("ablated")).toObject();
        QCOMPARE(ablated.value(QStringLiteral("layer")).toInt(), 0);
        QCOMPARE(ablated.value(QStringLiteral("head")).toInt(), 1);
        ModelWindowFixture f;
        f.window.sentenceEdit()->setText(QStringLiteral("The robot moved the box because it was heavy"));
        QVERIFY(f.open(kLlama));
        const std::shared_ptr<const attn::ModelTrace> before = f.model()->trace();
        QVERIFY(before);
        f.doc.setAblatedHeads({{0, 1}}, QStringLiteral("Switch head 0:1 off"));
        QVERIFY(f.idle());
        const std::shared_ptr<const attn::ModelTrace> after = f.model()->trace();
        QVERIFY(after && after != before);
        const attn::LayerTrace &was = before->layers[0], &now = after->layers[0];
        // Head 0 keeps its weights and its context: the shared key/value head is untouched.
        QCOMPARE(now.weights[0], was.weights[0]);
        QCOMPARE(RowMatrixOf(now.headContext(0)), RowMatrixOf(was.headContext(0)));
        QCOMPARE(RowMatrixOf(now.key(0)), RowMatrixOf(was.key(0)));
        QCOMPARE(RowMatrixOf(now.value(1)), RowMatrixOf(was.value(1)));
        // Head 1 adds nothing; heads 2 and 3 of the other group are as before too.
        QVERIFY(now.headContext(1).isZero(0));
        QCOMPARE(RowMatrixOf(now.headContext(2)), RowMatrixOf(was.headContext(2)));
        // The rest of the model: the reference run with head 1 off.
        const QString hidden = fixtures::difference(after->hidden.back(), fixtures::matrix(ablated.value(QStringLiteral("hidden"))), 1e-4);
        QVERIFY2(hidden.isEmpty(), qPrintable(hidden));
        const QString next = fixtures::difference(
            after->nextToken->probabilities,
            fixtures::matrix(ablated.value(QStringLiteral("next_token")).toObject().value(QStringLiteral("probabilities"))),
            2e-5);
        QVERIFY2(next.isEmpty(), qPrintable(next));
        // Before, the numbers were the run with every head on: the switch made the difference.
        QVERIFY(!fixtures::difference(before->hidden.back(), fixtures::matrix(ablated.value(QStringLiteral("hidden"))), 1e-4)
                     .isEmpty());
        // Only head 1 is marked, in the grid and in the head box.
        QCOMPARE(f.actions()->grid()->switchedOff(), (std::set<attn::LayerHead>{{0, 1}}));
        QComboBox *box = f.window.headBox();
        QCOMPARE(box->itemText(boxItemOfHead(box, 1)), QStringLiteral("1 of 4 · kv 0 · switched off"));
        QCOMPARE(box->itemText(boxItemOfHead(box, 0)), QStringLiteral("0 of 4 · kv 0"));
    }

private:
    template<typename M>
    static attn::RowMatrix<float> RowMatrixOf(const M &m)
    {
        return m;
    }
};

QTEST_MAIN(TestGroupedViews)
#include "tst_groupedviews.moc"
