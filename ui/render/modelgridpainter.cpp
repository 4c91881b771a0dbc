#include "modelgridpainter.h"

#include "devicepixels.h"

#include <QObject>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace {
constexpr double kGap = 3;
} // namespace

double ModelGridLayout::tileSide() const
{
    if (layers <= 0 || heads <= 0)
        return 0;
    const int groups = kvGroup > 1 ? heads / kvGroup : 1;
    const double w = (bounds.width() - labelWidth - (groups - 1) * groupGap) / heads;
    const double h = (bounds.height() - captionHeight - groupLabelHeight - labelHeight) / layers;
    return std::max(1.0, std::floor(std::min(w, h) - kGap));
}

QRectF ModelGridLayout::tileRect(int layer, int head) const
{
    const double side = tileSide(), step = side + kGap;
    const double group = kvGroup > 1 ? double(head / kvGroup) * groupGap : 0.0;
    return {bounds.left() + labelWidth + head * step + group,
            bounds.top() + captionHeight + groupLabelHeight + labelHeight + layer * step, side, side};
}

bool ModelGridLayout::tileAt(const QPointF &pos, int *layer, int *head) const
{
    const double step = tileSide() + kGap;
    if (step <= kGap || layers <= 0 || heads <= 0)
        return false;
    const int l = int(std::floor((pos.y() - tileRect(0, 0).top()) / step));
    if (l < 0 || l >= layers)
        return false;
    for (int h = 0; h < heads; ++h) {
        if (tileRect(l, h).contains(pos)) {
            *layer = l;
            *head = h;
            return true;
        }
    }
    return false;
}

QRectF ModelGridLayout::groupRect(int group) const
{
    if (kvGroup <= 1 || layers <= 0 || group < 0 || (group + 1) * kvGroup > heads)
        return {};
    const double margin = std::min(groupGap, kGap) / 2 + 1;
    return tileRect(0, group * kvGroup)
        .united(tileRect(layers - 1, (group + 1) * kvGroup - 1))
        .adjusted(-margin, -margin, margin, margin);
}

QRectF ModelGridLayout::captionRect() const
{
    return {bounds.left(), bounds.top(), bounds.width(), captionHeight};
}

ModelGridMarks modelGridMarks(const attn::ModelConfig &config)
{
    ModelGridMarks marks;
    marks.kvGroup = config.kvHeads() < config.heads ? config.kvGroup() : 1;
    for (int l = 0; l < config.layers; ++l)
        marks.windows.push_back(config.causal ? config.windowOf(l) : 0);
    return marks;
}

QString modelGridCaption(const ModelGridMarks &marks)
{
    QStringList parts;
    if (marks.computedLayers >= 0) {
        const int from = marks.computedLayers;
        parts << (marks.stopped ? QObject::tr("Striped: layers from L%1 on were not computed (the run was stopped)").arg(from)
                                : QObject::tr("Striped: layers from L%1 on are not computed yet").arg(from));
    }
    if (marks.firstTokenAside)
        parts << QObject::tr("First token set aside: each row's other weights renormalised (not the model's weights)");
    int window = 0;
    for (int w : marks.windows)
        window = std::max(window, w);
    if (window > 0)
        parts << (window == 1 ? QObject::tr("w: layer with a sliding window of 1 token")
                              : QObject::tr("w: layer with a sliding window of %1 tokens").arg(window));
    return parts.join(QStringLiteral(" · "));
}

QString modelGridRowLabel(int layer, const ModelGridMarks &marks)
{
    return marks.windowed(layer) ? QStringLiteral("L%1 w").arg(layer) : QStringLiteral("L%1").arg(layer);
}

ModelGridLayout modelGridLayout(const QRectF &bounds, int layers, int heads, const QFontMetricsF &metrics,
                                const ModelGridMarks *marks, bool sorted)
{
    const ModelGridMarks none;
    const ModelGridMarks &m = marks ? *marks : none;
    ModelGridLayout l;
    l.layers = layers;
    l.heads = heads;
    l.bounds = bounds;
    // As wide as the widest row label: a windowed layer's carries its mark.
    double widest = metrics.horizontalAdvance(QStringLiteral("L%1").arg(std::max(0, layers - 1)));
    for (int layer = 0; layer < layers; ++layer)
        if (m.windowed(layer))
            widest = std::max(widest, metrics.horizontalAdvance(modelGridRowLabel(layer, m)));
    l.labelWidth = widest + 6;
    l.labelHeight = metrics.height() + 2;
    l.captionHeight = modelGridCaption(m).isEmpty() ? 0 : metrics.height() + 4;
    if (m.grouped(heads) && !sorted) {
        l.kvGroup = m.kvGroup;
        l.groupGap = 6;
        l.groupLabelHeight = metrics.height() + 2;
    }
    return l;
}

