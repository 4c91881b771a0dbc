#include "heatmapview.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include "widgetcache.h"

#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace {

// Four significant digits: enough to check a sum by hand, short enough to read.
QString number(double value)
{
    return QString::number(value, 'g', 4);
}

QString factor(double value)
{
    return value < 0 ? QStringLiteral("(%1)").arg(number(value)) : number(value);
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

HeatmapView::HeatmapView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent); // the painter fills every pixel
    setAccessibleName(tr("Attention heatmap"));
    updateAccessibleText();
}

void HeatmapView::setSnapshot(SnapshotPtr snapshot)
{
    m_painter.setSnapshot(std::move(snapshot));
    if (m_painter.hoverRow() >= m_painter.rows() || m_painter.hoverColumn() >= m_painter.columns())
        m_painter.setHoverCell(-1, -1);
    invalidate();
}

void HeatmapView::setQuery(int row)
{
    if (row == m_painter.query())
        return;
    m_painter.setQuery(row);
    if (m_focusColumn >= 0 && hasFocus())
        m_painter.setHoverCell(row, m_focusColumn); // the keyboard cursor moves with its row
    invalidate();
}

void HeatmapView::setHead(int head)
{
    if (head == m_painter.head())
        return;
    m_painter.setHead(head);
    invalidate();
}

void HeatmapView::setShowScores(bool scores)
{
    if (scores == m_painter.showScores())
        return;
    m_painter.setShowScores(scores);
    invalidate();
}

void HeatmapView::setColorMap(ColorMap map)
{
    if (map == m_painter.colorMap())
        return;
    m_painter.setColorMap(map);
    invalidate();
}

void HeatmapView::invalidate()
{
    m_cacheDirty = true;
    updateAccessibleText();
    update();
}

const HeatmapLayout &HeatmapView::currentLayout() const
{
    return m_painter.layout(QRectF(rect()), font(), this);
}

QRectF HeatmapView::cellRect(int row, int column) const
{
    return currentLayout().cellRect(row, column);
}

std::optional<std::pair<int, int>> HeatmapView::cellAt(const QPointF &pos) const
{
    return currentLayout().cellAt(pos);
}

QString HeatmapView::tooltipText(int row, int column) const
{
    const SnapshotPtr snapshot = m_painter.snapshot();
    if (!m_painter.hasResult() || row < 0 || column < 0 || row >= m_painter.rows() || column >= m_painter.columns())
        return {};
    const attn::AttentionResult &result = *snapshot->result;
    const bool masked = result.isMasked(row, column);
    const int heads = int(result.heads.size());
    const int head = heads == 1 ? 0 : m_painter.effectiveHead();
    QStringList lines;
    lines << tr("query “%1” → key “%2”").arg(snapshot->rowTokens.value(row), snapshot->columnTokens.value(column));
    if (head < 0) {
        // The average has no single q·k: show the mean and each head's weight.
        double score = 0.0, weight = 0.0;
        QStringList perHead;
        for (const attn::HeadResult &h : result.heads) {
            score += h.scores(row, column) / heads;
            weight += h.weights(row, column) / heads;
            if (perHead.size() < 8)
                perHead << number(h.weights(row, column));
        }
        lines << tr("average over %1 heads").arg(heads);
        lines << tr("mean score ω = %1").arg(number(score));
        lines << (masked ? tr("weight α: masked (weight 0)") : tr("mean weight α = %1").arg(number(weight)));
        lines << tr("α per head: %1").arg(perHead.join(QStringLiteral(", ")) + (heads > 8 ? QStringLiteral(", …") : QString()));
        return lines.join(QLatin1Char('\n'));
    }
    const attn::HeadResult &h = result.heads[head];
    if (heads > 1)
        lines << tr("head %1 of %2").arg(head + 1).arg(heads);
    const double score = h.scores(row, column);
    lines << tr("score ω = %1").arg(number(score));
    if (result.scoreScale != 1.0)
        lines << tr("scaled score ω×%1 = %2").arg(number(result.scoreScale), number(score * result.scoreScale));
    lines << (masked ? tr("weight α: masked (weight 0)") : tr("weight α = %1").arg(number(h.weights(row, column))));
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
    const int head = m_painter.effectiveHead();
    Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(m_painter.columns());
    for (int h = 0; h < int(result.heads.size()); ++h) {
        if (head < 0 || h == head)
            row += result.heads[h].weights.row(q);
    }
    Eigen::Index best = 0;
    const double total = row.maxCoeff(&best) / (head < 0 ? double(result.heads.size()) : 1.0);
    const SnapshotPtr s = m_painter.snapshot();
    if (m_focusColumn >= 0 && m_focusColumn < m_painter.columns()) {
        // What a screen reader says for the cell under the keyboard cursor.
        const bool masked = result.isMasked(q, m_focusColumn);
        setAccessibleDescription(
            masked ? tr("Query “%1”, key “%2”: masked, weight 0")
                         .arg(s->rowTokens.value(q), s->columnTokens.value(m_focusColumn))
                   : tr("Query “%1”, key “%2”: weight %3")
                         .arg(s->rowTokens.value(q), s->columnTokens.value(m_focusColumn),
                              number(row(m_focusColumn) / (head < 0 ? double(result.heads.size()) : 1.0))));
        return;
    }
    setAccessibleDescription(tr("Query “%1” attends most to “%2” with weight %3")
                                 .arg(s->rowTokens.value(q), s->columnTokens.value(int(best)), number(total)));
}

