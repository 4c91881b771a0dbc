#include "crossattentionpanel.h"

#include "barcolumnsview.h"
#include "democolumns.h"
#include "document.h"
#include "lessons/lessons.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

CrossAttentionPanel::CrossAttentionPanel(Document *document, QWidget *parent)
    : QWidget(parent), m_document(document)
{
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Self-attention relates the words of one sentence to each other. Cross-attention "
                                "lets the sentence's queries look at a second sequence, the source (say, the sentence "
                                "being translated): keys and values come from there."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *row = new QHBoxLayout;
    auto *label = new QLabel(tr("S&ource:"));
    m_source = new QLineEdit;
    // Short enough for a narrow dock; the tooltip says the rest.
    m_source->setPlaceholderText(tr("Source sentence"));
    m_source->setToolTip(tr("The sequence that supplies keys and values, e.g. the sentence being translated; "
                            "leave it empty for self-attention"));
    m_source->setClearButtonEnabled(true);
    m_source->setAccessibleName(tr("Source sentence"));
    label->setBuddy(m_source);
    row->addWidget(label);
    row->addWidget(m_source, 1);
    layout->addLayout(row);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_compare = new BarColumnsView;
    layout->addWidget(m_compare, 1);

    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(kSourceDelayMs);
    connect(m_source, &QLineEdit::textEdited, m_timer, qOverload<>(&QTimer::start));
    connect(m_source, &QLineEdit::returnPressed, this, [this] {
        m_timer->stop();
        m_document->setSourceSentence(m_source->text());
    });
    connect(m_timer, &QTimer::timeout, this, [this] { m_document->setSourceSentence(m_source->text()); });
    connect(m_document, &Document::resultChanged, this, &CrossAttentionPanel::onSessionChanged);
    connect(m_document, &Document::queryChanged, this, &CrossAttentionPanel::updateComparison);
    onSessionChanged();
}

void CrossAttentionPanel::setHead(int head)
{
    m_head = std::max(head, 0);
    updateComparison();
}

QString CrossAttentionPanel::statusText() const
{
    return m_status->text();
}

void CrossAttentionPanel::onSessionChanged()
{
    const attn::Session &s = m_document->session();
    // The field follows undo and opened files, but never fights the typist.
    if (!m_source->hasFocus() && !m_timer->isActive()) {
        const QString text = s.source ? s.source->tokens.join(QLatin1Char(' ')) : QString();
        if (text != m_source->text())
            m_source->setText(text);
    }
    m_self = m_document->snapshot();
    m_selfPending = bool(s.source);
    if (s.source) {
        // Through the document's scheduler: at once for a short sentence, on a
        // worker for a long one (a newer edit cancels the older run).
        m_document->computeVariants(QStringLiteral("cross-attention"), {attn::withoutSource(s)}, this,
                                    [this](const ComputeScheduler::Snapshots &v) {
                                        m_self = v.front();
                                        m_selfPending = false;
                                        updateComparison();
                                    });
    }
    if (s.source)
        m_status->setText(tr("Cross-attention is on: the heatmap shows %1 queries × %2 source tokens.")
                              .arg(s.tokenCount())
                              .arg(s.source->tokens.size()));
    else
        m_status->setText(tr("No source: the heatmap shows self-attention (%1 × %1).").arg(s.tokenCount()));
    updateComparison();
}

void CrossAttentionPanel::updateComparison()
{
    const int query = m_document->query();
    const attn::Session &s = m_document->session();
    const QString token = s.tokens.value(query);
    if (m_selfPending) {
        m_compare->setMessage(tr("Computing the sentence's self-attention…"));
        return;
    }
    if (!m_self->result) {
        m_compare->setMessage(tr("Cannot compute: %1").arg(m_self->error));
        return;
    }
    std::vector<BarColumn> columns{demoColumn(tr("Self-attention: “%1” over its own sentence").arg(token), *m_self, query,
                                              m_head, DemoRow::Weights)};
    if (s.source) {
        const SnapshotPtr cross = m_document->snapshot();
        if (!cross->result) {
            m_compare->setMessage(tr("Cannot compute: %1").arg(cross->error));
            return;
        }
        columns.push_back(demoColumn(tr("Cross-attention: “%1” over the source").arg(token), *cross, query, m_head,
                                     DemoRow::Weights));
        columns.back().footer = tr("Each column adds up to 1: the same query spreads its attention over different "
                                   "keys.");
    } else {
        columns.front().footer = tr("Type a source sentence above to see cross-attention next to it.");
    }
    m_compare->setColumns(columns, {tr("vs")});
}
