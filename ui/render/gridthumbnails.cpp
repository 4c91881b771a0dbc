#include "gridthumbnails.h"

#include "model/firsttokenaside.h"
#include "runtime/twothreads.h"

#include <algorithm>
#include <cstring>

namespace {

// A weight as a grey level of 0 ... kGridLevelTop, the nearest (halves up,
// as std::lround: the product and the half are exact in double, and
// truncation floors a positive number), without lround's call per pixel.
uchar level(float weight)
{
    return uchar(double(std::clamp(weight, 0.0f, 1.0f)) * kGridLevelTop + 0.5);
}

// A new thumbnail of `width` x `height` whose first earlier.lines lines are
// `earlier`'s (narrower by the keys the earlier text lacked, which those
// lines' rows cannot see: `fill` there); false, and nothing copied, when
// `earlier` is not such a thumbnail.
template<typename Pixel>
bool copyEarlierLines(const EarlierThumbnails &earlier, std::size_t head, QImage &image, Pixel fill)
{
    if (!earlier.images || earlier.lines <= 0 || head >= earlier.images->size())
        return false;
    const QImage &before = (*earlier.images)[head];
    if (before.format() != image.format() || before.height() < earlier.lines || before.width() > image.width()
        || image.height() < earlier.lines)
        return false;
    const int width = before.width();
    for (int r = 0; r < earlier.lines; ++r) {
        auto *line = reinterpret_cast<Pixel *>(image.scanLine(r));
        std::memcpy(line, before.constScanLine(r), std::size_t(width) * sizeof(Pixel));
        std::fill(line + width, line + image.width(), fill);
    }
    return true;
}

// One head's thumbnail (modelGridLayerLevels).
QImage headLevels(const attn::RowMatrix<float> &w, bool causal, int maxSide, bool firstTokenAside, int layerWindow,
                  const EarlierThumbnails &earlier, std::size_t head)
{
    // Keys before this in row r are outside its window (none without one).
    const int window = causal ? std::max(0, layerWindow) : 0;
    const auto firstSeen = [window](int r) { return window > 0 ? std::max(0, r - window + 1) : 0; };
    const int n = int(w.rows()), m = int(w.cols());
    const ThumbnailBlocks across = thumbnailBlocks(n, maxSide), along = thumbnailBlocks(m, maxSide);
    const int rows = across.lines, cols = along.lines, block = across.block, keyBlock = along.block;
    QImage image(std::max(cols, 1), std::max(rows, 1), QImage::Format_Grayscale8);
    if (rows == 0 || cols == 0) {
        image.fill(0);
        return image;
    }
    const int firstLine = causal && copyEarlierLines<uchar>(earlier, head, image, uchar(kGridMasked)) ? earlier.lines : 0;
    // With the first token set aside, row r's weights times its factor
    // (attn::firstTokenAside) and column 0 drawn as masked.
    Eigen::VectorXf rowScale = Eigen::VectorXf::Ones(n);
    if (firstTokenAside)
        for (int r = firstLine * block; r < n; ++r)
            rowScale[r] = float(attn::firstTokenAsideScale(w.row(r).data(), m));
    const int firstShown = firstTokenAside ? 1 : 0;
    if (block == 1 && keyBlock == 1) {
        // One pixel per weight (the texts a user types): no block to
        // reduce, and 144 heads of 64 x 64 at every keystroke.
        for (int r = firstLine; r < rows; ++r) {
            uchar *line = image.scanLine(r);
            const float *weights = w.row(r).data();
            for (int c = 0; c < cols; ++c)
                line[c] = (causal && c > r) || c < firstShown || c < firstSeen(r)
                    ? uchar(kGridMasked)
                    : level(weights[c] * rowScale[r]);
        }
        return image;
    }
    // A line of cells at a time: the block's rows reduced key by key
    // first (the largest weight each key has in them), then each cell's
    // keys; the same largest as cell by cell, at a tenth of the work.
    // `high` reaches past the last key to the end of the last cell; `most` holds each cell's largest.
    std::vector<float> high(std::size_t(cols) * std::size_t(keyBlock)), most(static_cast<std::size_t>(cols));
    for (int r = firstLine; r < rows; ++r) {
        uchar *line = image.scanLine(r);
        const int r0 = r * block, r1 = std::min(n, r0 + block);
        // Under the causal mask no row of the block sees a key from r1 on:
        // those cells are masked, and their weights (zero) are not read.
        const int seen = causal ? std::min(m, r1) : m;
        const int seenFrom = std::max(firstShown, firstSeen(r0));
        if (seenFrom >= seen) {
            std::fill(line, line + cols, uchar(kGridMasked));
            continue;
        }
        float *largest = high.data();
        for (int y = r0; y < r1; ++y) {
            const float *weights = w.row(y).data();
            const float scale = rowScale[y];
            if (y == r0)
                for (int k = 0; k < seen; ++k)
                    largest[k] = weights[k] * scale;
            else
                for (int k = 0; k < seen; ++k)
                    largest[k] = std::max(largest[k], weights[k] * scale);
        }
        // Cells [first, end) hold keys some row of the block sees, the rest
        // are masked. The keys of those cells no row sees count as nothing:
        // every cell's largest starts from 0, and weights are not negative.
        const int first = seenFrom / keyBlock, end = std::min(cols, (seen + keyBlock - 1) / keyBlock);
        std::fill(largest + first * keyBlock, largest + seenFrom, 0.0f);
        std::fill(largest + seen, largest + end * keyBlock, 0.0f);
        float *cells = most.data();
        if (keyBlock == 1) {
            cells = largest;
        } else if (keyBlock == 2) { // blocks of 2 and 3 (129 to 384 tokens) written out: each one vector loop
            for (int c = first; c < end; ++c)
                cells[c] = std::max(largest[2 * c], largest[2 * c + 1]);
        } else if (keyBlock == 3) {
            for (int c = first; c < end; ++c)
                cells[c] = std::max(std::max(largest[3 * c], largest[3 * c + 1]), largest[3 * c + 2]);
        } else {
            for (int c = first; c < end; ++c) {
                float m = 0;
                for (int k = c * keyBlock; k < c * keyBlock + keyBlock; ++k)
                    m = std::max(m, largest[k]);
                cells[c] = m;
            }
        }
        std::fill(line, line + first, uchar(kGridMasked));
        for (int c = first; c < end; ++c)
            line[c] = level(cells[c]);
        std::fill(line + end, line + cols, uchar(kGridMasked));
    }
    return image;
}

// The colour of every level, masked last.
std::vector<QRgb> colourTable(ColorMap map, const QColor &masked)
{
    std::vector<QRgb> table(256);
    for (int i = 0; i <= kGridLevelTop; ++i)
        table[std::size_t(i)] = sequentialColor(map, double(i) / kGridLevelTop).rgb();
    table[kGridMasked] = masked.rgb();
    return table;
}

QImage colouredTile(const QImage &level, const std::vector<QRgb> &table, const EarlierThumbnails &earlier,
                    std::size_t head)
{
    QImage image(level.size(), QImage::Format_RGB32);
    const int width = level.width(), height = level.height(); // not asked per pixel: calls
    const int first = copyEarlierLines<QRgb>(earlier, head, image, table[kGridMasked]) ? earlier.lines : 0;
    for (int r = first; r < height; ++r) {
        const uchar *in = level.constScanLine(r);
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(r));
        for (int c = 0; c < width; ++c)
            line[c] = table[in[c]];
    }
    return image;
}

} // namespace

