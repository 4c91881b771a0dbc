#include "tokenchips.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QToolTip>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

namespace {
constexpr int kPadX = 8;
constexpr int kPadY = 3;
constexpr int kGap = 5;
constexpr int kMaxChipWidth = 180;
} // namespace

TokenChips::TokenChips(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    setAccessibleName(tr("Tokens"));
    setToolTip(tr("Click a token to make it the query (Left/Right, Home/End with the keyboard). A word that occurs "
                  "more than once is named with its position, counted from 0."));
}

QString TokenChips::visibleLabel(const QString &token)
{
    // A chip's own edges hide spaces: a leading space is what tells " the"
    // (a word after a space) from "the".
    QString label;
    label.reserve(token.size());
    qsizetype first = 0, last = token.size();
    while (first < last && token[first] == QLatin1Char(' '))
        ++first;
    while (last > first && token[last - 1] == QLatin1Char(' '))
        --last;
    for (qsizetype i = 0; i < token.size(); ++i) {
        const QChar c = token[i];
        if (c == QLatin1Char('\n'))
            label += QChar(0x21B5); // ↵
        else if (c == QLatin1Char('\t'))
            label += QChar(0x21E5); // ⇥
        else if (c == QLatin1Char('\r'))
            label += QChar(0x240D); // ␍
        else if (c == QLatin1Char(' ') && (i < first || i >= last))
            label += QChar(0x2423); // ␣
        else
            label += c;
    }
    return label;
}

QString TokenChips::toolTipFor(const attn::ModelToken &token)
{
    switch (token.role) {
    case Role::Special:
        return token.bytes.isEmpty()
            ? tr("“%1” · id %2 · a special token the tokenizer puts around every text (not typed)").arg(token.text).arg(token.id)
            : tr("“%1” · id %2 · a special token").arg(token.text).arg(token.id);
    case Role::Byte:
        return tr("%1 · id %2 · one byte (0x%3) of a character the vocabulary has no token for")
            .arg(token.text).arg(token.id).arg(QString::number(token.bytes.isEmpty() ? 0 : uchar(token.bytes[0]), 16).toUpper().rightJustified(2, QLatin1Char('0')));
    case Role::Text: break;
    }
    return tr("“%1” · id %2").arg(visibleLabel(token.text)).arg(token.id);
}

void TokenChips::setTokens(const QStringList &tokens, const QList<Role> &roles)
{
    if (tokens == m_tokens && roles == m_roles)
        return; // a slider drag: the same words, nothing to lay out again
    m_tokens = tokens;
    m_roles = roles;
    m_query = std::clamp(m_query, 0, std::max(0, int(tokens.size()) - 1));
    measureChips(/*fontChanged*/ false);
    relayout();
    updateAccessibleText();
}

bool TokenChips::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int index = chipAt(help->pos());
        if (index >= 0 && index < m_tips.size() && !m_tips[index].isEmpty())
            QToolTip::showText(help->globalPos(), m_tips[index], this, chipRect(index));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TokenChips::setQuery(int query)
{
    if (query == m_query)
        return;
    m_query = query;
    updateAccessibleText();
    update();
}

void TokenChips::setHighlighted(const QList<int> &indices)
{
    if (indices == m_highlighted)
        return;
    m_highlighted = indices;
    update();
}

QString TokenChips::chipLabel(int index) const { return m_labels.value(index); }

QFont TokenChips::chipFont(int index, bool bold) const
{
    const Role role = m_roles.value(index, Role::Text);
    QFont f = font();
    if (role == Role::Byte) {
        f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        f.setPointSizeF(font().pointSizeF() > 0 ? font().pointSizeF() : f.pointSizeF());
    }
    f.setItalic(role == Role::Special);
    f.setBold(bold);
    return f;
}

void TokenChips::measureChips(bool fontChanged)
{
    // A long text repeats its words and an edit keeps most of them: each
    // distinct word is shaped once, not every chip on every keystroke.
    if (fontChanged)
        m_measured.clear();
    m_labels.clear();
    m_chipWidths.clear();
    m_chipWidths.reserve(std::size_t(m_tokens.size()));
    QHash<QString, MeasuredChip> measured;
    for (int i = 0; i < m_tokens.size(); ++i) {
        const Role role = m_roles.value(i, Role::Text);
        const QString key = QString::number(int(role)) + m_tokens[i];
        auto it = measured.constFind(key);
        if (it == measured.constEnd()) {
            MeasuredChip chip = m_measured.value(key);
            if (chip.width < 0) {
                const QFontMetrics fm(chipFont(i, false));
                chip.label = fm.elidedText(role == Role::Text ? visibleLabel(m_tokens[i]) : m_tokens[i], Qt::ElideRight,
                                           kMaxChipWidth - 2 * kPadX);
                chip.width = std::min(kMaxChipWidth, fm.horizontalAdvance(chip.label) + 2 * kPadX);
            }
            it = measured.insert(key, chip);
        }
        m_labels << it->label;
        m_chipWidths.push_back(it->width);
    }
    m_measured = std::move(measured); // only this text's words: the cache never outgrows it
    m_rectsWidth = -1;
}

