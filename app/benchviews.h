#pragma once
// The views' benchmarks: `bench --paint`, `bench --drag` and `bench --typing`.

#include "cliparse.h"

#include <QJsonObject>

// The heatmap painted at 1280 x 800 with 512, 2048 and 4096 tokens: first
// paint (builds the cached image), repaint, and repaint after a hover move.
QJsonObject paintBench(int repeat);

// One slider step in the real main window (offscreen) until every view has
// repainted, at the sizes given (by default 256 tokens, d_model 256, 8 heads).
// Needs a QApplication.
QJsonObject dragBench(const BenchArgs &args);

// One more character typed at the end of a sentence of --tokens words (by
// default 2000) in the real main window (offscreen), from Document::setSentence
// until every view has repainted. The window's starting session (simplified
// attention, d_model 3, one head) unless --d-model, --heads or --head-dim ask
// for other sizes (then scaled dot-product). Needs a QApplication.
QJsonObject typingBench(const BenchArgs &args);

// `bench --model DIR --window`: in the real main window (offscreen), File ›
// Open Model to the first picture, then typing one more word at the end of a
// 64-token text (--tokens) until every view has repainted; with the longest
// stretch the GUI thread spent without waiting for events. A GPT-2 model.
// Empty, with `error` set, when the model cannot be opened or run.
QJsonObject modelWindowBench(const ModelBenchArgs &args, QString *error);