ThumbnailBlocks thumbnailBlocks(int tokens, int maxSide)
{
    ThumbnailBlocks b;
    if (tokens <= 0 || maxSide <= 0)
        return b;
    b.block = (tokens + maxSide - 1) / maxSide;
    b.lines = (tokens + b.block - 1) / b.block;
    return b;
}

int reusableThumbnailLines(int tokens, int earlierTokens, int reused, int maxSide)
{
    const ThumbnailBlocks now = thumbnailBlocks(tokens, maxSide), before = thumbnailBlocks(earlierTokens, maxSide);
    if (now.lines == 0 || before.block != now.block)
        return 0;
    return std::clamp(std::min(reused, std::min(tokens, earlierTokens)) / now.block, 0, before.lines);
}

ModelGridLevels modelGridLevels(const attn::ModelTrace &trace, bool causal, int maxSide, bool firstTokenAside,
                                const std::vector<int> &windows)
{
    ModelGridLevels layers;
    for (const attn::LayerTrace &layer : trace.layers) {
        const std::size_t l = layers.size();
        layers.push_back(modelGridLayerLevels(layer, causal, maxSide, firstTokenAside,
                                              l < windows.size() ? windows[l] : 0));
    }
    return layers;
}

std::vector<QImage> modelGridLayerLevels(const attn::LayerTrace &layer, bool causal, int maxSide,
                                         bool firstTokenAside, int layerWindow, const EarlierThumbnails &earlier)
{
    // The heads on both threads: the layer's weights are megabytes, read once.
    std::vector<QImage> tiles(layer.weights.size());
    const std::size_t half = tiles.size() / 2;
    const auto some = [&](std::size_t from, std::size_t to) {
        for (std::size_t h = from; h < to; ++h)
            tiles[h] = headLevels(layer.weights[h], causal, maxSide, firstTokenAside, layerWindow, earlier, h);
    };
    attn::runBoth([&] { some(0, half); }, [&] { some(half, tiles.size()); });
    return tiles;
}

