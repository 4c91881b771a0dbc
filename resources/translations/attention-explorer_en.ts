<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>About</name>
    <message>
        <source>About Attention Explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Attention Explorer %1&lt;/h3&gt;&lt;p&gt;See self-attention at work: edit embeddings, pick a query, and follow its scores, weights and context vector.&lt;/p&gt;&lt;p&gt;Released under the MIT licence. Built with Qt %2 and Eigen.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BarChartPainter</name>
    <message>
        <source>embedding x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context z</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”: embedding vs context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lengths differ (embedding %1, context %2): turn on output projection to compare like with like.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BarChartView</name>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d%1: embedding %2, context %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BarColumnsView</name>
    <message>
        <source>… (+%1 more)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>masked</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContributionPainter</name>
    <message>
        <source>Nothing to show yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context of “%1” = Σ α·v: each colour is one token&apos;s share</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>+%n more dimension(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CrossAttentionPanel</name>
    <message>
        <source>Self-attention relates the words of one sentence to each other. Cross-attention lets the sentence&apos;s queries look at a second sequence, the source (say, the sentence being translated): keys and values come from there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;ource:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a source sentence; leave empty for self-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention is on: the heatmap shows %1 queries × %2 source tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No source: the heatmap shows self-attention (%1 × %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot compute: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self-attention: “%1” over its own sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention: “%1” over the source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each column adds up to 1: the same query spreads its attention over different keys.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a source sentence above to see cross-attention next to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Document</name>
    <message>
        <source>Restore unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select query “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit embedding of “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change d_model to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change attention options</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set source sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove source sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shuffle words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sentence has %1 tokens; only the first %2 are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sentence has no words or marks to attend over: the tokens stay as they were</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory to compute this session</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EmbeddingEditor</name>
    <message>
        <source>Token to edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding size d_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number of dimensions of every embedding. Growing adds dimensions with each word&apos;s default values; shrinking drops the last ones.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slider range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slider range:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing the first %1 of %2 dimensions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension %1 value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding values</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message>
        <source>&amp;Heatmap…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Scores Heatmap…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pipeline…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Bar Chart…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;All Heads…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dashboard…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Numbers as &amp;CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result as &amp;JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;opy View as Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export This View…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy as Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clipboard.png</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Numbers as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Result as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result file (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportSizeDialog</name>
    <message>
        <source>PNG Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2 pixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;1× (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;2× (%1), sharper on high-resolution screens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Custom size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Height</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <source>&amp;New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>untitled.attn.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session has changes that are not saved. Save them first?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1[*] — Attention Explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Explorer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HeadsGridView</name>
    <message>
        <source>average</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention of every head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a head to show it in the heatmap</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HeatmapPainter</name>
    <message>
        <source>Raw scores ω</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention weights α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>average of %1 heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score ω</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No attention to show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HeatmapView</name>
    <message>
        <source>Attention heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query “%1” → key “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>average over %1 heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean score ω = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight α: masked (weight 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean weight α = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α per head: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score ω = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scaled score ω×%1 = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight α = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q·k = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No query selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query “%1” attends most to “%2” with weight %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query “%1”, key “%2”: masked, weight 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query “%1”, key “%2”: weight %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;Sentence:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a sentence; every word and punctuation mark becomes a token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores ω</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the attention weights (after softmax); each row sums to 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the raw scores: dot products of queries and keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head shown in the heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Walkthrough</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query → scores → weights → context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding vs context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Learn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Mistakes made visible…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Practice…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Attention Explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Average</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot compute: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n head(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computed in %1 ms (single precision)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computed in %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens · d_model %2 · %3 · %4</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MistakesDialog</name>
    <message>
        <source>Mistakes made visible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores are not weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forgetting to scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Word order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The largest weight is not the whole story</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Causal masking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Head width d_k:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Shuffle words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shuffle &amp;my sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reorder the words of the sentence itself (undo with Ctrl+Z)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A score only says how well the query “%1” matches a key. It can be negative and the scores do not add up to anything in particular. Only after the softmax do they become weights: positive, summing to 1, and those are what decide each token&apos;s share of the context vector.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores ω = q·k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaled ω ÷ √d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>÷ √d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>softmax</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sum %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores q·k (d_k = %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights, not scaled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights, scores ÷ √%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One head %1 numbers wide (generated weights, seed %2). A dot product adds up %1 products, so scores spread widely; fed to the softmax as they are, they push most of the weight onto one key. Dividing by √%1 = %3 keeps the weights spread out. Try a wider head to see the effect grow.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No positions, shuffled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positions added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positions added, shuffled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest change %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shuffled: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The weights of “%1”, word by word, before and after shuffling the sentence. Attention on its own only sees which vectors are there, not where: without position information the shuffled sentence gives the same weights, just reordered. Adding a position pattern to each embedding makes order matter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shuffle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The context vector is a weighted mix of every value vector, not a copy of the favourite. Here “%1” has the largest weight, %2, yet the other tokens together still bring %3. Each bar stacks every token&apos;s share α·v of one dimension; the line across it marks the total.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A text generator writes one token after another, so while it works on “%1” the later tokens do not exist yet. The causal mask blocks them before the softmax: “%1” may look at %2, but not at %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(nothing: it is last)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights without the mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights with the causal mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the visible keys share the whole weight of 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mask</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OptionsPanel</name>
    <message>
        <source>Scaled dot-product (Q, K, V)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simplified (no weights)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simplified: queries, keys and values are the embeddings themselves.
Scaled dot-product: each head projects the embeddings with its own matrices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width of each head&apos;s queries, keys and values (d_k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A query sees only itself and the tokens before it, as in a text generator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scale scores by 1/√d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sinusoidal positional encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adds each position&apos;s sine and cosine pattern to the embeddings, so word order matters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output projection (Wo)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights not fixed by the session are generated from this number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New random weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head_dim:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scale by 1/√d_k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positional encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output projection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Multiply the joined heads by Wo, back to d_model numbers per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Mode:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Colours:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number of heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour map for weights</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PipelinePainter</name>
    <message>
        <source>masked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ω</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Σ = %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PracticeDialog</name>
    <message>
        <source>Practice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Exercise:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weighted sum by hand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting comparisons</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which token wins? (small example)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which token wins? (your sentence)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ne&amp;w exercise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer, for example 3.5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right so far: %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(Change the query or the vectors in the main window for another one.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✔ </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✘ </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer: “%1”. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer: %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Restore unsaved work?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Explorer did not close normally. Unsaved changes to %1 from %2 were kept. Restore them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an untitled session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Explorer sessions (*.attn.json *.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TokenChips</name>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query: “%1”, token %2 of %3. Left and Right arrows move the query.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Walkthrough</name>
    <message>
        <source>… (+%1 more)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WalkthroughPanel</name>
    <message>
        <source>Formulas of this step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous step (Left, Page Up or Alt+B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next step (Right, Page Down or Alt+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is nothing to compute yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No walkthrough</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Walkthrough</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attn</name>
    <message>
        <source>%1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens carry the value numbers %2. The query gives them the attention weights %3, in the same order. What number does the weighted sum hand on?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Multiply each value by its weight and add: %1 = %2 = %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A text generator reads a sentence of %1 tokens with a causal mask: each token, as a query, is compared with itself and the tokens before it, never with later ones. How many query-key comparisons does one attention layer make?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sentence has %1 tokens. In one self-attention layer every token, as a query, is compared with every token, itself included. How many query-key comparisons is that?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query 1 sees 1 key, query 2 sees 2, … query %1 sees %1: 1 + 2 + … + %1 = %1×%2÷2 = %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 queries, each compared with %1 keys: %1×%1 = %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which token will the query %1 give the largest attention weight?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(Head %1.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Softmax keeps the order of the scores, so the key with the largest score wins: %1 (token %2). The weights: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simplified attention (no trainable matrices, no scaling) on the tokens %1, with these vectors:
%2
Which token will %3 give the largest weight?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores: %1. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick one of the %1 tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correct! %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not this time: %1 is not the largest. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a number, for example 3.5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correct: %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not quite: you wrote %1, the answer is %2. %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> + … (+%1 more)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… (+%1 more keys)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The query is token %1 (number %2). Its attention is computed against every key, one at a time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There are no trainable matrices here: the input vector itself acts as query, key and value.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its input vector is multiplied by the query matrix W_q; the keys and values come from W_k and W_v in the same way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is cross-attention: keys and values come from the source sentence.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 of %2 is shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick the query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each score ω is a dot product: multiply the query and the key number by number and add the products up. A larger score means a closer match. Scores are not weights yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaling is off, so the softmax receives these scores unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score every key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scale the scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dot products grow with the length of the vectors (d_k = %1 here). Dividing by √d_k = %2 keeps them moderate, so the softmax does not put almost all weight on one key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A text generator must not peek at later tokens, so every key after the query is blocked before the softmax: its weight will be exactly 0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This query is the last token, so it may see every key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mask the future</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key %1 %2: blocked, α%3 = 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>visible: keys 1 to %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Softmax turns the scores into weights: raise e to each score and divide by the sum of all those powers. Every weight is positive and together they add up to 1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The scores are large, so the largest (%1) is subtracted from each first; that leaves the weights unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No causal mask is on, so every key takes part.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Softmax: scores become weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α%1 = 0 (masked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sum of all weights = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight the values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each key&apos;s value vector is multiplied by its weight: a weight of 0.5 passes on half of that vector, a weight near 0 almost nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adding the weighted values gives the context vector z: the same length as one value vector, but now a blend of the whole sentence.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output projection is off: the heads&apos; context vectors, side by side, are the output.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output projection is off: this context vector is the output.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sum into the context vector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> + (%1 more keys)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join the heads and project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every head made its own context vector. They are placed side by side and multiplied by the output matrix W_o, which mixes them back to d_model numbers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>concat%1 = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output%1 = concat%1·W_o = %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
