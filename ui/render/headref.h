#pragma once
// Which attention the views show: one head of one layer, or the mean over a
// layer's heads (the overview of a layer). Sessions have one layer, layer 0.

#include <optional>

struct HeadRef
{
    int layer = 0;
    std::optional<int> head = 0; // nullopt: the average of the layer's heads

    static HeadRef one(int layer, int head) { return {layer, head}; }
    static HeadRef average(int layer) { return {layer, std::nullopt}; }
    bool isAverage() const { return !head.has_value(); }
    // The head a view that follows one real head shows (the pipeline, the
    // walkthrough): the selected one, or `fallback` for the average.
    int headOr(int fallback) const { return head.value_or(fallback); }

    // The number files and the command line use for it: the head, or -1 for the average.
    int fileIndex() const { return head.value_or(-1); }
    static HeadRef fromFileIndex(int layer, int index)
    {
        return index < 0 ? average(layer) : one(layer, index);
    }

    friend bool operator==(const HeadRef &a, const HeadRef &b) { return a.layer == b.layer && a.head == b.head; }
    friend bool operator!=(const HeadRef &a, const HeadRef &b) { return !(a == b); }
};
