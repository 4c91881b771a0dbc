#include "mistakesdialog.h"

#include "barcolumnsview.h"
#include "contributionview.h"
#include "democolumns.h"
#include "document.h"
#include "heatmapview.h"
#include "lessons/lessons.h"
#include "lessons/notation.h"
#include "screenfit.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

MistakesDialog::MistakesDialog(Document *document, QWidget *parent)
    : QDialog(parent), m_document(document), m_columns(DemoCount, nullptr)
{
    setWindowTitle(tr("Mistakes made visible"));
    m_list = new QListWidget;
    m_list->addItems({tr("Scores are not weights"), tr("Forgetting to scale"), tr("Word order"),
                      tr("The largest weight is not the whole story"), tr("Causal masking")});
    m_list->setWordWrap(true);
    fitList();
    m_pages = new QStackedWidget;
    for (int demo = 0; demo < DemoCount; ++demo)
        m_pages->addWidget(buildPage(demo));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    // The explanation sits outside the stack: a stacked widget does not pass
    // on the height a wrapped label needs for its width, and clipped it.
    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *right = new QVBoxLayout;
    right->addWidget(m_note);
    right->addWidget(m_pages, 1);
    auto *body = new QHBoxLayout;
    body->addWidget(m_list);
    body->addLayout(right, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::currentRowChanged, this, &MistakesDialog::showDemo);
    connect(m_document, &Document::resultChanged, this, &MistakesDialog::refresh);
    connect(m_document, &Document::queryChanged, this, [this] {
        m_causalPick = -1; // a query clicked in the window is the one to show again
        refresh();
    });
    m_order = attn::shuffleOrder(m_document->tokenCount(), m_shuffleSeed);
    resizeWithinScreen(this, {880, 560});
    showDemo(0);
}

QWidget *MistakesDialog::buildPage(int demo)
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    if (demo == ForgettingToScale) {
        auto *row = new QHBoxLayout;
        auto *label = new QLabel(tr("&Head width d_k:"));
        m_headDim = new QComboBox;
        for (int dk : {64, 256, 1024})
            m_headDim->addItem(QString::number(dk), dk);
        label->setBuddy(m_headDim);
        row->addWidget(label);
        row->addWidget(m_headDim);
        row->addStretch(1);
        layout->addLayout(row);
        connect(m_headDim, qOverload<int>(&QComboBox::currentIndexChanged), this, &MistakesDialog::refresh);
    } else if (demo == WordOrder) {
        auto *row = new QHBoxLayout;
        auto *shuffle = new QPushButton(tr("&Shuffle words"));
        auto *apply = new QPushButton(tr("Shuffle &my sentence"));
        apply->setToolTip(tr("Reorder the words of the sentence itself (undo with Ctrl+Z)"));
        m_shuffledText = new QLabel;
        m_shuffledText->setWordWrap(true);
        row->addWidget(shuffle);
        row->addWidget(apply);
        row->addWidget(m_shuffledText, 1);
        layout->addLayout(row);
        connect(shuffle, &QPushButton::clicked, this, &MistakesDialog::shuffleAgain);
        connect(apply, &QPushButton::clicked, this, [this] { m_document->shuffleTokens(m_shuffleSeed); });
    }
    if (demo == LargestWeight) {
        m_contribution = new ContributionView;
        layout->addWidget(m_contribution, 1);
    } else {
        m_columns[std::size_t(demo)] = new BarColumnsView;
        layout->addWidget(m_columns[std::size_t(demo)], 1);
    }
    if (demo == CausalMask) {
        // The query this demo shows: the window's, unless the mask would show
        // nothing there (the first token sees only itself, the last sees all).
        auto *row = new QHBoxLayout;
        auto *label = new QLabel(tr("&Query:"));
        m_causalQuery = new QComboBox;
        m_causalQuery->setAccessibleName(tr("Query of the causal mask demo"));
        label->setBuddy(m_causalQuery);
        row->addWidget(label);
        row->addWidget(m_causalQuery);
        row->addStretch(1);
        layout->insertLayout(0, row);
        connect(m_causalQuery, qOverload<int>(&QComboBox::activated), this, [this](int index) {
            m_causalPick = index;
            refresh();
        });
        m_causalMap = new HeatmapView;
        m_causalMap->setMinimumHeight(180);
        layout->addWidget(m_causalMap, 1);
    }
    return page;
}

void MistakesDialog::setHead(int head)
{
    m_head = std::max(head, 0);
    refresh();
}

void MistakesDialog::setNote(const QString &text, bool selfAttentionOnly)
{
    m_note->setText(attentionKind(selfAttentionOnly) + QLatin1Char(' ') + text);
    fitNote();
}

QString MistakesDialog::attentionKind(bool selfAttentionOnly) const
{
    // Every demo says which attention it shows, so a learner never compares
    // a cross-attention row with a self-attention one.
    if (!m_document->session().source)
        return tr("Self-attention of the sentence.");
    if (selfAttentionOnly)
        return tr("Shown on the self-attention of the sentence (the source is left out), so both sides compare the "
                  "same tokens.");
    return tr("Cross-attention: queries from the sentence, keys and values from the source.");
}

