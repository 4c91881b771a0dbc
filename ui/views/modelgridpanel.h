#pragma once
// The layers × heads grid with a choice of what its tiles tell: attention
// alone, or one pattern score per head under its tile (previous token, same
// token earlier, induction, first token, self: model/headscores.h), and each
// layer's heads sorted by it, so "which head does this job?" is one look.

#include "model/headscores.h"

#include <QWidget>
#include <memory>
#include <vector>

class ModelGridView;
class QCheckBox;
class QComboBox;

class ModelGridPanel : public QWidget
{
    Q_OBJECT
public:
    using HeadScoreTable = std::vector<std::vector<attn::HeadScores>>;

    explicit ModelGridPanel(QWidget *parent = nullptr);

    ModelGridView *grid() const { return m_grid; }
    QComboBox *scoreBox() const { return m_score; }
    QCheckBox *sortBox() const { return m_sort; }

    // The scores of the trace the grid shows (null: none yet).
    void setHeadScores(std::shared_ptr<const HeadScoreTable> scores);

private:
    void apply();

    ModelGridView *m_grid;
    QComboBox *m_score;
    QCheckBox *m_sort;
    std::shared_ptr<const HeadScoreTable> m_scores;
};
