// The painting half of exporter.h: each view through its own painter, and the
// dashboard that arranges them like the window.

#include "exporter.h"
#include "lessons/notation.h"

#include "barchartpainter.h"
#include "exportheads.h"
#include "heatmappainter.h"
#include "modelgridpainter.h"
#include "pipelinepainter.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Exporter", text);
}

constexpr qreal kViewMargin = 8;
constexpr int kMinFittedSide = 200;

// Point sizes follow the device's resolution (a PDF's is not a screen's);
// pixel sizes follow only the painter's transform, like the rest of the drawing.
QFont pixelFont(QFont font)
{
    if (font.pixelSize() <= 0)
        font.setPixelSize(std::max(6, int(std::lround(font.pointSizeF() * 96.0 / 72.0))));
    return font;
}

void paintHeatmap(QPainter &p, const QRectF &rect, const SnapshotPtr &snapshot, const ExportOptions &o, bool vector,
                  bool scores)
{
    HeatmapPainter heatmap;
    heatmap.setSnapshot(snapshot);
    heatmap.setHead(o.head);
    heatmap.setShowScores(scores);
    heatmap.setColorMap(o.colorMap);
    heatmap.setQuery(o.query);
    heatmap.setVectorCells(vector);
    heatmap.paint(p, rect, o.palette);
}

// `outline`: frame the head the heatmap next to it shows (the dashboard); a
// picture of the heads alone treats every head alike.
HeadsExportPainter headsPainter(const SnapshotPtr &snapshot, const ExportOptions &o, bool vector, bool outline)
{
    HeadsExportPainter grid;
    grid.setSnapshot(snapshot);
    grid.setShowScores(o.showScores);
    grid.setColorMap(o.colorMap);
    grid.setQuery(o.query);
    grid.setVectorCells(vector);
    if (outline)
        grid.setOutlinedHead(o.head);
    return grid;
}

// The model grid painter (modelgridpainter.h) numbers the average -1.
int modelGridHeadIndex(std::optional<int> head)
{
    return head.value_or(-1);
}

void paintHeads(QPainter &p, const QRectF &rect, const SnapshotPtr &snapshot, const ExportOptions &o, bool vector,
                bool outline)
{
    if (!o.transparent)
        p.fillRect(rect, o.palette.color(QPalette::Base));
    if (o.modelTrace && !outline) {
        const attn::ModelTrace &trace = *o.modelTrace;
        const int heads = trace.layers.empty() ? 0 : int(trace.layers.front().weights.size());
        ModelGridMarks marks = o.modelMarks;
        marks.firstTokenAside = o.firstTokenAside;
        const int side = modelGridTilePixels(p, rect, int(trace.layers.size()), heads, &marks);
        paintModelGrid(p, rect,
                       modelGridImages(trace, o.modelCausal, o.colorMap, o.palette.color(QPalette::Window), side,
                                       o.firstTokenAside, marks.windows),
                       o.modelLayer, modelGridHeadIndex(o.head), o.palette, switchedOffHeads(trace), nullptr, &marks);
        return;
    }
    headsPainter(snapshot, o, vector, outline).paint(p, rect, o.palette);
}

void paintPipeline(QPainter &p, const QRectF &rect, const SnapshotPtr &snapshot, const ExportOptions &o)
{
    PipelinePainter pipeline;
    pipeline.setFont(p.font());
    pipeline.setSnapshot(snapshot);
    pipeline.setQuery(o.query);
    pipeline.setHead(o.head.value_or(0)); // as the window: the average shows head 0's steps
    pipeline.paint(p, rect, o.palette);
}

void paintBars(QPainter &p, const QRectF &rect, const SnapshotPtr &snapshot, const ExportOptions &o)
{
    BarChartPainter bars;
    bars.setFont(p.font());
    bars.setSnapshot(snapshot);
    bars.setQuery(o.query);
    bars.paint(p, rect, o.palette);
}

// A panel with a caption above it, as the window's docks have.
QRectF captioned(QPainter &p, const QRectF &panel, const QString &caption, const QPalette &palette)
{
    const qreal line = QFontMetricsF(p.font(), p.device()).height();
    const QRectF captionRect(panel.left(), panel.top(), panel.width(), line + 4);
    p.save();
    p.setPen(palette.color(QPalette::WindowText));
    p.drawText(captionRect, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(p.font(), p.device()).elidedText(caption, Qt::ElideRight, panel.width()));
    p.restore();
    return panel.adjusted(0, captionRect.height(), 0, 0);
}

