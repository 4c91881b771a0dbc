#include "mainwindow.h"

#include "barchartview.h"
#include "crossattentionpanel.h"
#include "headbox.h"
#include "document.h"
#include "dockreach.h"
#include "embeddingeditor.h"
#include "exportactions.h"
#include "fileactions.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "io/modelfolder.h"
#include "optionspanel.h"
#include "mistakesdialog.h"
#include "modeldocument.h"
#include "lessons/notation.h"
#include "modelactions.h"
#include "modelgridview.h"
#include "pipelineview.h"
#include "practicedialog.h"
#include "presentationactions.h"
#include "starthint.h"
#include "tokenchips.h"
#include "walkthroughpanel.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QButtonGroup>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabBar>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

MainWindow::MainWindow(Document *document, QWidget *parent) : QMainWindow(parent), m_document(document)
{
    setAcceptDrops(true);
    m_fileActions = new FileActions(document, this);
    m_exportActions = new ExportActions(document, this);
    m_modelActions = new ModelActions(document, this);
    m_presentation = new PresentationActions(this);
    m_exportActions->setStateProvider([this] {
        const ViewSelection *s = m_document->selection();
        return ExportViewState{s->head().head, s->showScores(), s->colorMap(), s->firstTokenAside()};
    });
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(buildTopBar());
    if (StartHint::wanted()) {
        m_startHint = new StartHint;
        layout->addWidget(m_startHint);
    }
    layout->addWidget(buildHeatmapPanel(), 1);
    setCentralWidget(central);
    buildDocks();
    buildMenus();
    m_dockReach = new DockReach(this, m_sentence);
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_dockReach->watch(dock);
    m_presentation->raiseDocksWhenShown();
    connect(m_presentation, &PresentationActions::zoomChanged, this, &MainWindow::keepTabTitlesWhole, Qt::QueuedConnection);
    m_exportActions->attachContextMenu(m_heatmap, ExportView::Heatmap); // follows the weights/scores toggle
    m_exportActions->attachContextMenu(m_headsGrid, ExportView::Heads);
    m_exportActions->attachContextMenu(m_pipeline, ExportView::Pipeline);
    m_exportActions->attachContextMenu(m_barChart, ExportView::Bars);

    m_status = new QLabel;
    m_error = new QLabel;
    m_error->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    statusBar()->addWidget(m_error, 1);
    statusBar()->addPermanentWidget(m_status);

    connectDocument();
    // Keyboard order: type, pick the query, read the heatmap, then the options.
    setTabOrder(m_sentence, m_chips);
    setTabOrder(m_chips, m_heatmap);
    setTabOrder(m_heatmap, m_options->modeBox());
    restoreSettings();
    // The views start as the selection is (settings equal to its defaults sent no signal).
    showScoresOrWeights(m_document->selection()->showScores());
    showColorMap(m_document->selection()->colorMap());
    showFirstTokenAside(m_document->selection()->firstTokenAside());
    onSessionChanged();
    onResultChanged();
    onQueryChanged(m_document->query());
}

MainWindow::~MainWindow()
{
    // The docks are hidden while QWidget's destructor takes them down, after
    // this object's own members are gone: their signals must not reach it then.
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        dock->disconnect(this);
        dock->disconnect(m_dockReach);
    }
}

QWidget *MainWindow::buildTopBar()
{
    auto *bar = new QWidget;
    auto *v = new QVBoxLayout(bar);
    v->setContentsMargins(0, 0, 0, 0);
    auto *row = new QHBoxLayout;
    auto *label = new QLabel(tr("&Sentence:"));
    m_sentence = new QLineEdit;
    m_sentence->setPlaceholderText(tr("Type a sentence; every word and punctuation mark becomes a token"));
    m_sentence->setClearButtonEnabled(true);
    m_sentence->setAccessibleName(tr("Sentence"));
    label->setBuddy(m_sentence);
    row->addWidget(label);
    row->addWidget(m_sentence, 1);
    v->addLayout(row);

    m_chips = new TokenChips;
    auto *scroll = new QScrollArea;
    scroll->setAccessibleName(tr("Tokens"));
    scroll->setWidget(m_chips);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As tall as the chips need, up to three rows; a long text scrolls
    // instead of pushing the views away. A row grows with the font (zoom).
    scroll->setFixedHeight(m_chips->minimumSizeHint().height() + 2);
    connect(m_chips, &TokenChips::heightNeeded, scroll, [this, scroll](int height) {
        scroll->setFixedHeight(std::min(height, 3 * m_chips->minimumSizeHint().height()) + 2);
    });
    v->addWidget(scroll);

    m_sentenceTimer = new QTimer(this);
    m_sentenceTimer->setSingleShot(true);
    m_sentenceTimer->setInterval(kSentenceDelayMs);
    connect(m_sentence, &QLineEdit::textEdited, m_sentenceTimer, qOverload<>(&QTimer::start));
    connect(m_sentence, &QLineEdit::returnPressed, this, [this] {
        m_sentenceTimer->stop();
        m_document->setSentence(m_sentence->text());
    });
    connect(m_sentenceTimer, &QTimer::timeout, this, [this] { m_document->setSentence(m_sentence->text()); });
    return bar;
}