void HeatmapView::paintEvent(QPaintEvent *)
{
    if (refitWidgetCache(m_cache, *this, m_cacheDirty)) {
        QPainter cachePainter(&m_cache);
        cachePainter.setFont(font());
        m_painter.paintBase(cachePainter, QRectF(rect()), palette());
        m_cacheDirty = false;
    }
    QPainter p(this);
    p.drawImage(0, 0, m_cache);
    m_painter.paintHover(p, QRectF(rect()), palette());
}

void HeatmapView::setHighlightedCells(int row, const QList<int> &columns)
{
    m_painter.setHighlightedCells(row, columns);
    update(); // an overlay: the cached cells stay
}

void HeatmapView::setHover(int row, int column)
{
    if (row == m_painter.hoverRow() && column == m_painter.hoverColumn())
        return;
    m_painter.setHoverCell(row, column);
    update(); // the cache stays: only the hover ring is redrawn on top
    emit cellHovered(row, column);
}

void HeatmapView::mouseMoveEvent(QMouseEvent *event)
{
    const auto cell = cellAt(event->position());
    setHover(cell ? cell->first : -1, cell ? cell->second : -1);
}

void HeatmapView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    if (const auto cell = cellAt(event->position()))
        emit querySelected(cell->first);
}

void HeatmapView::leaveEvent(QEvent *event)
{
    setHover(-1, -1);
    QWidget::leaveEvent(event);
}

void HeatmapView::keyPressEvent(QKeyEvent *event)
{
    if (m_painter.rows() == 0 || m_painter.columns() == 0)
        return QWidget::keyPressEvent(event);
    // Left/Right walk a cursor along the query's row; Up/Down move the query.
    const int across = event->key() == Qt::Key_Left ? -1 : event->key() == Qt::Key_Right ? 1 : 0;
    if (across != 0) {
        m_focusColumn = m_focusColumn < 0 ? 0 : std::clamp(m_focusColumn + across, 0, m_painter.columns() - 1);
        setHover(m_painter.query(), m_focusColumn);
        updateAccessibleText();
        return;
    }
    const int step = event->key() == Qt::Key_Up ? -1 : event->key() == Qt::Key_Down ? 1 : 0;
    if (step == 0)
        return QWidget::keyPressEvent(event);
    const int next = std::clamp(m_painter.query() + step, 0, m_painter.rows() - 1);
    if (next != m_painter.query())
        emit querySelected(next);
}

bool HeatmapView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const auto cell = cellAt(help->pos());
        if (cell) {
            QToolTip::showText(help->globalPos(), tooltipText(cell->first, cell->second), this,
                               cellRect(cell->first, cell->second).toAlignedRect());
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void HeatmapView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange)
        invalidate();
    QWidget::changeEvent(event);
}
