#include "barchartview.h"
#include "document.h"
#include "embeddingeditor.h"
#include "fileactions.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "optionspanel.h"
#include "pipelineview.h"
#include "session/session.h"
#include "session/sessionio.h"
#include "tokenchips.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QMimeData>
#include <QApplication>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

// The main window as a user drives it: clicks, drags, typing; the views follow.
class TestMainWindow : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        Document doc{attn::exampleSession()};
        MainWindow window{&doc};
        Fixture()
        {
            window.fileActions()->setInteractive(false);
            window.resize(1280, 800);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
        }
    };

    static void checkViewsShowQuery(Fixture &f, int query)
    {
        const QString token = f.doc.session().tokens[query];
        QCOMPARE(f.window.chips()->query(), query);
        QCOMPARE(f.window.heatmap()->query(), query);
        QCOMPARE(f.window.pipeline()->currentModel().queryToken, token);
        QCOMPARE(f.window.barChart()->model().token, token);
        QCOMPARE(f.window.editor()->editedToken(), query);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void clickingAChipSelectsTheQuery()
    {
        Fixture f;
        QSignalSpy spy(f.window.chips(), &TokenChips::querySelected);
        const QRect chip = f.window.chips()->chipRect(4);
        QVERIFY(chip.isValid());
        QTest::mouseClick(f.window.chips(), Qt::LeftButton, {}, chip.center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 4);
        QCOMPARE(f.doc.query(), 4);
        checkViewsShowQuery(f, 4);

        // The keyboard moves it too.
        f.window.chips()->setFocus();
        QTest::keyClick(f.window.chips(), Qt::Key_Left);
        QCOMPARE(f.doc.query(), 3);
        QTest::keyClick(f.window.chips(), Qt::Key_End);
        QCOMPARE(f.doc.query(), 5);
        checkViewsShowQuery(f, 5);
    }

    void clickingAHeatmapCellSelectsItsRow()
    {
        Fixture f;
        QSignalSpy spy(f.window.heatmap(), &HeatmapView::querySelected);
        const QRectF cell = f.window.heatmap()->cellRect(2, 4);
        QTest::mouseClick(f.window.heatmap(), Qt::LeftButton, {}, cell.center().toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(f.doc.query(), 2);
        checkViewsShowQuery(f, 2);
    }

    void draggingASliderRecomputesLive()
    {
        Fixture f;
        QSlider *slider = f.window.editor()->slider(0);
        QVERIFY(slider);
        const double before = f.doc.session().embeddings(1, 0);
        // A drag: press, several moves, release. Every move recomputes.
        slider->setSliderDown(true);
        slider->setValue(slider->value() + 20);
        const double midway = f.doc.session().embeddings(1, 0);
        QCOMPARE(midway, 0.75);
        slider->setValue(-130);
        slider->setSliderDown(false);
        QCOMPARE(f.doc.session().embeddings(1, 0), -1.3);
        QCOMPARE(f.window.editor()->spinBox(0)->value(), -1.3);

        attn::Session expected = attn::exampleSession();
        expected.embeddings(1, 0) = -1.3;
        const attn::AttentionResult result = attn::computeSession(expected);
        const std::vector<double> &shown = f.window.barChart()->model().context;
        QCOMPARE(int(shown.size()), int(result.output.cols()));
        for (int d = 0; d < int(shown.size()); ++d)
            QCOMPARE(shown[std::size_t(d)], result.output(1, d));
        const std::vector<double> &context = f.window.pipeline()->currentModel().contextValues;
        for (int d = 0; d < int(context.size()); ++d)
            QCOMPARE(context[std::size_t(d)], result.heads[0].context(1, d));

        // The whole drag is one undo step back to the exact old value.
        QCOMPARE(f.doc.undoStack()->count(), 1);
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.session().embeddings(1, 0), before);
        QCOMPARE(f.window.editor()->spinBox(0)->value(), before);
    }

    void numberBoxSetsAnExactValue()
    {
        Fixture f;
        f.window.editor()->spinBox(2)->setValue(0.1234);
        QCOMPARE(f.doc.session().embeddings(1, 2), 0.1234);
    }

    void causalMaskChangesMaskedCells()
    {
        Fixture f;
        HeatmapView *heatmap = f.window.heatmap();
        const QPoint masked = heatmap->cellRect(0, 5).center().toPoint();
        const QPoint visible = heatmap->cellRect(5, 0).center().toPoint();
        const QImage before = heatmap->grab().toImage();
        f.window.options()->causalBox()->click();
        QVERIFY(f.doc.session().attention.causal);
        const QImage after = heatmap->grab().toImage();
        const qreal dpr = before.devicePixelRatio();
        QVERIFY(before.pixelColor(masked * dpr) != after.pixelColor(masked * dpr));
        // Masked: only the palette's greys (background and hatch, blended at
        // the hatch's edges) around the centre; no colour of the map.
        const auto isGrey = [](const QColor &c) { return c.red() == c.green() && c.green() == c.blue(); };
        QVERIFY(!isGrey(before.pixelColor(masked * dpr)));
        for (int dy = -3; dy <= 3; ++dy)
            for (int dx = -3; dx <= 3; ++dx)
                QVERIFY(isGrey(after.pixelColor(masked * dpr + QPoint(dx, dy))));
        // A cell the mask leaves alone keeps a colour from the map.
        QVERIFY(after.pixelColor(visible * dpr) != HeatmapPainter::maskedBackground(heatmap->palette()));
    }

    void fourHeadsShowInTheGrid()
    {
        Fixture f;
        QCOMPARE(f.window.headsGrid()->tileCount(), 1); // one head, no average repeating it
        f.window.options()->headsBox()->setValue(4);
        QCOMPARE(f.doc.session().attention.heads, 4);
        QCOMPARE(int(f.doc.result().heads.size()), 4);
        QCOMPARE(f.window.headsGrid()->tileCount(), 5);
        QSignalSpy spy(f.window.headsGrid(), &HeadsGridView::headSelected);
        QTest::mouseClick(f.window.headsGrid(), Qt::LeftButton, {},
                          f.window.headsGrid()->tileRect(3).center().toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(f.window.selectedHead(), std::optional<int>(3));
        QCOMPARE(f.window.heatmap()->head(), std::optional<int>(3));
        QCOMPARE(f.window.pipeline()->currentModel().head, 3);
    }

    void tooltipHoldsTheNumbers()
    {
        Fixture f;
        const attn::HeadResult &head = f.doc.result().heads[0];
        const QString tip = f.window.heatmap()->tooltipText(1, 0);
        QVERIFY2(tip.contains(QStringLiteral("journey")) && tip.contains(QStringLiteral("Your")), qPrintable(tip));
        QVERIFY2(tip.contains(QString::number(head.weights(1, 0), 'f', 4)), qPrintable(tip));
        QVERIFY2(tip.contains(QString::number(head.scores(1, 0), 'f', 4)), qPrintable(tip));
    }

    void typingASentenceKeepsEditedWords()
    {
        Fixture f;
        f.doc.setEmbeddingValue(1, 1, -0.42); // "journey"
        QLineEdit *edit = f.window.sentenceEdit();
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("A journey of words"));
        // Re-tokenizing waits until typing pauses.
        QCOMPARE(f.doc.session().tokens.size(), 6);
        QTRY_COMPARE(f.doc.session().tokens,
                     (QStringList{QStringLiteral("A"), QStringLiteral("journey"), QStringLiteral("of"),
                                  QStringLiteral("words")}));
        QCOMPARE(f.doc.session().embeddings(1, 1), -0.42);
        QCOMPARE(f.doc.session().embeddings(1, 0), 0.55);
        QCOMPARE(f.window.chips()->chipRect(3).isValid(), true);
        QCOMPARE(f.window.heatmap()->painter().rows(), 4);
    }

    // The token list and the chips are updated in place as the sentence
    // changes (only what changed is measured or written again): after growing,
    // a repeated word, a shrink and a font change they still show every token.
    void tokenListAndChipsFollowEverySentence()
    {
        Fixture f;
        const auto *box = f.window.editor()->findChild<QComboBox *>();
        QVERIFY(box && box->accessibleName() == QStringLiteral("Token to edit"));
        const auto check = [&](const QStringList &expected) {
            QCOMPARE(box->count(), expected.size());
            const QFontMetrics fm = f.window.chips()->fontMetrics();
            for (int i = 0; i < expected.size(); ++i) {
                QCOMPARE(box->itemText(i), expected[i]);
                // A chip is its label (what the list names after the position) and 8 pixels each side.
                const QString label = expected[i].section(QStringLiteral(" · "), 1);
                QCOMPARE(f.window.chips()->chipRect(i).width(), fm.horizontalAdvance(label) + 16);
            }
        };
        f.doc.setSentence(QStringLiteral("the cat sat"));
        check({"0 · the", "1 · cat", "2 · sat"});
        f.doc.setSentence(QStringLiteral("the cat sat on the mat"));
        check({"0 · the₀", "1 · cat", "2 · sat", "3 · on", "4 · the₄", "5 · mat"});
        f.doc.setSentence(QStringLiteral("the cat sat on the mats"));
        check({"0 · the₀", "1 · cat", "2 · sat", "3 · on", "4 · the₄", "5 · mats"});
        f.doc.setSentence(QStringLiteral("a cat"));
        check({"0 · a", "1 · cat"});
        QFont bigger = f.window.chips()->font();
        bigger.setPointSizeF(bigger.pointSizeF() * 2);
        f.window.chips()->setFont(bigger);
        check({"0 · a", "1 · cat"});
    }

    // Found by tst_modelmonkey: Redo took only the platform's first key (Ctrl+Y),
    // so Ctrl+Shift+Z did nothing.
    void everyRedoKeyRedoes()
    {
        Fixture f;
        const QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::Redo);
        QVERIFY(keys.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
        for (const QKeySequence &key : keys) {
            f.doc.setDModel(f.doc.dModel() + 1);
            const int dModel = f.doc.dModel();
            QTest::keyClick(&f.window, Qt::Key_Z, Qt::ControlModifier);
            QCOMPARE(f.doc.dModel(), dModel - 1);
            QTest::keyClick(&f.window, key[0].key(), key[0].keyboardModifiers());
            QVERIFY2(f.doc.dModel() == dModel, qPrintable(key.toString()));
        }
    }

    void dModelFromTheEditor()
    {
        Fixture f;
        f.window.findChild<EmbeddingEditor *>()->findChild<QSpinBox *>()->setValue(6);
        QCOMPARE(f.doc.dModel(), 6);
        QVERIFY(f.window.editor()->slider(5));
        QCOMPARE(f.window.barChart()->model().embedding.size(), std::size_t(6));
    }

    void saveAndOpenRoundTrip()
    {
        Fixture f;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mine.attn.json"));
        f.doc.setEmbeddingValue(3, 2, 1.5);
        QVERIFY(f.window.isWindowModified());
        QVERIFY(f.window.fileActions()->saveTo(path));
        QVERIFY(!f.window.isWindowModified());
        QVERIFY(f.window.windowTitle().startsWith(QStringLiteral("mine.attn.json")));
        const attn::Session saved = f.doc.session();

        f.doc.setEmbeddingValue(3, 2, -1.5);
        // With unsaved changes and no one to ask, opening keeps the work.
        QVERIFY(!f.window.fileActions()->maybeSave());
        f.doc.undoStack()->undo();
        QVERIFY(f.window.fileActions()->openPath(path));
        QCOMPARE(f.doc.session(), saved);
        QCOMPARE(f.window.fileActions()->recentFiles().value(0), QFileInfo(path).absoluteFilePath());
    }

    void droppingAFileOpensIt()
    {
        Fixture f;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dropped.attn.json"));
        attn::Session other = attn::exampleSession();
        other.query = 5;
        other.embeddings(5, 0) = -0.75;
        QString error;
        QVERIFY(attn::writeSession(path, other, &error));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint at = f.window.rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&f.window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&f.window, &drop);
        QCOMPARE(f.doc.session(), other);
        QCOMPARE(f.doc.filePath(), path);
        QCOMPARE(f.window.chips()->query(), 5);
    }

    void closingWithUnsavedChangesAsks()
    {
        Fixture f;
        QVERIFY(f.window.close()); // nothing to lose
        f.window.show();
        f.doc.setEmbeddingValue(0, 0, 0.99);
        // Non-interactive, the question is answered "cancel": the window stays.
        QVERIFY(!f.window.close());
        QVERIFY(f.window.isVisible());
        f.doc.undoStack()->undo();
        QVERIFY(f.window.close());
    }

    void openingABadFileKeepsTheSession()
    {
        Fixture f;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.attn.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "attention-explorer-session", "version": 1, "tokens": ["a", "b"],
                      "embeddings": [[1, 2], [3]]})");
        file.close();
        f.doc.setQuery(3);
        f.doc.setEmbeddingValue(0, 0, 0.75);
        const attn::Session before = f.doc.session();
        QSignalSpy errors(f.window.fileActions(), &FileActions::errorOccurred);
        QVERIFY(!f.window.fileActions()->openPath(path));
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.at(0).at(0).toString(), QStringLiteral("bad.attn.json: embeddings[1]: expected 2 numbers, got 1"));
        QCOMPARE(f.doc.session(), before);
        QVERIFY(f.doc.undoStack()->canUndo());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