QWidget *MainWindow::buildHeatmapPanel()
{
    auto *panel = new QWidget;
    auto *v = new QVBoxLayout(panel);
    v->setContentsMargins(0, 0, 0, 0);
    auto *tools = new QHBoxLayout;
    m_matrixGroup = new QButtonGroup(this);
    const QString labels[] = {tr("Weights α"), tr("Scores ω")};
    for (int i = 0; i < 2; ++i) {
        auto *button = new QToolButton;
        button->setText(labels[i]);
        button->setCheckable(true);
        button->setChecked(i == 0);
        button->setAutoRaise(true);
        m_matrixGroup->addButton(button, i);
        tools->addWidget(button);
    }
    m_matrixGroup->button(0)->setToolTip(tr("Show the attention weights (after softmax); each row sums to 1"));
    m_matrixGroup->button(1)->setToolTip(tr("Show the raw scores: dot products of queries and keys"));
    tools->addWidget(buildFirstTokenAsideButton());
    tools->addSpacing(12);
    m_modelActions->addLayerControls(tools);
    tools->addWidget(new QLabel(tr("Head:")));
    m_headBox = new QComboBox;
    m_headBox->setAccessibleName(tr("Head shown in the heatmap"));
    m_headBox->setSizeAdjustPolicy(QComboBox::AdjustToContents); // "11 of 12" is never cut
    m_headBox->view()->setAccessibleName(tr("Heads"));
    m_headBox->setToolTip(tr("Which head the heatmap, pipeline and walkthrough show; heads count from 0"));
    tools->addWidget(m_headBox);
    tools->addStretch(1);
    v->addLayout(tools);
    m_heatmap = new HeatmapView;
    v->addWidget(m_heatmap, 1);

    connect(m_matrixGroup, &QButtonGroup::idClicked, this, [this](int id) { setShowScores(id == 1); });
    connect(m_headBox, qOverload<int>(&QComboBox::activated), this,
            [this](int index) { selectHead(headOfBoxItem(m_headBox, index)); });
    return panel;
}

