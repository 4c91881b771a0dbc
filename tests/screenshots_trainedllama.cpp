// make_screenshots' pictures of the Llama-style model this program trained
// (Examples › Trained Model: Pronouns, Llama-Style): the lesson as it opens,
// and the same run with the grid scored by the first token's share.

#include "screenshots_modelviews.h"

#include "document.h"
#include "mainwindow.h"
#include "modelactions.h"
#include "modeldocument.h"
#include "modelgridpanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QTest>
#include <cstdio>

void shootTrainedLlama(const QDir &out)
{
    Document doc;
    MainWindow window(&doc);
    window.resize(1280, 800);
    window.show();
    ModelDocument *model = doc.model();
    ModelGridPanel *panel = window.modelActions()->gridPanel();
    if (auto *action = window.findChild<QAction *>(QStringLiteral("example-trained-llama")))
        action->trigger();
    const bool ready = QTest::qWaitFor(
        [&] { return model->isOpen() && model->trace() && !model->isComputing() && panel->chosenKey() >= 0; }, 60000);
    if (!ready) {
        std::fprintf(stderr, "the trained Llama-style example did not open\n");
        return;
    }
    // The grid gets the right-hand column, as in the lesson: each tile's
    // number the weight from "it" to "lamp".
    for (QDockWidget *dock : window.findChildren<QDockWidget *>())
        if (dock->widget() == panel) {
            dock->show();
            dock->raise();
            window.resizeDocks({dock}, {440}, Qt::Horizontal);
        }
    QTest::qWait(200);
    shoot(window, out.filePath(QStringLiteral("window-trained-llama.png")));
    // Layer 1's head 3 in the heatmap, the grid scored by the first token's share.
    doc.selection()->setHead(HeadRef::one(1, 3));
    panel->scoreBox()->setCurrentIndex(panel->scoreBox()->findText(QStringLiteral("First token")));
    QTest::qWait(200);
    shoot(window, out.filePath(QStringLiteral("window-trained-llama-sink.png")));
}