int modelGridTilePixels(const QPainter &p, const QRectF &bounds, int layers, int heads, const ModelGridMarks *marks)
{
    const double side = modelGridLayout(bounds, layers, heads, QFontMetricsF(p.font()), marks).tileSide();
    const QSize pixels = boundedToPixels(p, QRectF(0, 0, side, side), QSize(kModelGridMaxSide, kModelGridMaxSide));
    return std::min(pixels.width(), pixels.height());
}

std::vector<std::vector<QImage>> modelGridImages(const attn::ModelTrace &trace, bool causal, ColorMap map,
                                                 const QColor &masked, int maxSide, bool firstTokenAside,
                                                 const std::vector<int> &windows)
{
    const ModelGridLevels levels =
        modelGridLevels(trace, causal, std::max(maxSide, kModelGridMaxSide), firstTokenAside, windows);
    return colouredTiles(pooledLevels(levels, maxSide), map, masked);
}

std::vector<ModelGridColumnLabel> modelGridColumnLabels(const ModelGridLayout &l, const QFontMetricsF &metrics)
{
    std::vector<ModelGridColumnLabel> labels;
    if (l.heads <= 0 || l.layers <= 0)
        return labels;
    const double step = l.tileSide() + kGap;
    const QString widest = QString::number(l.heads - 1);
    const bool named = metrics.horizontalAdvance(QLatin1Char('H') + widest) + 2 <= step;
    const double width = metrics.horizontalAdvance(named ? QLatin1Char('H') + widest : widest) + 2;
    const int every = std::max(1, int(std::ceil(width / step)));
    for (int column = 0; column < l.heads; column += every) {
        // Centred on its tile, as wide as `every` columns: neighbours never meet.
        const QPointF centre = l.tileRect(0, column).center();
        const QString text = named ? QStringLiteral("H%1").arg(column) : QString::number(column);
        // Just above the tiles: under the caption and the key/value groups' names when there are any.
        const double top = l.tileRect(0, 0).top() - l.labelHeight;
        labels.push_back({QRectF(centre.x() - every * step / 2, top, every * step, l.labelHeight), text});
    }
    return labels;
}

std::vector<std::vector<int>> modelGridOrder(int layers, int heads, const ModelGridScores *scores)
{
    std::vector<std::vector<int>> order(std::size_t(std::max(layers, 0)));
    for (int l = 0; l < layers; ++l) {
        std::vector<int> &row = order[std::size_t(l)];
        for (int h = 0; h < heads; ++h)
            row.push_back(h);
        if (!scores || !scores->sorted || l >= int(scores->values.size()))
            continue;
        const std::vector<double> &v = scores->values[std::size_t(l)];
        auto value = [&](int h) { return h < int(v.size()) ? v[std::size_t(h)] : std::nan(""); };
        std::stable_sort(row.begin(), row.end(), [&](int a, int b) {
            const double x = value(a), y = value(b);
            if (std::isnan(x) || std::isnan(y))
                return !std::isnan(x) && std::isnan(y);
            return x > y;
        });
    }
    return order;
}

namespace {

// The band under a tile: the score's colour, and its value when the tile is large enough to read it.
void paintScoreBand(QPainter &p, const QRectF &tile, double value, const ModelGridScores &scores,
                    const QPalette &palette)
{
    const QRectF band(tile.left(), tile.bottom() - std::max(4.0, tile.height() * 0.22), tile.width(),
                      std::max(4.0, tile.height() * 0.22));
    if (std::isnan(value)) {
        p.fillRect(band, palette.color(QPalette::Window));
        return;
    }
    const QColor c = sequentialColor(scores.map, std::clamp(value, 0.0, 1.0));
    p.fillRect(band, c);
    if (band.height() >= QFontMetricsF(p.font()).height() * 0.8 && tile.width() >= 28) {
        const double luminance = 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF();
        p.setPen(luminance > 0.5 ? Qt::black : Qt::white);
        p.drawText(band, Qt::AlignCenter, QString::number(value, 'f', 2));
    }
}

} // namespace

