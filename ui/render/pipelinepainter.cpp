#include "pipelinepainter.h"

#include "lessons/notation.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <functional>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("PipelinePainter", text);
}

// Fixed decimals keep the columns aligned (the notation every view shares).
QString formatNumber(double value, int decimals = attn::kShownDecimals)
{
    return attn::formatFixed(value, decimals);
}

QString quoted(const QString &token)
{
    return QStringLiteral("“%1”").arg(token);
}

QString stepTitle(int step, const PipelineModel &model)
{
    switch (step) {
    case PipelineLayout::QueryStep:
        return model.queryTitle.isEmpty() ? tr("query q") : model.queryTitle;
    case PipelineLayout::ScoresStep: return tr("scores ω = q·k");
    case PipelineLayout::WeightsStep: return tr("weights α = softmax");
    default: return PipelinePainter::contextTitle(model);
    }
}

QString querySubtitle(const PipelineModel &model)
{
    // Shared keys and values: which key/value head, and which heads read it too.
    if (model.keyValueHead >= 0)
        return tr("%1, head %2 · k/v %3").arg(quoted(model.queryToken)).arg(model.head).arg(model.keyValueHead);
    if (model.headCount > 1)
        return tr("%1, head %2").arg(quoted(model.queryToken)).arg(model.head);
    return quoted(model.queryToken);
}

QString scaledHeader(const PipelineModel &model, bool shortForm)
{
    const QString divisor = formatNumber(model.sqrtDk, 3);
    return shortForm ? tr("÷ %1").arg(divisor) : tr("÷ √d_k = ÷ %1").arg(divisor);
}

QString moreDimsText(int hidden)
{
    return tr("… (+%1)").arg(hidden);
}

QString moreKeysText(const PipelineModel &model)
{
    const double w = model.hiddenWeight;
    const QString sum = formatNumber(w, w > 0.0 && w < 0.01 ? 4 : 2);
    if (model.hiddenMasked > 0)
        return tr("… %1 more keys, %2 masked (weights sum to %3)").arg(model.hiddenKeys).arg(model.hiddenMasked).arg(sum);
    return tr("… %1 more keys (weights sum to %2)").arg(model.hiddenKeys).arg(sum);
}

double lineHeightOf(const QFontMetricsF &fm)
{
    return std::ceil(fm.height() * 1.2);
}

constexpr double kMargin = 8.0;
constexpr double kBracketPad = 5.0;

double numberColumnWidth(const QFontMetricsF &fm, const std::vector<double> &values, int hidden)
{
    double width = hidden > 0 ? fm.horizontalAdvance(moreDimsText(hidden)) : 0.0;
    for (double v : values)
        width = std::max(width, fm.horizontalAdvance(formatNumber(v)));
    return width;
}

QFont pixelFont(QFont font)
{
    // Point sizes scale with the device's DPI (a PDF is 1200 dpi); pixel sizes
    // follow the painter's transform only, like the rest of the drawing.
    if (font.pixelSize() <= 0)
        font.setPixelSize(std::max(6, int(std::lround(font.pointSizeF() * 96.0 / 72.0))));
    return font;
}

QColor blend(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

// The theme's highlight, unless it would vanish on the background (a palette
// built from one colour gets dark blue, unreadable on a dark base).
QColor barColor(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor highlight = palette.color(QPalette::Highlight);
    if (std::abs(highlight.lightness() - base.lightness()) >= 70)
        return highlight;
    return base.lightness() < 128 ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x72, 0xB2);
}

} // namespace

PipelinePainter::PipelinePainter() : m_font(pixelFont(QFont())) {}

void PipelinePainter::setSnapshot(SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
}

void PipelinePainter::setQuery(int query)
{
    m_query = query;
}

void PipelinePainter::setHead(int head)
{
    m_head = head;
}

void PipelinePainter::setFont(const QFont &font)
{
    m_font = pixelFont(font);
}