ModelGridLevels pooledLevels(const ModelGridLevels &levels, int side)
{
    side = std::max(1, side);
    ModelGridLevels out;
    static_assert(kGridMasked == 255 && kGridLevelTop < kGridMasked, "a masked pixel must wrap to 0 when one is added");
    std::vector<uchar> highest; // of one line of cells, per pixel column: 0 masked, else level + 1
    for (const std::vector<QImage> &layer : levels) {
        std::vector<QImage> tiles;
        for (const QImage &level : layer) {
            const int n = level.height(), m = level.width();
            if (n <= side && m <= side) {
                tiles.push_back(level); // shared, not copied
                continue;
            }
            const int rows = std::min(n, side), cols = std::min(m, side);
            QImage image(cols, rows, QImage::Format_Grayscale8);
            for (int r = 0; r < rows; ++r) {
                // The block's rows reduced pixel column by pixel column
                // first, then each cell's columns. A level is kept plus one,
                // so that the masked pixel (255) wraps to 0 and loses to
                // every level: no branch, and the compiler's vectors do it.
                const int r0 = int(qint64(r) * n / rows), r1 = int(qint64(r + 1) * n / rows);
                highest.assign(std::size_t(m), 0);
                for (int y = r0; y < r1; ++y) {
                    const uchar *in = level.constScanLine(y);
                    uchar *most = highest.data();
                    for (int x = 0; x < m; ++x)
                        most[x] = std::max(most[x], uchar(in[x] + 1));
                }
                uchar *line = image.scanLine(r);
                for (int c = 0; c < cols; ++c) {
                    const int c0 = int(qint64(c) * m / cols), c1 = int(qint64(c + 1) * m / cols);
                    uchar cell = 0;
                    for (int x = c0; x < c1; ++x)
                        cell = std::max(cell, highest[std::size_t(x)]);
                    line[c] = cell == 0 ? uchar(kGridMasked) : uchar(cell - 1);
                }
            }
            tiles.push_back(std::move(image));
        }
        out.push_back(std::move(tiles));
    }
    return out;
}

std::vector<std::vector<QImage>> colouredTiles(const ModelGridLevels &levels, ColorMap map, const QColor &masked)
{
    std::vector<std::vector<QImage>> out;
    for (const std::vector<QImage> &layer : levels)
        out.push_back(colouredLayerTiles(layer, map, masked));
    return out;
}

std::vector<QImage> colouredLayerTiles(const std::vector<QImage> &levels, ColorMap map, const QColor &masked,
                                       const EarlierThumbnails &earlier)
{
    const std::vector<QRgb> table = colourTable(map, masked);
    std::vector<QImage> tiles;
    for (const QImage &level : levels)
        tiles.push_back(colouredTile(level, table, earlier, tiles.size()));
    return tiles;
}
