#include "lessons/examples.h"

#include "session/embedding.h"
#include "session/tokenizer.h"

#include <QCoreApplication>

namespace attn {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("Examples", text); }

Session fromSentence(const QString &sentence, int dModel)
{
    Session s;
    s.sentence = sentence;
    s.tokens = tokenTexts(tokenize(sentence));
    s.embeddings = carryOverEmbeddings({}, Eigen::MatrixXd(0, dModel), s.tokens);
    return s;
}

} // namespace

Session runningExample()
{
    Session s = exampleSession();
    s.attention.mode = Mode::Simplified;
    s.attention.scale = false; // the textbook's simplified attention does not scale
    s.attention.headDim = s.dModel();
    return s;
}

std::vector<Example> builtInExamples()
{
    std::vector<Example> examples;
    examples.push_back({QStringLiteral("your-journey-simplified"), tr("Your journey: simplified attention"),
                        tr("Queries, keys and values are the embeddings themselves; every number can be checked "
                           "by hand."),
                        runningExample()});
    examples.push_back({QStringLiteral("your-journey"), tr("Your journey: trainable weights"),
                        tr("One head with its own query, key and value matrices (seed 123, head_dim 2), scaled by "
                           "1/√d_k."),
                        exampleSession()});

    Session four = exampleSession();
    four.embeddings = resizeEmbeddings(four.tokens, four.embeddings, 8);
    four.attention.heads = 4;
    four.attention.headDim = 2;
    four.attention.causal = true;
    four.attention.outputProjection = true;
    four.query = 3;
    examples.push_back({QStringLiteral("four-heads-causal"), tr("Four heads with a causal mask"),
                        tr("Four heads of width 2 on 8-dimensional embeddings; each token sees only itself and the "
                           "tokens before it, as in a text generator."),
                        four});

    Session cross = exampleSession();
    Session french = fromSentence(QStringLiteral("Ton voyage commence par un pas"), cross.dModel());
    cross.source = SourceSequence{french.tokens, french.embeddings};
    examples.push_back({QStringLiteral("cross-attention"), tr("Cross-attention to a French sentence"),
                        tr("Queries come from the English sentence, keys and values from its French translation, "
                           "as in a translation model's decoder."),
                        cross});

    Session longer = fromSentence(
        QStringLiteral("The robot moved the heavy box across the room because it was blocking the door, and then "
                       "the robot rested near the box while the cat watched the robot from the door."),
        8);
    longer.attention.heads = 2;
    longer.attention.headDim = 4;
    longer.attention.outputProjection = true;
    longer.attention.seed = 7;
    longer.query = 9; // "it"
    examples.push_back({QStringLiteral("long-sentence"), tr("A long sentence"),
                        tr("Thirty-odd tokens with repeated words (each named with its position) and two heads."),
                        longer});

    // "the cat" twice, one apart each time: rotary positions give both pairs
    // the same score, which the heatmap and the walkthrough show.
    Session rotary = fromSentence(QStringLiteral("the cat saw the cat"), 4);
    rotary.attention.heads = 1;
    rotary.attention.headDim = 4;
    rotary.attention.positionalEncoding = PositionalEncoding::Rotary;
    rotary.attention.seed = 19; // "cat" then weights the "the" just before it most
    rotary.query = 4; // the second "cat"
    examples.push_back({QStringLiteral("rotary-positions"), tr("Rotary positions"),
                        tr("Nothing is added to the embeddings: each query and key is turned by an angle that grows "
                           "with its position, so “cat” right after “the” scores the same at the start of the "
                           "sentence and at its end."),
                        rotary});

    Session shared = exampleSession();
    shared.embeddings = resizeEmbeddings(shared.tokens, shared.embeddings, 8);
    shared.attention.heads = 4;
    shared.attention.headDim = 2;
    shared.attention.kvHeads = 2;
    shared.attention.causal = true;
    shared.attention.outputProjection = true;
    shared.query = 3;
    examples.push_back({QStringLiteral("shared-key-value-heads"), tr("Shared key/value heads"),
                        tr("Four query heads share two key/value heads, as in today's language models: heads 0 and 1 "
                           "read the same keys and values, heads 2 and 3 the other ones, and half as many keys and "
                           "values are kept per token."),
                        shared});
    return examples;
}

} // namespace attn