int PipelinePainter::linesThatFit(const QRectF &rect) const
{
    const double lh = lineHeightOf(QFontMetricsF(m_font));
    // Two title lines, a rule, the number rows, then the Σ line.
    const double available = rect.height() - 2 * kMargin - 3 * lh - 4.0;
    return std::max(1, int(std::floor(available / lh)));
}

PipelineModel PipelinePainter::model(const QRectF &rect) const
{
    if (!m_snapshot)
        return buildPipelineModel(AttentionSnapshot{}, 0, 0, 1, 1);
    const int lines = linesThatFit(rect);
    const attn::AttentionResult *result = m_snapshot->result.get();
    const int keys = result && !result->heads.empty() ? int(result->heads.front().weights.cols()) : 0;
    const int dims = result ? result->headDim() : 0;
    // One line goes to "… more" whenever something is left out; long vectors
    // are cut early because a column of 64 numbers teaches nothing.
    const int maxRows = keys <= lines ? keys : lines - 1;
    const int maxDims = dims <= std::min(12, lines) ? dims : std::min(10, lines - 1);
    return buildPipelineModel(*m_snapshot, m_query, m_head, std::max(1, maxRows), std::max(1, maxDims));
}

PipelineLayout PipelinePainter::layout(const QRectF &rect) const
{
    return layoutFor(model(rect), rect);
}

QSizeF PipelinePainter::minimumSize() const
{
    const QFontMetricsF fm(m_font);
    return {fm.averageCharWidth() * 70, lineHeightOf(fm) * 8 + 2 * kMargin};
}

