// The heatmap's cells: the cached image (one pixel per cell, or per pooled
// block) and drawing its visible part. HeatmapPainter's third part, beside
// heatmappainter.cpp (data, mask, numbers) and heatmaplabels.cpp (text).
#include "heatmappainter.h"

#include "devicepixels.h"
#include "runtime/twothreads.h"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <vector>

namespace {

constexpr int kLutSize = 1024;

// Values to colours through the table. The index arithmetic is done in
// float, a vector at a time (Eigen), and only the table look-up one by one:
// at 2000 tokens a repaint colours 4 M cells, and one by one in double that
// was an eighth of a slider drag's step.
class RowColours
{
public:
    RowColours(const std::vector<QRgb> &lut, double offset, double scale, int columns)
        : m_lut(lut), m_offset(float(offset)), m_scale(float(scale)), m_index(columns)
    {
    }

    void operator()(const float *values, int count, QRgb *out)
    {
        const Eigen::Map<const Eigen::ArrayXf> v(values, count);
        auto index = m_index.head(count);
        index = ((v + m_offset) * m_scale + 0.5f).max(0.0f).min(float(kLutSize - 1)).cast<int>();
        for (int x = 0; x < count; ++x)
            out[x] = m_lut[std::size_t(index[x])];
    }

private:
    const std::vector<QRgb> &m_lut;
    float m_offset, m_scale;
    Eigen::ArrayXi m_index;
};

// The strongest value (attn::strongerThan: the larger magnitude, the larger
// value on a tie) of each pixel's block of cells in a float matrix. The
// block's rows are reduced first, a vector at a time, to each column's
// largest and smallest value; then each pixel's few columns.
class BlockStrongest
{
public:
    BlockStrongest(int firstColumn, int columns) : m_first(firstColumn), m_high(columns), m_low(columns) {}

    void startBlock() { m_seen = 0; }

    // Columns [first, end) of a row (indexed from column 0) join the block.
    void add(const float *row, int end)
    {
        const int count = end - m_first;
        if (count <= 0)
            return;
        const Eigen::Map<const Eigen::ArrayXf> v(row + m_first, count);
        const int both = std::min(m_seen, count);
        m_high.head(both) = m_high.head(both).max(v.head(both));
        m_low.head(both) = m_low.head(both).min(v.head(both));
        if (count > m_seen) {
            m_high.segment(m_seen, count - m_seen) = v.tail(count - m_seen);
            m_low.segment(m_seen, count - m_seen) = v.tail(count - m_seen);
            m_seen = count;
        }
    }

    // The strongest value among columns [begin, end) of the block's rows;
    // false when no row reached them (masked).
    bool strongest(int begin, int end, float &out) const
    {
        end = std::min(end, m_first + m_seen);
        if (begin >= end)
            return false;
        float high = m_high[begin - m_first], low = m_low[begin - m_first];
        for (int c = begin + 1; c < end; ++c) {
            high = std::max(high, m_high[c - m_first]);
            low = std::min(low, m_low[c - m_first]);
        }
        out = std::abs(high) >= std::abs(low) ? high : low;
        return true;
    }

private:
    int m_first;
    int m_seen = 0; // columns [m_first, m_first + m_seen) hold values
    Eigen::ArrayXf m_high, m_low;
};

} // namespace

QSize HeatmapPainter::imageLimit(const QPainter &p, const QRectF &rect) const
{
    return imageLimit(p, layout(rect, p.font(), p.device()));
}

QSize HeatmapPainter::imageLimit(const QPainter &p, const HeatmapLayout &l) const
{
    return boundedToPixels(p, l.cellArea(), QSize(m_maxImageSize, m_maxImageSize));
}