void paintDashboard(QPainter &p, const QRectF &rect, const SnapshotPtr &snapshot, const ExportOptions &o, bool vector)
{
    const qreal margin = 16, gap = 14;
    const QRectF inner = rect.adjusted(margin, margin, -margin, -margin);

    // The sentence large on the first line, the mode and options below it.
    const QString sentence = o.title.section(QLatin1Char('\n'), 0, 0);
    const QString details = o.title.section(QLatin1Char('\n'), 1);
    QFont titleFont = p.font();
    titleFont.setPixelSize(int(std::lround(titleFont.pixelSize() * 1.3)));
    titleFont.setBold(true);
    const QFontMetricsF titleMetrics(titleFont, p.device());
    const QFontMetricsF metrics(p.font(), p.device());
    const QRectF sentenceRect(inner.left(), inner.top(), inner.width(), titleMetrics.height());
    const QRectF detailsRect(inner.left(), sentenceRect.bottom() + 2, inner.width(), metrics.height());
    const QRectF titleRect = sentenceRect.united(detailsRect);
    p.save();
    p.setPen(o.palette.color(QPalette::WindowText));
    p.drawText(detailsRect, Qt::AlignLeft | Qt::AlignVCenter,
               metrics.elidedText(details, Qt::ElideRight, detailsRect.width()));
    p.setFont(titleFont);
    p.drawText(sentenceRect, Qt::AlignLeft | Qt::AlignVCenter,
               titleMetrics.elidedText(sentence, Qt::ElideRight, sentenceRect.width()));
    p.restore();

    // Heatmap top left and large, heads top right, pipeline and bars below: the window's layout.
    const QRectF content = inner.adjusted(0, titleRect.height() + gap, 0, 0);
    const qreal topHeight = (content.height() - gap) * 0.6;
    const qreal bottomTop = content.top() + topHeight + gap;
    const qreal heatmapWidth = (content.width() - gap) * 0.6;
    const qreal pipelineWidth = (content.width() - gap) * 0.55;
    const QRectF heatmapRect(content.left(), content.top(), heatmapWidth, topHeight);
    const QRectF headsRect(heatmapRect.right() + gap, content.top(), content.right() - heatmapRect.right() - gap,
                           topHeight);
    const QRectF pipelineRect(content.left(), bottomTop, pipelineWidth, content.bottom() - bottomTop);
    const QRectF barsRect(pipelineRect.right() + gap, bottomTop, content.right() - pipelineRect.right() - gap,
                          pipelineRect.height());

    const SnapshotPtr matrices = o.firstTokenAside ? firstTokenAsideSnapshot(snapshot) : snapshot;
    paintHeatmap(p, captioned(p, heatmapRect, tr("Heatmap"), o.palette), matrices, o, vector, o.showScores);
    paintHeads(p, captioned(p, headsRect, tr("All heads"), o.palette), matrices, o, vector, true);
    paintPipeline(p, captioned(p, pipelineRect, tr("Query → scores → weights → context"), o.palette), snapshot, o);
    paintBars(p, captioned(p, barsRect, tr("Embedding vs context"), o.palette), snapshot, o);
}

// The smallest height that shows every key and number of the pipeline, plus
// a little air, so a six-token sentence does not leave half the page blank.
int pipelineHeight(const SnapshotPtr &snapshot, const ExportOptions &o, int width, int largest)
{
    PipelinePainter pipeline;
    pipeline.setFont(pixelFont(o.font));
    pipeline.setSnapshot(snapshot);
    pipeline.setQuery(o.query);
    pipeline.setHead(o.head.value_or(0));
    const qreal line = QFontMetricsF(pipeline.font()).height();
    for (int h = 120; h < largest; h += 10) {
        const PipelineModel model = pipeline.model(QRectF(0, 0, width, h));
        if (model.hiddenKeys == 0 && model.hiddenDims == 0)
            return std::min(largest, h + int(std::ceil(2 * line)));
    }
    return largest;
}

// The heads as large as the picture allows, the picture then cut down to
// them (and their colour bar), so the grid never floats in white space.
QSize headsSize(const SnapshotPtr &snapshot, const ExportOptions &o, const QSize &largest)
{
    const QRectF content = exportContentRect(QRectF(QPointF(0, 0), QSizeF(largest)), ExportView::Heads);
    if (o.modelTrace && !o.modelTrace->layers.empty()) {
        ModelGridMarks marks = o.modelMarks;
        marks.firstTokenAside = o.firstTokenAside;
        const ModelGridLayout grid = modelGridLayout(content, int(o.modelTrace->layers.size()),
                                                     int(o.modelTrace->layers.front().weights.size()),
                                                     QFontMetricsF(pixelFont(o.font)), &marks);
        const QRectF last = grid.tileRect(grid.layers - 1, grid.heads - 1);
        const QSizeF used = QSizeF(last.right() + 4, last.bottom() + 4) + QSizeF(largest) - content.size()
            - QSizeF(content.left(), content.top());
        return {std::clamp(int(std::ceil(used.width())), kMinFittedSide, largest.width()),
                std::clamp(int(std::ceil(used.height())), kMinFittedSide / 2, largest.height())};
    }
    const HeadsExportLayout layout = headsPainter(snapshot, o, false, false).layout(content, pixelFont(o.font), nullptr);
    if (layout.tiles.empty())
        return largest;
    const QSizeF used = layout.used.size() + QSizeF(largest) - content.size() + QSizeF(2, 2);
    return {std::clamp(int(std::ceil(used.width())), kMinFittedSide, largest.width()),
            std::clamp(int(std::ceil(used.height())), kMinFittedSide / 2, largest.height())};
}

} // namespace

