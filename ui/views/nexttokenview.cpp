#include "nexttokenview.h"

#include <QPainter>
#include <algorithm>

namespace {
constexpr int kMargin = 6;

// A leading space is how GPT-2 marks a new word; shown as a visible mark so " the" and "the" differ.
QString visible(const QString &text)
{
    QString out = text;
    if (out.startsWith(QLatin1Char(' ')))
        out.replace(0, 1, QStringLiteral("␣"));
    return out;
}
} // namespace

NextTokenView::NextTokenView(QWidget *parent) : QWidget(parent), m_empty(tr("No prediction"))
{
    setAccessibleName(tr("Predicted tokens"));
}

void NextTokenView::setGuesses(const QString &title, const std::vector<TokenGuess> &guesses)
{
    m_title = title;
    m_guesses = guesses;
    QStringList lines;
    for (const TokenGuess &g : guesses)
        lines << tr("%1 (id %2): %3 %").arg(g.text).arg(g.id).arg(100 * g.probability, 0, 'f', 1);
    setAccessibleDescription(lines.join(QLatin1Char('\n')));
    update();
}

void NextTokenView::setEmptyText(const QString &text)
{
    m_empty = text;
    update();
}

QRectF NextTokenView::barRect(int index) const
{
    const QFontMetrics fm = fontMetrics();
    const double row = fm.height() + 6;
    const double top = kMargin + fm.height() + 6 + index * row;
    const double labelWidth = std::min(width() / 3.0, fm.horizontalAdvance(QStringLiteral("M")) * 9.0);
    const double numberWidth = fm.horizontalAdvance(QStringLiteral("100.0 %")) + 6;
    const double full = std::max(1.0, width() - 2.0 * kMargin - labelWidth - numberWidth);
    const double p = index >= 0 && index < int(m_guesses.size()) ? m_guesses[std::size_t(index)].probability : 0;
    return {kMargin + labelWidth, top + 2, std::max(1.0, full * std::clamp(p, 0.0, 1.0)), row - 4};
}

void NextTokenView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (m_guesses.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignCenter | Qt::TextWordWrap, m_empty);
        return;
    }
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(kMargin, kMargin, width() - 2 * kMargin, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(m_title, Qt::ElideRight, width() - 2 * kMargin));
    p.setFont(font());
    for (int i = 0; i < int(m_guesses.size()); ++i) {
        const TokenGuess &g = m_guesses[std::size_t(i)];
        const QRectF bar = barRect(i);
        if (bar.bottom() > height())
            break; // no half rows
        const double labelLeft = kMargin, labelWidth = bar.left() - kMargin - 4;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(labelLeft, bar.top(), labelWidth, bar.height()), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(visible(g.text), Qt::ElideRight, int(labelWidth)));
        p.fillRect(bar, palette().color(QPalette::Highlight));
        p.drawText(QRectF(bar.right() + 4, bar.top(), width() - bar.right() - 4, bar.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, tr("%1 %").arg(100 * g.probability, 0, 'f', 1));
    }
}
