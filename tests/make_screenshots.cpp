// Renders the documentation's screenshots, offscreen:
//   QT_QPA_PLATFORM=offscreen build/release/tests/make_screenshots docs/images
// Not a test: it is how the pictures in docs/ are made, so they can be redone.
// A second argument --heatmaps-only, --guide-only or --classroom-only stops
// after those pictures; --modern-block-only, --model-views-only,
// --model-list-only and --trained-llama-only draw only theirs
// (screenshots_modelviews.h: ATTN_SCREENSHOT_LLAMA names a Llama-family
// folder; model-list.png lists the fake stores of tests/data/stores).
// window-presentation-720.png needs a 1280 x 720 screen (the window never
// grows past its screen, and offscreen's own is 800 x 800):
//   QT_QPA_PLATFORM=offscreen:configfile=tests/data/screen-1280x720.json \
//       build/release/tests/make_screenshots docs/images --classroom-only

#include "crossattentionpanel.h"
#include "fakestores.h"
#include "screenshots_modelviews.h"
#include "document.h"
#include "lessons/examples.h"
#include "exportactions.h"
#include "fileactions.h"
#include "guidewindow.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "modelactions.h"
#include "modelgridpanel.h"
#include "modellistdialog.h"
#include "modellistmodel.h"
#include "modeldocument.h"
#include "presentationactions.h"
#include "rolloutview.h"
#include "theme.h"
#include "trainingdialog.h"
#include "trainingsession.h"
#include "walkthroughpanel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QGuiApplication>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPalette>
#include <QScreen>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QSortFilterProxyModel>
#include <QStyleFactory>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <cstdlib>

void shoot(MainWindow &window, const QString &path)
{
    window.resize(1280, 800);
    window.show();
    QApplication::processEvents();
    if (!window.grab().save(path))
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
    else
        std::printf("%s\n", qPrintable(path));
}