QSize exportSize(const SnapshotPtr &snapshot, const ExportOptions &options)
{
    if (!options.size.isEmpty())
        return options.size;
    QSize size = defaultExportSize(options.view);
    if (!snapshot || !snapshot->result || snapshot->result->heads.empty())
        return size;
    if (options.view == ExportView::Pipeline)
        size.setHeight(pipelineHeight(snapshot, options, size.width(), size.height()));
    else if (options.view == ExportView::Heads)
        size = headsSize(snapshot, options, size);
    return size;
}

QRectF exportContentRect(const QRectF &picture, ExportView view)
{
    const bool margin = view == ExportView::Heatmap || view == ExportView::Scores || view == ExportView::Heads;
    return margin ? picture.adjusted(kViewMargin, kViewMargin, -kViewMargin, -kViewMargin) : picture;
}

QString dashboardTitle(const attn::Session &session, int query)
{
    const attn::AttentionConfig &c = session.attention;
    QStringList parts;
    const QString sentence = session.sentence.isEmpty() ? session.tokens.join(QLatin1Char(' ')) : session.sentence;
    if (c.mode == attn::Mode::Simplified) {
        parts << tr("simplified attention (Q = K = V = X)");
    } else {
        parts << tr("scaled dot-product attention");
        parts << (c.heads == 1 ? tr("1 head of width %1").arg(c.headDim)
                               : tr("%1 heads of width %2").arg(c.heads).arg(c.headDim));
        if (c.keyValueHeads() < c.heads)
            parts << tr("%1 key/value heads").arg(c.keyValueHeads());
    }
    parts << (c.scale ? tr("scaled by 1/√d_k") : tr("not scaled"));
    if (c.causal && !session.source) // a causal mask does not apply to cross-attention
        parts << tr("causal mask");
    if (c.positionalEncoding == attn::PositionalEncoding::Sinusoidal)
        parts << tr("sinusoidal positions");
    if (c.rotary())
        parts << tr("rotary positions (θ = %1)").arg(attn::formatNumber(c.ropeTheta));
    if (c.outputProjection)
        parts << tr("output projection");
    if (session.source)
        parts << tr("cross-attention to %1 source tokens").arg(session.source->tokens.size());
    if (query >= 0 && query < session.tokenCount())
        parts << tr("query “%1”").arg(session.tokens[query]);
    return QStringLiteral("“%1”\n").arg(sentence) + parts.join(QStringLiteral(" · "));
}

void paintView(QPainter &painter, const QRectF &rect, const SnapshotPtr &snapshot, const ExportOptions &requested,
               bool vector)
{
    ExportOptions options = requested;
    if (options.transparent) {
        // The views fill their background with Base: with its alpha at 0 those
        // fills draw nothing, while colours blended from it keep its red, green
        // and blue, so text and grid lines look exactly as on the opaque picture.
        QColor base = options.palette.color(QPalette::Base);
        base.setAlpha(0);
        options.palette.setColor(QPalette::Base, base);
    }
    painter.save();
    painter.setFont(pixelFont(options.font));
    const bool dashboard = options.view == ExportView::Dashboard;
    if (!options.transparent)
        painter.fillRect(rect, options.palette.color(dashboard ? QPalette::Window : QPalette::Base));
    const QRectF content = exportContentRect(rect, options.view);
    const auto matrices = [&] { return options.firstTokenAside ? firstTokenAsideSnapshot(snapshot) : snapshot; };
    switch (options.view) {
    case ExportView::Heatmap:
    case ExportView::Scores:
        paintHeatmap(painter, content, matrices(), options, vector, options.view == ExportView::Scores);
        break;
    case ExportView::Heads:
        paintHeads(painter, content, matrices(), options, vector, false);
        break;
    case ExportView::Pipeline:
        paintPipeline(painter, rect, snapshot, options);
        break;
    case ExportView::Bars:
        paintBars(painter, rect, snapshot, options);
        break;
    case ExportView::Dashboard:
        paintDashboard(painter, rect, snapshot, options, vector);
        break;
    }
    painter.restore();
}
