// What the heatmap says in words: the cell tooltips and the accessible
// description. HeatmapView's other half; input and zoom are in heatmapview.cpp.
#include "heatmapview.h"

#include "lessons/notation.h"

#include <algorithm>

namespace {

// Results with the decimals every view uses; the factors of a written-out
// product as short as the walkthrough writes them.
QString number(double value)
{
    return attn::formatFixed(value);
}

QString factor(double value)
{
    const QString text = attn::formatNumber(value);
    return value < 0 ? QStringLiteral("(%1)").arg(text) : text;
}

// "0.55×0.43 + 0.87×0.15 + … (+N more) = 0.9544"
QString dotProductText(const Eigen::Ref<const Eigen::RowVectorXd> &q, const Eigen::Ref<const Eigen::RowVectorXd> &k)
{
    constexpr int kMaxTerms = 8;
    QStringList terms;
    const int n = int(q.size());
    for (int i = 0; i < std::min<int>(n, kMaxTerms); ++i)
        terms << factor(q(i)) + QStringLiteral("×") + factor(k(i));
    QString text = terms.join(QStringLiteral(" + "));
    if (n > kMaxTerms)
        text += QStringLiteral(" + … (+%1 more)").arg(n - kMaxTerms);
    return text + QStringLiteral(" = ") + number(q.dot(k));
}

} // namespace

QString HeatmapView::tooltipText(int row, int column) const
{
    if (!m_painter.hasResult() || row < 0 || column < 0 || row >= m_painter.rows() || column >= m_painter.columns())
        return {};
    const attn::AttentionResult &result = *m_painter.snapshot()->result;
    const bool masked = result.isMasked(row, column);
    // Why a masked key is: after the query (causal), or before its window.
    const QString maskedText = result.isOutsideWindow(row, column)
        ? tr("weight α: %1 (weight 0)").arg(m_painter.outsideWindowText())
        : tr("weight α: masked (weight 0)");
    const int heads = int(result.heads.size());
    const std::optional<int> head = heads == 1 ? std::optional<int>(0) : m_painter.effectiveHead();
    QStringList lines;
    // Positions from 0, as in files and on the command line; the labels tell
    // repeated words apart ("over₇").
    lines << tr("query %1 “%2” · key %3 “%4”")
                 .arg(row)
                 .arg(m_painter.rowLabels().value(row))
                 .arg(column)
                 .arg(m_painter.columnLabels().value(column));
    if (!head) {
        // The average has no single q·k: show the mean and each head's weight.
        double score = 0.0, weight = 0.0;
        QStringList perHead;
        for (const attn::HeadResult &h : m_painter.snapshot()->computedResult()->heads) {
            score += h.scores(row, column) / heads;
            weight += h.weights(row, column) / heads;
            if (perHead.size() < 8)
                perHead << number(h.weights(row, column));
        }
        lines << tr("average over %1 heads").arg(heads);
        lines << tr("mean score ω = %1").arg(number(score));
        lines << (masked ? maskedText : tr("mean weight α = %1").arg(number(weight)));
        if (m_painter.showsFirstTokenAside() && !masked)
            lines << (column == 0 ? tr("the first token: set aside")
                                  : tr("shown: %1, the mean of the heads' weights without the first token")
                                        .arg(number(m_painter.valueAt(row, column))));
        lines << tr("α per head: %1").arg(perHead.join(QStringLiteral(", ")) + (heads > 8 ? QStringLiteral(", …") : QString()));
        return lines.join(QLatin1Char('\n'));
    }
    const attn::HeadResult &h = result.heads[std::size_t(*head)];
    if (heads > 1)
        lines << tr("%1 (heads 0–%2)").arg(attn::headName(*head)).arg(heads - 1);
    const double score = h.scores(row, column);
    lines << tr("score ω = %1").arg(number(score));
    if (result.scoreScale != 1.0)
        lines << tr("scaled score ω×%1 = %2").arg(number(result.scoreScale), number(score * result.scoreScale));
    const attn::AttentionResult &computed = *m_painter.snapshot()->computedResult();
    const double weight = computed.heads[std::size_t(*head)].weights(row, column);
    if (masked)
        lines << maskedText;
    else if (!m_painter.snapshot()->firstTokenAside)
        lines << tr("weight α = %1").arg(number(weight));
    else if (column == 0)
        lines << tr("weight α = %1, set aside").arg(number(weight));
    else // what the cell's colour shows, and what the model computed
        lines << tr("weight α = %1; %2 of what the first token leaves")
                     .arg(number(weight), number(h.weights(row, column)));
    lines << tr("q·k = %1").arg(dotProductText(h.queries.row(row), h.keys.row(column)));
    return lines.join(QLatin1Char('\n'));
}

void HeatmapView::updateAccessibleText()
{
    const int q = m_painter.query();
    if (!m_painter.hasResult() || q < 0 || q >= m_painter.rows()) {
        setAccessibleDescription(m_painter.hasResult() || !m_painter.snapshot()
                                     ? tr("No query selected")
                                     : m_painter.snapshot()->error);
        return;
    }
    // Weights of the head shown, or their average: only this one row is summed.
    const attn::AttentionResult &result = *m_painter.snapshot()->result;
    const std::optional<int> head = m_painter.effectiveHead();
    Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(m_painter.columns());
    for (int h = 0; h < int(result.heads.size()); ++h) {
        if (!head || h == *head)
            row += result.heads[h].weights.row(q);
    }
    const double summed = head ? 1.0 : double(result.heads.size());
    Eigen::Index best = 0;
    const double total = row.maxCoeff(&best) / summed;
    const QStringList &rows = m_painter.rowLabels();
    const QStringList &columns = m_painter.columnLabels();
    if (m_focusColumn >= 0 && m_focusColumn < m_painter.columns()) {
        // What a screen reader says for the cell under the keyboard cursor.
        const bool masked = result.isMasked(q, m_focusColumn);
        setAccessibleDescription(
            masked ? tr("Query “%1”, key “%2”: masked, weight 0").arg(rows.value(q), columns.value(m_focusColumn))
                   : tr("Query “%1”, key “%2”: weight %3")
                         .arg(rows.value(q), columns.value(m_focusColumn),
                              number(row(m_focusColumn) / summed)));
        return;
    }
    setAccessibleDescription(tr("Query “%1” attends most to “%2” with weight %3")
                                 .arg(rows.value(q), columns.value(int(best)), number(total)));
}