namespace {

void raiseDock(MainWindow &window, QWidget *content)
{
    for (QDockWidget *dock : window.findChildren<QDockWidget *>())
        if (dock->widget() == content) {
            dock->show();
            dock->raise();
            // As a user would: drag the dock wider for the text panels.
            window.resizeDocks({dock}, {440}, Qt::Horizontal);
        }
}

void save(const QImage &image, const QString &path)
{
    if (!image.save(path))
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
    else
        std::printf("%s\n", qPrintable(path));
}

// The heatmap alone: 2000 tokens fitted and zoomed in, and one edit drawn
// fitted and on the fixed 0–1 scale, side by side.
void shootHeatmaps(const QDir &out)
{
    {
        const QStringList base = QStringLiteral("the quick brown fox jumps over the lazy dog while seven tired "
                                                "engineers quietly watch attention weights shift across tokens")
                                     .split(QLatin1Char(' '));
        QStringList words;
        for (int i = 0; i < 2000; ++i)
            words << base[i % base.size()];
        Document doc;
        doc.setSentence(words.join(QLatin1Char(' ')));
        while (doc.isComputing()) // a large sentence is computed on a worker thread
            QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        HeatmapView view;
        view.resize(900, 700);
        view.setSnapshot(doc.snapshot());
        view.setQuery(1010);
        view.show();
        QApplication::processEvents();
        save(view.grab().toImage(), out.filePath(QStringLiteral("heatmap-2000-fit.png")));
        view.setZoom(HeatmapZoom{140, QPointF(0.5025, 0.5065)});
        QApplication::processEvents();
        save(view.grab().toImage(), out.filePath(QStringLiteral("heatmap-2000-zoomed.png")));
    }
    {
        Document doc;
        HeatmapView before, after;
        for (HeatmapView *view : {&before, &after}) {
            view->resize(520, 420);
            view->setQuery(1);
        }
        before.setSnapshot(doc.snapshot());
        attn::Session s = doc.session();
        s.embeddings.row(1) *= 3; // "journey" three times as long: sharper weights
        doc.resetSession(s);
        after.setSnapshot(doc.snapshot());
        const auto pair = [&](const QString &name) {
            QImage image(1040, 420, QImage::Format_ARGB32_Premultiplied);
            QPainter p(&image);
            p.drawImage(0, 0, before.grab().toImage());
            p.drawImage(520, 0, after.grab().toImage());
            p.end();
            save(image, out.filePath(name));
        };
        pair(QStringLiteral("heatmap-fitted-pair.png"));
        ColorScale fixed;
        fixed.fixedWeights = true;
        before.setColorScale(fixed);
        after.setColorScale(fixed);
        pair(QStringLiteral("heatmap-fixed-scale.png"));
    }
}

// The classroom: the presentation layout at 1280 x 720, zoomed a step past
// 1.1, the walkthrough on its scores step; and the file the window's
// "Export This View…" of the heads grid writes (the four-heads example).
void shootClassroom(const QDir &out, const attn::Session &fourHeads)
{
    QSettings().setValue(QStringLiteral("hints/startHereDismissed"), true); // a teacher has closed it long ago
    const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
    if (screen != QSize(1280, 720)) {
        // On another screen the picture would show another window, under the same name.
        std::fprintf(stderr, "window-presentation-720.png not made: the screen is %d x %d, not 1280 x 720 "
                             "(QT_QPA_PLATFORM=offscreen:configfile=tests/data/screen-1280x720.json)\n",
                     screen.width(), screen.height());
    } else {
        Document doc;
        MainWindow window(&doc);
        window.resize(1280, 720);
        window.show();
        QApplication::processEvents();
        window.presentation()->setPresentationLayout(true);
        window.presentation()->setZoomStep(4); // 1.25
        window.walkthrough()->setCurrentStep(1); // the scores, one outlined cell per key
        QApplication::processEvents();
        QTest::qWait(50); // the docks settle their widths
        save(window.grab().toImage(), out.filePath(QStringLiteral("window-presentation-720.png")));
        window.presentation()->zoomResetAction()->trigger();
        window.presentation()->setPresentationLayout(false);
    }
    QSettings().remove(QStringLiteral("view")); // the other pictures show the usual window
    {
        Document doc(fourHeads);
        MainWindow window(&doc);
        window.resize(1280, 800);
        window.show();
        QApplication::processEvents();
        window.selectHead(2);
        ExportActions *exports = window.exportActions();
        const ExportActions::PictureDefaults defaults = exports->pictureDefaults(ExportView::Heads, window.headsGrid());
        const QString path = out.filePath(QStringLiteral("export-heads-window.png"));
        if (exports->exportTo(ExportView::Heads, path, defaults.size, defaults.scale))
            std::printf("%s\n", qPrintable(path));
        else
            std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
    }
}

// Examples › Rotary positions and Shared key/value heads, each window in the
// first layout (no state left by the windows before).
void shootModernBlock(const QDir &out, const std::vector<attn::Example> &examples)
{
    auto example = [&](const QString &id) {
        for (const attn::Example &e : examples)
            if (e.id == id)
                return e.session;
        return attn::runningExample();
    };
    const auto freshLayout = [] {
        QSettings().setValue(QStringLiteral("hints/startHereDismissed"), true);
        QSettings().remove(QStringLiteral("window/state"));
        QSettings().remove(QStringLiteral("window/geometry"));
        // A window's first layout, saved as it closes: docks resized in the
        // next one keep the sizes asked for (in the very first they do not).
        Document doc;
        MainWindow window(&doc);
        window.resize(1280, 800);
        window.show();
        QApplication::processEvents();
    };
    freshLayout();
    {
        // Examples › Rotary positions: the walkthrough turning q and k, then the lesson in numbers.
        Document doc(example(QStringLiteral("rotary-positions")));
        MainWindow window(&doc);
        raiseDock(window, window.walkthrough());
        window.walkthrough()->setCurrentStep(1);
        shoot(window, out.filePath(QStringLiteral("window-walkthrough-rotary.png")));
        window.walkthrough()->setCurrentStep(2);
        shoot(window, out.filePath(QStringLiteral("window-walkthrough-rotary-distance.png")));
    }
    freshLayout();
    {
        // Examples › Shared key/value heads: the heads grid framing each group, head 3 in the heatmap.
        Document doc(example(QStringLiteral("shared-key-value-heads")));
        MainWindow window(&doc);
        raiseDock(window, window.headsGrid());
        window.selectHead(3);
        shoot(window, out.filePath(QStringLiteral("window-shared-key-value-heads.png")));
        // The grid alone, as wide as a dock dragged wider: each group framed, each title naming its key/value head.
        HeadsGridView grid;
        grid.resize(460, 470);
        grid.show();
        grid.setSnapshot(doc.snapshot());
        grid.setQuery(doc.query());
        grid.setSelectedHead(std::optional<int>(3));
        save(grid.grab().toImage(), out.filePath(QStringLiteral("heads-grid-shared-key-value-heads.png")));
        raiseDock(window, window.walkthrough());
        window.walkthrough()->setCurrentStep(1);
        shoot(window, out.filePath(QStringLiteral("window-walkthrough-shared-heads.png")));
    }
}

// Help › User Guide on its first page.
void shootGuide(const QDir &out)
{
    GuideWindow window(guideFolder());
    window.resize(1000, 760);
    window.show();
    QApplication::processEvents();
    save(window.grab().toImage(), out.filePath(QStringLiteral("guide-window.png")));
}

} // namespace

