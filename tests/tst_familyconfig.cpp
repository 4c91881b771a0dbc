// config.json of the Llama-family decoders: real configurations read into
// the recipe (their parameter counts are the published sizes), each family's
// defaults where the file is silent, and malformed fields refused with one
// line naming them.

#include "model/modelconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>

using namespace attn;

namespace {

// Qwen/Qwen2.5-0.5B's config.json (the fields that matter here), as published.
QJsonObject qwen25()
{
    return QJsonDocument::fromJson(R"({"architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0,
        "bos_token_id": 151643, "eos_token_id": 151643, "hidden_act": "silu", "hidden_size": 896,
        "initializer_range": 0.02, "intermediate_size": 4864, "max_position_embeddings": 32768,
        "max_window_layers": 24, "model_type": "qwen2", "num_attention_heads": 14, "num_hidden_layers": 24,
        "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "sliding_window": 32768,
        "tie_word_embeddings": true, "torch_dtype": "bfloat16", "use_cache": true, "use_sliding_window": false,
        "vocab_size": 151936})").object();
}

// meta-llama/Llama-3.2-1B's config.json.
QJsonObject llama32()
{
    return QJsonDocument::fromJson(R"({"architectures": ["LlamaForCausalLM"], "attention_bias": false,
        "bos_token_id": 128000, "eos_token_id": 128001, "head_dim": 64, "hidden_act": "silu", "hidden_size": 2048,
        "intermediate_size": 8192, "max_position_embeddings": 131072, "mlp_bias": false, "model_type": "llama",
        "num_attention_heads": 32, "num_hidden_layers": 16, "num_key_value_heads": 8, "pretraining_tp": 1,
        "rms_norm_eps": 1e-05, "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
        "original_max_position_embeddings": 8192, "rope_type": "llama3"}, "rope_theta": 500000.0,
        "tie_word_embeddings": true, "torch_dtype": "bfloat16", "vocab_size": 128256})").object();
}

// google/gemma-2-2b's config.json.
QJsonObject gemma2()
{
    return QJsonDocument::fromJson(R"({"architectures": ["Gemma2ForCausalLM"], "attention_bias": false,
        "attn_logit_softcapping": 50.0, "bos_token_id": 2, "cache_implementation": "hybrid", "eos_token_id": 1,
        "final_logit_softcapping": 30.0, "head_dim": 256, "hidden_act": "gelu_pytorch_tanh",
        "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 2304, "intermediate_size": 9216,
        "max_position_embeddings": 8192, "model_type": "gemma2", "num_attention_heads": 8,
        "num_hidden_layers": 26, "num_key_value_heads": 4, "pad_token_id": 0, "query_pre_attn_scalar": 256,
        "rms_norm_eps": 1e-06, "rope_theta": 10000.0, "sliding_window": 4096, "torch_dtype": "float32",
        "vocab_size": 256000})").object();
}

QJsonObject with(QJsonObject o, const char *key, const QJsonValue &value)
{
    if (value.isUndefined())
        o.remove(QLatin1String(key));
    else
        o.insert(QLatin1String(key), value);
    return o;
}

ModelConfig parsed(const QJsonObject &o)
{
    QString error;
    const std::optional<ModelConfig> c = parseModelConfig(QJsonDocument(o).toJson(), QStringLiteral("config.json"), &error);
    if (!c)
        qFatal("%s", qPrintable(error));
    return *c;
}

} // namespace

