// BERT: an encoder (no mask), learned positions and token types, LayerNorm
// after each residual sum, erf GELU, and an optional masked-language head.
#include "model/families/family.h"

namespace attn {

namespace {

void readBert(const ConfigFields &f, ModelConfig &c)
{
    c.layers = f.integer("num_hidden_layers", 1, kMaxModelLayers);
    c.heads = f.integer("num_attention_heads", 1, kMaxModelHeads);
    c.keyValueHeads = c.heads;
    c.dModel = f.integer("hidden_size", 1, kMaxModelDModel);
    if (c.dModel % c.heads != 0)
        ConfigFields::fail(QStringLiteral("num_attention_heads %1 does not divide hidden_size %2")
                               .arg(c.heads).arg(c.dModel));
    c.headDimension = c.dModel / c.heads;
    c.dFF = f.integer("intermediate_size", 1, kMaxModelDFF);
    c.positions = f.integer("max_position_embeddings", 1, kMaxModelPositions);
    c.vocab = f.integer("vocab_size", 1, kMaxModelVocab);
    c.tokenTypes = f.integer("type_vocab_size", 1, kMaxModelTokenTypes, 2);
    c.activation = f.activation("hidden_act", QStringLiteral("gelu"));
    c.normEpsilon = f.positive("layer_norm_eps", 1.0, 1e-12);
    const QString positionType = f.string("position_embedding_type", QStringLiteral("absolute"));
    if (positionType != QLatin1String("absolute"))
        ConfigFields::fail(QStringLiteral("position_embedding_type %1 is not supported (absolute)")
                               .arg(shownJsonValue(positionType)));
    c.normPlacement = NormPlacement::AfterResidual;
    c.embeddingNorm = true;
    c.causal = f.boolean("is_decoder", false);
    c.tiedUnembedding = true;
}

TensorNames bertNames()
{
    TensorNames n;
    n.prefix = "bert.";
    n.tokenEmbedding = "embeddings.word_embeddings";
    n.positionEmbedding = "embeddings.position_embeddings";
    n.tokenTypeEmbedding = "embeddings.token_type_embeddings";
    n.embeddingNorm = "embeddings.LayerNorm";
    n.layer = "encoder.layer.%1.";
    n.query = "attention.self.query";
    n.key = "attention.self.key";
    n.value = "attention.self.value";
    n.attentionOutput = "attention.output.dense";
    n.norm1 = "attention.output.LayerNorm";
    n.queryNorm = n.keyNorm = nullptr;
    n.mlpIn = "intermediate.dense";
    n.mlpGate = nullptr;
    n.mlpOut = "output.dense";
    n.norm2 = "output.LayerNorm";
    n.finalNorm = nullptr;
    n.unembedding = nullptr;
    return n;
}

} // namespace

const FamilyDescription &bertFamily()
{
    static const FamilyDescription family{"bert", "max_position_embeddings", readBert, bertNames(), false,
                                          "cls.predictions."};
    return family;
}

} // namespace attn
