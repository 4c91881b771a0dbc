#include "nexttokenview.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

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

// Decimals that show at least two significant digits of a percentage, from
// one (45.6 %) to eight (0.0000012 %): a token at 0.0031 % is not "0.0 %".
int percentDecimals(double p)
{
    const double x = 100 * std::fabs(p);
    if (!(x > 0) || x >= 1)
        return 1;
    return std::clamp(1 - int(std::floor(std::log10(x))), 1, 8);
}

QString percent(double p, int decimals) { return QString::number(100 * p, 'f', decimals); }

// The decimals "before → after" is written with: enough for each number, and
// more while two different probabilities would still read the same.
int changeDecimals(const TokenGuess &g)
{
    if (g.before < 0)
        return percentDecimals(g.probability);
    int decimals = std::max(percentDecimals(g.probability), percentDecimals(g.before));
    while (decimals < 10 && g.before != g.probability && percent(g.before, decimals) == percent(g.probability, decimals))
        ++decimals;
    return decimals;
}

// "12.3 → 45.6 %", or "45.6 %" with nothing to compare with.
QString change(const TokenGuess &g)
{
    const int decimals = changeDecimals(g);
    if (g.before < 0)
        return NextTokenView::tr("%1 %").arg(percent(g.probability, decimals));
    return NextTokenView::tr("%1 → %2 %").arg(percent(g.before, decimals), percent(g.probability, decimals));
}

// Green-ish when the head switch made the token likelier, red-ish when less likely; from the palette's text otherwise.
QColor changeColor(const TokenGuess &g, const QPalette &palette)
{
    const double d = g.before < 0 ? 0 : g.probability - g.before;
    if (std::fabs(d) < 5e-4)
        return palette.color(QPalette::Text);
    return d > 0 ? QColor(0x2e, 0x8b, 0x57) : QColor(0xc0, 0x39, 0x2b);
}
} // namespace

QString NextTokenView::changeText(const TokenGuess &guess) { return change(guess); }

QString NextTokenView::moverText(const TokenGuess &guess)
{
    // The difference with the decimals of the two numbers it is the difference of.
    const double d = 100 * (guess.probability - guess.before);
    return tr("%1  (%2%3 points)")
        .arg(change(guess), d >= 0 ? QStringLiteral("+") : QStringLiteral("−"))
        .arg(std::fabs(d), 0, 'f', changeDecimals(guess));
}

NextTokenView::NextTokenView(QWidget *parent) : QWidget(parent), m_empty(tr("No prediction"))
{
    setAccessibleName(tr("Predicted tokens"));
}

void NextTokenView::setGuesses(const QString &title, const std::vector<TokenGuess> &guesses)
{
    m_title = title;
    m_guesses = guesses;
    updateDescription();
    update();
}

void NextTokenView::setMovers(const std::vector<TokenGuess> &movers)
{
    m_movers = movers;
    updateDescription();
    update();
}

void NextTokenView::updateDescription()
{
    QStringList lines;
    for (const TokenGuess &g : m_guesses)
        lines << tr("%1 (id %2): %3").arg(g.text).arg(g.id).arg(change(g));
    if (!m_movers.empty()) {
        lines << tr("Biggest changes:");
        for (const TokenGuess &g : m_movers)
            lines << tr("%1 (id %2): %3").arg(g.text).arg(g.id).arg(moverText(g));
    }
    setAccessibleDescription(lines.join(QLatin1Char('\n')));
}

void NextTokenView::setEmptyText(const QString &text)
{
    m_empty = text;
    update();
}

bool NextTokenView::hasBefore() const
{
    return std::any_of(m_guesses.begin(), m_guesses.end(), [](const TokenGuess &g) { return g.before >= 0; });
}

double NextTokenView::rowHeight() const { return fontMetrics().height() + 6; }

double NextTokenView::numberWidth() const
{
    // As wide as the widest numbers shown (small probabilities have more decimals), at least "100.0 %".
    double widest = fontMetrics().horizontalAdvance(hasBefore() ? tr("%1 → %2 %").arg(percent(1, 1), percent(1, 1))
                                                                : tr("%1 %").arg(percent(1, 1)));
    for (const TokenGuess &g : m_guesses)
        widest = std::max(widest, double(fontMetrics().horizontalAdvance(change(g))));
    return widest + 6;
}

QRectF NextTokenView::barRect(int index) const
{
    const QFontMetrics fm = fontMetrics();
    const double row = rowHeight();
    const double top = kMargin + fm.height() + 6 + index * row;
    const double labelWidth = std::min(width() / 3.0, fm.horizontalAdvance(QStringLiteral("M")) * 9.0);
    const double full = fullBarWidth();
    const double p = index >= 0 && index < int(m_guesses.size()) ? m_guesses[std::size_t(index)].probability : 0;
    return {kMargin + labelWidth, top + 2, std::max(1.0, full * std::clamp(p, 0.0, 1.0)), row - 4};
}

double NextTokenView::fullBarWidth() const
{
    const double labelWidth = std::min(width() / 3.0, fontMetrics().horizontalAdvance(QStringLiteral("M")) * 9.0);
    return std::max(1.0, width() - 2.0 * kMargin - labelWidth - numberWidth());
}

double NextTokenView::moversTop() const { return barRect(int(m_guesses.size())).top() + rowHeight() / 2; }

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
    const double full = fullBarWidth();
    for (int i = 0; i < int(m_guesses.size()); ++i) {
        const TokenGuess &g = m_guesses[std::size_t(i)];
        const QRectF bar = barRect(i);
        if (bar.bottom() > height())
            return; // no half rows
        const double labelLeft = kMargin, labelWidth = bar.left() - kMargin - 4;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(labelLeft, bar.top(), labelWidth, bar.height()), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(visible(g.text), Qt::ElideRight, int(labelWidth)));
        p.fillRect(bar, palette().color(QPalette::Highlight));
        double textLeft = bar.right() + 4;
        if (g.before >= 0) {
            // Where the bar ended before: a tick across it (the numbers start after both).
            const double x = bar.left() + full * std::clamp(g.before, 0.0, 1.0);
            p.setPen(QPen(palette().color(QPalette::Text), 2));
            p.drawLine(QPointF(x, bar.top() - 2), QPointF(x, bar.bottom() + 2));
            textLeft = std::max(textLeft, x + 5);
        }
        p.setPen(changeColor(g, palette()));
        p.drawText(QRectF(textLeft, bar.top(), width() - textLeft, bar.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   change(g));
    }
    if (m_movers.empty())
        return;
    double y = moversTop();
    if (y + 2 * rowHeight() > height())
        return;
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(kMargin, y, width() - 2 * kMargin, rowHeight()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("Biggest changes"), Qt::ElideRight, width() - 2 * kMargin));
    p.setFont(font());
    const double labelWidth = barRect(0).left() - kMargin - 4;
    for (const TokenGuess &g : m_movers) {
        y += rowHeight();
        if (y + rowHeight() > height())
            break;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(kMargin, y, labelWidth, rowHeight()), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(visible(g.text), Qt::ElideRight, int(labelWidth)));
        p.setPen(changeColor(g, palette()));
        p.drawText(QRectF(kMargin + labelWidth + 4, y, width() - labelWidth - 2 * kMargin - 4, rowHeight()),
                   Qt::AlignLeft | Qt::AlignVCenter, moverText(g));
    }
}