void MistakesDialog::fitNote()
{
    // As tall as the wrapped text needs at the label's width (see the constructor).
    // (-1 before the note has text: Qt warned of a negative size.)
    m_note->setMinimumHeight(std::max(m_note->heightForWidth(std::max(m_note->width(), 200)), 0));
}

void MistakesDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    refresh();
}

void MistakesDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitList();
}

void MistakesDialog::fitList()
{
    // Wide enough for the longest demo's name in two lines, at the current font size.
    m_list->setFixedWidth(m_list->fontMetrics().horizontalAdvance(QStringLiteral("The largest weight is")) + 32);
}

void MistakesDialog::resizeEvent(QResizeEvent *event)
{
    QDialog::resizeEvent(event);
    fitNote();
}

QString MistakesDialog::explanationText() const
{
    return m_note->text();
}

int MistakesDialog::currentDemo() const
{
    return m_pages->currentIndex();
}

int MistakesDialog::scalingHeadDim() const
{
    // The current head width when it is already larger than the choice.
    const attn::AttentionConfig &c = m_document->session().attention;
    const int current = c.mode == attn::Mode::ScaledDotProduct ? c.headDim : 0;
    return std::max(current, m_headDim->currentData().toInt());
}

void MistakesDialog::showDemo(int demo)
{
    demo = std::clamp(demo, 0, DemoCount - 1);
    if (m_list->currentRow() != demo)
        m_list->setCurrentRow(demo);
    m_pages->setCurrentIndex(demo);
    refresh();
}

void MistakesDialog::shuffleAgain()
{
    ++m_shuffleSeed;
    m_order = attn::shuffleOrder(m_document->tokenCount(), m_shuffleSeed);
    refresh();
}

void MistakesDialog::refresh()
{
    // Only the visible demo is computed, and only while the dialog is open:
    // the others catch up when shown.
    if (!isVisible())
        return;
    switch (currentDemo()) {
    case ScoresAreNotWeights: refreshScores(); break;
    case ForgettingToScale: refreshScaling(); break;
    case WordOrder: refreshWordOrder(); break;
    case LargestWeight: refreshLargestWeight(); break;
    case CausalMask: refreshCausal(); break;
    default: break;
    }
}

void MistakesDialog::refreshScores()
{
    const SnapshotPtr snap = m_document->snapshot();
    const int q = m_document->query();
    setNote(
        tr("A score only says how well the query “%1” matches a key. It can be negative and the scores do not add "
           "up to anything in particular. Only after the softmax do they become weights: positive, summing to 1, "
           "and those are what decide each token's share of the context vector.")
            .arg(m_document->session().tokens.value(q)));
    if (!snap->result) {
        m_columns[ScoresAreNotWeights]->setMessage(snap->error);
        return;
    }
    std::vector<BarColumn> columns{demoColumn(tr("Scores ω = q·k"), *snap, q, m_head, DemoRow::Scores)};
    QStringList arrows;
    if (snap->result->scoreScale != 1.0) {
        columns.push_back(demoColumn(tr("Scaled ω ÷ √d_k"), *snap, q, m_head, DemoRow::ScaledScores));
        arrows << tr("÷ √d_k");
    }
    columns.push_back(demoColumn(tr("Weights α"), *snap, q, m_head, DemoRow::Weights));
    arrows << tr("softmax");
    auto sum = [](const BarColumn &c) { return std::accumulate(c.values.begin(), c.values.end(), 0.0); };
    columns.front().footer = tr("sum %1").arg(attn::formatFixed(sum(columns.front())));
    columns.back().footer = tr("sum %1").arg(attn::formatFixed(sum(columns.back())));
    m_columns[ScoresAreNotWeights]->setColumns(columns, arrows);
}

void MistakesDialog::refreshScaling()
{
    const attn::Session &s = m_document->session();
    const int dk = scalingHeadDim();
    // Through the document's scheduler: a long sentence computes on a worker
    // and a newer refresh cancels this one.
    m_document->computeVariants(QStringLiteral("mistakes"),
                                {attn::withScaling(s, false, dk), attn::withScaling(s, true, dk)}, this,
                                [this, dk](const ComputeScheduler::Snapshots &v) { showScaling(v[0], v[1], dk); });
}

void MistakesDialog::showScaling(const SnapshotPtr &raw, const SnapshotPtr &scaled, int dk)
{
    const attn::Session &s = m_document->session();
    if (!raw->result || !scaled->result) {
        m_columns[ForgettingToScale]->setMessage(raw->result ? scaled->error : raw->error);
        return;
    }
    const int q = m_document->query();
    std::vector<BarColumn> columns{
        demoColumn(tr("Scores q·k (d_k = %1)").arg(dk), *raw, q, 0, DemoRow::Scores),
        demoColumn(tr("Weights, not scaled"), *raw, q, 0, DemoRow::Weights),
        demoColumn(tr("Weights, scores ÷ √%1").arg(dk), *scaled, q, 0, DemoRow::Weights)};
    columns[1].footer = largestWeightText(columns[1]);
    columns[2].footer = largestWeightText(columns[2]);
    setNote(
        tr("One head %1 numbers wide (generated weights, seed %2). A dot product adds up %1 products, so scores "
           "spread widely; fed to the softmax as they are, they push most of the weight onto one key. Dividing by √%1 = %3 "
           "keeps the weights spread out. Try a wider head to see the effect grow.")
            .arg(dk)
            .arg(s.attention.seed)
            .arg(attn::formatNumber(std::sqrt(double(dk)))));
    m_columns[ForgettingToScale]->setColumns(columns, {tr("softmax"), tr("vs")});
}

