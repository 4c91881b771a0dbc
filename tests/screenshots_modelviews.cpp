// The screenshots of what today's models need (make_screenshots calls
// shootModelViews): the first token set aside on a hand-made session with a
// sink, a Llama-family grid with its key/value groups, a sliding window, and
// the rotary walkthrough of a model's layer.

#include "screenshots_modelviews.h"

#include "document.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "modelactions.h"
#include "modeldocument.h"
#include "modelgridpanel.h"
#include "modelgridview.h"
#include "walkthroughpanel.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QPainter>
#include <QTest>
#include <cstdio>

namespace {

void save(const QImage &image, const QString &path)
{
    if (!image.save(path))
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
    else
        std::printf("%s\n", qPrintable(path));
}

void raiseDock(MainWindow &window, QWidget *content)
{
    for (QDockWidget *dock : window.findChildren<QDockWidget *>())
        if (dock->widget() == content) {
            dock->show();
            dock->raise();
            window.resizeDocks({dock}, {440}, Qt::Horizontal);
        }
}

// Attention sinks, made by hand so the picture has one: a "<s>" token whose
// key matches every query (the sink dimension), and two heads that otherwise
// look from "it" to the nouns and from each verb to the noun or pronoun
// before it. Dimensions: bias, noun, pronoun, verb, sink.
attn::Session sinkSession()
{
    attn::Session s;
    s.tokens = QStringLiteral("<s> The robot moved the box because it was heavy").split(QLatin1Char(' '));
    s.sentence = s.tokens.mid(1).join(QLatin1Char(' '));
    s.embeddings.resize(10, 5);
    s.embeddings << 1, 0, 0, 0, 1, //
        1, 0, 0, 0, 0,            //
        1, 1, 0, 0, 0,            //
        1, 0, 0, 1, 0,            //
        1, 0, 0, 0, 0,            //
        1, 1.2, 0, 0, 0,          //
        1, 0, 0, 0, 0,            //
        1, 0, 1, 0, 0,            //
        1, 0, 0, 1, 0,            //
        1, 0, 0, 0, 0;
    s.query = 7; // "it"
    s.attention.heads = 2;
    s.attention.headDim = 2;
    s.attention.causal = true;
    s.attention.outputProjection = false;
    Eigen::MatrixXd q0 = Eigen::MatrixXd::Zero(5, 2), k0 = q0, q1 = q0, k1 = q0, v = q0;
    q0(0, 1) = 2; // every query asks for the sink a little...
    q0(2, 0) = 3; // ...and a pronoun for a noun
    k0(1, 0) = 3;
    k0(4, 1) = 8; // the sink's key: what every query's bias finds
    q1(0, 1) = 2;
    q1(3, 0) = 3; // a verb for its subject: a noun or pronoun before it
    k1(1, 0) = 3;
    k1(2, 0) = 3;
    k1(4, 1) = 8;
    v(1, 0) = 1;
    v(2, 1) = 1;
    s.weights.query = {q0, q1};
    s.weights.key = {k0, k1};
    s.weights.value = {v, v};
    return s;
}

// The sink view: the hand-made sink session's heatmap as computed and with
// the first token set aside, side by side, and the window with it set aside.
void shootSinks(const QDir &out)
{
    Document doc(sinkSession());
    MainWindow window(&doc);
    raiseDock(window, window.headsGrid());
    window.selectHead(0);
    window.resize(1280, 800);
    window.show();
    QApplication::processEvents();
    HeatmapView before, after;
    for (HeatmapView *view : {&before, &after}) {
        view->resize(560, 440);
        view->setQuery(doc.session().query);
        view->setHead(std::optional<int>(0));
    }
    before.setSnapshot(doc.matrixSnapshot());
    window.firstTokenAsideAction()->trigger();
    after.setSnapshot(doc.matrixSnapshot());
    QImage image(1120, 440, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    p.drawImage(0, 0, before.grab().toImage());
    p.drawImage(560, 0, after.grab().toImage());
    p.end();
    save(image, out.filePath(QStringLiteral("heatmap-sink-pair.png")));
    shoot(window, out.filePath(QStringLiteral("window-sink-aside.png")));
}

// A model opened in the window on the lesson sentence, its grid's dock
// raised; false when it did not open (then nothing is drawn).
bool openModel(Document &doc, MainWindow &window, const QString &folder)
{
    window.resize(1280, 800);
    window.show();
    window.sentenceEdit()->setText(QStringLiteral("The robot moved the box because it was heavy"));
    window.modelActions()->openFolder(folder);
    ModelDocument *model = doc.model();
    const bool ready = QTest::qWaitFor([&] { return model->isOpen() && model->trace() && !model->isComputing(); }, 60000);
    if (!ready) {
        std::fprintf(stderr, "cannot open %s\n", qPrintable(folder));
        return false;
    }
    // The grid gets the right-hand column to itself, as a user would give it to a deep model.
    for (QDockWidget *dock : window.findChildren<QDockWidget *>())
        if (dock->objectName() == QLatin1String("nexttoken"))
            dock->hide();
    raiseDock(window, window.modelActions()->gridPanel());
    return true;
}

// Today's models: a Llama-family grid with its key/value groups (the folder
// in ATTN_SCREENSHOT_LLAMA: random weights of a real shape will do, from
// scripts/random_family_model.py), and a sliding window on the mistral test checkpoint.
void shootModernModels(const QDir &out)
{
    const QString llama = qEnvironmentVariable("ATTN_SCREENSHOT_LLAMA");
    if (llama.isEmpty()) {
        std::fprintf(stderr, "ATTN_SCREENSHOT_LLAMA not set: no window-llama-grid.png\n");
    } else {
        Document doc;
        MainWindow window(&doc);
        if (openModel(doc, window, llama)) {
            doc.selection()->setHead(HeadRef::one(2, 4));
            doc.setQuery(doc.tokenCount() - 1);
            QTest::qWait(200);
            shoot(window, out.filePath(QStringLiteral("window-llama-grid.png")));
            // The grid alone, as large as a user would drag its dock.
            ModelGridView grid;
            grid.resize(420, 900);
            grid.setLevels(doc.model()->gridLevels(), doc.model()->gridTiles());
            grid.setMarks(doc.model()->gridMarks());
            grid.setSelected(2, 4);
            grid.show();
            QApplication::processEvents();
            save(grid.grab().toImage(), out.filePath(QStringLiteral("llama-grid.png")));
        }
    }
    {
        // The walkthrough of a rotary layer: the llama test checkpoint (three
        // pairs a head, llama3 scaling), its steps of turning and distance.
        Document doc;
        MainWindow window(&doc);
        if (openModel(doc, window, QStringLiteral(ATTN_SOURCE_DIR "/tests/data/families/llama"))) {
            doc.selection()->setHead(HeadRef::one(1, 3));
            doc.setQuery(doc.tokenCount() - 1);
            raiseDock(window, window.walkthrough());
            window.resizeDocks({window.findChild<QDockWidget *>(QStringLiteral("walkthrough"))}, {560}, Qt::Horizontal);
            QTest::qWait(200);
            window.walkthrough()->setCurrentStep(1);
            shoot(window, out.filePath(QStringLiteral("window-rotary-turn.png")));
            window.walkthrough()->setCurrentStep(2);
            shoot(window, out.filePath(QStringLiteral("window-rotary-distance.png")));
        }
    }
    {
        Document doc;
        MainWindow window(&doc);
        if (openModel(doc, window, QStringLiteral(ATTN_SOURCE_DIR "/tests/data/families/mistral"))) {
            doc.selection()->setHead(HeadRef::one(0, 1));
            doc.setQuery(8);
            QTest::qWait(200);
            shoot(window, out.filePath(QStringLiteral("window-sliding-window.png")));
        }
    }
}

} // namespace

void shootModelViews(const QDir &out)
{
    shootSinks(out);
    shootModernModels(out);
}