PipelineLayout PipelinePainter::layoutFor(const PipelineModel &model, const QRectF &rect) const
{
    QFont bold = m_font;
    bold.setBold(true);
    const QFontMetricsF fm(m_font);
    const QFontMetricsF bfm(bold);
    const double ch = fm.averageCharWidth();
    PipelineLayout L;
    L.lineHeight = lineHeightOf(fm);
    L.headerBottom = rect.top() + kMargin + 2 * L.lineHeight + 2.0;
    L.rowsTop = L.headerBottom + 2.0;
    L.visibleLines = linesThatFit(rect);
    // A few rows in a tall view spread out a little rather than huddle at the top.
    const int bodyLines = std::max({int(model.rows.size()) + (model.hiddenKeys > 0 ? 1 : 0),
                                    int(model.queryValues.size()) + (model.hiddenDims > 0 ? 1 : 0), 1});
    L.rowHeight = std::floor(L.lineHeight * std::clamp(double(L.visibleLines) / bodyLines, 1.0, 1.4));
    L.gap = std::ceil(ch * 1.5);

    auto vectorWidth = [&](const std::vector<double> &values) {
        return numberColumnWidth(fm, values, model.hiddenDims) + 2 * kBracketPad + 2;
    };
    std::array<double, PipelineLayout::StepCount> titleWidth{};
    for (int s = 0; s < PipelineLayout::StepCount; ++s)
        titleWidth[size_t(s)] = bfm.horizontalAdvance(stepTitle(s, model));
    const double subtitleWidth = fm.horizontalAdvance(querySubtitle(model));
    double labelWidth = 0.0, scoreWidth = fm.horizontalAdvance(tr("masked")), scaledWidth = 0.0;
    for (const PipelineKeyRow &row : model.rows) {
        labelWidth = std::max(labelWidth, bfm.horizontalAdvance(row.label));
        scoreWidth = std::max(scoreWidth, fm.horizontalAdvance(formatNumber(row.score)));
        scaledWidth = std::max(scaledWidth, fm.horizontalAdvance(formatNumber(row.scaled)));
    }
    labelWidth = std::min(labelWidth, ch * 12);
    L.weightWidth = fm.horizontalAdvance(QStringLiteral("0.0000"));
    double barWidth = ch * 10;
    double arrowWidth = std::ceil(fm.height() * 1.6);
    bool titlesCount = true;
    L.scaledShown = model.scaled;

    auto compose = [&] {
        L.labelWidth = labelWidth;
        L.scoreWidth = scoreWidth;
        L.scaledWidth = L.scaledShown
            ? std::max(scaledWidth, fm.horizontalAdvance(scaledHeader(model, L.shortScaledHeader)))
            : 0.0;
        const double t = titlesCount ? 1.0 : 0.0; // titles may be elided when space is short
        const double scores = labelWidth + L.gap + scoreWidth + (L.scaledShown ? L.gap + L.scaledWidth : 0.0);
        return std::array<double, PipelineLayout::StepCount>{
            std::max({t * titleWidth[0], t * subtitleWidth, vectorWidth(model.queryValues)}),
            std::max(t * titleWidth[1], scores), std::max(t * titleWidth[2], barWidth + L.gap + L.weightWidth),
            std::max({t * titleWidth[3], vectorWidth(model.contextValues)})};
    };
    auto overflow = [&](const std::array<double, PipelineLayout::StepCount> &w) {
        return w[0] + w[1] + w[2] + w[3] + 3 * arrowWidth + 2 * kMargin - rect.width();
    };

    auto widths = compose();
    if (overflow(widths) < 0) {
        // Spare room goes to the bars first (they carry the story), then to
        // the arrows; whatever is left centres the whole.
        barWidth += std::min(-overflow(widths), ch * 22);
        widths = compose();
        arrowWidth += std::clamp(-overflow(widths) / 3, 0.0, fm.height() * 2);
    } else {
        // Too narrow: give up decoration before numbers, one thing at a time.
        const std::array<std::function<void()>, 5> fallbacks{
            [&] { L.shortScaledHeader = true; },
            [&] { barWidth = ch * 3; },
            [&] { titlesCount = false; },
            [&] { labelWidth = std::min(labelWidth, ch * 5); },
            [&] { L.scaledShown = false; }};
        for (const auto &fallback : fallbacks) {
            if (overflow(widths) <= 0)
                break;
            fallback();
            widths = compose();
        }
        if (overflow(widths) > 0)
            arrowWidth = std::max(fm.height() * 0.8, arrowWidth - overflow(widths) / 3);
        // Titles were given up as a whole; room left over goes back to them,
        // the weights' and the context's first, so no title is cut while
        // there is spare width.
        if (!titlesCount && overflow(widths) < 0) {
            double spare = -overflow(widths);
            for (int step : {2, 3, 0, 1}) {
                const double want = std::max(titleWidth[size_t(step)], step == 0 ? subtitleWidth : 0.0);
                const double give = std::clamp(want - widths[size_t(step)], 0.0, spare);
                widths[size_t(step)] += give;
                spare -= give;
            }
        }
    }
    L.barWidth = widths[2] - L.gap - L.weightWidth;

    double x = rect.left() + kMargin + std::max(0.0, -overflow(widths) / 2);
    const double height = rect.bottom() - kMargin - (rect.top() + kMargin);
    for (int s = 0; s < PipelineLayout::StepCount; ++s) {
        L.steps[size_t(s)] = QRectF(x, rect.top() + kMargin, widths[size_t(s)], height);
        x += widths[size_t(s)];
        if (s + 1 < PipelineLayout::StepCount) {
            L.arrows[size_t(s)] = QRectF(x, rect.top() + kMargin, arrowWidth, height);
            x += arrowWidth;
        }
    }
    return L;
}

