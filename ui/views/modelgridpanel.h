#pragma once
// The layers × heads grid with a choice of what its tiles tell: attention
// alone, or one pattern score per head under its tile (previous token, same
// token earlier, induction, first token, self: model/headscores.h, or the
// weight from the query to a token the user picks, such as from "it" to
// "box"), and each layer's heads sorted by it, so "which head does this
// job?" is one look. Below the grid, a list of every head and its score,
// highest first and sortable: the numbers stay readable when a large model's
// tiles are too small to hold them.

#include "model/headscores.h"
#include "modelgridpainter.h"

#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

class ModelGridView;
class QCheckBox;
class QComboBox;
class QLabel;
class QSplitter;
class QTreeWidget;

class ModelGridPanel : public QWidget
{
    Q_OBJECT
public:
    using HeadScoreTable = std::vector<std::vector<attn::HeadScores>>;

    explicit ModelGridPanel(QWidget *parent = nullptr);

    ModelGridView *grid() const { return m_grid; }
    QComboBox *scoreBox() const { return m_score; }
    QCheckBox *sortBox() const { return m_sort; }

    QComboBox *keyBox() const { return m_key; }
    // Every head with the score shown, highest first; hidden while no score is.
    QTreeWidget *scoreList() const { return m_list; }

    // The scores of the trace the grid shows (null: none yet), with
    // chosenKey set for chosenKey() when it is picked.
    void setHeadScores(std::shared_ptr<const HeadScoreTable> scores);
    // The tokens the "to" box offers, as the chips show them.
    void setTokens(const QStringList &tokens);
    // The token picked for "From the query to a token"; -1 while another score is shown.
    int chosenKey() const;
    // Shows that score, to token `key`.
    void showChosenKey(int key);
    // Back to attention only, unsorted: how a newly opened model starts.
    void reset();

signals:
    void chosenKeyChanged(); // what chosenKey() gives has changed: the scores need it again
    void headPicked(int layer, int head); // a head clicked in the list

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void apply();
    void onChoice();
    void fillList(const ModelGridScores &shown);

    ModelGridView *m_grid;
    QComboBox *m_score;
    QLabel *m_keyLabel;
    QComboBox *m_key;
    QCheckBox *m_sort;
    QTreeWidget *m_list;
    QSplitter *m_split;
    std::shared_ptr<const HeadScoreTable> m_scores;
    int m_lastChosenKey = -1;
};
