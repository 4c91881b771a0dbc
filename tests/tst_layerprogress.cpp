// A long run shown layer by layer (ModelDocument, the grid, the status bar's
// progress and Cancel), on gemma3_text's checkpoint (3 layers) with the run
// shown as it goes from the start (setLayerByLayerAfter(0)). Nothing here is
// timed: each step is taken from the report of the layer it follows, and the
// scheduler drops every report of a run once it is cancelled, so what the
// window has seen is exactly what came before the step, however fast the
// worker is. Each layer shown early must be the final result's layer to the
// bit; the final result is forward() over the same tokens without any of this
// (tst_families checks it against PyTorch), to rounding: the window reuses
// the beginning token's row of the text before (model/incremental.h).

#include "layerprogressbar.h"
#include "model/openmodel.h"
#include "modelgridview.h"
#include "nexttokenview.h"
#include "modelwindowfixture.h"
#include "io/modelfolder.h"

#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>

namespace {

const QString kModel = QStringLiteral(ATTN_TEST_DATA "/families/gemma3_text");
const QString kText = QStringLiteral("The robot moved the box because it was heavy");
const QString kOther = QStringLiteral("A cat sat on the mat and looked at the door");

attn::SharedModelParameters loadReference()
{
    QString error;
    const std::optional<attn::ModelFiles> files = attn::resolveModel(kModel, &error);
    return files ? attn::loadModel(*files, &error) : nullptr;
}

std::vector<int> idsOf(const ModelDocument &model)
{
    std::vector<int> ids;
    for (const attn::ModelToken &t : model.tokens())
        ids.push_back(t.id);
    return ids;
}

// Every head of the snapshot's layer against `layer` of the reference, exactly.
bool sameWeights(const SnapshotPtr &snapshot, const attn::LayerTrace &layer)
{
    if (!snapshot->result || snapshot->result->heads.size() != layer.weights.size())
        return false;
    for (std::size_t h = 0; h < layer.weights.size(); ++h)
        if (snapshot->result->heads[h].weights.toDouble() != layer.weights[h].cast<double>())
            return false;
    return true;
}

// The whole trace against the independent pass, to rounding.
bool closeToReference(const attn::ModelTrace &trace, const attn::ModelTrace &reference)
{
    for (std::size_t l = 0; l < reference.layers.size(); ++l)
        for (std::size_t h = 0; h < reference.layers[l].weights.size(); ++h)
            if (!trace.layers[l].weights[h].isApprox(reference.layers[l].weights[h], 1e-5f))
                return false;
    return trace.nextToken->probabilities.isApprox(reference.nextToken->probabilities, 1e-4f);
}

} // namespace

class TestLayerProgress : public QObject
{
    Q_OBJECT

    attn::SharedModelParameters m_reference;

    struct Fixture : ModelWindowFixture
    {
        Fixture() { model()->setLayerByLayerAfter(0); }
        bool openModel(const QString &text)
        {
            window.sentenceEdit()->setText(text);
            actions()->openFolder(kModel);
            return idle() && model()->trace();
        }
    };

private slots:
    void initTestCase()
    {
        m_reference = loadReference();
        QVERIFY(m_reference);
        QCOMPARE(m_reference->config.layers, 3);
    }

    // Layers come in order; each, as it comes, is the final result's layer, and
    // switching to a computed layer mid-run shows it at once; a layer still
    // to come says so; the prediction waits for the last layer.
    void layersFillInOrder()
    {
        Fixture f;
        QVERIFY(f.openModel(kOther));
        ModelDocument *model = f.model();
        std::vector<int> computed;
        std::vector<SnapshotPtr> shown; // layer l's view, taken when it came
        QStringList pendingTexts;
        bool predictionEarly = false;
        QObject::connect(model, &ModelDocument::resultChanged, model, [&] {
            const int done = model->computedLayers();
            if (model->trace() || done == 0 || (!computed.empty() && computed.back() == done))
                return;
            computed.push_back(done);
            predictionEarly = predictionEarly || !model->predictions(1).empty();
            model->setLayer(done - 1);
            shown.push_back(model->snapshotLayer() == done - 1 ? model->snapshot() : nullptr);
            if (done < 3) {
                model->setLayer(2);
                pendingTexts << model->snapshot()->error;
            }
        });
        f.type(kText);
        QVERIFY(f.idle());
        QVERIFY(model->trace());
        // The last layer is shown too before the prediction and the rollout complete the result.
        QCOMPARE(computed, (std::vector<int>{1, 2, 3}));
        QVERIFY(!predictionEarly);
        QCOMPARE(pendingTexts, QStringList({QStringLiteral("Layer 2 is not computed yet: layer 0 of 3 is done"),
                                            QStringLiteral("Layer 2 is not computed yet: layers 0 to 1 of 3 are done")}));
        for (std::size_t l = 0; l < shown.size(); ++l) {
            QVERIFY2(shown[l], "the computed layer was not shown at once");
            QVERIFY2(sameWeights(shown[l], model->trace()->layers[l]), qPrintable(QString::number(l)));
        }
        const attn::ModelTrace reference = attn::forward(*m_reference, idsOf(*model));
        QCOMPARE(model->trace()->tokenIds, reference.tokenIds);
        QVERIFY(closeToReference(*model->trace(), reference));
        QCOMPARE(model->computedLayers(), 3);
        QCOMPARE(model->gridMarks().computedLayers, -1);
        QVERIFY(!model->layerProgress().running && !model->layerProgress().stopped);
    }

