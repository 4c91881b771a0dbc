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
    <message>
        <source>input x + PE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”: input (embedding + position) vs context</source>
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
    <name>CompareCanvas</name>
    <message>
        <source>Comparison of run A and variant B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export this comparison…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>another head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one token replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an embedding moved towards another token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an embedding&apos;s first dimensions set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What variant B changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B is A with:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The token B changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer variant B shows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head variant B shows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B shows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the other sentence, then Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sentence variant B runs on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the new token, then Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The token that replaces the chosen one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaced by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another token, then Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The token whose embedding the chosen one moves towards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How far the embedding moves, in percent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>moved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>towards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension %1 of the token&apos;s embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d%1 = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export this comparison as PNG, SVG, PDF or CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export this comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG picture (*.png);;SVG picture (*.svg);;PDF document (*.pdf);;CSV numbers (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kinds of variant</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Comparison</name>
    <message>
        <source>“%1” is %2 tokens for this model; the replacement must be a single token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model and run it on a text first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position %1 is outside the text&apos;s %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position %1 “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 of layer %2 does not exist (%3 layers of %4 heads)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another head of the same run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The other sentence has no tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The other sentence has %1 tokens; the model reads at most %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sentence “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 replaced by “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 moved %2 % towards “%3”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 with dimensions 0–%2 set to %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory to run the model on variant B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variant B cannot be computed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ComparisonPainter</name>
    <message>
        <source>Nothing to compare yet: open a model and choose what B changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B − A (blue: less, red: more)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shared scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No head-by-head change: A and B have different token counts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change of every head: %1 (largest %2; click a head)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next token after the text:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1</source>
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
    <message>
        <source>The sequence that supplies keys and values, e.g. the sentence being translated; leave it empty for self-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing the sentence&apos;s self-attention…</source>
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
    <message>
        <source>%1: model.path: the model folder %2 is missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled: a newer change replaced it</source>
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
    <message>
        <source>Edit the query&apos;s embedding, whichever token it is; untick to keep editing one token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The token whose embedding the sliders edit (positions from 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How far the sliders reach either side of 0; the number boxes accept any value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token %1 “%2” · id %3
Embedding: %4 numbers, length %5

A model&apos;s embeddings are part of its trained weights, so they cannot be edited here (File › Close Model goes back to the hand-made session).</source>
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
    <message>
        <source>The heatmap of each head in its own file (name-head0.png, name-head1.png, …), for slides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Every Head (files get -head0, -head1, … added)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every Head as Separate &amp;Files…</source>
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
    <message>
        <source>SVG Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Transparent background</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No background fill, so the picture sits on a slide&apos;s own colour; cells, text and bars stay opaque</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;2× (%1), sharper on slides and high-resolution screens</source>
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
    <message>
        <source>New from E&amp;xample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locate the session&apos;s model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2[*] — Attention Explorer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HeadsExport</name>
    <message>
        <source>average</source>
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
</context>
<context>
    <name>HeadsGridView</name>
    <message>
        <source>average</source>
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
    <message>
        <source>One head. With several heads (scaled dot-product mode, Heads in the Attention panel) each gets its own pattern here, with their average.</source>
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
        <source>average of %1 heads</source>
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
    <message>
        <source>%1 (heads 0–%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores ω, fixed scale ±%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores ω, scale ±max %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, fixed scale 0–1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, scale 0–max %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention scores ω: keys and values from the source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention weights α: keys and values from the source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>switched off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scores ω</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 of layer %2 is switched off: its output is zero</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 is switched off: its output is zero</source>
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
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the whole matrix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the whole matrix (Ctrl+0).
Zoom: Ctrl+wheel or pinch about the pointer, Ctrl+= and Ctrl+− about the cursor.
Pan: the wheel (Shift+wheel sideways), or drag with the middle button
or with the left button while holding Space.
Token labels and numbers appear as the cells grow.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour scale. Fitted to the data, the colours stretch to the largest value shown and change with every edit. Fixed, the same value always has the same colour, so two results can be compared: weights 0–1, scores ±R. R starts as the round number (1, 2 or 5 × 10ⁿ) above the largest |score| when you first fix it, and stays until you set another; scores beyond ±R take the end colours. The colour bar says which scale is in force.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit to the data (0 to the largest weight)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed 0–1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores ω</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit to the data (± the largest |score|)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed ±R</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the Fixed Score Range…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed ±%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed Score Range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour scores from −R to +R. R =</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query %1 “%2” · key %3 “%4”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (heads 0–%2)</source>
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
    <message>
        <source>Heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which head the heatmap, pipeline and walkthrough show; heads count from 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>average of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the trained example: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A two-layer model this program trained on repeated random letters: one head in layer 0 looks at the previous letter, one in layer 1 at the letter that came after the earlier copy of the current one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Train a model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A two-layer model this program trained on short sentences that end with a pronoun and a verb only its noun does: heads in layer 0 link “it” to the thing and “he” or “she” to the person</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trained Model: &amp;Induction Heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trained Model: P&amp;ronouns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Walkthrough</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cross-attention</source>
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
    <message>
        <source>Self-attention of the sentence.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shown on the self-attention of the sentence (the source is left out), so both sides compare the same tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention: queries from the sentence, keys and values from the source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”, the query in the window, is the first token: the mask leaves it only itself, a weight of 1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”, the query in the window, is the last token: the mask hides nothing from it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This demo shows “%1” instead; pick another query above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Query:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query of the causal mask demo</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelActions</name>
    <message>
        <source>Cannot open the model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer shown in the heatmap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which layer of the model every view shows; layers count from 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder with config.json, model.safetensors and the tokenizer files (GPT-2 or BERT)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mo&amp;dels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No models in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>average of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1 (%2, %3 layers × %4 heads)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not used while a model is open: its embeddings and attention come from its weights (File › Close Model goes back)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All layers and heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put [MASK] in the text to see what the model guesses there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No prediction yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Masked token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How attention flows from the input tokens through all layers (attention rollout)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 · switched off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch head %1:%2 back on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch head %1:%2 off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A switched-off head adds nothing to its layer&apos;s output; every later layer and the prediction follow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick one head to switch it off</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Switch all heads back on (%n off)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Switch all heads back on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trained here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Com&amp;pare Runs…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The shown head beside another head, sentence, replaced token or moved embedding</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelDocument</name>
    <message>
        <source>A model is already being opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>type a text for the model to read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next token after “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[MASK] at position %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model file changed since the session was saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This model has no head %1: left out of the switched-off heads</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelGridPanel</name>
    <message>
        <source>Attention only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each tile is a head&apos;s attention weights, nothing more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much each word&apos;s attention goes to the word just before it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same token earlier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much a repeated token attends to its earlier copies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Induction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much a repeated token attends to what followed its earlier copy: the head that continues a pattern seen before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much attention is parked on the first token (a &quot;sink&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much each word attends to itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern score shown under each head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A number per head, computed on this text: how much of its attention follows a pattern; 1 means all of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put each layer&apos;s heads in order of the score, highest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the query to a token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The weight from the query (the token clicked above) to the token picked in the box beside: click “it”, pick the noun it stands for, and the heads that link them light up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token the query&apos;s weight is read at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The token whose weight from the query each head shows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>to:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heads and their scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every head with its score on this text; click a column to sort, a row to show the head</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelGridView</name>
    <message>
        <source>All layers and heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a text to see every layer and head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each tile is one head&apos;s attention weights (queries down, keys across); click one to show it, right-click one to switch it off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer %1, head %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no number for this text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>switched off</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NextTokenView</name>
    <message>
        <source>No prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (id %2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Biggest changes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Biggest changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1  (%2%3 points)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Notation</name>
    <message>
        <source>head %1</source>
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
    <message>
        <source>Draw a new seed: every query, key, value and output matrix not fixed by the session is generated again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour map of the weights heatmaps (scores always use a blue–red map centred on 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Divide the scores by √d_k before the softmax, so wide heads do not saturate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each head has its own query, key and value matrices and learns its own pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simplified attention has no weights of its own, so every head would compute the same pattern: it uses one head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not apply to cross-attention: the sentence sees every token of the source, which is complete before decoding starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In simplified mode all %1 heads are identical.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_model %1 does not split into %2 heads: head_dim stays %3.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PatternSparklineView</name>
    <message>
        <source>Attention pattern scores per head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much of each head&apos;s attention follows a pattern, from 0 to 1, over the run:
previous: on the token just before; induction: on the token after an earlier copy of the current one;
self: on the token itself; first: on the first token</source>
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
    <message>
        <source>switched off: z = 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context z = Σ α·v</source>
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
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which kind of exercise comes next. “Your sentence” asks about the sentence, weights and head of the main window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another exercise with fresh numbers. One you tried but did not solve counts as “not solved”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer: a whole number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer, for example 0.42</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check your answer (Enter). A wrong answer gets a hint, and you can try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;solution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the worked solution. This exercise then counts as “shown”, not as right.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Solution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right: at the first try. After a retry: right after a wrong answer. Shown: the solution was shown. Not solved: tried, then left for a new exercise.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token %1: “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a whole number and press Enter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer, for example %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a number (a dot or a comma before the decimals) and press Enter. Within %1 of the exact value counts as right.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✔</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✘</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(Counted as right after a retry.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PresentationActions</name>
    <message>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the whole interface larger: text, cells, tokens and labels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the whole interface smaller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset &amp;Zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The interface at the desktop&apos;s own size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presentation Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The heatmap takes most of the window, the walkthrough and the other tabs beside it; the other panels are put away until the layout is switched off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the &amp;System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Panels put away to fit the screen (View › Presentation Layout)</source>
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
    <message>
        <source>The text has %1 tokens; the model reads at most %2, so only the first %2 are used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the text has no tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens need more memory than the window allows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not enough memory to run the model on this text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This model reads the first %1 of its tokenizer&apos;s %2 tokens: a text that needs any other is refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>highest score first →</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RolloutView</name>
    <message>
        <source>Attention rollout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rollout follows attention through every layer: each layer&apos;s attention, averaged over its heads and mixed half and half with the identity (the residual connection), is multiplied with those below it. Row i estimates how much of position i traces back to each input token. It looks only at attention weights: it ignores the values, the MLPs and layer norm, and counts switched-off heads as if they were on, so it is a rough estimate of how information flows, not an explanation of the prediction. An attention weight is not an explanation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a text for the model to read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position %1 “%2” from input token %3 “%4”: %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rollout through 1 layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rollout through %1 layers</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SaveFile</name>
    <message>
        <source>%1: cannot write: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ShippedModel</name>
    <message>
        <source>the trained example model is missing from this build</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot move the example model into %1</source>
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
    <name>SnapshotGridView</name>
    <message>
        <source>Attention of the example per layer and head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The attention of the same example sequence at the chosen step: one square per head, rows are queries, columns keys (causal: the upper right is masked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The attention of an example appears here</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StartHint</name>
    <message>
        <source>Close this hint; it will not come back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the start hint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Start here.&lt;/b&gt; “%1” is the query: its row in the heatmap holds its weights, and the &lt;b&gt;Walkthrough&lt;/b&gt; on the right computes them step by step with the numbers on screen. Click another word to make it the query, drag a slider under &lt;b&gt;Embedding&lt;/b&gt; and watch every view follow. &lt;b&gt;Examples&lt;/b&gt; has more to open.</source>
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
        <source>Click a token to make it the query (Left/Right, Home/End with the keyboard). A word that occurs more than once is named with its position, counted from 0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query: “%1”, token %2 (from 0) of %3. Left and Right arrows move the query.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” · id %2 · a special token the tokenizer puts around every text (not typed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” · id %2 · a special token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · id %2 · one byte (0x%3) of a character the vocabulary has no token for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” · id %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainedModelsMenu</name>
    <message>
        <source>None yet: Learn › Train a model… saves them in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trained m&amp;odels</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainingCurveView</name>
    <message>
        <source>Loss curve</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainingDialog</name>
    <message>
        <source>Train a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the trained model as a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Task:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A text file (UTF-8 or any bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text file to train on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text to train on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Layers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer blocks; induction needs two</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention heads per layer; must divide d_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;d_model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width of every token&apos;s vector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Context:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per training sequence (the model&apos;s positions)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Steps:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimiser steps; Stop ends the run early</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T&amp;rain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open in the explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the saved model in the main window&apos;s views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention of an example, per layer and head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern scores per head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshot:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshot shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay the run: the attention and the scores as they were at an earlier step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training %1: a snapshot every %2 steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused at step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2 · loss %3 · accuracy %4% (chance %5%) · %6 steps/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped at step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished %1 steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainingPreset</name>
    <message>
        <source>Induction: continue a repeat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random tokens in which a stretch appears a second time, its length and the distance between the copies changing from sequence to sequence. Nothing predicts a random token, but inside the repeat the next token is the one that followed the same token the first time. Two heads learn to find it, and the pattern scores show them forming: in layer 0 a head that attends to the previous token (its “previous” line climbs towards 1), so each position carries the token before it; in layer 1 a head that attends to the token after the earlier occurrence of the current one (its “induction” line climbs) and copies it. The loss drops as these heads form, since the repeated tokens become predictable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy a sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sequence of symbols, the separator “=”, then the same sequence again. After the separator each token is the one a fixed distance back, so a head that attends to the position half a sequence earlier (an off-diagonal stripe) solves it; the first half is random and cannot be learned, so the accuracy counts only the copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reverse a sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sequence, “=”, then the sequence backwards. The k-th answer token is the k-th token before the separator, counted from it: a head must learn to attend to the mirror position, which draws an anti-diagonal in its weights after the separator.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sort a sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sequence, “=”, then the same symbols in ascending order. No fixed position holds the answer: a head has to attend to the smallest input symbol larger than the one just written, so its attention depends on the token values, not on distances.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text from a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predict the next character of a text file you choose, one token per byte. Spelling is mostly local, so previous-token heads come first (they see the letters just written); in longer runs induction heads appear too, copying words that occurred earlier in the window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pronouns: find the noun</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Short sentences, one word per token, such as “The girl passed the red box and it fell.” Each noun has a verb that only it does (a box falls, a girl waves), and only the verb after the pronoun is scored. Which noun the pronoun stands for is told by its kind: “it” is the thing, “he” or “she” the person, and the two nouns come in either order with a varying number of words around them, so no fixed distance finds the noun. A head learns to attend from the pronoun to its noun and carry the noun&apos;s identity forward: open the trained model, click the pronoun and look at layer 0.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainingSession</name>
    <message>
        <source>A run is already going: stop it first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No trained model yet</source>
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
    <message>
        <source>The steps changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The steps changed with the options: this is still “%1”, now step %2 of %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The steps changed with the options: “%1” is no longer one of them; this is the step that came after it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 is switched off: its output is zero. These are the weights it computes; the layer adds none of its context.</source>
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
        <source>%1 queries, each compared with %1 keys: %1×%1 = %2.</source>
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
        <source>Correct: %1. %2</source>
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
        <source>sum of all weights = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight the values</source>
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
    <message>
        <source>Your journey: simplified attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queries, keys and values are the embeddings themselves; every number can be checked by hand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your journey: trainable weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One head with its own query, key and value matrices (seed 123, head_dim 2), scaled by 1/√d_k.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Four heads with a causal mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Four heads of width 2 on 8-dimensional embeddings; each token sees only itself and the tokens before it, as in a text generator.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention to a French sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queries come from the English sentence, keys and values from its French translation, as in a translation model&apos;s decoder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A long sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thirty-odd tokens with repeated words (each named with its position) and two heads.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the largest %1, … (%2 more)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That is the plain average of the values; here each value counts as much as its weight. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That adds the values without their weights. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That is only the value with the largest weight; the other tokens hand on their share too. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That counts every pair, but with a causal mask a query is never compared with later tokens. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That leaves out the later tokens, as a causal mask would; there is no mask here. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each token is compared with itself too. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Both orders count: query a with key b and query b with key a are two comparisons, and each token meets itself too. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That is the keys of one query; every token is a query. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Multiply each value by its weight, then add the products. The weights already sum to 1, so there is nothing to divide by.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query 0 sees 1 key, query 1 sees 2, … query %1 sees %2: 1 + 2 + … + %2 = %2×%3÷2 = %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Count per query and add: token 0 is compared with itself only, token 1 with two tokens, and so on up to the last token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every query meets every key, itself included: multiply the number of queries by the number of keys.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention: which source token will the query %1 (token %2 of the sentence) give the largest attention weight?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which token will the query %1 (token %2) give the largest attention weight?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(In %1.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Softmax keeps the order of the scores, so the keys with the largest score win: %1 tie (the same vector gives the same score). The weights: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Softmax keeps the order of the scores, so the key with the largest score wins: %1. The weights: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The largest weight goes to the key with the largest score q·k: softmax keeps the order of the scores. Look at the scores of this query&apos;s row, not at what the words mean.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work out the score of %1 with each token: multiply their first numbers, multiply their second numbers, and add. Softmax keeps the order of the scores, so the largest score wins.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not quite: %1 does not get the largest weight. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 occurs more than once: name it by its position, such as %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a whole number, without decimals.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a number, for example %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not quite. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Solution: %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The query is token %1 at position %2 (positions count from 0; a book that counts from 1 calls it number %3). Its attention is computed against every key, one at a time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head %1 (of %2, counted from 0) is shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its input is the embedding plus its position&apos;s encoding, x + PE (the step before).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention by itself ignores word order. Positional encoding adds to each embedding a pattern of sines and cosines that depends only on the position: even dimensions 2i take sin(pos ÷ 10000^(2i/d_model)), odd ones cos of the same angle. The sum x + PE is what the rest of the computation uses.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>visible: keys 0 to %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key %1 %2: blocked, α%3 = %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α%1 = %2 (masked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each key&apos;s value vector is multiplied by its weight: a weight near 1 passes on nearly all of that vector, a weight near 0 almost nothing.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>attn::PracticeScore</name>
    <message>
        <source>none yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n right</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n after a retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n not solved</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