void MainWindow::buildDocks()
{
    auto addDock = [this](const QString &title, const QString &name, QWidget *widget, Qt::DockWidgetArea area) {
        auto *dock = new QDockWidget(title, this);
        dock->setObjectName(name); // saveState() needs stable names
        dock->setWidget(widget);
        dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                          | QDockWidget::DockWidgetClosable);
        addDockWidget(area, dock);
        return dock;
    };
    m_options = new OptionsPanel;
    m_editor = new EmbeddingEditor;
    m_headsGrid = new HeadsGridView;
    m_pipeline = new PipelineView;
    m_barChart = new BarChartView;
    QDockWidget *options = addDock(tr("Attention"), QStringLiteral("options"), m_options, Qt::LeftDockWidgetArea);
    QDockWidget *editor = addDock(tr("Embedding"), QStringLiteral("embedding"), m_editor, Qt::LeftDockWidgetArea);
    QDockWidget *heads = addDock(tr("All heads"), QStringLiteral("heads"), m_headsGrid, Qt::RightDockWidgetArea);
    m_walkthrough = new WalkthroughPanel;
    m_cross = new CrossAttentionPanel(m_document);
    QDockWidget *walk = addDock(tr("Walkthrough"), QStringLiteral("walkthrough"), m_walkthrough,
                                Qt::RightDockWidgetArea);
    QDockWidget *cross = addDock(tr("Cross-attention"), QStringLiteral("cross"), m_cross, Qt::RightDockWidgetArea);
    tabifyDockWidget(heads, walk);
    tabifyDockWidget(walk, cross);
    walk->raise(); // the first screen explains itself
    // Tabbed docks all count as visible widgets; this signal says which tab is on screen.
    connect(walk, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        m_walkthroughOnScreen = visible;
        showWalkthroughHighlight();
    });
    for (QDockWidget *dock : {heads, walk, cross}) {
        connect(dock, &QDockWidget::dockLocationChanged, this, &MainWindow::keepTabTitlesWhole, Qt::QueuedConnection);
        connect(dock, &QDockWidget::windowTitleChanged, this, &MainWindow::keepTabTitlesWhole, Qt::QueuedConnection);
    }
    QDockWidget *pipeline = addDock(tr("Query → scores → weights → context"), QStringLiteral("pipeline"), m_pipeline,
                                    Qt::BottomDockWidgetArea);
    QDockWidget *bars = addDock(tr("Embedding vs context"), QStringLiteral("bars"), m_barChart,
                                Qt::BottomDockWidgetArea);
    splitDockWidget(options, editor, Qt::Vertical);
    splitDockWidget(pipeline, bars, Qt::Horizontal);
    resizeDocks({options, heads}, {310, 400}, Qt::Horizontal); // room for the walkthrough's formulas
    // A 720-pixel screen keeps the heatmap more than a third of its height.
    resizeDocks({pipeline}, {std::min(320, firstSize().height() * 3 / 10)}, Qt::Vertical);
}

void MainWindow::showWalkthroughHighlight()
{
    const bool shown = m_walkthroughOnScreen;
    const int query = shown ? m_walkHighlightQuery : -1;
    const QList<int> keys = shown ? m_walkHighlightKeys : QList<int>();
    m_heatmap->setHighlightedCells(query, keys);
    m_chips->setHighlighted(m_document->session().source ? QList<int>() : keys);
}

void MainWindow::keepTabTitlesWhole()
{
    // Tabbed docks elide their titles ("All he…") when the tab bar is narrow,
    // which some styles make it; scroll buttons keep every title readable.
    for (QTabBar *bar : findChildren<QTabBar *>(QString(), Qt::FindDirectChildrenOnly)) {
        bar->setElideMode(Qt::ElideNone);
        bar->setUsesScrollButtons(true);
        bar->setExpanding(false);
        // A side dock as narrow as the first start makes it scrolled "All heads"
        // out of sight: it widens until every title shows.
        const int missing = bar->sizeHint().width() - bar->width();
        if (!bar->isVisible() || missing <= 0 || bar->count() == 0)
            continue;
        for (QDockWidget *dock : findChildren<QDockWidget *>()) {
            const Qt::DockWidgetArea area = dockWidgetArea(dock);
            if (dock->isVisible() && !dock->isFloating() && dock->windowTitle() == bar->tabText(bar->currentIndex())
                && (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea)) {
                resizeDocks({dock}, {dock->width() + missing + 8}, Qt::Horizontal);
                break;
            }
        }
    }
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    keepTabTitlesWhole();
    QTimer::singleShot(0, this, &MainWindow::keepTabTitlesWhole); // once the docks have their widths
}