    // Cancel after layer k: exactly layers 0 ... k stay, the grid says which
    // are not computed, and Compute the Rest finishes the same result.
    void cancelAfterLayer_data()
    {
        QTest::addColumn<int>("k");
        QTest::newRow("after layer 0") << 0;
        QTest::newRow("after layer 1") << 1;
    }
    void cancelAfterLayer()
    {
        QFETCH(int, k);
        Fixture f;
        QVERIFY(f.openModel(kOther));
        ModelDocument *model = f.model();
        QSignalSpy notices(model, &ModelDocument::notice);
        bool stopped = false;
        QObject::connect(model, &ModelDocument::progressChanged, model, [&] {
            if (!stopped && !model->trace() && model->computedLayers() == k + 1) {
                stopped = true;
                model->stopRun();
            }
        });
        f.type(kText);
        QVERIFY(f.idle());
        QVERIFY(stopped);
        QCOMPARE(model->computedLayers(), k + 1);
        QVERIFY(!model->trace());
        QVERIFY(model->predictions(3).empty());
        const ModelDocument::LayerProgress progress = model->layerProgress();
        QVERIFY(progress.stopped && !progress.running);
        QCOMPARE(progress.done, k + 1);
        QCOMPARE(notices.last().at(0).toString(),
                 QStringLiteral("Stopped after layer %1 of 3: layers %2 to 2 were not computed (Compute the Rest, or a "
                                "new text, computes them)").arg(k).arg(k + 1));
        const auto levels = model->gridLevels();
        for (int l = 0; l < 3; ++l)
            QCOMPARE(int((*levels)[std::size_t(l)].size()), l <= k ? 4 : 0);
        QCOMPARE(model->gridMarks().computedLayers, k + 1);
        QVERIFY(model->gridMarks().stopped);
        model->setLayer(2);
        QCOMPARE(model->snapshot()->error,
                 QStringLiteral("Layer 2 was not computed: the run was stopped after layer %1 of 3. Compute the Rest "
                                "computes it, and so does a new text").arg(k));
        model->setLayer(k);
        const SnapshotPtr kept = model->snapshot(); // computed before the stop, shown at once after it
        QCOMPARE(model->snapshotLayer(), k);
        QVERIFY(kept->result);

        // Compute the Rest goes on from layer k + 1 over the same tokens.
        model->computeRest();
        QVERIFY(f.idle());
        QVERIFY(model->trace());
        QCOMPARE(model->computedLayers(), 3);
        QVERIFY(!model->layerProgress().stopped);
        QVERIFY(sameWeights(kept, model->trace()->layers[std::size_t(k)]));
        QVERIFY(closeToReference(*model->trace(), attn::forward(*m_reference, idsOf(*model))));
    }

    // A new text while a run goes cancels it: no layer of it is shown after, and the result is the new text's.
    void newTextCancelsRun()
    {
        Fixture f;
        QVERIFY(f.openModel(kOther));
        ModelDocument *model = f.model();
        const int cancelledBefore = f.doc.scheduler()->cancelledRuns();
        bool retyped = false;
        QStringList firstTokens; // whose layers came (by the number of tokens), with the layers done
        QObject::connect(model, &ModelDocument::resultChanged, model, [&] {
            if (model->trace() || model->computedLayers() == 0)
                return;
            const bool first = model->tokens().size() == model->tokenizer()->encode(kText).size();
            firstTokens << (first ? QStringLiteral("text") : QStringLiteral("other")) + QString::number(model->computedLayers());
            if (!retyped) {
                retyped = true;
                f.type(kOther); // during the run of kText, after its first layer
            }
        });
        f.type(kText);
        QVERIFY(f.idle());
        QVERIFY(retyped);
        QCOMPARE(f.doc.scheduler()->cancelledRuns(), cancelledBefore + 1);
        QVERIFY(model->tokenizer()->encode(kText).size() != model->tokenizer()->encode(kOther).size());
        QCOMPARE(firstTokens, QStringList({QStringLiteral("text1"), QStringLiteral("other1"), QStringLiteral("other2"),
                                           QStringLiteral("other3")}));
        QCOMPARE(model->tokens().size(), model->tokenizer()->encode(kOther).size());
        QVERIFY(closeToReference(*model->trace(), attn::forward(*m_reference, idsOf(*model))));
    }