class TestFamilyConfig : public QObject
{
    Q_OBJECT

private slots:
    // Parameter counts by hand from the shapes: Qwen2.5-0.5B 494.0 M (embedding
    // 151936 x 896, per layer q and o 896^2, k and v 896 x 128 with q/k/v
    // biases, a gated MLP 3 x 896 x 4864, two norms; tied), Llama-3.2-1B
    // 1235.8 M, gemma-2-2b 2614.3 M: the published 0.49 B, 1.24 B and 2.61 B.
    void realConfigurations()
    {
        const ModelConfig q = parsed(qwen25());
        QCOMPARE(q.kvHeads(), 2);
        QCOMPARE(q.headDim(), 64);
        QCOMPARE(q.norm, NormKind::RmsNorm);
        QCOMPARE(q.mlp, MlpKind::Gated);
        QCOMPARE(q.activation, Activation::Silu);
        QVERIFY(q.queryKeyValueBias && !q.outputBias && !q.mlpBias && q.tiedUnembedding);
        QCOMPARE(q.rotary.theta, 1e6);
        QCOMPARE(q.rotary.dimensions, 64);
        QCOMPARE(q.windowOf(23), 0); // use_sliding_window false: no window anywhere
        QCOMPARE(qRound(q.parameterCount() / 1e5), 4940);

        const ModelConfig l = parsed(llama32());
        QCOMPARE(l.rotary.scaling, RopeScaling::Llama3);
        QCOMPARE(l.rotary.factor, 32.0);
        QCOMPARE(l.rotary.originalPositions, 8192);
        QCOMPARE(l.positions, 131072);
        QCOMPARE(l.kvGroup(), 4);
        QCOMPARE(l.kvHeadOf(7), 1);
        QCOMPARE(qRound(l.parameterCount() / 1e5), 12358);

        const ModelConfig g = parsed(gemma2());
        QCOMPARE(g.headDim(), 256);
        QVERIFY(g.normAddsOne && g.sublayerOutputNorms && !g.queryKeyNorms);
        QCOMPARE(g.activation, Activation::GeluTanh);
        QCOMPARE(g.attentionSoftcap, 50.0);
        QCOMPARE(g.finalSoftcap, 30.0);
        QCOMPARE(g.scoreScale(0), 1.0 / 16);
        QCOMPARE(g.embeddingScale, 48.0); // sqrt(2304)
        QCOMPARE(g.windowOf(0), 4096);    // even layers have the window
        QCOMPARE(g.windowOf(1), 0);
        QCOMPARE(g.windowOf(24), 4096);
        QCOMPARE(qRound(g.parameterCount() / 1e5), 26143);
    }

    void familyDefaults()
    {
        // Gemma 2 caps by default (50, 30); Gemma 3 does not.
        QJsonObject g3 = with(with(gemma2(), "attn_logit_softcapping", QJsonValue::Undefined), "final_logit_softcapping",
                              QJsonValue::Undefined);
        const ModelConfig g2 = parsed(g3);
        QCOMPARE(g2.attentionSoftcap, 50.0);
        QCOMPARE(g2.finalSoftcap, 30.0);
        g3 = with(g3, "model_type", QStringLiteral("gemma3_text"));
        const ModelConfig three = parsed(g3);
        QCOMPARE(three.attentionSoftcap, 0.0);
        QCOMPARE(three.finalSoftcap, 0.0);
        QVERIFY(three.queryKeyNorms);
        // Five layers of every six have the window (sliding_window_pattern 6), with the local base 10000.
        for (int layer = 0; layer < 12; ++layer)
            QCOMPARE(three.windowOf(layer) > 0, layer % 6 != 5);
        QCOMPARE(three.rotary.localTheta, 10000.0);
        // layer_types decides when present.
        QJsonArray types;
        for (int layer = 0; layer < 26; ++layer)
            types.append(layer == 3 ? QStringLiteral("sliding_attention") : QStringLiteral("full_attention"));
        const ModelConfig listed = parsed(with(g3, "layer_types", types));
        QCOMPARE(listed.windowOf(3), 4096);
        QCOMPARE(listed.windowOf(0), 0);

        // Gemma reads hidden_activation and ignores the legacy hidden_act "gelu".
        QJsonObject g1 = with(with(gemma2(), "model_type", QStringLiteral("gemma")), "hidden_act", QStringLiteral("gelu"));
        QCOMPARE(parsed(g1).activation, Activation::GeluTanh);
        QCOMPARE(parsed(with(g1, "hidden_activation", QJsonValue::Undefined)).activation, Activation::GeluTanh);
        QVERIFY(parsed(g1).tiedUnembedding);
        // The embedding scale is sqrt(d_model) rounded to float.
        QCOMPARE(parsed(with(g1, "hidden_size", 18)).embeddingScale, double(float(std::sqrt(18.0))));

        // Qwen2 with the window switched on: layers from max_window_layers on.
        const ModelConfig windowed = parsed(with(with(qwen25(), "use_sliding_window", true), "max_window_layers", 20));
        QCOMPARE(windowed.windowOf(19), 0);
        QCOMPARE(windowed.windowOf(20), 32768);
        // Mistral: every layer, or none when sliding_window is null.
        QJsonObject mistral = with(llama32(), "model_type", QStringLiteral("mistral"));
        QCOMPARE(parsed(with(mistral, "sliding_window", 4096)).windowOf(15), 4096);
        QCOMPARE(parsed(with(mistral, "sliding_window", QJsonValue::Null)).windowOf(0), 0);
        // Llama's own default: not tied.
        QVERIFY(!parsed(with(llama32(), "tie_word_embeddings", QJsonValue::Undefined)).tiedUnembedding);
        // Phi-3: partial rotary.
        QJsonObject phi = with(with(llama32(), "model_type", QStringLiteral("phi3")), "partial_rotary_factor", 0.75);
        QCOMPARE(parsed(phi).rotary.dimensions, 48);
        // Newer files keep theta and the scaling in rope_parameters.
        QJsonObject newer = with(with(llama32(), "rope_scaling", QJsonValue::Undefined), "rope_theta", QJsonValue::Undefined);
        newer = with(newer, "rope_parameters", QJsonObject{{QStringLiteral("rope_type"), QStringLiteral("linear")},
                                                           {QStringLiteral("factor"), 2.0},
                                                           {QStringLiteral("rope_theta"), 123.0}});
        QCOMPARE(parsed(newer).rotary.theta, 123.0);
        QCOMPARE(parsed(newer).rotary.scaling, RopeScaling::Linear);
    }

