#include "barcolumnsview.h"
#include "palettecolors.h"

#include "lessons/notation.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace {

// The arrow between columns: narrower in a narrow view, where the columns need the room.
double arrowWidth(double viewWidth) { return std::clamp(viewWidth * 0.12, 28.0, 64.0); }

// A value as the columns write it: fixed decimals, so a column's numbers line up.
QString formatValue(double v) { return QString::number(v, 'f', 4).replace(QLatin1Char('-'), QChar(0x2212)); }

} // namespace

BarColumnsView::BarColumnsView(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void BarColumnsView::setColumns(const std::vector<BarColumn> &columns, const QStringList &between)
{
    m_columns = columns;
    m_between = between;
    m_message.clear();
    updateGeometry();
    update();
}

void BarColumnsView::setMessage(const QString &message)
{
    m_columns.clear();
    m_message = message;
    update();
}

QSize BarColumnsView::sizeHint() const
{
    int rows = 0;
    for (const BarColumn &c : m_columns)
        rows = std::max(rows, int(c.values.size()));
    const int line = fontMetrics().height() + 4;
    return {std::max(1, int(m_columns.size())) * 220, (rows + 3) * line + 8};
}

void BarColumnsView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paint(painter, QRectF(rect()), palette());
}

void BarColumnsView::paint(QPainter &painter, const QRectF &rect, const QPalette &palette) const
{
    painter.fillRect(rect, palette.color(QPalette::Base));
    painter.setPen(palette.color(QPalette::Text));
    if (m_columns.empty()) {
        painter.drawText(rect.adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const int count = int(m_columns.size());
    const double kArrowWidth = arrowWidth(rect.width());
    const double arrows = kArrowWidth * (count - 1);
    const double width = (rect.width() - 16 - arrows) / count;
    double x = rect.left() + 8;
    const QFontMetricsF fm(painter.font());
    // Every column's bars start at the same height: under the tallest title.
    QFont bold = painter.font();
    bold.setBold(true);
    const QFontMetricsF boldMetrics(bold);
    double titleHeight = fm.height();
    for (const BarColumn &c : m_columns)
        titleHeight = std::max(titleHeight, boldMetrics.boundingRect(QRectF(0, 0, width, 1000),
                                                                     Qt::AlignLeft | Qt::TextWordWrap, c.title).height());
    for (int i = 0; i < count; ++i) {
        paintColumn(painter, m_columns[std::size_t(i)], QRectF(x, rect.top() + 4, width, rect.height() - 8),
                    titleHeight, palette);
        x += width;
        if (i + 1 < count && !m_between.value(i).isEmpty()) {
            // An arrow from one column to the next, its label above it.
            const double y = rect.top() + 4 + titleHeight + 0.5 * fm.height();
            const QRectF gap(x + 6, y - fm.height(), kArrowWidth - 12, fm.height());
            painter.setPen(QPen(faintTextColor(palette), 1.5));
            painter.drawLine(QPointF(gap.left(), y + 4), QPointF(gap.right(), y + 4));
            painter.drawLine(QPointF(gap.right() - 5, y), QPointF(gap.right(), y + 4));
            painter.drawLine(QPointF(gap.right() - 5, y + 8), QPointF(gap.right(), y + 4));
            painter.setPen(palette.color(QPalette::Text));
            painter.drawText(gap.adjusted(-6, -2, 6, 0), Qt::AlignHCenter | Qt::AlignBottom,
                             fm.elidedText(m_between.value(i), Qt::ElideRight, kArrowWidth));
        }
        x += i + 1 < count ? kArrowWidth : 0.0;
    }
}

BarColumnLayout BarColumnsView::columnLayout(const BarColumn &column, const QRectF &rect, const QFontMetricsF &normal,
                                            const QFontMetricsF &bold)
{
    constexpr double kGap = 6, kMinBar = 24;
    BarColumnLayout L;
    // Wide enough for each of its numbers as drawn (the highlighted row in
    // bold): a number cut at the column's edge ("0.598") reads as another number.
    for (std::size_t i = 0; i < column.values.size(); ++i) {
        const bool masked = i < column.masked.size() && column.masked[i];
        const QFontMetricsF &font = int(i) == column.highlight ? bold : normal;
        L.numberWidth = std::max(L.numberWidth, font.horizontalAdvance(masked ? tr("masked") : formatValue(column.values[i])));
    }
    L.numberWidth += 2;
    double widest = 0.0;
    for (const QString &label : column.labels)
        widest = std::max(widest, bold.horizontalAdvance(label) + 2);
    const double room = std::max(0.0, rect.width() - L.numberWidth - 2 * kGap);
    // Then the tokens' names (a short bar still shows which is larger), then the bars.
    L.labelWidth = std::min(widest, std::max(room - kMinBar, room * 0.75));
    L.barLeft = rect.left() + L.labelWidth + kGap;
    L.barWidth = std::max(0.0, room - L.labelWidth);
    L.numberLeft = L.barLeft + L.barWidth + kGap;
    return L;
}

void BarColumnsView::paintColumn(QPainter &painter, const BarColumn &column, const QRectF &rect, double titleHeight,
                                 const QPalette &palette) const
{
    const QFontMetricsF fm(painter.font());
    const double line = fm.height() + 4;
    const QColor text = palette.color(QPalette::Text);
    QFont bold = painter.font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(text);
    const QRectF titleRect(rect.left(), rect.top(), rect.width(), titleHeight);
    painter.drawText(titleRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, column.title);
    QFont normal = bold;
    normal.setBold(false);
    painter.setFont(normal);

    double maxAbs = 0.0;
    bool negative = false;
    for (double v : column.values) {
        maxAbs = std::max(maxAbs, std::abs(v));
        negative = negative || v < 0;
    }
    if (maxAbs == 0.0)
        maxAbs = 1.0;
    const QFontMetricsF boldMetrics(bold);
    const BarColumnLayout L = columnLayout(column, rect, fm, boldMetrics);
    const double labelWidth = L.labelWidth, barLeft = L.barLeft, barWidth = L.barWidth;
    // Signed values grow both ways from a centre line; weights from the left.
    const double zeroX = negative ? barLeft + barWidth / 2 : barLeft;
    const double scale = (negative ? barWidth / 2 : barWidth) / maxAbs;
    const double barsTop = rect.top() + titleHeight + 8;
    double y = barsTop;
    const QColor bar = barColor(palette);
    const QColor track = mixColors(text, palette.color(QPalette::Base), 0.9);
    for (std::size_t i = 0; i < column.values.size(); ++i, y += line) {
        if (y + line > rect.bottom() - line) {
            painter.setPen(faintTextColor(palette));
            painter.drawText(QRectF(rect.left(), y, rect.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                             tr("… (+%1 more)").arg(column.values.size() - i));
            y += line;
            break;
        }
        const bool masked = i < column.masked.size() && column.masked[i];
        painter.setFont(int(i) == column.highlight ? bold : normal);
        painter.setPen(masked ? faintTextColor(palette) : text);
        painter.drawText(QRectF(rect.left(), y, labelWidth, line), Qt::AlignRight | Qt::AlignVCenter,
                         (int(i) == column.highlight ? boldMetrics : fm)
                             .elidedText(column.labels.value(int(i)), Qt::ElideRight, labelWidth));
        const QRectF trackRect(barLeft, y + 3, barWidth, line - 6);
        painter.fillRect(trackRect, track);
        QString number;
        if (masked) {
            number = tr("masked");
        } else {
            const double v = column.values[i];
            const double x1 = zeroX + v * scale;
            painter.fillRect(QRectF(QPointF(std::min(zeroX, x1), y + 3), QPointF(std::max(zeroX, x1), y + line - 3)),
                             bar);
            number = formatValue(v);
        }
        painter.drawText(QRectF(L.numberLeft, y, L.numberWidth, line), Qt::AlignLeft | Qt::AlignVCenter, number);
    }
    if (negative) {
        painter.setPen(QPen(faintTextColor(palette), 1.0));
        painter.drawLine(QPointF(zeroX, barsTop), QPointF(zeroX, y));
    }
    painter.setFont(normal);
    if (!column.footer.isEmpty()) {
        painter.setPen(text);
        painter.drawText(QRectF(rect.left(), y + 2, rect.width(), rect.bottom() - y - 2),
                         Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, column.footer);
    }
}