QRect HeatmapPainter::wantedImageCells(const HeatmapLayout &l, const QSize &limit) const
{
    // One image of every cell, unless a pooled matrix is zoomed in: then the
    // visible cells get their own image, one pixel per cell again once they
    // are few enough, so a zoomed cell shows its own colour, not its block's.
    if ((rows() <= limit.height() && columns() <= limit.width()) || l.zoom().isFit())
        return allCells();
    const auto [r0, r1] = l.visibleRows();
    const auto [c0, c1] = l.visibleColumns();
    return r1 > r0 && c1 > c0 ? QRect(c0, r0, c1 - c0, r1 - r0) : allCells();
}

void HeatmapPainter::rebuildImage(QRgb masked, const QRect &cells, const QSize &limit) const
{
    const int w = imageSizeFor(cells, limit).width();
    const int h = imageSizeFor(cells, limit).height();
    // Every pixel is written below: an image of the same size is reused,
    // not allocated again (16 MB at 2000 tokens, its pages faulted in anew).
    if (m_image.width() != w || m_image.height() != h)
        m_image = QImage(w, h, QImage::Format_RGB32);
    std::vector<QRgb> lut(kLutSize);
    for (int i = 0; i < kLutSize; ++i) {
        const double t = double(i) / (kLutSize - 1);
        lut[i] = (m_showScores ? divergingColor(2 * t - 1) : sequentialColor(m_colorMap, t)).rgb();
    }
    // Scores map [-max, max] and weights [0, max] onto the whole table.
    const double offset = m_showScores ? m_rangeMax : 0.0;
    const double scale = (kLutSize - 1) / (m_showScores ? 2 * m_rangeMax : m_rangeMax);
    const bool causal = m_snapshot->result->causal;
    const attn::AttentionMatrix &values = *this->values();
    const int nColumns = columns();
    // The columns each pixel covers, once rather than per row.
    std::vector<int> firstColumn(std::size_t(w) + 1);
    for (int x = 0; x <= w; ++x)
        firstColumn[std::size_t(x)] = cells.x() + int(attn::poolStart(x, cells.width(), w));
    uchar *const bits = m_image.bits();
    const qsizetype bytesPerLine = m_image.bytesPerLine();
    const auto colourOf = [&](double v) { // values are >= -offset
        return lut[std::size_t(std::clamp(int((v + offset) * scale + 0.5), 0, kLutSize - 1))];
    };
    // The pass's pooled picture when it is the one wanted: a head kept only
    // as its q and k needs no row computed for its thumbnail.
    const attn::PooledMatrix *pooled = values.pooled();
    const bool fromThumbnail = pooled && cells == allCells() && pooled->rows() >= h && pooled->cols() >= w;
    const bool cellPerPixel = w == cells.width() && h == cells.height();
    const bool single = values.isSinglePrecision();
    const bool onDemand = values.isOnDemand();
    // Image lines [y0, y1), reading the matrix row by row: a large result
    // derives its weights a whole row at a time, and a head kept only as its
    // q and k computes its rows a block at a time (one matrix product).
    const auto paintLines = [&](int y0, int y1) {
        // Double-precision matrices are read in double: scores of 1e300 are
        // valid there and would be infinite in float.
        Eigen::RowVectorXf rowF(nColumns);
        Eigen::RowVectorXd row(nColumns);
        attn::RowMatrixF computed;
        RowColours colours(lut, offset, scale, nColumns);
        BlockStrongest block(cells.x(), cells.width());
        std::vector<double> best(std::size_t(w), 0.0);
        std::vector<char> any(std::size_t(w), 0);
        for (int y = y0; y < y1; ++y) {
            auto *line = reinterpret_cast<QRgb *>(bits + y * bytesPerLine);
            if (fromThumbnail) {
                // The thumbnail's blocks pooled again when the image is
                // smaller (a small tile): each pixel shows the strongest of
                // the thumbnail cells it covers, which cover its own cells
                // give or take a thumbnail cell at the edges.
                const auto t0 = attn::poolStart(y, pooled->rows(), h), t1 = attn::poolStart(y + 1, pooled->rows(), h);
                for (int x = 0; x < w; ++x) {
                    const float v = attn::strongestInBlock(pooled->cells, t0, t1, attn::poolStart(x, pooled->cols(), w),
                                                           attn::poolStart(x + 1, pooled->cols(), w));
                    line[x] = std::isnan(v) ? masked : colourOf(v);
                }
                continue;
            }
            if (cellPerPixel) {
                // One pixel per cell: each value straight to its colour.
                const int r = cells.y() + y;
                const int visibleEnd = causal ? std::min(nColumns, r + 1) : nColumns;
                // Columns [first, end) of the row are coloured, the rest masked.
                const int first = cells.x(), end = std::clamp(visibleEnd, first, first + w);
                if (single) {
                    const float *rowValues = rowF.data();
                    if (onDemand) {
                        // Rows computed 32 at a time, by one matrix product.
                        if ((y - y0) % 32 == 0)
                            values.rowsInto(r, std::min(32, y1 - y), computed);
                        rowValues = computed.data() + ((y - y0) % 32) * computed.cols();
                    } else if (const float *stored = values.storedRow(r)) {
                        rowValues = stored;
                    } else {
                        values.rowInto(r, rowF);
                    }
                    colours(rowValues + first, end - first, line);
                } else {
                    row = values.row(r);
                    for (int c = first; c < end; ++c)
                        line[c - first] = colourOf(row[c]);
                }
                std::fill(line + (end - first), line + w, masked);
                continue;
            }
            // A block of rows/columns per pixel; the strongest unmasked value wins
            // so a lone peak stays visible when 4096 tokens share 600 pixels.
            const int r0 = cells.y() + int(attn::poolStart(y, cells.height(), h));
            const int r1 = cells.y() + int(attn::poolStart(y + 1, cells.height(), h));
            if (onDemand)
                values.rowsInto(r0, r1 - r0, computed);
            if (single) {
                block.startBlock();
                for (int r = r0; r < r1; ++r) {
                    const float *rowValues = rowF.data();
                    if (onDemand)
                        rowValues = computed.data() + (r - r0) * computed.cols();
                    else if (const float *stored = values.storedRow(r))
                        rowValues = stored;
                    else
                        values.rowInto(r, rowF);
                    const int visibleEnd = causal ? std::min(nColumns, r + 1) : nColumns;
                    block.add(rowValues, std::clamp(visibleEnd, cells.x(), cells.x() + cells.width()));
                }
                for (std::size_t x = 0; x < std::size_t(w); ++x) {
                    float v = 0.0f;
                    line[x] = block.strongest(firstColumn[x], firstColumn[x + 1], v) ? colourOf(v) : masked;
                }
                continue;
            }
            std::fill(any.begin(), any.end(), 0);
            for (int r = r0; r < r1; ++r) {
                row = values.row(r);
                const int visibleEnd = causal ? std::min(nColumns, r + 1) : nColumns;
                for (std::size_t x = 0; x < std::size_t(w); ++x) {
                    const int cEnd = std::min(firstColumn[x + 1], visibleEnd);
                    for (int c = firstColumn[x]; c < cEnd; ++c) {
                        if (!any[x] || attn::strongerThan(row[c], best[x]))
                            best[x] = row[c];
                        any[x] = 1;
                    }
                }
            }
            for (std::size_t x = 0; x < std::size_t(w); ++x)
                line[x] = any[x] ? colourOf(best[x]) : masked;
        }
    };
    // Both cores for a large matrix (4096 tokens: 16 M cells); the causal mask
    // leaves more cells in the lower lines, so the split is not at the middle.
    if (fromThumbnail || qint64(cells.height()) * cells.width() < (qint64(1) << 20)) {
        paintLines(0, h);
    } else {
        const int split = causal ? int(h * 0.7071) : h / 2;
        attn::runBoth([&] { paintLines(0, split); }, [&] { paintLines(split, h); });
    }
    m_imageMasked = masked;
    m_imageCells = cells;
    m_imageDirty = false;
}