void PipelinePainter::paint(QPainter &painter, const QRectF &rect, const QPalette &palette) const
{
    painter.save();
    painter.setClipRect(rect);
    painter.fillRect(rect, palette.color(QPalette::Base));
    painter.setFont(m_font);
    const Ink ink{palette.color(QPalette::Text), blend(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.5),
                  blend(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.75)};
    const PipelineModel model = this->model(rect);
    if (!model.isValid()) {
        painter.setPen(ink.text);
        painter.drawText(rect.adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignCenter | Qt::TextWordWrap,
                         model.error);
    } else {
        const PipelineLayout layout = layoutFor(model, rect);
        paintHeader(painter, model, layout, ink);
        paintVector(painter, layout, layout.steps[PipelineLayout::QueryStep], model.queryValues, model.hiddenDims, ink);
        paintSharing(painter, model, layout, ink);
        paintVector(painter, layout, layout.steps[PipelineLayout::ContextStep], model.contextValues, model.hiddenDims, ink);
        paintKeys(painter, model, layout, ink, barColor(palette), blend(ink.text, palette.color(QPalette::Base), 0.9));
    }
    painter.restore();
}

QString PipelinePainter::sharingNote(const PipelineModel &model)
{
    if (model.keyValueHead < 0 || model.sharedWith.empty())
        return {};
    QStringList heads;
    for (int h : model.sharedWith)
        heads << QString::number(h);
    const QString list = heads.size() < 2 ? heads.join(QString())
                                          : tr("%1 and %2").arg(heads.mid(0, heads.size() - 1).join(QStringLiteral(", ")),
                                                                heads.last());
    // No slash in the sentence: word wrapping would break "k/v" apart.
    return tr("Heads %1 share these keys and values; only their queries differ.").arg(list);
}

QRectF PipelinePainter::sharingRoom(const PipelineModel &model, const PipelineLayout &L)
{
    const QRectF q = L.steps[PipelineLayout::QueryStep];
    const int lines = int(model.queryValues.size()) + (model.hiddenDims > 0 ? 1 : 0);
    return QRectF(q.left(), L.rowsTop + (lines + 0.5) * L.rowHeight, q.width(),
                  std::max(0.0, q.bottom() - L.rowsTop - (lines + 0.5) * L.rowHeight));
}

// Under q: which key/value head this head reads, and which heads share it.
void PipelinePainter::paintSharing(QPainter &painter, const PipelineModel &model, const PipelineLayout &L,
                                   const Ink &ink) const
{
    const QString note = sharingNote(model);
    if (note.isEmpty())
        return;
    const QRectF room = sharingRoom(model, L);
    if (room.height() < 2 * L.lineHeight)
        return; // paintKeys puts it on the Σ line
    painter.setFont(m_font);
    painter.setPen(ink.faint);
    painter.drawText(room, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, note);
}

QString PipelinePainter::contextTitle(const PipelineModel &model)
{
    // As short as the usual title: the column is no wider for a switched-off head.
    return model.switchedOff ? tr("switched off: z = 0") : tr("context z = Σ α·v");
}


void PipelinePainter::paintHeader(QPainter &painter, const PipelineModel &model, const PipelineLayout &L,
                                  const Ink &ink) const
{
    QFont bold = m_font;
    bold.setBold(true);
    const QFontMetricsF fm(m_font), bfm(bold);
    const double lh = L.lineHeight, top = L.steps[0].top();
    painter.setFont(bold);
    painter.setPen(ink.text);
    for (int s = 0; s < PipelineLayout::StepCount; ++s) {
        const QRectF step = L.steps[size_t(s)];
        painter.drawText(QRectF(step.left(), top, step.width(), lh), Qt::AlignLeft | Qt::AlignVCenter,
                         bfm.elidedText(stepTitle(s, model), Qt::ElideRight, step.width()));
    }
    // Subtitles name the token and the columns.
    painter.setFont(m_font);
    painter.setPen(ink.faint);
    auto sub = [&](double left, double width, Qt::Alignment align, const QString &text) {
        painter.drawText(QRectF(left, top + lh, width, lh), align | Qt::AlignVCenter,
                         fm.elidedText(text, Qt::ElideRight, width));
    };
    const QRectF q = L.steps[0], scores = L.steps[1], weights = L.steps[2], z = L.steps[3];
    sub(q.left(), q.width(), Qt::AlignLeft, querySubtitle(model));
    sub(z.left(), z.width(), Qt::AlignLeft, quoted(model.queryToken));
    sub(scores.left(), L.labelWidth, Qt::AlignLeft, tr("key"));
    sub(scores.left() + L.labelWidth + L.gap, L.scoreWidth, Qt::AlignRight, tr("ω"));
    if (L.scaledShown)
        sub(scores.left() + L.labelWidth + L.scoreWidth + 2 * L.gap, L.scaledWidth, Qt::AlignRight,
            scaledHeader(model, L.shortScaledHeader));
    sub(weights.right() - L.weightWidth, L.weightWidth, Qt::AlignRight, tr("α"));
    painter.setPen(ink.rule);
    painter.drawLine(QPointF(q.left(), L.headerBottom), QPointF(z.right(), L.headerBottom));
}

