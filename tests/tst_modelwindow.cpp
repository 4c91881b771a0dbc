// A trained model in the main window: open the tiny GPT-2 fixture (with a
// small tokenizer written here whose ids fit its vocabulary of 29), type,
// read the chips, heatmap, layers x heads grid and next-token view against
// the independent numpy reference (expected.json), refuse a bad folder,
// close the model and find the hand-made session as it was.

#include "modelfixtures.h"
#include "modelwindowfixture.h"
#include "tinygpt2tokenizer.h"

#include "crossattentionpanel.h"
#include "document.h"
#include "embeddingeditor.h"
#include "fileactions.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "modelactions.h"
#include "modeldocument.h"
#include "modelgridview.h"
#include "heatmappainter.h"
#include "rolloutview.h"
#include "nexttokenview.h"
#include "optionspanel.h"
#include "model/headscores.h"
#include "session/session.h"
#include "tokenchips.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QAction>
#include <QTest>

using namespace tinygpt2;

class TestModelWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_model;

    // The model-window tests' shared start, waiting for the open model to settle.
    struct Fixture : ModelWindowFixture
    {
        bool idle()
        {
            return QTest::qWaitFor([&] { return !model()->isComputing(); }, 10000);
        }
    };

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_model = m_dir.filePath(QStringLiteral("tiny-gpt2"));
        QVERIFY(QDir().mkpath(m_model));
        const QString fixture = fixtures::modelDir("gpt2-f32");
        QVERIFY(copyFile(fixture + QStringLiteral("/config.json"), m_model + QStringLiteral("/config.json")));
        QVERIFY(copyFile(fixture + QStringLiteral("/model.safetensors"), m_model + QStringLiteral("/model.safetensors")));
        QVERIFY(writeFile(m_model + QStringLiteral("/vocab.json"), vocabJson()));
        QVERIFY(writeFile(m_model + QStringLiteral("/merges.txt"), kMerges));
    }

    void opensAndShowsTheModel()
    {
        Fixture f;
        f.window.sentenceEdit()->setText(kText);
        QSignalSpy opened(f.model(), &ModelDocument::opened);
        QVERIFY(f.open(m_model));
        QVERIFY2(opened.count() == 1, qPrintable(f.actions()->lastError()));
        QVERIFY(f.model()->isOpen());
        QCOMPARE(f.model()->name(), QStringLiteral("tiny-gpt2"));

        // The chips are the model's tokens, with their ids on hover.
        QVERIFY(f.idle());
        std::vector<int> ids;
        for (const attn::ModelToken &t : f.model()->tokens())
            ids.push_back(t.id);
        QCOMPARE(ids, fixtures::ids(fixtures::expected("gpt2").value(QLatin1String("token_ids"))));
        QCOMPARE(f.window.chips()->toolTips().value(1), QStringLiteral("“\u2423cat” · id 17"));
        QCOMPARE(f.window.chips()->toolTips().value(3), QStringLiteral("“<|endoftext|>” · id 28 · a special token"));
        QCOMPARE(f.doc.tokenCount(), 7);
        QCOMPARE(f.doc.headCount(), 3);

        // Hand-made controls are off, with the reason. The Embedding dock shows
        // the query's own token, not the hand-made session's (norms from
        // tests/data/models/embedding_norms.py), and says why it cannot edit it.
        QVERIFY(!f.window.options()->isEnabled());
        QVERIFY(f.window.editor()->showsModelToken());
        QVERIFY(!f.window.editor()->spinBox(0)->isVisible());
        QCOMPARE(f.window.editor()->modelTokenText().section(QLatin1Char('\n'), 0, 1),
                 QStringLiteral("Token 0 \u201cthe\u201d · id 3\nEmbedding: 12 numbers, length 1.4855"));
        QVERIFY(f.window.editor()->modelTokenText().contains(QStringLiteral("cannot be edited here")));
        f.model()->setQuery(3);
        QCOMPARE(f.window.editor()->modelTokenText().section(QLatin1Char('\n'), 0, 1),
                 QStringLiteral("Token 3 \u201c<|endoftext|>\u201d · id 28\nEmbedding: 12 numbers, length 1.3144"));
        f.model()->setQuery(0);
        QVERIFY(f.actions()->layerBox()->isVisible());
        QCOMPARE(f.actions()->layerBox()->count(), 2);
        QCOMPARE(f.actions()->layerBox()->itemText(1), QStringLiteral("1 of 2"));
        QCOMPARE(f.window.headBox()->count(), 4); // 3 heads and their average

        // Layer 1, head 0 in the heatmap: the reference's weights.
        f.actions()->layerBox()->setCurrentIndex(1);
        emit f.actions()->layerBox()->activated(1);
        QCOMPARE(f.model()->layer(), 1);
        f.window.selectHead(0);
        const QJsonArray want = fixtures::expected("gpt2").value(QLatin1String("layers")).toArray()[1].toObject()
                                    .value(QLatin1String("heads")).toArray()[0].toObject()
                                    .value(QLatin1String("weights")).toArray();
        const HeatmapPainter &heat = f.window.heatmap()->painter();
        QCOMPARE(heat.rows(), 7);
        QCOMPARE(heat.columns(), 7);
        for (int q = 0; q < 7; ++q)
            for (int k = 0; k < 7; ++k)
                QVERIFY2(std::fabs(heat.valueAt(q, k) - want[q].toArray()[k].toDouble()) < 2e-5,
                         qPrintable(QStringLiteral("(%1, %2)").arg(q).arg(k)));
        QCOMPARE(f.window.heatmap()->snapshot()->rowTokens.value(2), QStringLiteral("s"));

        // The "All heads" dock holds the layers x heads grid; a click selects a tile.
        ModelGridView *grid = f.actions()->grid();
        QTRY_VERIFY(grid->isVisible());
        QCOMPARE(grid->layerCount(), 2);
        QCOMPARE(grid->headCount(), 3);
        QVERIFY(!f.window.headsGrid()->isVisible());
        QSignalSpy tiles(grid, &ModelGridView::tileSelected);
        const QRectF tile = grid->tileRect(0, 2);
        QVERIFY(tile.width() >= 8 && std::fabs(tile.width() - tile.height()) < 0.5);
        QTest::mouseClick(grid, Qt::LeftButton, {}, tile.center().toPoint());
        QCOMPARE(tiles.count(), 1);
        QCOMPARE(tiles.first().value(0).toInt(), 0);
        QCOMPARE(tiles.first().value(1).toInt(), 2);
        QCOMPARE(f.model()->layer(), 0);
        QCOMPARE(f.model()->head(), 2);
        QCOMPARE(f.window.selectedHead(), std::optional<int>(2));
        QCOMPARE(f.window.heatmap()->head(), std::optional<int>(2));
        QCOMPARE(f.actions()->layerBox()->currentIndex(), 0);

        // Next token: the reference's top 5, with its probabilities.
        const QJsonObject ref = fixtures::expected("gpt2");
        const std::vector<int> top = fixtures::ids(ref.value(QLatin1String("next_token_top")));
        const QJsonArray probabilities = ref.value(QLatin1String("next_token")).toArray();
        const std::vector<TokenGuess> &guesses = f.actions()->nextTokens()->guesses();
        QCOMPARE(int(guesses.size()), 10);
        for (std::size_t i = 0; i < top.size(); ++i) {
            QCOMPARE(guesses[i].id, top[i]);
            QVERIFY(std::fabs(guesses[i].probability - probabilities[top[i]].toDouble()) < 1e-5);
        }
        QCOMPARE(guesses[0].text, QStringLiteral("!"));
        QVERIFY(f.actions()->nextTokens()->isVisible());
    }

    // Examples › Trained Model opens the model shipped in the binary on its
    // lesson text, and the views show its induction head (layer 1): from the
    // second copy on, each letter looks at the one after its earlier copy.
    void trainedExampleOpensFromTheExamplesMenu()
    {
        Fixture f;
        auto *action = f.window.findChild<QAction *>(QStringLiteral("example-trained-induction"));
        QVERIFY(action);
        action->trigger();
        QVERIFY(QTest::qWaitFor([&] { return f.model()->isOpen() && !f.model()->isOpening()
                                             && !f.model()->isComputing(); }, 20000));
        QVERIFY2(f.actions()->lastError().isEmpty(), qPrintable(f.actions()->lastError()));
        const QString text = QStringLiteral("qmEjxBtrkwaDcsqmEjxBtrkwaDcs");
        QCOMPARE(f.model()->text(), text);
        QCOMPARE(f.window.sentenceEdit()->text(), text);
        QCOMPARE(int(f.model()->tokens().size()), text.size());
        QCOMPARE(f.model()->config()->layers, 2);
        // The layer-1 head with the most weight on "the token after my earlier copy".
        f.doc.selection()->setLayer(1);
        const attn::LayerTrace &layer = f.model()->trace()->layers[1];
        int best = -1;
        double bestScore = 0;
        for (int h = 0; h < int(layer.weights.size()); ++h) {
            double sum = 0;
            for (int q = 15; q < 28; ++q) // the second copy, after its first letter
                sum += layer.weights[std::size_t(h)](q, q - 13);
            if (sum / 13 > bestScore)
                bestScore = sum / 13, best = h;
        }
        QVERIFY2(bestScore > 0.5, qPrintable(QString::number(bestScore)));
        f.window.selectHead(best);
        QCOMPARE(f.window.heatmap()->painter().valueAt(20, 7), double(layer.weights[std::size_t(best)](20, 7)));
        // Its guess after "…qmEjxBt" the second time: "r", what followed "t" before.
        f.type(QStringLiteral("qmEjxBtrkwaDcsqmEjxBt"));
        QVERIFY(f.idle());
        const auto guesses = f.model()->predictions(1);
        QCOMPARE(int(guesses.size()), 1);
        QCOMPARE(f.model()->tokenizer()->idToText(guesses.front().first), QStringLiteral("r"));
    }

    // BERT in the window: WordPiece chips with ids, [CLS] … [SEP], the
    // masked-token dock, a head's weights and the rollout against numpy
    // (tests/data/models: expected.json, cli/cli_expected.json).
    void bertOpensWithItsTokenizerAndMaskPredictions()
    {
        const QString bert = m_dir.filePath(QStringLiteral("tiny-bert"));
        QVERIFY(QDir().mkpath(bert));
        const QString fixture = fixtures::modelDir("bert-f32");
        QVERIFY(copyFile(fixture + QStringLiteral("/config.json"), bert + QStringLiteral("/config.json")));
        QVERIFY(copyFile(fixture + QStringLiteral("/model.safetensors"), bert + QStringLiteral("/model.safetensors")));
        QVERIFY(copyFile(QStringLiteral(ATTN_TEST_DATA "/models/cli/bert-tokenizer/vocab.txt"),
                         bert + QStringLiteral("/vocab.txt")));
        const QJsonObject cli = fixtures::readJson(QStringLiteral(ATTN_TEST_DATA "/models/cli/cli_expected.json"))
                                    .value(QLatin1String("bert")).toObject();
        const QJsonObject want = fixtures::expected("bert");

        Fixture f;
        f.window.sentenceEdit()->setText(cli.value(QLatin1String("text")).toString());
        QVERIFY(f.open(bert));
        QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
        QVERIFY(f.idle());
        std::vector<int> ids;
        QStringList texts;
        for (const attn::ModelToken &t : f.model()->tokens()) {
            ids.push_back(t.id);
            texts << t.text;
        }
        QCOMPARE(ids, fixtures::ids(cli.value(QLatin1String("token_ids"))));
        QCOMPARE(ids, fixtures::ids(want.value(QLatin1String("token_ids"))));
        QCOMPARE(QJsonArray::fromStringList(texts), cli.value(QLatin1String("tokens")).toArray());
        QCOMPARE(f.window.chips()->toolTips().value(4), QStringLiteral("“##s” · id 30"));
        QCOMPARE(f.window.headBox()->count(), f.model()->config()->heads + 1);

        // Layer 1, head 1 in the heatmap: not causal, every cell has a weight.
        f.doc.selection()->setHead(HeadRef::one(1, 1));
        const QJsonArray weights = want.value(QLatin1String("layers")).toArray()[1].toObject()
                                       .value(QLatin1String("heads")).toArray()[1].toObject()
                                       .value(QLatin1String("weights")).toArray();
        const HeatmapPainter &heat = f.window.heatmap()->painter();
        QCOMPARE(heat.rows(), int(ids.size()));
        for (int q = 0; q < heat.rows(); ++q)
            for (int k = 0; k < heat.columns(); ++k)
                QVERIFY2(std::fabs(heat.valueAt(q, k) - weights[q].toArray()[k].toDouble()) < 2e-5,
                         qPrintable(QStringLiteral("(%1, %2)").arg(q).arg(k)));

        // The first [MASK]'s predictions, most probable first, as numpy has them.
        QCOMPARE(f.model()->predictionTitle(), QStringLiteral("[MASK] at position 2"));
        const QJsonArray probabilities = want.value(QLatin1String("mask")).toArray()[0].toObject()
                                             .value(QLatin1String("probabilities")).toArray();
        const auto guesses = f.model()->predictions(3);
        QCOMPARE(int(guesses.size()), 3);
        for (const auto &[id, p] : guesses)
            QVERIFY(std::fabs(double(p) - probabilities[id].toDouble()) < 1e-5);
        double best = 0;
        for (const QJsonValue &v : probabilities)
            best = std::max(best, v.toDouble());
        QVERIFY(std::fabs(double(guesses.front().second) - best) < 1e-5);
        auto *dock = f.window.findChild<QDockWidget *>(QStringLiteral("nexttoken"));
        QVERIFY(dock);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Masked token"));

        // The rollout dock: numpy's rollout of the same text, computed once the dock is shown.
        const QJsonArray rollout = cli.value(QLatin1String("rollout")).toArray();
        QVERIFY(!f.model()->rollout());
        f.actions()->rolloutDock()->toggleViewAction()->trigger();
        QTRY_VERIFY(f.actions()->rollout()->rollout());
        const auto shown = f.actions()->rollout()->rollout();
        for (int q = 0; q < int(shown->rows()); ++q)
            for (int k = 0; k < int(shown->cols()); ++k)
                QVERIFY(std::fabs((*shown)(q, k) - rollout[q].toArray()[k].toDouble()) < 1e-5);
    }

    void typingRetokenizes()
    {
        Fixture f;
        QVERIFY(f.open(m_model));
        f.type(QStringLiteral("the cat"));
        QVERIFY(f.idle());
        QCOMPARE(f.window.chips()->toolTips(), QStringList({QStringLiteral("“the” · id 3"),
                                                            QStringLiteral("“\u2423cat” · id 17")}));
        // Several texts in a row: the last one wins.
        f.type(QStringLiteral("a"));
        f.type(QStringLiteral("the"));
        f.type(QStringLiteral("th cats"));
        QVERIFY(f.idle());
        QCOMPARE(f.model()->text(), QStringLiteral("th cats"));
        QCOMPARE(int(f.model()->tokens().size()), 3);
        QCOMPARE(f.model()->tokens()[0].id, 8);
        QCOMPARE(f.model()->trace()->layers[0].weights[0].rows(), Eigen::Index(3));
        QCOMPARE(f.window.heatmap()->painter().rows(), 3);
    }

    // One more word at the end computes only the new positions, and every
    // number is the one opening afresh on the whole text gives.
    void typingAtTheEndExtendsTheTrace()
    {
        Fixture typed;
        QVERIFY(typed.open(m_model));
        typed.type(QStringLiteral("the cats<|endoftext|> a"));
        QVERIFY(typed.idle());
        QCOMPARE(int(typed.model()->tokens().size()), 5);
        typed.type(kText);
        QVERIFY(typed.idle());
        QCOMPARE(typed.model()->reusedPositions(), 5);
        Fixture fresh;
        fresh.window.sentenceEdit()->setText(kText);
        QVERIFY(fresh.open(m_model));
        QCOMPARE(fresh.model()->text(), kText);
        QCOMPARE(fresh.model()->reusedPositions(), 0);
        const attn::ModelTrace &a = *typed.model()->trace(), &b = *fresh.model()->trace();
        QCOMPARE(a.tokenIds, b.tokenIds);
        for (std::size_t i = 0; i < a.hidden.size(); ++i)
            QVERIFY(fixtures::difference(a.hidden[i], b.hidden[i].cast<double>(), 1e-5).isEmpty());
        for (std::size_t l = 0; l < a.layers.size(); ++l)
            for (std::size_t h = 0; h < a.layers[l].weights.size(); ++h)
                QVERIFY(fixtures::difference(a.layers[l].weights[h], b.layers[l].weights[h].cast<double>(), 1e-5)
                            .isEmpty());
        QVERIFY(fixtures::difference(a.nextToken->probabilities, b.nextToken->probabilities.cast<double>(), 1e-5)
                    .isEmpty());
        // The committed numpy numbers for the whole text.
        const QJsonObject expected = fixtures::expected("gpt2");
        QVERIFY(fixtures::difference(a.nextToken->probabilities,
                                     fixtures::matrix(expected.value(QLatin1String("next_token"))), 2e-5).isEmpty());
        QCOMPARE(typed.window.heatmap()->painter().rows(), 7);
    }

    // A typed word's grid copies the lines of the text before's thumbnails
    // over the positions it keeps (gridthumbnails.h), and its pattern scores
    // go on from the sums over them: the thumbnails, their colours, with the
    // first token set aside those thumbnails, and the scores are all the
    // ones made whole from the longer text's trace.
    void typedWordsGridIsTheWholeTracesGrid()
    {
        for (const bool aside : {false, true}) {
            Fixture f;
            f.doc.selection()->setFirstTokenAside(aside);
            QVERIFY(f.open(m_model));
            f.type(QStringLiteral("the cats<|endoftext|> a"));
            QVERIFY(f.idle());
            f.type(kText);
            QVERIFY(f.idle());
            QCOMPARE(f.model()->reusedPositions(), 5);
            QCOMPARE(f.model()->gridFirstTokenAside(), aside);
            const attn::ModelTrace &trace = *f.model()->trace();
            QVERIFY(*f.model()->gridLevels() == modelGridLevels(trace, true, kModelGridMaxSide, aside));
            std::vector<int> ids;
            for (const attn::ModelToken &t : f.model()->tokens())
                ids.push_back(t.id);
            const auto scores = attn::traceHeadScores(trace, ids);
            const auto shown = f.model()->headScores();
            QVERIFY(shown && shown->size() == scores.size());
            for (std::size_t l = 0; l < scores.size(); ++l)
                for (std::size_t h = 0; h < scores[l].size(); ++h) {
                    QCOMPARE((*shown)[l][h].duplicate, scores[l][h].duplicate);
                    QCOMPARE((*shown)[l][h].previousToken, scores[l][h].previousToken);
                }
            if (!aside) {
                const std::shared_ptr<const ModelGridTiles> tiles = f.model()->gridTiles();
                QVERIFY(tiles);
                QVERIFY(tiles->images
                        == colouredTiles(*f.model()->gridLevels(), tiles->map, QColor::fromRgba(tiles->masked)));
            }
        }
    }

    // The worker colours the thumbnails only for tiles that show them whole
    // (the grid says how many pixels its tiles have): for smaller tiles the
    // grid pools the levels and colours them itself, and whole thumbnails it
    // is asked for later are coloured when asked.
    void smallTilesGetNoColoursFromTheWorker()
    {
        Fixture f;
        QVERIFY(f.open(m_model));
        f.type(kText);
        QVERIFY(f.idle());
        const std::shared_ptr<const ModelGridTiles> whole = f.model()->gridTiles();
        QVERIFY(whole && !whole->images.front().empty()); // the tiles here are larger than 7 pixels
        f.model()->setGridTilePixels(3); // the next text has 5 tokens
        f.type(QStringLiteral("the cats<|endoftext|> a"));
        QVERIFY(f.idle());
        const std::shared_ptr<const ModelGridTiles> none = f.model()->gridTiles();
        QVERIFY(none);
        for (const std::vector<QImage> &layer : none->images)
            QVERIFY(layer.empty());
        ModelGridView grid;
        grid.setLevels(f.model()->gridLevels(), none);
        QCOMPARE(grid.layerCount(), f.model()->config()->layers);
        QSignalSpy pixels(&grid, &ModelGridView::tilePixelsChanged);
        grid.resize(200, 160);
        grid.grab(); // painting finds the tiles' pixels, once
        grid.grab();
        QCOMPARE(pixels.count(), 1);
        QVERIFY(pixels.front().front().toInt() > 5);
        QCOMPARE(grid.thumbnail(1, 2), colouredTiles(*f.model()->gridLevels(), ColorMap::Viridis,
                                                     grid.palette().color(QPalette::Window))[1][2]);
        f.model()->setGridTilePixels(64);
        f.type(kText);
        QVERIFY(f.idle());
        QVERIFY(!f.model()->gridTiles()->images.front().empty());
    }

    void badFolderKeepsWhatIsOpen()
    {
        Fixture f;
        const attn::Session before = f.doc.session();
        const QStringList chips = before.tokens;
        const QString bad = m_dir.filePath(QStringLiteral("nothing-here"));
        QVERIFY(QDir().mkpath(bad));
        QVERIFY(f.open(bad));
        QVERIFY(!f.model()->isOpen());
        QVERIFY2(f.actions()->lastError().contains(QStringLiteral("no config.json")), qPrintable(f.actions()->lastError()));
        QVERIFY(!f.actions()->lastError().contains(QLatin1Char('\n')));
        QCOMPARE(f.window.statusBar()->currentMessage(), f.actions()->lastError());
        QVERIFY(f.doc.session() == before);
        QVERIFY(f.window.options()->isEnabled());
        QCOMPARE(f.window.heatmap()->painter().rows(), int(chips.size()));

        // With a model open, a bad folder leaves the model.
        QVERIFY(f.open(m_model));
        const auto trace = f.model()->trace();
        QVERIFY(f.open(bad));
        QVERIFY(f.model()->isOpen());
        QCOMPARE(f.model()->trace(), trace);
        QCOMPARE(f.model()->name(), QStringLiteral("tiny-gpt2"));
    }

    void closingRestoresTheSession()
    {
        Fixture f;
        const attn::Session before = f.doc.session();
        const int headsBefore = f.window.headBox()->count();
        QVERIFY(f.open(m_model));
        f.type(kText);
        QVERIFY(f.idle());
        QCOMPARE(f.window.heatmap()->painter().rows(), 7);
        f.actions()->closeModel();
        QVERIFY(!f.model()->isOpen());
        QVERIFY(f.doc.session() == before);
        QCOMPARE(f.window.heatmap()->painter().rows(), before.tokenCount());
        QCOMPARE(f.window.headBox()->count(), headsBefore);
        QVERIFY(f.window.chips()->toolTips().isEmpty());
        QVERIFY(f.window.options()->isEnabled());
        QVERIFY(f.window.editor()->isEnabled());
        QVERIFY(!f.window.editor()->showsModelToken());
        QVERIFY(f.window.editor()->spinBox(0)->isVisible());
        QVERIFY(!f.actions()->layerBox()->isVisible());
        QTRY_VERIFY(f.window.headsGrid()->isVisible());
        QVERIFY(!f.actions()->grid()->isVisible());
        // Typing goes to the session again.
        f.type(QStringLiteral("one two"));
        QCOMPARE(f.doc.session().tokens, QStringList({QStringLiteral("one"), QStringLiteral("two")}));

        // File › New closes a model too (nothing unsaved to ask about).
        f.doc.undoStack()->setClean();
        QVERIFY(f.open(m_model));
        QVERIFY(f.model()->isOpen());
        f.window.fileActions()->newSession();
        QVERIFY(!f.model()->isOpen());
    }

    // Not a check: ATTN_SCREENSHOT_MODEL=DIR ATTN_SCREENSHOT=out.png writes the README's picture.
    void screenshot()
    {
        const QString model = qEnvironmentVariable("ATTN_SCREENSHOT_MODEL");
        const QString out = qEnvironmentVariable("ATTN_SCREENSHOT", QStringLiteral("window-model.png"));
        Fixture f;
        f.window.sentenceEdit()->setText(model.isEmpty() ? kText
                                                         : QStringLiteral("The robot moved the box because it was heavy"));
        QVERIFY(f.open(model.isEmpty() ? m_model : model));
        QVERIFY(f.idle());
        f.model()->setLayer(std::min(5, f.model()->config()->layers - 1));
        f.model()->setQuery(int(f.model()->tokens().size()) - 1);
        QTest::qWait(50);
        if (!model.isEmpty())
            QVERIFY(f.window.grab().save(out));
    }
};

QTEST_MAIN(TestModelWindow)
#include "tst_modelwindow.moc"