void MistakesDialog::refreshWordOrder()
{
    const attn::Session &s = m_document->session();
    if (int(m_order.size()) != s.tokenCount())
        m_order = attn::shuffleOrder(s.tokenCount(), m_shuffleSeed);
    // Shuffling reorders the sentence; with a source its keys would not move,
    // so the demo runs on the sentence's self-attention and says so.
    const attn::Session self = attn::withoutSource(s);
    const attn::Session plain = attn::withPositionalEncoding(self, attn::PositionalEncoding::None);
    // The session's own kind of positions when it turns q and k, else sinusoidal ones added to x.
    const attn::Session placed = attn::withPositionalEncoding(
        self, s.attention.rotary() ? attn::PositionalEncoding::Rotary : attn::PositionalEncoding::Sinusoidal);
    m_document->computeVariants(QStringLiteral("mistakes"),
                                {plain, attn::shuffled(plain, m_order), placed, attn::shuffled(placed, m_order)}, this,
                                [this](const ComputeScheduler::Snapshots &v) { showWordOrder(v); });
}

void MistakesDialog::showWordOrder(const ComputeScheduler::Snapshots &v)
{
    const attn::Session &s = m_document->session();
    if (v.size() != 4 || int(m_order.size()) != s.tokenCount())
        return; // the sentence changed meanwhile: a newer request is on its way
    const SnapshotPtr &a = v[0], &b = v[1], &c = v[2], &d = v[3];
    if (!a->result || !b->result || !c->result || !d->result) {
        m_columns[WordOrder]->setMessage(a->error + c->error);
        return;
    }
    const int q = s.query;
    const QString token = s.tokens.value(q);
    const bool rotary = c->result->rotary;
    std::vector<BarColumn> columns{
        demoColumn(tr("No positions"), *a, q, m_head, DemoRow::Weights),
        unshuffledWeightsColumn(tr("No positions, shuffled"), *b, m_order, s.tokens, q, m_head),
        demoColumn(rotary ? tr("Rotary positions") : tr("Positions added"), *c, q, m_head, DemoRow::Weights),
        unshuffledWeightsColumn(rotary ? tr("Rotary positions, shuffled") : tr("Positions added, shuffled"), *d,
                                m_order, s.tokens, q, m_head)};
    auto change = [](const BarColumn &x, const BarColumn &y) {
        double most = 0.0;
        for (std::size_t i = 0; i < x.values.size() && i < y.values.size(); ++i)
            most = std::max(most, std::abs(x.values[i] - y.values[i]));
        return most;
    };
    columns[1].footer = tr("largest change %1").arg(attn::formatFixed(change(columns[0], columns[1])));
    columns[3].footer = tr("largest change %1").arg(attn::formatFixed(change(columns[2], columns[3])));
    m_shuffledText->setText(tr("Shuffled: %1").arg(attn::shuffled(s, m_order).tokens.join(QLatin1Char(' '))));
    setNote(
        tr("The weights of “%1”, word by word, before and after shuffling the sentence. Attention on its own only "
           "sees which vectors are there, not where: without position information the shuffled sentence gives "
           "the same weights, just reordered. %2")
            .arg(token,
                 rotary ? tr("Rotary positions turn each query and key by its position, so the distance between two "
                             "words, and with it the order, changes the scores.")
                        : tr("Adding a position pattern to each embedding makes order matter.")),
        true);
    m_columns[WordOrder]->setColumns(columns, {tr("shuffle"), QString(), tr("shuffle")});
}

void MistakesDialog::refreshLargestWeight()
{
    const SnapshotPtr snap = m_document->snapshot();
    m_contribution->setSnapshot(snap);
    m_contribution->setQuery(m_document->query());
    m_contribution->setHead(m_head);
    const ContributionModel &m = m_contribution->model();
    if (!m.isValid()) {
        setNote(m.error);
        return;
    }
    const auto best = std::max_element(m.weights.begin(), m.weights.end());
    const int index = int(best - m.weights.begin());
    setNote(
        tr("The context vector is a weighted mix of every value vector, not a copy of the favourite. Here “%1” has "
           "the largest weight, %2, yet the other tokens together still bring %3. Each bar stacks every token's "
           "share α·v of one dimension; the line across it marks the total.")
            .arg(m.series.value(index), attn::formatFixed(*best), attn::formatFixed(1.0 - *best)));
}