// A column vector in thin brackets, cut with "… (+N)" when long.
void PipelinePainter::paintVector(QPainter &painter, const PipelineLayout &L, const QRectF &step,
                                  const std::vector<double> &values, int hidden, const Ink &ink) const
{
    const QFontMetricsF fm(m_font);
    const double lh = L.rowHeight;
    const double right = step.right() - 1;
    const double textRight = right - kBracketPad;
    const double left = textRight - numberColumnWidth(fm, values, hidden) - kBracketPad;
    auto line = [&](int k) { return QRectF(left, L.rowsTop + k * lh, textRight - left, lh); };
    painter.setPen(ink.text);
    for (size_t d = 0; d < values.size(); ++d)
        painter.drawText(line(int(d)), Qt::AlignRight | Qt::AlignVCenter, formatNumber(values[d]));
    if (hidden > 0) {
        painter.setPen(ink.faint);
        painter.drawText(line(int(values.size())), Qt::AlignRight | Qt::AlignVCenter, moreDimsText(hidden));
    }
    const int lines = int(values.size()) + (hidden > 0 ? 1 : 0);
    const double y0 = L.rowsTop + 2, y1 = L.rowsTop + lines * lh - 2, tick = 3;
    painter.setPen(QPen(ink.rule, 1.0));
    painter.drawPolyline(QPolygonF({{left + tick, y0}, {left, y0}, {left, y1}, {left + tick, y1}}));
    painter.drawPolyline(QPolygonF({{right - tick, y0}, {right, y0}, {right, y1}, {right - tick, y1}}));
}

