#include "modelgridpanel.h"

#include "modelgridview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <iterator>

namespace {

struct ScoreChoice
{
    double attn::HeadScores::*score; // null: attention only
    const char *name;
    const char *help;
};

const ScoreChoice kChoices[] = {
    {nullptr, QT_TRANSLATE_NOOP("ModelGridPanel", "Attention only"),
     QT_TRANSLATE_NOOP("ModelGridPanel", "Each tile is a head's attention weights, nothing more")},
    {&attn::HeadScores::previousToken, QT_TRANSLATE_NOOP("ModelGridPanel", "Previous token"),
     QT_TRANSLATE_NOOP("ModelGridPanel", "How much each word's attention goes to the word just before it")},
    {&attn::HeadScores::duplicate, QT_TRANSLATE_NOOP("ModelGridPanel", "Same token earlier"),
     QT_TRANSLATE_NOOP("ModelGridPanel", "How much a repeated token attends to its earlier copies")},
    {&attn::HeadScores::induction, QT_TRANSLATE_NOOP("ModelGridPanel", "Induction"),
     QT_TRANSLATE_NOOP("ModelGridPanel",
                       "How much a repeated token attends to what followed its earlier copy: the head that "
                       "continues a pattern seen before")},
    {&attn::HeadScores::firstToken, QT_TRANSLATE_NOOP("ModelGridPanel", "First token"),
     QT_TRANSLATE_NOOP("ModelGridPanel", "How much attention is parked on the first token (a \"sink\")")},
    {&attn::HeadScores::self, QT_TRANSLATE_NOOP("ModelGridPanel", "Self"),
     QT_TRANSLATE_NOOP("ModelGridPanel", "How much each word attends to itself")},
};

} // namespace

ModelGridPanel::ModelGridPanel(QWidget *parent) : QWidget(parent), m_grid(new ModelGridView)
{
    m_score = new QComboBox;
    for (int i = 0; i < int(std::size(kChoices)); ++i) {
        m_score->addItem(tr(kChoices[i].name), i);
        m_score->setItemData(i, tr(kChoices[i].help), Qt::ToolTipRole);
    }
    m_score->setAccessibleName(tr("Pattern score shown under each head"));
    m_score->setToolTip(tr("A number per head, computed on this text: how much of its attention follows a "
                           "pattern; 1 means all of it"));
    m_sort = new QCheckBox(tr("Sort"));
    m_sort->setToolTip(tr("Put each layer's heads in order of the score, highest first"));
    m_sort->setEnabled(false);
    auto *label = new QLabel(tr("Score:"));
    label->setBuddy(m_score);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(4, 2, 4, 0);
    row->addWidget(label);
    row->addWidget(m_score);
    row->addWidget(m_sort);
    row->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(row);
    layout->addWidget(m_grid, 1);
    connect(m_score, qOverload<int>(&QComboBox::currentIndexChanged), this, &ModelGridPanel::apply);
    connect(m_sort, &QCheckBox::toggled, this, &ModelGridPanel::apply);
}

void ModelGridPanel::setHeadScores(std::shared_ptr<const HeadScoreTable> scores)
{
    m_scores = std::move(scores);
    apply();
}

void ModelGridPanel::apply()
{
    const ScoreChoice &choice = kChoices[std::clamp(m_score->currentData().toInt(), 0, int(std::size(kChoices)) - 1)];
    m_sort->setEnabled(choice.score != nullptr);
    ModelGridScores shown;
    if (choice.score && m_scores) {
        for (const std::vector<attn::HeadScores> &layer : *m_scores) {
            std::vector<double> values;
            for (const attn::HeadScores &h : layer)
                values.push_back(h.*choice.score);
            shown.values.push_back(std::move(values));
        }
        shown.sorted = m_sort->isChecked();
    }
    m_grid->setScores(std::move(shown));
}