bool HeatmapPainter::needsImage(const QPalette &palette, const QSize &limit) const
{
    if (!m_hasValues || (m_vectorCells && qint64(rows()) * columns() <= kMaxVectorCells))
        return false;
    return m_imageDirty || m_imageMasked != maskedBackground(palette).rgb() || m_imageCells != allCells()
        || m_image.size() != imageSizeFor(allCells(), limit);
}

void HeatmapPainter::prepareImage(const QPalette &palette, const QSize &limit) const
{
    if (needsImage(palette, limit))
        rebuildImage(maskedBackground(palette).rgb(), allCells(), limit);
}

void HeatmapPainter::paintCells(QPainter &p, const HeatmapLayout &l, const QPalette &palette) const
{
    const QColor masked = maskedBackground(palette);
    const auto [r0, r1] = l.visibleRows();
    const auto [c0, c1] = l.visibleColumns();
    if (m_vectorCells && qint64(rows()) * columns() <= kMaxVectorCells) {
        for (int r = r0; r < r1; ++r) {
            for (int c = c0; c < c1; ++c)
                p.fillRect(l.cellRect(r, c), isMasked(r, c) ? masked : colorFor(valueAt(r, c)));
        }
    } else {
        const QSize limit = imageLimit(p, l);
        const QRect wanted = wantedImageCells(l, limit);
        if (m_imageDirty || m_imageMasked != masked.rgb() || m_imageCells != wanted
            || m_image.size() != imageSizeFor(wanted, limit))
            rebuildImage(masked.rgb(), wanted, limit);
        // Only the image pixels over visible cells, each stretched exactly over
        // the cells it stands for (pixel x starts at column firstColumn(x)).
        const QRect &ic = m_imageCells;
        const int w = m_image.width(), h = m_image.height();
        const auto columnOf = [&](int x) { return ic.x() + int(qint64(x) * ic.width() / w); };
        const auto rowOf = [&](int y) { return ic.y() + int(qint64(y) * ic.height() / h); };
        // Rounding down may start a pixel early; the clip hides the extra.
        const int x0 = std::clamp(int(qint64(c0 - ic.x()) * w / ic.width()), 0, w);
        const int x1 = std::clamp(int((qint64(c1 - ic.x()) * w + ic.width() - 1) / ic.width()) + 1, x0, w);
        const int y0 = std::clamp(int(qint64(r0 - ic.y()) * h / ic.height()), 0, h);
        const int y1 = std::clamp(int((qint64(r1 - ic.y()) * h + ic.height() - 1) / ic.height()) + 1, y0, h);
        const QPointF origin = l.contentRect().topLeft();
        const QRectF target(QPointF(origin.x() + columnOf(x0) * l.cellWidth(), origin.y() + rowOf(y0) * l.cellHeight()),
                            QPointF(origin.x() + columnOf(x1) * l.cellWidth(), origin.y() + rowOf(y1) * l.cellHeight()));
        // Nearest neighbour: a cell is a flat block of colour, never a blur.
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        if (x1 > x0 && y1 > y0)
            p.drawImage(target, m_image, QRectF(x0, y0, x1 - x0, y1 - y0));
    }
    // Thin gaps between big cells make single cells easy to tell apart.
    if (!m_compact && l.cellWidth() >= 14 && l.cellHeight() >= 14) {
        p.setPen(QPen(palette.color(QPalette::Base), 1));
        const QRectF area = l.cellArea();
        for (int c = std::max(1, c0); c < c1; ++c) {
            const qreal x = l.cellRect(0, c).left();
            p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        }
        for (int r = std::max(1, r0); r < r1; ++r) {
            const qreal y = l.cellRect(r, 0).top();
            p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
        }
    }
}
