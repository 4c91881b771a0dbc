#pragma once
// The main window: lays out the views and wires them to the document and
// its selection (what the views show). It holds no attention state of its own.

#include "colormap.h"
#include "headref.h"
#include "lessons/shippedmodel.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <memory>

class BarChartView;
class Document;
class CrossAttentionPanel;
class DockReach;
class EmbeddingEditor;
class ExportActions;
class FileActions;
class HeadsGridView;
class HeatmapView;
class ModelActions;
class OptionsPanel;
class PipelineView;
class PresentationActions;
class QButtonGroup;
class QComboBox;
class QLabel;
class QMenu;
class QLineEdit;
class QTimer;
class QToolButton;
class QAction;
class StartHint;
class TokenChips;
class WalkthroughPanel;

struct AttentionSnapshot;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(Document *document, QWidget *parent = nullptr);
    ~MainWindow() override;

    // The views, for tests and export.
    QLineEdit *sentenceEdit() const { return m_sentence; }
    TokenChips *chips() const { return m_chips; }
    EmbeddingEditor *editor() const { return m_editor; }
    OptionsPanel *options() const { return m_options; }
    HeatmapView *heatmap() const { return m_heatmap; }
    HeadsGridView *headsGrid() const { return m_headsGrid; }
    PipelineView *pipeline() const { return m_pipeline; }
    BarChartView *barChart() const { return m_barChart; }
    WalkthroughPanel *walkthrough() const { return m_walkthrough; }
    CrossAttentionPanel *crossAttention() const { return m_cross; }
    // The selection's head of the shown layer; nullopt: the average.
    std::optional<int> selectedHead() const;
    // True while the walkthrough's tab is the one on screen.
    bool walkthroughOnScreen() const { return m_walkthroughOnScreen; }
    QComboBox *headBox() const { return m_headBox; }
    // View › Set the First Token Aside, and the heatmap's button that shares it.
    QAction *firstTokenAsideAction() const { return m_firstTokenAside; }
    ModelActions *modelActions() const { return m_modelActions; }
    // True while typed text waits for the pause that re-tokenizes it.
    bool sentencePending() const;
    FileActions *fileActions() const { return m_fileActions; }
    ExportActions *exportActions() const { return m_exportActions; }
    StartHint *startHint() const { return m_startHint; }
    // Hides the contents of docks behind another tab (dockreach.h).
    DockReach *dockReach() const { return m_dockReach; }
    PresentationActions *presentation() const { return m_presentation; }

    // Time the sentence field waits after the last keystroke before re-tokenizing.
    static constexpr int kSentenceDelayMs = 250;
    // How long a model error stays in the status bar before a notice may replace it.
    static constexpr int kErrorShownMs = 15000;

    // The size of a first start: 1280 × 800, or less on a smaller screen.
    QSize firstSize() const;

public slots:
    // Requests to the document's selection; the views follow its signals.
    void selectHead(std::optional<int> head); // of the shown layer; nullopt: its average
    void setShowScores(bool scores);
    void setColorMap(ColorMap map);
    // Puts `head` on every view and in the head list (after the list was rebuilt).
    void showHead(const HeadRef &head);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void showNotice(const QString &text);
    QWidget *buildTopBar();
    QWidget *buildHeatmapPanel();
    void buildDocks();
    void buildMenus();
    // An Examples entry that opens a model trained by this program (core/lessons/shippedmodel.h).
    void addTrainedExample(QMenu *examples, attn::ShippedLesson lesson, const QString &title,
                           const QString &objectName, const QString &description);
    void connectDocument();
    void onSessionChanged();
    void onQueryChanged(int query);
    void onResultChanged();
    void updateStatus();
    void updateStartHint();
    void showScoresOrWeights(bool scores);
    void showColorMap(ColorMap map);
    void showFirstTokenAside(bool aside);
    QToolButton *buildFirstTokenAsideButton();
    void keepTabTitlesWhole();
    void showWalkthroughHighlight();
    void restoreSettings();
    void saveSettings() const;

    Document *m_document;

    QLineEdit *m_sentence = nullptr;
    QTimer *m_sentenceTimer = nullptr;
    TokenChips *m_chips = nullptr;
    QStringList m_labelledTokens, m_tokenLabels; // the session's tokens the chips were last given, and their labels
    EmbeddingEditor *m_editor = nullptr;
    OptionsPanel *m_options = nullptr;
    HeatmapView *m_heatmap = nullptr;
    HeadsGridView *m_headsGrid = nullptr;
    PipelineView *m_pipeline = nullptr;
    BarChartView *m_barChart = nullptr;
    WalkthroughPanel *m_walkthrough = nullptr;
    CrossAttentionPanel *m_cross = nullptr;
    QComboBox *m_headBox = nullptr;
    QButtonGroup *m_matrixGroup = nullptr;
    QAction *m_firstTokenAside = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_error = nullptr;
    StartHint *m_startHint = nullptr;
    // What the walkthrough's current step points at (shown only while it is visible).
    int m_walkHighlightQuery = -1;
    bool m_walkthroughOnScreen = true; // raised on a first start
    QList<int> m_walkHighlightKeys;
    FileActions *m_fileActions = nullptr;
    ExportActions *m_exportActions = nullptr;
    ModelActions *m_modelActions = nullptr;
    DockReach *m_dockReach = nullptr;
    PresentationActions *m_presentation = nullptr; // zoom, full screen, presentation layout, theme
    QElapsedTimer m_errorShown; // since the last model error was shown; invalid when none is
    // The snapshot the views show: when they move on to the next one, this is
    // usually the last reference to the old one, dropped on a worker.
    std::shared_ptr<const AttentionSnapshot> m_shownSnapshot;
};
