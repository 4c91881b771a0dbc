#pragma once
// The views' benchmarks: `bench --paint` and `bench --drag`.

#include "cliparse.h"

#include <QJsonObject>

// The heatmap painted at 1280 x 800 with 512, 2048 and 4096 tokens: first
// paint (builds the cached image), repaint, and repaint after a hover move.
QJsonObject paintBench(int repeat);

// One slider step in the real main window (offscreen) until every view has
// repainted, at the sizes given (by default 256 tokens, d_model 256, 8 heads).
// Needs a QApplication.
QJsonObject dragBench(const BenchArgs &args);
