#pragma once
// "Mistakes made visible": common misunderstandings of attention, each a
// one-click demonstration on the current sentence with a short explanation.
// Every number comes from the core (variants of the session run through the
// Document); the dialog only arranges and draws them.

#include "computescheduler.h"
#include "snapshot.h"

#include <QDialog>
#include <cstdint>
#include <vector>

class BarColumnsView;
class ContributionView;
class Document;
class HeatmapView;
class QComboBox;
class QLabel;
class QListWidget;
class QStackedWidget;

class MistakesDialog : public QDialog
{
    Q_OBJECT
public:
    enum Demo { ScoresAreNotWeights, ForgettingToScale, WordOrder, LargestWeight, CausalMask, DemoCount };

    explicit MistakesDialog(Document *document, QWidget *parent = nullptr);

    void setHead(int head); // -1 (the average) shows head 1
    int currentDemo() const;
    // The bar columns of a demo (null for LargestWeight, which draws stacked bars).
    BarColumnsView *columnsView(int demo) const { return m_columns[std::size_t(demo)]; }
    ContributionView *contributionView() const { return m_contribution; }
    HeatmapView *causalHeatmap() const { return m_causalMap; }
    // The causal mask demo's query and its chooser: the window's query, or a
    // middle token when the mask would show nothing there (the first or last).
    QComboBox *causalQueryBox() const { return m_causalQuery; }
    int causalDemoQuery() const;
    // The explanation of the demo on show.
    QString explanationText() const;
    // The shuffle the word-order demo shows (order[p] = original index).
    const std::vector<int> &shuffleOrder() const { return m_order; }
    int scalingHeadDim() const;

public slots:
    void showDemo(int demo);
    void shuffleAgain();
    void refresh();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    QWidget *buildPage(int demo);
    // The explanation, after one sentence naming the attention shown (self,
    // cross, or the sentence's self-attention when the demo needs it).
    void setNote(const QString &text, bool selfAttentionOnly = false);
    QString attentionKind(bool selfAttentionOnly) const;
    void fitNote();
    void fitList();
    void refreshScores();
    void refreshScaling();
    void refreshWordOrder();
    void refreshLargestWeight();
    void refreshCausal();
    // The demos' variants arrive from the document's scheduler (at once when small).
    void showScaling(const SnapshotPtr &raw, const SnapshotPtr &scaled, int dk);
    void showWordOrder(const ComputeScheduler::Snapshots &variants);
    void showCausal(const SnapshotPtr &open, const SnapshotPtr &masked, int query);

    Document *m_document;
    int m_head = 0;
    std::uint64_t m_shuffleSeed = 1;
    std::vector<int> m_order;
    QListWidget *m_list = nullptr;
    QStackedWidget *m_pages = nullptr;
    std::vector<BarColumnsView *> m_columns;
    QLabel *m_note = nullptr;
    ContributionView *m_contribution = nullptr;
    HeatmapView *m_causalMap = nullptr;
    QComboBox *m_headDim = nullptr;
    QComboBox *m_causalQuery = nullptr;
    int m_causalPick = -1; // the query picked in the demo itself; -1: none since the window's changed
    QLabel *m_shuffledText = nullptr;
};
