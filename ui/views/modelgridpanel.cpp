#include "modelgridpanel.h"

#include "modelgridview.h"
#include "lessons/notation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
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
     QT_TRANSLATE_NOOP("ModelGridPanel",
                       "The first token's share: how much attention each word parks on the first token (an "
                       "\"attention sink\"), averaged over the words that can see it (within a sliding window). "
                       "View \u203a Set the First Token Aside shows what the heads do with the rest")},
    {&attn::HeadScores::self, QT_TRANSLATE_NOOP("ModelGridPanel", "Self"),
     QT_TRANSLATE_NOOP("ModelGridPanel", "How much each word attends to itself")},
    {&attn::HeadScores::chosenKey, QT_TRANSLATE_NOOP("ModelGridPanel", "From the query to a token"),
     QT_TRANSLATE_NOOP("ModelGridPanel",
                       "The weight from the query (the token clicked above) to the token picked in the box beside: "
                       "click \u201cit\u201d, pick the noun it stands for, and the heads that link them light up")},
};

constexpr int kChosenKeyChoice = int(std::size(kChoices)) - 1;

enum ListColumn { HeadColumn, ScoreColumn };

// A row of the score list, sorted by number (a head without one, NaN, last
// when sorted highest first).
class ScoreItem : public QTreeWidgetItem
{
public:
    ScoreItem(int layer, int head, double score) : m_layer(layer), m_head(head), m_score(score)
    {
        setText(HeadColumn, attn::layerHeadName(layer, head));
        setText(ScoreColumn, std::isnan(score) ? QStringLiteral("—") : attn::formatFixed(score));
        setTextAlignment(ScoreColumn, Qt::AlignRight | Qt::AlignVCenter);
        setData(HeadColumn, Qt::UserRole, layer);
        setData(ScoreColumn, Qt::UserRole, head);
    }
    int layer() const { return m_layer; }
    int head() const { return m_head; }
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const auto &o = static_cast<const ScoreItem &>(other);
        const int column = treeWidget() ? treeWidget()->sortColumn() : ScoreColumn;
        if (column == ScoreColumn && m_score != o.m_score && !(std::isnan(m_score) && std::isnan(o.m_score)))
            return std::isnan(m_score) || (!std::isnan(o.m_score) && m_score < o.m_score);
        // By layer, then head ("L2H0" before "L10H0"); ties of a score: L0H0 first when descending.
        const bool before = std::pair(m_layer, m_head) < std::pair(o.m_layer, o.m_head);
        return column == ScoreColumn ? !before && std::pair(m_layer, m_head) != std::pair(o.m_layer, o.m_head) : before;
    }

private:
    int m_layer, m_head;
    double m_score;
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
    m_key = new QComboBox;
    m_key->setAccessibleName(tr("Token the query's weight is read at"));
    m_key->setToolTip(tr("The token whose weight from the query each head shows"));
    m_keyLabel = new QLabel(tr("to:"));
    m_keyLabel->setBuddy(m_key);
    m_sort = new QCheckBox(tr("Sort"));
    m_sort->setToolTip(tr("Put each layer's heads in order of the score, highest first"));
    m_sort->setEnabled(false);
    auto *label = new QLabel(tr("Score:"));
    label->setBuddy(m_score);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(4, 2, 4, 0);
    row->addWidget(label);
    row->addWidget(m_score);
    row->addWidget(m_keyLabel);
    row->addWidget(m_key);
    row->addWidget(m_sort);
    row->addStretch(1);
    m_list = new QTreeWidget;
    m_list->setAccessibleName(tr("Heads and their scores"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setHeaderLabels({tr("Head"), tr("Score")});
    m_list->setSortingEnabled(true);
    m_list->sortByColumn(ScoreColumn, Qt::DescendingOrder);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);
    m_list->setToolTip(tr("Every head with its score on this text; click a column to sort, a row to show the head"));
    // Both columns and the scroll bar, whatever the panel's width; a header and about four heads.
    const QFontMetrics fm = m_list->fontMetrics();
    m_list->setMinimumSize(fm.horizontalAdvance(QStringLiteral("L00H00")) + fm.horizontalAdvance(QStringLiteral("0.00000"))
                               + 3 * fm.height() + m_list->style()->pixelMetric(QStyle::PM_ScrollBarExtent),
                           fm.height() * 6);
    m_list->hide();
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item)
            emit headPicked(item->data(HeadColumn, Qt::UserRole).toInt(), item->data(ScoreColumn, Qt::UserRole).toInt());
    });
    m_split = new QSplitter(Qt::Vertical);
    m_split->setChildrenCollapsible(false);
    m_split->addWidget(m_grid);
    m_split->addWidget(m_list);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(row);
    layout->addWidget(m_split, 1);
    connect(m_score, qOverload<int>(&QComboBox::currentIndexChanged), this, &ModelGridPanel::onChoice);
    connect(m_key, qOverload<int>(&QComboBox::currentIndexChanged), this, &ModelGridPanel::onChoice);
    connect(m_sort, &QCheckBox::toggled, this, &ModelGridPanel::apply);
    onChoice();
}