    // The status bar through the real window: "Layer 1 of 3" with Cancel, then
    // what was not computed with Compute the Rest; the grid's rows not
    // computed are striped in the palette's mid colour.
    void progressInTheWindow()
    {
        Fixture f;
        QVERIFY(f.openModel(kOther));
        LayerProgressBar *bar = f.actions()->layerProgress();
        QVERIFY(!bar->isVisible());
        QString running;
        bool cancelShown = false;
        QObject::connect(f.model(), &ModelDocument::progressChanged, bar, [&] {
            if (!running.isEmpty() || !f.model()->layerProgress().running || f.model()->computedLayers() != 1)
                return;
            running = bar->text();
            cancelShown = bar->isVisible() && bar->cancelButton()->isVisible() && !bar->restButton()->isVisible();
            QTest::mouseClick(bar->cancelButton(), Qt::LeftButton);
        });
        f.type(kText);
        QVERIFY(f.idle());
        QCOMPARE(running, QStringLiteral("Layer 1 of 3"));
        QVERIFY(cancelShown);
        QCOMPARE(bar->text(), QStringLiteral("Stopped: layers 1 to 2 not computed"));
        QVERIFY(bar->isVisible() && bar->restButton()->isVisible() && !bar->cancelButton()->isVisible());
        QVERIFY(f.window.statusBar()->currentMessage().startsWith(QStringLiteral("Stopped after layer 0 of 3")));
        QCOMPARE(f.actions()->nextTokens()->emptyText(),
                 QStringLiteral("Not computed: the run was stopped before the last layer"));

        // The grid: row 0 in the colour map, rows 1 and 2 striped (Base and Mid only).
        ModelGridView *grid = f.actions()->grid();
        QCOMPARE(grid->marks().computedLayers, 1);
        const QImage picture = grid->grab().toImage();
        const QPalette palette = grid->palette();
        const QRect pending = grid->tileRect(2, 1).toAlignedRect().adjusted(2, 2, -2, -2);
        int mid = 0;
        for (int y = pending.top(); y <= pending.bottom(); ++y)
            for (int x = pending.left(); x <= pending.right(); ++x) {
                const QRgb c = picture.pixel(x, y);
                QVERIFY2(c == palette.color(QPalette::Base).rgb() || c == palette.color(QPalette::Mid).rgb(),
                         qPrintable(QStringLiteral("%1,%2: %3").arg(x).arg(y).arg(c, 0, 16)));
                mid += c == palette.color(QPalette::Mid).rgb();
            }
        QVERIFY(mid > pending.width()); // stripes, not an empty tile
        const QPoint done = grid->tileRect(0, 1).center().toPoint();
        QVERIFY(picture.pixel(done) != palette.color(QPalette::Base).rgb());

        QTest::mouseClick(bar->restButton(), Qt::LeftButton);
        QVERIFY(f.idle());
        QVERIFY(f.model()->trace());
        QVERIFY(!bar->isVisible());
        QCOMPARE(grid->marks().computedLayers, -1);
        QCOMPARE(grid->levels()->at(2).size(), std::size_t(4));
    }

    // A run faster than the wait shows its whole result at once, as before: no progress, no partial grid.
    void fastRunShowsNoProgress()
    {
        Fixture f;
        f.model()->setLayerByLayerAfter(60 * 60 * 1000);
        QVERIFY(f.openModel(kOther));
        bool partial = false;
        QObject::connect(f.model(), &ModelDocument::resultChanged, f.model(), [&] {
            partial = partial || (!f.model()->trace() && f.model()->computedLayers() > 0);
        });
        f.type(kText);
        QVERIFY(f.idle());
        QVERIFY(!partial);
        QVERIFY(!f.actions()->layerProgress()->isVisible());
        QCOMPARE(f.model()->computedLayers(), 3);
    }

    // The first run of a model just opened shows its layers as they come,
    // however fast: the window has nothing of the model to show meanwhile.
    // The next text's run, faster than the wait, again shows only its whole result.
    void firstRunOfAModelFillsLayerByLayer()
    {
        Fixture f;
        f.model()->setLayerByLayerAfter(60 * 60 * 1000);
        std::vector<int> partials;
        QObject::connect(f.model(), &ModelDocument::resultChanged, f.model(), [&] {
            if (!f.model()->trace() && f.model()->computedLayers() > 0)
                partials.push_back(f.model()->computedLayers());
        });
        QVERIFY(f.openModel(kOther));
        // Its layers one at a time (a run the window started and replaced at
        // once, when the model opened, may have shown some of its own first).
        QVERIFY(partials.size() >= 3);
        QCOMPARE(std::vector<int>(partials.end() - 3, partials.end()), (std::vector<int>{1, 2, 3}));
        partials.clear();
        f.type(kText);
        QVERIFY(f.idle());
        QVERIFY(partials.empty());
        QCOMPARE(f.model()->computedLayers(), 3);
    }
};

QTEST_MAIN(TestLayerProgress)
#include "tst_layerprogress.moc"