void paintModelGrid(QPainter &p, const QRectF &bounds, const std::vector<std::vector<QImage>> &tiles, int layer,
                    int head, const QPalette &palette, const std::set<attn::LayerHead> &switchedOff,
                    const ModelGridScores *scores, const ModelGridMarks *marks)
{
    const QFontMetricsF fm(p.font());
    const int layers = int(tiles.size()), heads = tiles.empty() ? 0 : int(tiles.front().size());
    const bool showScores = scores && !scores->values.empty();
    const bool sorted = showScores && scores->sorted;
    const ModelGridMarks none;
    const ModelGridMarks &m = marks ? *marks : none;
    const ModelGridLayout l = modelGridLayout(bounds, layers, heads, fm, &m, sorted);
    if (layers == 0 || heads == 0)
        return;
    const std::vector<std::vector<int>> order = modelGridOrder(layers, heads, showScores ? scores : nullptr);
    auto position = [&](int row, int h) {
        const std::vector<int> &o = order[std::size_t(row)];
        return int(std::find(o.begin(), o.end(), h) - o.begin());
    };
    const double side = l.tileSide();
    p.save();
    const QString caption = modelGridCaption(m);
    if (!caption.isEmpty()) {
        // Said first and in bold: these tiles are not the model's own weights.
        QFont bold = p.font();
        bold.setBold(m.firstTokenAside);
        p.setFont(bold);
        p.setPen(palette.color(QPalette::Text));
        p.drawText(l.captionRect(), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetricsF(bold).elidedText(caption, Qt::ElideRight, l.captionRect().width()));
        bold.setBold(false);
        p.setFont(bold);
    }
    if (l.kvGroup > 1) {
        // Every other group on a band of its own, each under its key/value head's name.
        for (int g = 0; g * l.kvGroup < heads; ++g) {
            const QRectF band = l.groupRect(g);
            if (g % 2 == 1)
                p.fillRect(band, palette.color(QPalette::AlternateBase));
            p.setPen(QPen(palette.color(QPalette::Mid), 1));
            const double top = l.tileRect(0, 0).top() - l.labelHeight - l.groupLabelHeight / 2;
            p.drawLine(QPointF(band.left() + 1, top), QPointF(band.right() - 1, top));
            const QString name = QObject::tr("kv %1").arg(g);
            const QRectF labelRect(band.left(), top - l.groupLabelHeight / 2, band.width(), l.groupLabelHeight);
            const double width = fm.horizontalAdvance(name) + 6;
            if (width <= band.width()) {
                const QRectF text(labelRect.center().x() - width / 2, labelRect.top(), width, labelRect.height());
                p.fillRect(text, palette.color(g % 2 == 1 ? QPalette::AlternateBase : QPalette::Base));
                p.setPen(palette.color(QPalette::Text));
                p.drawText(text, Qt::AlignCenter, name);
            }
        }
    }
    p.setPen(palette.color(QPalette::Text));
    // Labels only where they fit: a 24-layer grid in a small dock skips every other one.
    const int every = std::max(1, int(std::ceil((fm.height() + 2) / (side + kGap))));
    for (int row = 0; row < layers; ++row) {
        // A windowed layer's mark is never skipped: it tells the layers apart.
        if (row % every != 0 && !m.windowed(row))
            continue;
        const QRectF t = l.tileRect(row, 0);
        const QRectF label(l.bounds.left(), t.top(), l.labelWidth - 4, side);
        if (row % every != 0) { // only the mark, where the label would crowd its neighbours
            p.setPen(palette.color(QPalette::Highlight));
            p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("w"));
            p.setPen(palette.color(QPalette::Text));
            continue;
        }
        // "L3 w": the number as every label, the mark in the highlight colour.
        const double mark = m.windowed(row) ? fm.horizontalAdvance(QStringLiteral(" w")) : 0.0;
        p.drawText(label.adjusted(0, 0, -mark, 0), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("L%1").arg(row));
        if (m.windowed(row)) {
            p.setPen(palette.color(QPalette::Highlight));
            p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("w"));
            p.setPen(palette.color(QPalette::Text));
        }
    }
    if (sorted) {
        // Columns are ranks, not heads: each tile names its own head.
        p.drawText(QRectF(l.tileRect(0, 0).left(), l.tileRect(0, 0).top() - l.labelHeight,
                          l.bounds.right() - l.tileRect(0, 0).left(), l.labelHeight),
                   Qt::AlignLeft | Qt::AlignVCenter, QObject::tr("highest score first →"));
    } else {
        const std::vector<ModelGridColumnLabel> labels = modelGridColumnLabels(l, fm);
        for (const ModelGridColumnLabel &label : labels)
            p.drawText(label.rect, Qt::AlignCenter, label.text);
        if (!labels.empty() && !labels.front().text.startsWith(QLatin1Char('H')))
            p.drawText(QRectF(l.bounds.left(), l.tileRect(0, 0).top() - l.labelHeight, l.labelWidth - 4, l.labelHeight),
                       Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("H"));
    }
    p.setRenderHint(QPainter::SmoothPixmapTransform, false); // crisp cells
    for (int row = 0; row < layers; ++row)
        for (int column = 0; column < heads; ++column) {
            const int h = order[std::size_t(row)][std::size_t(column)];
            if (tiles[std::size_t(row)].empty()) {
                paintPendingTile(p, l.tileRect(row, column), palette);
                continue;
            }
            if (h >= int(tiles[std::size_t(row)].size()))
                continue;
            const QRectF tile = l.tileRect(row, column);
            p.drawImage(tile, tiles[std::size_t(row)][std::size_t(h)]);
            if (showScores && row < int(scores->values.size()) && h < int(scores->values[std::size_t(row)].size()))
                paintScoreBand(p, tile, scores->values[std::size_t(row)][std::size_t(h)], *scores, palette);
            if (sorted && side >= fm.height() * 1.6) {
                const QRectF tag(tile.left() + 1, tile.top() + 1, fm.horizontalAdvance(QStringLiteral("H00")) + 4,
                                 fm.height());
                p.fillRect(tag, palette.color(QPalette::Window));
                p.setPen(palette.color(QPalette::Text));
                p.drawText(tag, Qt::AlignCenter, QStringLiteral("H%1").arg(h));
            }
        }
    for (const attn::LayerHead &off : switchedOff)
        if (off.layer >= 0 && off.layer < layers && off.head >= 0 && off.head < heads)
            paintSwitchedOff(p, l.tileRect(off.layer, position(off.layer, off.head)), palette);
    if (layer >= 0 && layer < layers) {
        QRectF outline = head >= 0 && head < heads ? l.tileRect(layer, position(layer, head))
                                                   : l.tileRect(layer, 0).united(l.tileRect(layer, heads - 1));
        p.setPen(QPen(palette.color(QPalette::Highlight), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(outline.adjusted(-1.5, -1.5, 1.5, 1.5));
    }
    p.restore();
}

void paintPendingTile(QPainter &p, const QRectF &tile, const QPalette &palette)
{
    p.save();
    p.fillRect(tile, palette.color(QPalette::Base));
    QColor lines = palette.color(QPalette::Mid);
    p.fillRect(tile, QBrush(lines, Qt::BDiagPattern));
    p.setPen(QPen(lines, 1, Qt::DotLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(tile.adjusted(0.5, 0.5, -0.5, -0.5));
    p.restore();
}

void paintSwitchedOff(QPainter &p, const QRectF &tile, const QPalette &palette)
{
    p.save();
    QColor veil = palette.color(QPalette::Window);
    veil.setAlpha(kSwitchedOffVeilAlpha);
    p.fillRect(tile, veil);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(palette.color(QPalette::Text), std::clamp(tile.width() / 12, 1.5, 4.0), Qt::SolidLine, Qt::RoundCap));
    const QRectF inner = tile.adjusted(tile.width() * 0.2, tile.height() * 0.2, -tile.width() * 0.2, -tile.height() * 0.2);
    p.drawLine(inner.topLeft(), inner.bottomRight());
    p.drawLine(inner.topRight(), inner.bottomLeft());
    p.restore();
}

std::set<attn::LayerHead> switchedOffHeads(const attn::ModelTrace &trace)
{
    std::set<attn::LayerHead> off;
    for (int l = 0; l < int(trace.layers.size()); ++l) {
        const attn::LayerTrace &layer = trace.layers[std::size_t(l)];
        if (layer.context.rows() == 0)
            continue;
        for (int h = 0; h < int(layer.weights.size()); ++h)
            if ((layer.headContext(h).array() == 0.0f).all())
                off.insert({l, h});
    }
    return off;
}
