// The main window's menu bar: File, Examples, Edit, View, Learn, Help.
#include "mainwindow.h"

#include "crossattentionpanel.h"
#include "document.h"
#include "exportactions.h"
#include "fileactions.h"
#include "guidewindow.h"
#include "helpdialogs.h"
#include "menumnemonics.h"
#include "mistakesdialog.h"
#include "modelactions.h"
#include "practicedialog.h"
#include "presentationactions.h"
#include "lessons/shippedmodel.h"
#include "trainedmodelsmenu.h"
#include "trainingdialog.h"
#include "walkthroughpanel.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QUndoStack>

void MainWindow::addTrainedExample(QMenu *examples, attn::ShippedLesson lesson, const QString &title,
                                   const QString &objectName, const QString &description)
{
    QAction *action = examples->addAction(title, this, [this, lesson, name = QString(title).remove(QLatin1Char('&'))] {
        // A lesson is a new document, as every example is: it asks about
        // unsaved work, and opens as it says whatever was open before.
        if (!m_fileActions->maybeSave())
            return;
        QString error;
        const std::optional<attn::ShippedModel> shipped = attn::shippedModel(lesson, &error);
        if (!shipped) {
            statusBar()->showMessage(tr("Cannot open the trained example: %1").arg(error), 15000);
            return;
        }
        m_document->newSession();
        m_modelActions->openLesson(shipped->folder, shipped->exampleText, shipped->exampleQuery, shipped->exampleKey, name);
    });
    action->setObjectName(objectName);
    action->setStatusTip(description);
    action->setToolTip(description);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_fileActions->populateMenu(file);
    file->addSeparator();
    m_modelActions->populateMenu(file);
    m_exportActions->addToMenu(file);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *examples = menuBar()->addMenu(tr("E&xamples"));
    examples->setObjectName(QStringLiteral("examplesMenu"));
    m_fileActions->populateExamplesMenu(examples);
    examples->addSeparator();
    addTrainedExample(examples, attn::ShippedLesson::InductionHeads, tr("Trained Model: &Induction Heads"),
                      QStringLiteral("example-trained-induction"),
                      tr("A two-layer model this program trained on repeated random letters: one head in layer 0 "
                         "looks at the previous letter, one in layer 1 at the letter that came after the "
                         "earlier copy of the current one"));
    addTrainedExample(examples, attn::ShippedLesson::Pronouns, tr("Trained Model: P&ronouns"),
                      QStringLiteral("example-trained-pronoun"),
                      tr("A two-layer model this program trained on short sentences that end with a pronoun and "
                         "a verb only its noun does: heads in layer 0 link \u201cit\u201d to the thing and "
                         "\u201che\u201d or \u201cshe\u201d to the person"));
    addTrainedExample(examples, attn::ShippedLesson::LlamaPronouns, tr("Trained Model: Pronouns, &Llama-Style"),
                      QStringLiteral("example-trained-llama"),
                      tr("The pronoun sentences learned by the modern block (RMSNorm, rotary positions, SwiGLU, "
                         "four query heads sharing two key/value heads), every word scored: the two heads of one "
                         "key/value group link \u201cit\u201d to the thing, the other group\u2019s link "
                         "\u201che\u201d or \u201cshe\u201d to the person, and layer 1\u2019s heads park their "
                         "attention on the beginning token where they have nothing to fetch"));

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    // Every key the platform binds (setShortcut would take only the first: Redo
    // answered Ctrl+Y but not Ctrl+Shift+Z).
    undo->setShortcuts(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        view->addAction(dock->toggleViewAction());
        MenuMnemonics::markAutomatic(dock->toggleViewAction()); // a dock's title changes with the open model
    }
    m_presentation->addToMenu(view);
    view->addSeparator();
    view->addAction(m_firstTokenAside);

    QMenu *learn = menuBar()->addMenu(tr("&Learn"));
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        if (dock->widget() == m_walkthrough || dock->widget() == m_cross) {
            QAction *show = learn->addAction(dock->widget() == m_walkthrough ? tr("&Walkthrough") : tr("&Cross-attention"));
            connect(show, &QAction::triggered, dock, [dock] {
                dock->show();
                dock->raise();
            });
        }
    }
    learn->addAction(tr("&Mistakes made visible…"), this, [this] {
        auto *dialog = findChild<MistakesDialog *>();
        if (!dialog)
            dialog = new MistakesDialog(m_document, this);
        dialog->setHead(m_document->selection()->head().headOr(0));
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
    learn->addAction(tr("&Practice…"), this, [this] {
        auto *dialog = findChild<PracticeDialog *>();
        if (!dialog)
            dialog = new PracticeDialog(m_document, this);
        dialog->setHead(m_document->selection()->head().headOr(0));
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
    learn->addSeparator();
    learn->addAction(tr("&Train a model…"), this, [this] {
        connect(TrainingDialog::showFor(this), &TrainingDialog::openModelRequested, m_modelActions,
                &ModelActions::openFolder, Qt::UniqueConnection);
    });
    auto *trained = new TrainedModelsMenu(learn); // "Trained m&odels": M is Mistakes'
    learn->addMenu(trained);
    connect(trained, &TrainedModelsMenu::openRequested, m_modelActions, &ModelActions::openFolder);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(tr("&User Guide"), this, [this] { GuideWindow::showFor(this); });
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setObjectName(QStringLiteral("userGuide"));
    help->addAction(tr("&Keyboard shortcuts"), this, [this] { showShortcutsDialog(this); })
        ->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F1));
    help->addAction(tr("&About Attention Explorer"), this, [this] { showAboutDialog(this); });

    // Entries named by data (examples, docks, models, files) get theirs as their menu opens.
    for (QMenu *menu : findChildren<QMenu *>())
        MenuMnemonics::chooseOnShow(menu);
}