void MainWindow::connectDocument()
{
    if (m_startHint) {
        // The hint talks about the hand-made example: not while a model is open.
        connect(m_document->model(), &ModelDocument::opened, m_startHint, &QWidget::hide);
        connect(m_document->model(), &ModelDocument::closed, m_startHint, [this] {
            if (StartHint::wanted())
                m_startHint->show();
        });
    }
    // Text typed for a model that closes before the typing pause ends is not
    // the hand-made session's (found by tst_modelmonkey: it became a session
    // edit); the field shows the session's sentence again.
    connect(m_document->model(), &ModelDocument::closed, this, [this] {
        if (m_sentenceTimer->isActive()) {
            m_sentenceTimer->stop();
            onSessionChanged();
        }
    });
    connect(m_document, &Document::sessionChanged, this, &MainWindow::onSessionChanged);
    // A new document opens at its start, whatever the one before had on screen.
    connect(m_document, &Document::replaced, this, [this] {
        m_walkthrough->setCurrentStep(0);
        m_heatmap->fitToView();
    });
    // The document says when; the selection says which query (the session's or the model's).
    connect(m_document, &Document::queryChanged, this, [this] { onQueryChanged(m_document->selection()->query()); });
    ViewSelection *selection = m_document->selection();
    connect(selection, &ViewSelection::headChanged, this, &MainWindow::showHead);
    connect(selection, &ViewSelection::showScoresChanged, this, &MainWindow::showScoresOrWeights);
    connect(selection, &ViewSelection::colorMapChanged, this, &MainWindow::showColorMap);
    connect(selection, &ViewSelection::firstTokenAsideChanged, this, &MainWindow::showFirstTokenAside);
    connect(m_document, &Document::resultChanged, this, &MainWindow::onResultChanged);
    connect(m_document, &Document::computingChanged, this, &MainWindow::updateStatus);
    // A notice does not hide a model error being shown (a run the user's
    // typing started may end just after a bad folder was refused): it waits
    // until the error has had its time.
    connect(m_modelActions, &ModelActions::errorOccurred, this, [this] { m_errorShown.start(); });
    connect(m_document->model(), &ModelDocument::opened, this, [this] { m_errorShown.invalidate(); });
    connect(m_document, &Document::notice, this, &MainWindow::showNotice);

    connect(m_chips, &TokenChips::querySelected, m_document, &Document::setQuery);
    connect(m_heatmap, &HeatmapView::querySelected, m_document, &Document::setQuery);
    connect(m_headsGrid, &HeadsGridView::headSelected, this, &MainWindow::selectHead);
    connect(m_heatmap, &HeatmapView::colorScaleChanged, m_headsGrid, &HeadsGridView::setColorScale);
    connect(m_editor, &EmbeddingEditor::valueEdited, m_document, &Document::setEmbeddingValue);
    connect(m_editor, &EmbeddingEditor::dModelEdited, m_document, &Document::setDModel);
    connect(m_options, &OptionsPanel::configEdited, m_document, &Document::setAttention);
    connect(m_options, &OptionsPanel::colorMapEdited, this, &MainWindow::setColorMap);
    // The walkthrough points at what it explains: the query's cells and chips.
    // Only while the walkthrough is on screen: hidden (another tab, closed),
    // its outlines would point at nothing the user can read.
    connect(m_walkthrough, &WalkthroughPanel::highlightChanged, this, [this](int query, const QList<int> &keys) {
        m_walkHighlightQuery = query;
        m_walkHighlightKeys = keys;
        showWalkthroughHighlight();
    });
}

void MainWindow::showNotice(const QString &text)
{
    const qint64 left = m_errorShown.isValid() ? kErrorShownMs - m_errorShown.elapsed() : 0;
    if (left <= 0)
        statusBar()->showMessage(text, 8000);
    else // asked again then: another error may have come meanwhile
        QTimer::singleShot(int(left), this, [this, text] { showNotice(text); });
}

void MainWindow::onSessionChanged()
{
    if (m_modelActions->applyToWindow())
        return; // a model is open: its tokens and heads stay on screen
    const attn::Session &s = m_document->session();
    // Text still waiting to be tokenized stays as typed, and so does the
    // user's own text when it has no tokens yet (a cleared field is not
    // refilled under the cursor); any other change (undo, open) shows the
    // session's sentence.
    const bool ownText = m_sentence->hasFocus() && m_sentence->text() == s.sentence;
    if (!m_sentenceTimer->isActive() && !ownText) {
        const QString text = s.sentence.isEmpty() ? s.tokens.join(' ') : s.sentence;
        if (text != m_sentence->text()) {
            m_sentence->setText(text);
            m_sentence->setCursorPosition(0); // show the start of a long sentence
        }
    }
    // A repeated word shows its position, as in every view. The labels are
    // made again only for other words (a slider step keeps them; at 2000
    // tokens making them took 0.8 ms), and the chips, given the very same
    // list, see at once that nothing changed.
    if (s.tokens != m_labelledTokens) {
        m_labelledTokens = s.tokens;
        m_tokenLabels = attn::tokenLabels(s.tokens);
    }
    m_chips->setTokens(m_tokenLabels);
    m_editor->setEmbeddings(s.tokens, s.embeddings);
    m_options->setConfig(s.attention, s.dModel(), s.source.has_value());

    // The head list only changes with the number of heads (not on every slider step).
    const int entries = s.attention.heads + (s.attention.heads > 1 ? 1 : 0);
    if (m_headBox->count() != entries) {
        const QSignalBlocker block(m_headBox);
        m_headBox->clear();
        // Heads are numbered from 0, as in files and on the command line.
        for (int h = 0; h < s.attention.heads; ++h)
            m_headBox->addItem(tr("%1 of %2").arg(h).arg(s.attention.heads), h);
        if (s.attention.heads > 1)
            m_headBox->addItem(tr("average of %1").arg(s.attention.heads));
    }
    showHead(m_document->selection()->head()); // the list may be new; the selection already fits it
}