void ModelGridPanel::setTokens(const QStringList &tokens)
{
    QStringList items;
    for (int i = 0; i < tokens.size(); ++i)
        // As the chips show it: a word's leading space is not worth a character here.
        items << tr("%1 \u201c%2\u201d").arg(i).arg(tokens[i].trimmed().isEmpty() ? tokens[i] : tokens[i].trimmed());
    // A typed word changes the end of the list: the items before the first
    // that differs stay (a list of hundreds rebuilt at every word is felt).
    int same = 0;
    while (same < int(items.size()) && same < m_key->count() && m_key->itemText(same) == items[same])
        ++same;
    if (same == int(items.size()) && same == m_key->count())
        return;
    const int keep = m_key->currentIndex();
    {
        const QSignalBlocker block(m_key);
        for (int i = m_key->count() - 1; i >= same; --i)
            m_key->removeItem(i);
        m_key->addItems(items.mid(same));
        m_key->setCurrentIndex(items.isEmpty() ? -1 : std::clamp(keep, 0, int(items.size()) - 1));
    }
    onChoice();
}

int ModelGridPanel::chosenKey() const
{
    return m_score->currentData().toInt() == kChosenKeyChoice ? m_key->currentIndex() : -1;
}

void ModelGridPanel::showChosenKey(int key)
{
    {
        const QSignalBlocker blockKey(m_key), blockScore(m_score);
        m_key->setCurrentIndex(key);
        m_score->setCurrentIndex(m_score->findData(kChosenKeyChoice));
    }
    onChoice();
}

void ModelGridPanel::reset()
{
    {
        const QSignalBlocker blockKey(m_key), blockScore(m_score), blockSort(m_sort);
        m_score->setCurrentIndex(0);
        m_key->setCurrentIndex(m_key->count() > 0 ? 0 : -1);
        m_sort->setChecked(false);
    }
    onChoice();
}

void ModelGridPanel::onChoice()
{
    const bool picking = m_score->currentData().toInt() == kChosenKeyChoice;
    m_keyLabel->setVisible(picking);
    m_key->setVisible(picking);
    if (chosenKey() != m_lastChosenKey) {
        m_lastChosenKey = chosenKey();
        emit chosenKeyChanged();
    }
    apply();
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
        shown.name = tr(choice.name);
    }
    fillList(shown);
    m_grid->setScores(std::move(shown));
}

void ModelGridPanel::fillList(const ModelGridScores &shown)
{
    m_list->setVisible(!shown.values.empty());
    if (shown.values.empty() && m_list->topLevelItemCount() == 0)
        return; // no score chosen: nothing to fill at every word
    const QSignalBlocker block(m_list); // filling is not picking
    m_list->clear();
    m_list->setSortingEnabled(false); // one sort after the rows are in, not one per row
    QList<QTreeWidgetItem *> items;
    for (int l = 0; l < int(shown.values.size()); ++l)
        for (int h = 0; h < int(shown.values[std::size_t(l)].size()); ++h)
            items << new ScoreItem(l, h, shown.values[std::size_t(l)][std::size_t(h)]);
    m_list->addTopLevelItems(items);
    m_list->setSortingEnabled(true);
}

void ModelGridPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // The list beside the grid in a wide panel, under it in a tall one: the grid stays square and large.
    const Qt::Orientation wanted = width() >= height() ? Qt::Horizontal : Qt::Vertical;
    if (m_split->orientation() != wanted)
        m_split->setOrientation(wanted);
}
