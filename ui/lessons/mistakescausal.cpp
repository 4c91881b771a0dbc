// MistakesDialog's causal mask demo: the weights of one query with and
// without the mask, on a query where the mask shows something.

#include "mistakesdialog.h"

#include "barcolumnsview.h"
#include "democolumns.h"
#include "document.h"
#include "heatmapview.h"
#include "lessons/lessons.h"
#include "lessons/notation.h"

#include <QComboBox>
#include <QSignalBlocker>
#include <algorithm>

int MistakesDialog::causalDemoQuery() const
{
    const int n = m_document->session().tokenCount();
    if (m_causalPick >= 0 && m_causalPick < n)
        return m_causalPick;
    const int q = std::clamp(m_document->query(), 0, std::max(n - 1, 0));
    return n >= 3 && (q == 0 || q == n - 1) ? n / 2 : q;
}

void MistakesDialog::refreshCausal()
{
    // A causal mask belongs to self-attention: with a source, the demo shows the sentence's own.
    const attn::Session s = attn::withoutSource(m_document->session());
    const int q = causalDemoQuery();
    {
        const QSignalBlocker block(m_causalQuery);
        const QStringList labels = attn::tokenLabels(s.tokens);
        QStringList shown;
        for (int i = 0; i < m_causalQuery->count(); ++i)
            shown << m_causalQuery->itemText(i);
        if (shown != labels) {
            m_causalQuery->clear();
            m_causalQuery->addItems(labels);
        }
        m_causalQuery->setCurrentIndex(q);
    }
    m_document->computeVariants(QStringLiteral("mistakes"), {attn::withCausal(s, false), attn::withCausal(s, true)},
                                this, [this, q](const ComputeScheduler::Snapshots &v) { showCausal(v[0], v[1], q); });
}

void MistakesDialog::showCausal(const SnapshotPtr &open, const SnapshotPtr &masked, int q)
{
    const attn::Session s = attn::withoutSource(m_document->session());
    m_causalMap->setSnapshot(masked);
    m_causalMap->setHead(std::optional<int>(m_head));
    m_causalMap->setQuery(q);
    if (!open->result || !masked->result) {
        m_columns[CausalMask]->setMessage(open->error);
        return;
    }
    const QStringList keys = masked->columnTokens;
    const int visible = std::min(q + 1, int(keys.size()));
    QString text =
        tr("A text generator writes one token after another, so while it works on “%1” the later tokens do not exist "
           "yet. The causal mask blocks them before the softmax: “%1” may look at %2, but not at %3.")
            .arg(s.tokens.value(q), keys.mid(0, visible).join(QStringLiteral(", ")),
                 visible < keys.size() ? keys.mid(visible).join(QStringLiteral(", ")) : tr("(nothing: it is last)"));
    const int windowQuery = m_document->query();
    if (q != windowQuery && m_causalPick < 0) {
        const QString why = windowQuery == 0 ? tr("“%1”, the query in the window, is the first token: the mask leaves it "
                                                  "only itself, a weight of 1.")
                                             : tr("“%1”, the query in the window, is the last token: the mask hides "
                                                  "nothing from it.");
        text = why.arg(s.tokens.value(windowQuery)) + QLatin1Char(' ')
            + tr("This demo shows “%1” instead; pick another query above.").arg(s.tokens.value(q)) + QLatin1Char(' ')
            + text;
    }
    setNote(text, true);
    std::vector<BarColumn> columns{demoColumn(tr("Weights without the mask"), *open, q, m_head, DemoRow::Weights),
                                   demoColumn(tr("Weights with the causal mask"), *masked, q, m_head, DemoRow::Weights)};
    columns[1].footer = tr("the visible keys share the whole weight of 1");
    m_columns[CausalMask]->setColumns(columns, {tr("mask")});
}
