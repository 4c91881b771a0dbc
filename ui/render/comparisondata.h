#pragma once
// Two runs of a model side by side, as the Compare dock and its export draw
// them: run A (what the window shows) and variant B (another head, another
// sentence, a replaced token or a moved embedding) for one layer and head,
// their difference, and how much every head changed. Plain data: the
// document's worker fills it, painters and the CSV writer read it.

#include "model/modeltypes.h"

#include <QString>
#include <QStringList>
#include <vector>

struct ComparisonSide
{
    QString title;           // "A · layer 0 · head 1"
    QStringList labels;      // the tokens, as the axes name them
    attn::RowMatrix<float> weights; // n x n attention weights of the head (or the layer's mean)
    QStringList predictions; // GPT-2: the most probable next tokens, "“ b” 62.1 %"; empty otherwise
};

struct ComparisonData
{
    ComparisonSide a, b;
    QString description; // what B is: "position 4 “ a” moved 30 % towards “ cat”"
    // Same token count: B − A cell by cell. Otherwise only the two heads side by side.
    bool cellwise = false;
    attn::RowMatrix<float> difference; // b.weights - a.weights when cellwise
    // [layer][head]: how much each head changed (changeName says how), empty when not comparable.
    std::vector<std::vector<float>> headChange;
    QString changeName;  // "max |ΔW|"
    int layer = 0, head = 0; // the head shown (head -1: the layer's mean), outlined in the grid
    bool causal = false;     // cells above the diagonal are masked
    // A's and B's weights have the first token set aside and each row
    // renormalised (attn::firstTokenAside); the difference and every head's
    // change are of those. The titles and the note say so.
    bool firstTokenAside = false;
    // The sliding windows of A's and B's layers (0: none): keys before a
    // query's window are masked as those after it are.
    int windowA = 0, windowB = 0;
    QString note;            // what is not compared, and why

    bool isEmpty() const { return a.weights.size() == 0 || b.weights.size() == 0; }
};

// The one colour scale A and B share: [0, the larger weight of either].
double sharedWeightMaximum(const ComparisonData &data);
// The diverging scale of the difference: ±max |B − A| (0 without a difference).
double differenceMaximum(const ComparisonData &data);
// The largest entry of headChange (0 when empty).
double headChangeMaximum(const ComparisonData &data);
