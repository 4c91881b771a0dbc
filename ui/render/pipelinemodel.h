#pragma once
// What the pipeline shows for one query and one head, as plain data: the
// choice of keys and numbers, testable without pixels.

#include "snapshot.h"

#include <QString>
#include <vector>

// One key as the scores and weights steps show it.
struct PipelineKeyRow
{
    int key = 0; // index into the snapshot's column tokens
    QString label;
    double score = 0.0;  // raw dot product q·k
    double scaled = 0.0; // score * scoreScale: what the softmax sees
    double weight = 0.0;
    bool masked = false;
    bool outsideWindow = false; // masked by the layer's sliding window (before the query's window)
    bool isSelf = false; // the query's own token (self-attention only)
};

// What the pipeline shows, already cut down to what fits. Plain data, so the
// choice of rows can be tested without pixels.
struct PipelineModel
{
    QString error; // why there is nothing to show; empty when there is
    int query = 0;
    int head = 0;
    int headCount = 0;
    QString queryToken;
    // The query column's title, saying where q comes from when it is not
    // plainly x·W_q: "query q = x", "q = x + PE", "q = (x+PE)·W_q".
    QString queryTitle;
    int headDim = 0;
    std::vector<double> queryValues;   // the first shown numbers of q
    std::vector<double> contextValues; // the first shown numbers of z
    int hiddenDims = 0;                // numbers left out of q and of z
    bool scaled = false;               // scores are scaled before the softmax
    double scoreScale = 1.0;
    double sqrtDk = 1.0;              // 1 / scoreScale, as the header shows it
    std::vector<PipelineKeyRow> rows; // shown keys, in sentence order
    int keyCount = 0;
    int hiddenKeys = 0;
    int hiddenMasked = 0;
    double hiddenWeight = 0.0; // the weights of the keys left out
    double weightSum = 0.0;    // the whole weights row, shown or not
    bool switchedOff = false;  // the head was switched off: its context z is zero (AttentionSnapshot)
    // Shared key/value heads: the one this head reads and the query heads that
    // share it (this one among them); -1 and empty when every head has its own.
    int keyValueHead = -1;
    std::vector<int> sharedWith;

    bool isValid() const { return error.isEmpty(); }
};

// Picks at most maxRows keys (the largest weights, always the query's own key
// when it is not masked, then back in sentence order) and at most maxDims
// numbers of q and z. Query and head are clamped into range.
PipelineModel buildPipelineModel(const AttentionSnapshot &snapshot, int query, int head, int maxRows, int maxDims);