std::vector<QRect> TokenChips::layoutChips(int width) const
{
    if (width == m_rectsWidth)
        return m_rects;
    std::vector<QRect> rects;
    rects.reserve(std::size_t(m_tokens.size()));
    const QFontMetrics fm = fontMetrics();
    const int h = fm.height() + 2 * kPadY;
    int x = kGap / 2;
    int y = kGap / 2;
    for (int i = 0; i < m_tokens.size(); ++i) {
        const int w = m_chipWidths[std::size_t(i)];
        if (x > kGap && x + w > width) {
            x = kGap / 2;
            y += h + kGap;
        }
        rects.emplace_back(x, y, w, h);
        x += w + kGap;
    }
    return rects;
}

void TokenChips::relayout()
{
    m_rects = layoutChips(width());
    m_rectsWidth = width();
    // A typed word seldom adds a row of chips: the window is laid out again
    // only when the chips' heights change (that took a millisecond a word).
    const int needed = heightForWidth(width()), hinted = sizeHint().height();
    if (needed != minimumHeight()) {
        setMinimumHeight(needed);
        emit heightNeeded(needed);
    }
    if (hinted != m_hintedHeight) {
        m_hintedHeight = hinted;
        updateGeometry();
    }
    update();
}

int TokenChips::heightForWidth(int width) const
{
    const std::vector<QRect> rects = layoutChips(width);
    return rects.empty() ? fontMetrics().height() + 2 * kPadY + kGap : rects.back().bottom() + kGap;
}

QSize TokenChips::sizeHint() const { return {600, heightForWidth(600)}; }
QSize TokenChips::minimumSizeHint() const { return {100, fontMetrics().height() + 2 * kPadY + kGap}; }

QRect TokenChips::chipRect(int index) const
{
    return index >= 0 && std::size_t(index) < m_rects.size() ? m_rects[std::size_t(index)] : QRect();
}

int TokenChips::chipAt(const QPoint &pos) const
{
    for (std::size_t i = 0; i < m_rects.size(); ++i)
        if (m_rects[i].contains(pos))
            return int(i);
    return -1;
}

void TokenChips::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    for (std::size_t i = 0; i < m_rects.size(); ++i) {
        const QRect r = m_rects[i];
        if (!r.intersects(event->rect()))
            continue;
        const bool isQuery = int(i) == m_query;
        QPainterPath path;
        path.addRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), r.height() / 2.0, r.height() / 2.0);
        p.fillPath(path, isQuery ? pal.color(QPalette::Highlight) : pal.color(QPalette::Button));
        const Role role = m_roles.value(int(i), Role::Text);
        const Qt::PenStyle outline = role == Role::Special ? Qt::DashLine : role == Role::Byte ? Qt::DotLine : Qt::SolidLine;
        p.setPen(QPen(isQuery ? pal.color(QPalette::Highlight).darker(130) : pal.color(QPalette::Mid), role == Role::Text ? 1 : 1.5, outline));
        p.drawPath(path);
        if (m_highlighted.contains(int(i))) {
            p.setPen(QPen(pal.color(QPalette::Highlight), 2, Qt::DashLine));
            p.drawRoundedRect(QRectF(r).adjusted(-1.5, -1.5, 1.5, 1.5), r.height() / 2.0 + 1.5, r.height() / 2.0 + 1.5);
        }
        if (isQuery && hasFocus()) {
            p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DotLine));
            p.drawRoundedRect(QRectF(r).adjusted(-2, -2, 2, 2), r.height() / 2.0 + 2, r.height() / 2.0 + 2);
        }
        p.setPen(isQuery ? pal.color(QPalette::HighlightedText) : pal.color(QPalette::ButtonText));
        p.setFont(chipFont(int(i), isQuery));
        p.drawText(r, Qt::AlignCenter, chipLabel(int(i)));
    }
}

void TokenChips::mousePressEvent(QMouseEvent *event)
{
    const int index = chipAt(event->position().toPoint());
    if (index >= 0 && event->button() == Qt::LeftButton) {
        setFocus(Qt::MouseFocusReason);
        emit querySelected(index);
    }
}

void TokenChips::keyPressEvent(QKeyEvent *event)
{
    int next = m_query;
    switch (event->key()) {
    case Qt::Key_Left: next = m_query - 1; break;
    case Qt::Key_Right: next = m_query + 1; break;
    case Qt::Key_Home: next = 0; break;
    case Qt::Key_End: next = int(m_tokens.size()) - 1; break;
    default: QWidget::keyPressEvent(event); return;
    }
    if (next >= 0 && next < m_tokens.size() && next != m_query)
        emit querySelected(next);
}

void TokenChips::resizeEvent(QResizeEvent *)
{
    m_rects = layoutChips(width());
    m_rectsWidth = width();
    // Inside a scroll area heightForWidth is not asked: say it as a minimum.
    setMinimumHeight(heightForWidth(width()));
    emit heightNeeded(minimumHeight());
}
void TokenChips::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        measureChips(/*fontChanged*/ true);
        relayout();
    }
}

void TokenChips::focusInEvent(QFocusEvent *) { update(); }
void TokenChips::focusOutEvent(QFocusEvent *) { update(); }

void TokenChips::updateAccessibleText()
{
    if (m_tokens.isEmpty()) {
        setAccessibleDescription(tr("No tokens"));
        return;
    }
    setAccessibleDescription(tr("Query: “%1”, token %2 (from 0) of %3. Left and Right arrows move the query.")
                                 .arg(m_tokens.value(m_query))
                                 .arg(m_query)
                                 .arg(m_tokens.size()));
}
