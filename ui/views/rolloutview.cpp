#include "rolloutview.h"

#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QResizeEvent>
#include <QToolTip>
#include <algorithm>

namespace {
constexpr int kMargin = 6;
}

RolloutView::RolloutView(QWidget *parent) : QWidget(parent), m_explanation(new QLabel(this))
{
    setAccessibleName(tr("Attention rollout"));
    m_explanation->setWordWrap(true);
    m_explanation->setTextFormat(Qt::PlainText);
    m_explanation->setText(explanation());
    m_explanation->setContentsMargins(kMargin, kMargin, kMargin, 0);
    applySmallFont();
    m_explanation->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_painter.setShowTitle(false);
    m_painter.setValueName(tr("share"));
}

QString RolloutView::explanation() const
{
    return tr("Rollout follows attention through every layer: each layer's attention, averaged over its heads and "
              "mixed half and half with the identity (the residual connection), is multiplied with those below it. "
              "Row i estimates how much of position i traces back to each input token. It looks only at attention "
              "weights: it ignores the values, the MLPs and layer norm, and counts switched-off heads as if they "
              "were on, so it is a rough estimate of how information flows, not an explanation of the prediction. "
              "An attention weight is not an explanation.");
}

void RolloutView::setRollout(std::shared_ptr<const attn::RowMatrix<double>> rollout, const QStringList &tokens,
                             bool causal, int layers)
{
    m_rollout = std::move(rollout);
    auto snapshot = std::make_shared<AttentionSnapshot>();
    if (m_rollout && m_rollout->rows() == tokens.size() && m_rollout->rows() > 0) {
        snapshot->rowTokens = tokens;
        snapshot->columnTokens = tokens;
        auto result = std::make_shared<attn::AttentionResult>();
        attn::HeadResult head;
        head.weights = attn::AttentionMatrix(attn::RowMatrixD(*m_rollout));
        result->heads.push_back(std::move(head));
        result->causal = causal;
        snapshot->result = result;
        m_heading = layers == 1 ? tr("Rollout through 1 layer")
                                : tr("Rollout through %1 layers").arg(layers);
    } else {
        snapshot->error = tr("Type a text for the model to read");
        m_heading.clear();
    }
    m_painter.setSnapshot(snapshot);
    update();
}

void RolloutView::setColorMap(ColorMap map)
{
    m_painter.setColorMap(map);
    update();
}

void RolloutView::setQuery(int query)
{
    m_painter.setQuery(query);
    update();
}

bool RolloutView::explanationBeside() const
{
    // A wide, low dock (the bottom area) keeps the heatmap as tall as it can be.
    return width() >= 520 && width() >= 1.4 * height();
}

QRect RolloutView::heatmapRect() const
{
    const int titleHeight = fontMetrics().height() + 4;
    if (explanationBeside()) {
        const int right = m_explanation->geometry().left() - kMargin;
        return QRect(kMargin, kMargin + titleHeight, right - kMargin, height() - 2 * kMargin - titleHeight);
    }
    const int top = m_explanation->geometry().bottom() + kMargin + titleHeight;
    return QRect(kMargin, top, width() - 2 * kMargin, height() - top - kMargin);
}

void RolloutView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (explanationBeside()) {
        const int w = std::min(340, width() / 3);
        m_explanation->setGeometry(width() - w - kMargin, 0, w, height());
    } else {
        m_explanation->setGeometry(0, 0, width(), m_explanation->heightForWidth(width()));
    }
    update();
}

void RolloutView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QRect area = heatmapRect();
    if (!m_painter.hasResult()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, tr("Type a text for the model to read"));
        return;
    }
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    const QRect title(kMargin, area.top() - fontMetrics().height() - 4, area.width(), fontMetrics().height());
    p.drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(m_heading, Qt::ElideRight, title.width()));
    p.setFont(font());
    if (area.height() > 20 && area.width() > 20)
        m_painter.paint(p, QRectF(area), palette());
}

void RolloutView::applySmallFont()
{
    // From the view's font each time, so the paragraph grows with View › Zoom In.
    QFont small = font();
    if (small.pointSizeF() > 0)
        small.setPointSizeF(small.pointSizeF() * 0.92);
    m_explanation->setFont(small);
}

bool RolloutView::event(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        applySmallFont();
        QResizeEvent same(size(), size());
        resizeEvent(&same); // the paragraph's height changed with its font
    }
    if (event->type() == QEvent::ToolTip && m_painter.hasResult()) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QRect area = heatmapRect();
        const HeatmapLayout &l = m_painter.layout(QRectF(area), font(), this);
        if (const auto cell = l.cellAt(help->pos())) {
            const auto [row, column] = *cell;
            const QStringList &labels = m_painter.rowLabels();
            QToolTip::showText(help->globalPos(),
                               tr("Position %1 “%2” from input token %3 “%4”: %5")
                                   .arg(row).arg(labels.value(row)).arg(column).arg(labels.value(column))
                                   .arg(m_painter.valueAt(row, column), 0, 'f', 4),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}