    void malformed_data()
    {
        QTest::addColumn<QJsonObject>("config");
        QTest::addColumn<QString>("message");
        const QJsonObject l = llama32();
        QTest::newRow("heads not a multiple of kv heads") << with(l, "num_key_value_heads", 5)
            << "config.json: num_attention_heads 32 is not a multiple of num_key_value_heads 5";
        QTest::newRow("no head_dim, heads do not divide") << with(with(with(l, "head_dim", QJsonValue::Undefined), "num_attention_heads", 24), "hidden_size", 2000)
            << "config.json: num_attention_heads 24 does not divide hidden_size 2000 (and no head_dim)";
        QTest::newRow("unknown rope_scaling type")
            << with(l, "rope_scaling", QJsonObject{{QStringLiteral("rope_type"), QStringLiteral("yarn")}, {QStringLiteral("factor"), 4}})
            << "config.json: rope_scaling.rope_type \"yarn\" is not supported (default, linear, llama3)";
        QTest::newRow("rope_scaling factor negative")
            << with(l, "rope_scaling", QJsonObject{{QStringLiteral("type"), QStringLiteral("linear")}, {QStringLiteral("factor"), -2}})
            << "config.json: rope_scaling.factor -2 must be positive";
        QTest::newRow("rope_scaling not an object") << with(l, "rope_scaling", 3)
            << "config.json: rope_scaling must be an object, got 3";
        QTest::newRow("theta zero") << with(l, "rope_theta", 0) << "config.json: rope_theta 0 must be positive";
        QTest::newRow("theta negative") << with(l, "rope_theta", -1e4) << "config.json: rope_theta -10000 must be positive";
        QTest::newRow("theta a string") << with(l, "rope_theta", QStringLiteral("1e4"))
            << "config.json: rope_theta must be a number, got \"1e4\"";
        QTest::newRow("window zero") << with(with(l, "model_type", QStringLiteral("mistral")), "sliding_window", 0)
            << "config.json: sliding_window 0 must be at least 1";
        QTest::newRow("window negative") << with(gemma2(), "sliding_window", -5)
            << "config.json: sliding_window -5 must be at least 1";
        QTest::newRow("odd rotated dimensions") << with(with(l, "model_type", QStringLiteral("phi3")), "partial_rotary_factor", 33.0 / 64)
            << "config.json: head_dim 64 times partial_rotary_factor 0.515625 gives 33 rotated dimensions, which must be "
               "even and at least 2";
        QTest::newRow("layer_types too short")
            << with(gemma2(), "layer_types", QJsonArray{QStringLiteral("sliding_attention")})
            << "config.json: layer_types must list 26 layers, got 1";
        QTest::newRow("llama3 factors reversed")
            << with(l, "rope_scaling", QJsonObject{{QStringLiteral("rope_type"), QStringLiteral("llama3")},
                                                   {QStringLiteral("low_freq_factor"), 4}, {QStringLiteral("high_freq_factor"), 1}})
            << "config.json: rope_scaling.high_freq_factor 1 must be more than low_freq_factor 4";
        QTest::newRow("head_dim absurd") << with(l, "head_dim", 100000) << "config.json: head_dim 100000 is more than 1024";
        QTest::newRow("longrope") << with(l, "rope_scaling", QJsonObject{{QStringLiteral("type"), QStringLiteral("longrope")}})
            << "config.json: rope_scaling.rope_type \"longrope\" is not supported (default, linear, llama3)";
    }
    void malformed()
    {
        QFETCH(QJsonObject, config);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!parseModelConfig(QJsonDocument(config).toJson(), QStringLiteral("config.json"), &error));
        QCOMPARE(error, message);
    }
};

QTEST_APPLESS_MAIN(TestFamilyConfig)
#include "tst_familyconfig.moc"