bool MainWindow::sentencePending() const { return m_sentenceTimer->isActive(); }

void MainWindow::onQueryChanged(int query)
{
    m_chips->setQuery(query);
    m_editor->setQuery(query);
    m_heatmap->setQuery(query);
    m_headsGrid->setQuery(query);
    m_pipeline->setQuery(query);
    m_barChart->setQuery(query);
    m_walkthrough->setQuery(query);
    updateStartHint();
    updateStatus();
}

void MainWindow::updateStartHint()
{
    // It names the query of the hand-made session (it hides while a model is open).
    if (m_startHint)
        m_startHint->setQueryToken(m_document->session().tokens.value(m_document->selection()->query()));
}

void MainWindow::onResultChanged()
{
    const SnapshotPtr snapshot = m_document->snapshot();
    // The matrices as the selection shows them (the first token set aside or not).
    m_heatmap->setSnapshot(m_document->matrixSnapshot());
    m_headsGrid->setSnapshot(m_document->matrixSnapshot());
    m_pipeline->setSnapshot(snapshot);
    m_barChart->setSnapshot(snapshot);
    m_walkthrough->setSnapshot(snapshot);
    m_error->setText(snapshot->error.isEmpty() ? QString() : tr("Cannot compute: %1").arg(snapshot->error));
    updateStartHint(); // the query's word may have changed with the sentence
    updateStatus();
    // The views have let go of the snapshot they showed. A large one is
    // hundreds of megabytes; freed here, glibc would give its pages back to the
    // kernel on the GUI thread (at 2000 tokens and 12 heads, milliseconds of
    // every slider step).
    if (SnapshotPtr previous = std::exchange(m_shownSnapshot, snapshot); previous && previous != snapshot)
        QThreadPool::globalInstance()->start([previous = std::move(previous)]() mutable { previous.reset(); });
}

std::optional<int> MainWindow::selectedHead() const { return m_document->selection()->head().head; }

void MainWindow::selectHead(std::optional<int> head)
{
    ViewSelection *selection = m_document->selection();
    selection->setHead(head ? HeadRef::one(selection->layer(), *head) : HeadRef::average(selection->layer()));
}

void MainWindow::setShowScores(bool scores) { m_document->selection()->setShowScores(scores); }

void MainWindow::setColorMap(ColorMap map) { m_document->selection()->setColorMap(map); }

void MainWindow::showHead(const HeadRef &ref)
{
    m_heatmap->setHead(ref.head);
    m_headsGrid->setSelectedHead(ref.head);
    // The views that follow one real head show head 0 for the average.
    const int one = ref.headOr(0);
    m_pipeline->setHead(one);
    m_walkthrough->setHead(one);
    m_cross->setHead(one);
    if (auto *mistakes = findChild<MistakesDialog *>())
        mistakes->setHead(one);
    if (auto *practice = findChild<PracticeDialog *>())
        practice->setHead(one);
    const QSignalBlocker block(m_headBox);
    m_headBox->setCurrentIndex(std::max(0, boxItemOfHead(m_headBox, ref.head)));
}

void MainWindow::showScoresOrWeights(bool scores)
{
    m_heatmap->setShowScores(scores);
    m_headsGrid->setShowScores(scores);
    m_matrixGroup->button(scores ? 1 : 0)->setChecked(true);
}

