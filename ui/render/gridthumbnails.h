#pragma once
// The thumbnails of the layers × heads grid before and after colour: one
// grey level a pixel, made on the window's worker, and the same in a colour
// map. A typed word changes only the last rows of every weight matrix, so a
// run copies the earlier text's lines above them and makes only the rest.

#include "colormap.h"
#include "model/forward.h"

#include <QImage>
#include <vector>

// Thumbnails keep at most this many cells a side (one pixel each).
constexpr int kModelGridMaxSide = 128;

// How a thumbnail of n tokens pools them: blocks of `block` tokens a side
// (the last may be shorter), `lines` of them. One token a pixel up to
// maxSide tokens; past that the smallest block that fits, so 129 to 256
// tokens make 65 to 128 pixels a side. A block holds the same tokens
// whatever follows them: that is what lets a longer text keep the lines of
// the shorter one.
struct ThumbnailBlocks
{
    int block = 1;
    int lines = 0;
};
ThumbnailBlocks thumbnailBlocks(int tokens, int maxSide);

// One thumbnail per head, layers outer, before it has colours: one byte per
// pixel (Format_Grayscale8), the weight as a level 0 ... kGridLevelTop of
// 0 ... 1, or kGridMasked where a causal mask hides every cell. A pixel is
// the largest weight of its block (thumbnailBlocks), so a sharp head stays
// visible when shrunk. With `firstTokenAside`, each row's weights
// renormalised without the first token (attn::firstTokenAside) and its
// column drawn as masked. windows[l]: layer l's sliding window (0 or
// missing: none); the keys a window hides are masked as the causal mask's are.
using ModelGridLevels = std::vector<std::vector<QImage>>;
constexpr int kGridLevelTop = 254;
constexpr int kGridMasked = 255;
ModelGridLevels modelGridLevels(const attn::ModelTrace &trace, bool causal, int maxSide,
                                bool firstTokenAside = false, const std::vector<int> &windows = {});

// What a layer's thumbnails can take from the same layer's over an earlier
// text: their first `lines` lines, whose weights this trace has unchanged.
struct EarlierThumbnails
{
    const std::vector<QImage> *images = nullptr; // levels or tiles, one per head
    int lines = 0;
};

// How many lines of the thumbnails over `earlierTokens` tokens a causal
// trace over `tokens` keeps, when its first `reused` rows are the earlier
// trace's: the lines wholly above them, when both texts pool alike.
int reusableThumbnailLines(int tokens, int earlierTokens, int reused, int maxSide);

// One layer's row of modelGridLevels (`window`: that layer's, 0 for none),
// for a window that shows layers as a long pass computes them; the lines of
// `earlier` (causal traces only) are copied, not made again.
std::vector<QImage> modelGridLayerLevels(const attn::LayerTrace &layer, bool causal, int maxSide,
                                         bool firstTokenAside = false, int window = 0,
                                         const EarlierThumbnails &earlier = {});

// The levels at most `side` pixels a side: a pixel of a larger thumbnail is
// the highest level of its block (the largest weight), masked only where
// every pixel of the block is. For tiles smaller than their thumbnails,
// which scaled down would drop rows and columns (devicepixels.h).
ModelGridLevels pooledLevels(const ModelGridLevels &levels, int side);

// The levels in `map`'s colours, masked pixels in `masked` (one table look-up a pixel).
std::vector<std::vector<QImage>> colouredTiles(const ModelGridLevels &levels, ColorMap map, const QColor &masked);
// One layer's, its first earlier.lines lines copied from earlier tiles in the same colours.
std::vector<QImage> colouredLayerTiles(const std::vector<QImage> &levels, ColorMap map, const QColor &masked,
                                       const EarlierThumbnails &earlier = {});

// Tiles coloured ahead of time (on the worker that built their levels), with
// the colours they were given: the grid uses them while its own colours are
// the same, and colours the levels itself only after a change of colours.
struct ModelGridTiles
{
    ColorMap map = ColorMap::Viridis;
    QRgb masked = 0;
    std::vector<std::vector<QImage>> images;
};