// File › Models on This Computer over the fake stores, laid out in a home
// folder of its own (the user's stores are never shown).
void shootModelList(const QDir &out)
{
    QTemporaryDir home;
    const QByteArray oldHome = qgetenv("HOME");
    qputenv("HOME", home.path().toUtf8());
    for (const char *moved : {"XDG_CACHE_HOME", "HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "OLLAMA_MODELS", "LLAMA_CACHE"})
        qunsetenv(moved);
    if (!fakestores::layOutHome(home.path())) {
        std::fprintf(stderr, "cannot lay out the fake stores in %s\n", qPrintable(home.path()));
        return;
    }
    {
        Document doc{attn::exampleSession()};
        MainWindow window{&doc};
        window.fileActions()->setInteractive(false);
        window.resize(1280, 800);
        window.show();
        window.modelActions()->showModelList();
        ModelListDialog *list = window.modelActions()->modelList();
        if (!QTest::qWaitFor([&] { return !list->listModel()->isListing(); }, 30000))
            std::fprintf(stderr, "the model list did not finish\n");
        list->resize(1280, 600);
        QApplication::processEvents();
        // A row chosen: its file (or reason) shows under the list.
        for (int r = 0; r < list->shownRows()->rowCount(); ++r)
            if (list->shownRows()->index(r, ModelListModel::Name).data().toString() == QLatin1String("qwen2.5:0.5b"))
                list->table()->setCurrentIndex(list->shownRows()->index(r, 0));
        QApplication::processEvents();
        save(list->grab().toImage(), out.filePath(QStringLiteral("model-list.png")));
        list->filterEdit()->setText(QStringLiteral("q8_0"));
        list->resize(1280, 300);
        QApplication::processEvents();
        save(list->grab().toImage(), out.filePath(QStringLiteral("model-list-filtered.png")));
    }
    qputenv("HOME", oldHome);
}

int main(int argc, char **argv)
{
    QStandardPaths::setTestModeEnabled(true); // never read the user's settings
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QDir out(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("."));
    QDir().mkpath(out.path());
    const std::vector<attn::Example> examples = attn::builtInExamples();
    const QByteArray only = argc > 2 ? QByteArray(argv[2]) : QByteArray();
    if (only == "--modern-block-only") {
        shootModernBlock(out, examples);
        return 0;
    }
    if (only == "--model-views-only") {
        shootModelViews(out);
        return 0;
    }
    if (only == "--model-list-only") {
        shootModelList(out);
        return 0;
    }
    if (only == "--trained-llama-only") {
        shootTrainedLlama(out);
        return 0;
    }
    if (only != "--guide-only")
        shootHeatmaps(out);
    if (only != "--heatmaps-only" && only != "--classroom-only")
        shootGuide(out);
    if (only == "--heatmaps-only" || only == "--guide-only")
        return 0;

    auto example = [&](const QString &id) {
        for (const attn::Example &e : examples)
            if (e.id == id)
                return e.session;
        return attn::runningExample();
    };
    shootClassroom(out, example(QStringLiteral("four-heads-causal")));
    if (argc > 2 && QByteArray(argv[2]) == "--classroom-only")
        return 0;
    {
        // The first screen: the running example, the walkthrough and the start hint.
        QSettings().remove(QStringLiteral("hints/startHereDismissed"));
        Document doc;
        MainWindow window(&doc);
        shoot(window, out.filePath(QStringLiteral("window-example.png")));
    }
    QSettings().setValue(QStringLiteral("hints/startHereDismissed"), true); // the rest show the views alone
    {
        Document doc(example(QStringLiteral("four-heads-causal")));
        MainWindow window(&doc);
        raiseDock(window, window.headsGrid());
        window.selectHead(2);
        shoot(window, out.filePath(QStringLiteral("window-four-heads-causal.png")));
    }
    {
        Document doc(example(QStringLiteral("long-sentence")));
        MainWindow window(&doc);
        shoot(window, out.filePath(QStringLiteral("window-twenty-tokens.png")));
    }
    {
        // The dark theme (View › Theme › Dark, or a dark desktop): every view draws with the palette.
        const QPalette light = QApplication::palette();
        QApplication::setPalette(darkPalette());
        Document doc(example(QStringLiteral("four-heads-causal")));
        MainWindow window(&doc);
        raiseDock(window, window.headsGrid());
        shoot(window, out.filePath(QStringLiteral("window-dark.png")));
        QApplication::setPalette(light);
    }
    {
        Document doc;
        MainWindow window(&doc);
        raiseDock(window, window.walkthrough());
        window.walkthrough()->setCurrentStep(1); // the scores, one dot product each
        shoot(window, out.filePath(QStringLiteral("window-walkthrough-scores.png")));
    }
    {
        attn::Session s = attn::runningExample();
        s.attention.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
        Document doc(s);
        MainWindow window(&doc);
        raiseDock(window, window.walkthrough());
        window.walkthrough()->setCurrentStep(0); // x, PE and x + PE
        shoot(window, out.filePath(QStringLiteral("window-walkthrough-positions.png")));
    }
    {
        // The causal mask asked for, and not applied: the box says why.
        attn::Session s = example(QStringLiteral("cross-attention"));
        s.attention.causal = true;
        Document doc(s);
        MainWindow window(&doc);
        raiseDock(window, window.crossAttention());
        shoot(window, out.filePath(QStringLiteral("window-cross-attention.png")));
    }
    {
        // Examples › Trained Model: the induction model this program trained,
        // on its lesson text; layer 1, its induction head, with layer 0's
        // previous-token head switched off, and the rollout dock.
        Document doc;
        MainWindow window(&doc);
        window.resize(window.firstSize());
        window.show();
        if (auto *action = window.findChild<QAction *>(QStringLiteral("example-trained-induction")))
            action->trigger();
        ModelDocument *model = doc.model();
        const bool ready = QTest::qWaitFor([&] { return model->isOpen() && !model->isOpening() && !model->isComputing(); }, 30000);
        if (ready && model->trace()) {
            auto bestHead = [&](int layer, int offset) {
                const attn::LayerTrace &l = model->trace()->layers[std::size_t(layer)];
                int best = 0;
                double most = -1;
                for (int h = 0; h < int(l.weights.size()); ++h) {
                    double sum = 0;
                    for (int q = 15; q < int(l.weights[std::size_t(h)].rows()); ++q)
                        sum += l.weights[std::size_t(h)](q, q - offset);
                    if (sum > most)
                        most = sum, best = h;
                }
                return best;
            };
            const int induction = bestHead(1, 13), previous = bestHead(0, 1);
            doc.selection()->setHead(HeadRef::one(1, induction));
            doc.setQuery(20); // "t" of the second copy: it looks at "r", which followed "t" before
            raiseDock(window, window.modelActions()->rollout());
            // The rollout is computed once its dock is shown.
            if (!QTest::qWaitFor([&] { return !model->isComputing() && window.modelActions()->rollout()->rollout(); }, 30000))
                return 1;
            shoot(window, out.filePath(QStringLiteral("window-trained-induction.png")));
            doc.setAblatedHeads({attn::LayerHead{0, previous}}, QStringLiteral("switch off"));
            if (!QTest::qWaitFor([&] { return !model->isComputing(); }, 30000))
                return 1;
            window.modelActions()->rolloutDock()->hide();
            shoot(window, out.filePath(QStringLiteral("window-trained-switched-off.png")));
            // Every head switched on again, the grid coloured and sorted by the induction score.
            doc.setAblatedHeads({}, QStringLiteral("switch on"));
            if (!QTest::qWaitFor([&] { return !model->isComputing(); }, 30000))
                return 1;
            ModelGridPanel *panel = window.modelActions()->gridPanel();
            panel->scoreBox()->setCurrentIndex(panel->scoreBox()->findText(QStringLiteral("Induction")));
            panel->sortBox()->setChecked(true);
            raiseDock(window, panel);
            shoot(window, out.filePath(QStringLiteral("window-trained-grid-induction.png")));
        }
    }
    {
        // Examples › Trained Model: Pronouns, opened after the Induction lesson
        // was left with its "Induction" score sorted and a head switched off
        // (discarded when asked): "it" as the query, the grid showing each
        // head's weight from "it" to "box"; then layer 0's heads switched off,
        // the heatmap's head marked and the guess gone.
        Document doc;
        MainWindow window(&doc);
        window.resize(window.firstSize());
        window.show();
        window.fileActions()->setInteractive(false, QMessageBox::Discard);
        ModelDocument *model = doc.model();
        ModelGridPanel *panel = window.modelActions()->gridPanel();
        if (auto *action = window.findChild<QAction *>(QStringLiteral("example-trained-induction")))
            action->trigger();
        if (QTest::qWaitFor([&] { return model->isOpen() && model->trace() && !model->isComputing(); }, 30000)) {
            panel->scoreBox()->setCurrentIndex(panel->scoreBox()->findText(QStringLiteral("Induction")));
            panel->sortBox()->setChecked(true);
            doc.setAblatedHeads({attn::LayerHead{1, 0}}, QStringLiteral("switch off"));
            if (!QTest::qWaitFor([&] { return !model->isComputing(); }, 30000))
                return 1;
        }
        if (auto *action = window.findChild<QAction *>(QStringLiteral("example-trained-pronoun")))
            action->trigger();
        const bool ready = QTest::qWaitFor(
            [&] {
                return model->isOpen() && model->name() == QStringLiteral("Trained Model: Pronouns") && model->trace()
                    && !model->isComputing() && panel->chosenKey() >= 0;
            },
            30000);
        if (ready) {
            raiseDock(window, panel);
            shoot(window, out.filePath(QStringLiteral("window-pronoun-lesson.png")));
            std::set<attn::LayerHead> layerZero;
            for (int h = 0; h < model->config()->heads; ++h)
                layerZero.insert({0, h});
            doc.setAblatedHeads(layerZero, QStringLiteral("switch off"));
            if (!QTest::qWaitFor([&] { return !model->isComputing(); }, 30000))
                return 1;
            shoot(window, out.filePath(QStringLiteral("window-pronoun-switched-off.png")));
        }
    }
    shootTrainedLlama(out);
    if (qEnvironmentVariableIsSet("ATTN_SCREENSHOTS_SKIP_TRAINING"))
        return 0; // the training runs take minutes
    {
        // Learn › Train a model… on the pronoun task, trained to the end (about a minute).
        TrainingDialog dialog;
        dialog.setFolderChooser([](const QString &) { return QString(); });
        dialog.resize(1100, 720);
        dialog.show();
        dialog.taskBox()->setCurrentIndex(dialog.taskBox()->findData(int(attn::TaskKind::Pronoun)));
        if (dialog.train()) {
            QEventLoop loop;
            QObject::connect(dialog.session(), &TrainingSession::finished, &loop, &QEventLoop::quit);
            loop.exec();
            QApplication::processEvents();
            save(dialog.grab().toImage(), out.filePath(QStringLiteral("training-pronoun.png")));
        }
    }
    if (qEnvironmentVariableIsSet("ATTN_SCREENSHOTS_SKIP_INDUCTION_TRAINING"))
        return 0;
    {
        // Learn › Train a model…: the induction task with its defaults, trained
        // to the end (a few minutes), so the picture shows the heads that formed.
        TrainingDialog dialog;
        dialog.setFolderChooser([](const QString &) { return QString(); }); // nothing saved
        dialog.resize(1100, 720);
        dialog.show();
        if (dialog.train()) {
            QEventLoop loop;
            QObject::connect(dialog.session(), &TrainingSession::finished, &loop, &QEventLoop::quit);
            loop.exec();
            QApplication::processEvents();
            save(dialog.grab().toImage(), out.filePath(QStringLiteral("training.png")));
            // The same run replayed to a sixth of the way: before the heads formed.
            const auto &snaps = dialog.session()->snapshots();
            const int target = snaps.empty() ? 0 : snaps.back().step / 6;
            int early = 0;
            for (int i = 0; i < int(snaps.size()); ++i)
                if (std::abs(snaps[std::size_t(i)].step - target) < std::abs(snaps[std::size_t(early)].step - target))
                    early = i;
            dialog.stepSlider()->setValue(early);
            QApplication::processEvents();
            save(dialog.grab().toImage(), out.filePath(QStringLiteral("training-before.png")));
        }
    }
    shootModernBlock(out, examples);
    shootModelViews(out);
    shootModelList(out);
    return 0;
}