void PipelinePainter::paintKeys(QPainter &painter, const PipelineModel &model, const PipelineLayout &L, const Ink &ink,
                                const QColor &bar, const QColor &track) const
{
    QFont bold = m_font;
    bold.setBold(true);
    const QFontMetricsF fm(m_font), bfm(bold);
    const double lh = L.rowHeight;
    const QRectF scores = L.steps[1], weights = L.steps[2];
    const double scoreLeft = scores.left() + L.labelWidth + L.gap;
    const double scaledLeft = scoreLeft + L.scoreWidth + L.gap;
    const double numbersRight = L.scaledShown ? scaledLeft + L.scaledWidth : scoreLeft + L.scoreWidth;
    auto cell = [&](double left, double width, int row) { return QRectF(left, L.rowsTop + row * lh, width, lh); };
    for (size_t r = 0; r < model.rows.size(); ++r) {
        const PipelineKeyRow &row = model.rows[r];
        const int k = int(r);
        painter.setFont(row.isSelf ? bold : m_font);
        painter.setPen(row.masked ? ink.faint : ink.text);
        painter.drawText(cell(scores.left(), L.labelWidth, k), Qt::AlignLeft | Qt::AlignVCenter,
                         (row.isSelf ? bfm : fm).elidedText(row.label, Qt::ElideRight, L.labelWidth));
        painter.setFont(m_font);
        const QRectF barCell = cell(weights.left(), L.barWidth, k);
        const QRectF weightCell = cell(weights.right() - L.weightWidth, L.weightWidth, k);
        if (row.masked) {
            // Masked before the softmax: no score enters it, no bar comes out.
            // Why: the key comes after the query, or before its sliding window.
            const QRectF why = cell(scoreLeft, numbersRight - scoreLeft, k);
            painter.drawText(why, Qt::AlignRight | Qt::AlignVCenter,
                             row.outsideWindow ? fm.elidedText(tr("outside window"), Qt::ElideLeft, why.width())
                                               : tr("masked"));
            painter.drawText(barCell, Qt::AlignLeft | Qt::AlignVCenter, tr("masked"));
            painter.drawText(weightCell, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
            continue;
        }
        painter.drawText(cell(scoreLeft, L.scoreWidth, k), Qt::AlignRight | Qt::AlignVCenter, formatNumber(row.score));
        if (L.scaledShown)
            painter.drawText(cell(scaledLeft, L.scaledWidth, k), Qt::AlignRight | Qt::AlignVCenter,
                             formatNumber(row.scaled));
        // The track is the whole of 1, so a bar's length is its share.
        const QRectF barArea = barCell.adjusted(0, lh * 0.2, 0, -lh * 0.2);
        painter.fillRect(barArea, track);
        const double w = std::clamp(row.weight, 0.0, 1.0) * barArea.width();
        painter.fillRect(QRectF(barArea.topLeft(), QSizeF(std::max(w, row.weight > 0 ? 1.0 : 0.0), barArea.height())), bar);
        painter.drawText(weightCell, Qt::AlignRight | Qt::AlignVCenter, formatNumber(row.weight));
    }
    int lines = int(model.rows.size());
    if (model.hiddenKeys > 0) {
        painter.setPen(ink.faint);
        const QRectF span = cell(scores.left(), weights.right() - scores.left(), lines++);
        painter.drawText(span, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(moreKeysText(model), Qt::ElideRight, span.width()));
    }
    // The Σ line shows the softmax made a distribution of the whole row.
    const double sumTop = L.rowsTop + lines * lh + 2;
    painter.setPen(ink.rule);
    painter.drawLine(QPointF(weights.right() - L.weightWidth, sumTop), QPointF(weights.right(), sumTop));
    painter.setPen(ink.text);
    painter.drawText(QRectF(weights.left(), sumTop, weights.width(), L.lineHeight), Qt::AlignRight | Qt::AlignVCenter,
                     tr("Σ = %1").arg(formatNumber(model.weightSum, 2)));
    // Shared key/value heads when there is no room under q (a model's long
    // vectors fill its column): on the Σ line's free left part, one line.
    const QString shared = sharingNote(model);
    if (!shared.isEmpty() && sharingRoom(model, L).height() < 2 * L.lineHeight) {
        const QRectF room(L.steps[0].left(), sumTop, weights.left() - L.gap - L.steps[0].left(), L.lineHeight);
        painter.setPen(ink.faint);
        painter.drawText(room, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(shared, Qt::ElideRight, room.width()));
    }

    // Arrows between the steps, level with the middle of the numbers.
    const int vectorLines = int(model.queryValues.size()) + (model.hiddenDims > 0 ? 1 : 0);
    const double arrowY = L.rowsTop + std::min(std::max({lines, vectorLines, 1}), 8) * lh / 2;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(ink.faint, 1.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    for (const QRectF &a : L.arrows) {
        const double x0 = a.left() + a.width() * 0.2, x1 = a.right() - a.width() * 0.2;
        const double head = std::min(5.0, (x1 - x0) / 2);
        painter.drawLine(QPointF(x0, arrowY), QPointF(x1, arrowY));
        painter.drawPolyline(QPolygonF({{x1 - head, arrowY - head}, {x1, arrowY}, {x1 - head, arrowY + head}}));
    }
    painter.restore();
}