QToolButton *MainWindow::buildFirstTokenAsideButton()
{
    // One action for the View menu's entry and this button: one click, and
    // the choice is remembered with the other view settings.
    m_firstTokenAside = new QAction(tr("Set the First Token &Aside"), this);
    m_firstTokenAside->setObjectName(QStringLiteral("firstTokenAside"));
    m_firstTokenAside->setCheckable(true);
    const QString why = tr("Most heads of today's models put most of their weight on the first token (an "
                           "\u201cattention sink\u201d), which leaves the rest too pale to read. Set aside, the first "
                           "token's column is crossed out and each row's other weights are divided by their sum: "
                           "what the head does with the rest of its attention. These are not the weights the model "
                           "computed; the heatmap, the heads, Compare and exports say so. Scores are not changed.");
    m_firstTokenAside->setToolTip(why);
    m_firstTokenAside->setStatusTip(tr("Show the weights with the first token set aside and each row renormalised"));
    connect(m_firstTokenAside, &QAction::toggled, this,
            [this](bool on) { m_document->selection()->setFirstTokenAside(on); });
    // Its own text, without the menu's mnemonic: Alt+F opens the File menu.
    auto *button = new QToolButton;
    button->setText(tr("First token aside"));
    button->setCheckable(true);
    button->setAutoRaise(true);
    button->setToolTip(why);
    button->setAccessibleName(tr("Set the first token aside"));
    button->setObjectName(QStringLiteral("firstTokenAsideButton"));
    connect(button, &QToolButton::toggled, m_firstTokenAside, &QAction::setChecked);
    connect(m_firstTokenAside, &QAction::toggled, button, &QToolButton::setChecked);
    return button;
}

void MainWindow::showFirstTokenAside(bool aside)
{
    m_firstTokenAside->setChecked(aside); // the button follows the action
}

void MainWindow::showColorMap(ColorMap map)
{
    m_heatmap->setColorMap(map);
    m_headsGrid->setColorMap(map);
    m_options->setColorMap(map);
    m_modelActions->grid()->setColorMap(map);
}

void MainWindow::updateStatus()
{
    const SnapshotPtr snapshot = m_document->snapshot();
    const bool single = snapshot && snapshot->result && snapshot->result->singlePrecision;
    const QString timing = m_document->isComputing()
        ? tr("computing…")
        : single ? tr("computed in %1 ms (single precision)").arg(m_document->lastComputeMilliseconds(), 0, 'f', 2)
                 : tr("computed in %1 ms").arg(m_document->lastComputeMilliseconds(), 0, 'f', 2);
    m_status->setText(tr("%1 tokens · d_model %2 · %3 · %4")
                          .arg(m_document->tokenCount())
                          .arg(m_document->dModel())
                          .arg(tr("%n head(s)", nullptr, m_document->headCount()), timing));
}

QSize MainWindow::firstSize() const
{
    // 1280 × 800 where it fits; on a smaller screen (a 1280 × 720 projector)
    // the available area less the window frame, so the status bar stays on screen.
    const QScreen *scr = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!scr)
        return {1280, 800};
    const QRect area = scr->availableGeometry();
    return {std::min(1280, area.width() - 16), std::min(800, area.height() - 48)};
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(firstSize());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    setShowScores(settings.value(QStringLiteral("view/showScores"), false).toBool());
    m_document->selection()->setFirstTokenAside(settings.value(QStringLiteral("view/firstTokenAside"), false).toBool());
    setColorMap(colorMapFromName(settings.value(QStringLiteral("view/colorMap")).toString())
                    .value_or(ColorMap::Viridis));
    m_heatmap->setColorScale(ColorScale::fromSettings(settings));
    m_editor->setSliderRange(settings.value(QStringLiteral("editor/range"), 2.0).toDouble());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("view/showScores"), m_document->selection()->showScores());
    settings.setValue(QStringLiteral("view/firstTokenAside"), m_document->selection()->firstTokenAside());
    settings.setValue(QStringLiteral("view/colorMap"), colorMapName(m_document->selection()->colorMap()));
    m_heatmap->colorScale().save(settings);
    settings.setValue(QStringLiteral("editor/range"), m_editor->sliderRange());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_fileActions->maybeSave()) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString path = event->mimeData()->urls().value(0).toLocalFile();
    if (!path.isEmpty() && (QFileInfo(path).isDir() || attn::isGgufFile(path)))
        m_modelActions->openFolder(path); // a model folder or GGUF file; the session stays underneath
    else if (!path.isEmpty() && m_fileActions->maybeSave())
        m_fileActions->openPath(path);
    event->acceptProposedAction();
}
