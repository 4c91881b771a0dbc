#pragma once
// Pictures of a one-cell-wide line of weight 1 in a matrix of zeros, drawn in
// viridis with fewer pixels than cells: does every pixel row show the line?
// The tests of pooling to the screen's pixels (heads grid, layers × heads
// grid, Compare) share this count.

#include "colordistance.h"
#include "colormap.h"

#include <QImage>
#include <QRect>

struct LineRows
{
    int cellRows = 0;       // pixel rows showing cells: more than `minCells` pixels of viridis(0)
    int firstMiss = -1;     // the first of them without 1 ... maxLine pixels of viridis(1); -1: none
    int firstMissPixels = 0; // how many line pixels it had
};

inline LineRows rowsShowingTheLine(const QImage &image, const QRect &area, int minCells = 10, int maxLine = 4)
{
    const QColor low = sequentialColor(ColorMap::Viridis, 0.0), peak = sequentialColor(ColorMap::Viridis, 1.0);
    LineRows rows;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        int lows = 0, peaks = 0;
        for (int x = area.left(); x <= area.right(); ++x) {
            lows += colorDistance(image.pixelColor(x, y), low) <= 8;
            peaks += colorDistance(image.pixelColor(x, y), peak) <= 24;
        }
        if (lows <= minCells)
            continue; // a title, labels, margins
        ++rows.cellRows;
        if ((peaks < 1 || peaks > maxLine) && rows.firstMiss < 0) {
            rows.firstMiss = y;
            rows.firstMissPixels = peaks;
        }
    }
    return rows;
}
