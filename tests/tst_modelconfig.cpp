// config.json of GPT-2 and BERT models (the Llama family: tst_familyconfig): the fields read, their defaults, and
// every malformed config refused with its exact one-line message.

#include "model/modelconfig.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace attn;

namespace {

// The config of Hugging Face's "gpt2" (openai-community/gpt2), as published.
QJsonObject gpt2Small()
{
    return QJsonDocument::fromJson(R"({"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"],
        "attn_pdrop": 0.1, "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256,
        "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024,
        "n_embd": 768, "n_head": 12, "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1,
        "summary_activation": null, "summary_first_dropout": 0.1, "summary_proj_to_labels": true,
        "summary_type": "cls_index", "summary_use_proj": true, "vocab_size": 50257})")
        .object();
}

// bert-base-uncased's config.json.
QJsonObject bertBase()
{
    return QJsonDocument::fromJson(R"({"architectures": ["BertForMaskedLM"], "attention_probs_dropout_prob": 0.1,
        "gradient_checkpointing": false, "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768,
        "initializer_range": 0.02, "intermediate_size": 3072, "layer_norm_eps": 1e-12,
        "max_position_embeddings": 512, "model_type": "bert", "num_attention_heads": 12,
        "num_hidden_layers": 12, "pad_token_id": 0, "position_embedding_type": "absolute",
        "transformers_version": "4.6.0.dev0", "type_vocab_size": 2, "use_cache": true, "vocab_size": 30522})")
        .object();
}

QByteArray with(QJsonObject o, const char *key, const QJsonValue &value)
{
    if (value.isUndefined())
        o.remove(QLatin1String(key));
    else
        o.insert(QLatin1String(key), value);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestModelConfig : public QObject
{
    Q_OBJECT

private slots:
    void gpt2Small()
    {
        QString error;
        const auto c = parseModelConfig(QJsonDocument(::gpt2Small()).toJson(), QStringLiteral("config.json"), &error);
        QVERIFY2(c, qPrintable(error));
        QCOMPARE(c->modelType, QStringLiteral("gpt2"));
        QCOMPARE(c->layers, 12);
        QCOMPARE(c->heads, 12);
        QCOMPARE(c->dModel, 768);
        QCOMPARE(c->headDim(), 64);
        QCOMPARE(c->dFF, 3072); // n_inner absent: 4 * n_embd
        QCOMPARE(c->positions, 1024);
        QCOMPARE(c->vocab, 50257);
        QCOMPARE(c->tokenTypes, 0);
        QCOMPARE(c->activation, Activation::GeluTanh);
        QCOMPARE(c->normEpsilon, 1e-5);
        QVERIFY(c->causal);
        QVERIFY(c->scaleAttention);
        QVERIFY(!c->scaleByInverseLayerIndex);
        QVERIFY(c->tiedUnembedding);
        // 124 M weights, as published for GPT-2 small.
        QCOMPARE(qRound(c->parameterCount() / 1e6), 124);
    }

    void gpt2Defaults()
    {
        QJsonObject o = ::gpt2Small();
        o.remove(QLatin1String("activation_function"));
        o.remove(QLatin1String("layer_norm_epsilon"));
        o.insert(QLatin1String("n_inner"), QJsonValue::Null);
        const auto c = parseModelConfig(QJsonDocument(o).toJson(), QStringLiteral("config.json"), nullptr);
        QVERIFY(c);
        QCOMPARE(c->dFF, 3072);
        QCOMPARE(c->activation, Activation::GeluTanh);
        QCOMPARE(c->normEpsilon, 1e-5);
        o.insert(QLatin1String("n_inner"), 1000);
        o.insert(QLatin1String("activation_function"), QStringLiteral("gelu"));
        o.insert(QLatin1String("tie_word_embeddings"), false);
        const auto d = parseModelConfig(QJsonDocument(o).toJson(), QStringLiteral("config.json"), nullptr);
        QVERIFY(d);
        QCOMPARE(d->dFF, 1000);
        QCOMPARE(d->activation, Activation::GeluErf);
        QVERIFY(!d->tiedUnembedding);
    }

    void bertBase()
    {
        QString error;
        const auto c = parseModelConfig(QJsonDocument(::bertBase()).toJson(), QStringLiteral("config.json"), &error);
        QVERIFY2(c, qPrintable(error));
        QCOMPARE(c->modelType, QStringLiteral("bert"));
        QCOMPARE(c->layers, 12);
        QCOMPARE(c->heads, 12);
        QCOMPARE(c->dModel, 768);
        QCOMPARE(c->dFF, 3072);
        QCOMPARE(c->positions, 512);
        QCOMPARE(c->vocab, 30522);
        QCOMPARE(c->tokenTypes, 2);
        QCOMPARE(c->activation, Activation::GeluErf);
        QCOMPARE(c->normEpsilon, 1e-12);
        QVERIFY(!c->causal);
        QCOMPARE(qRound(c->parameterCount() / 1e6), 109); // without the pooler and the MLM head
    }

    void activationNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("activation");
        QTest::newRow("gelu_new") << "gelu_new" << int(Activation::GeluTanh);
        QTest::newRow("gelu_pytorch_tanh") << "gelu_pytorch_tanh" << int(Activation::GeluTanh);
        QTest::newRow("gelu_fast") << "gelu_fast" << int(Activation::GeluTanh);
        QTest::newRow("gelu") << "gelu" << int(Activation::GeluErf);
        QTest::newRow("relu") << "relu" << int(Activation::Relu);
        QTest::newRow("silu") << "silu" << int(Activation::Silu);
        QTest::newRow("swish") << "swish" << int(Activation::Silu);
        QTest::newRow("quick_gelu") << "quick_gelu" << int(Activation::QuickGelu);
    }
    void activationNames()
    {
        QFETCH(QString, name);
        QFETCH(int, activation);
        const auto a = activationFromName(name);
        QVERIFY(a);
        QCOMPARE(int(*a), activation);
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        const QJsonObject g = ::gpt2Small(), b = ::bertBase();
        const QJsonValue gone = QJsonValue(QJsonValue::Undefined);
        QTest::newRow("not JSON") << QByteArray("{\"model_type\": \"gpt2\",") << "config.json: not JSON (unterminated object at byte 22)";
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n") << "config.json: not JSON (illegal value at byte 1)";
        QTest::newRow("a list") << QByteArray("[1, 2]") << "config.json: not a JSON object";
        QTest::newRow("no model_type") << with(g, "model_type", gone) << "config.json: model_type is missing (gpt2, bert, llama, mistral, qwen2, qwen3, gemma, gemma2, "
                                              "gemma3_text, phi3)";
        QTest::newRow("model_type number") << with(g, "model_type", 2) << "config.json: model_type must be a string, got 2";
        QTest::newRow("mamba") << with(g, "model_type", QStringLiteral("mamba"))
                               << "config.json: model_type \"mamba\" is not supported (gpt2, bert, llama, mistral, "
                                  "qwen2, qwen3, gemma, gemma2, gemma3_text, phi3)";
        QTest::newRow("no n_layer") << with(g, "n_layer", gone) << "config.json: n_layer is missing";
        QTest::newRow("n_layer string") << with(g, "n_layer", QStringLiteral("12"))
                                        << "config.json: n_layer must be a whole number, got \"12\"";
        QTest::newRow("n_layer fraction") << with(g, "n_layer", 2.5) << "config.json: n_layer must be a whole number, got 2.5";
        QTest::newRow("n_layer zero") << with(g, "n_layer", 0) << "config.json: n_layer 0 must be at least 1";
        QTest::newRow("n_layer absurd") << with(g, "n_layer", 1000) << "config.json: n_layer 1000 is more than 256";
        QTest::newRow("n_head negative") << with(g, "n_head", -4) << "config.json: n_head -4 must be at least 1";
        QTest::newRow("n_head does not divide") << with(g, "n_head", 5) << "config.json: n_head 5 does not divide n_embd 768";
        QTest::newRow("n_embd absurd") << with(g, "n_embd", 1e9) << "config.json: n_embd 1000000000 is more than 16384";
        QTest::newRow("n_positions absurd") << with(g, "n_positions", 1 << 20)
                                            << "config.json: n_positions 1048576 is more than 65536";
        QTest::newRow("vocab absurd") << with(g, "vocab_size", 5e6) << "config.json: vocab_size 5000000 is more than 1000000";
        QTest::newRow("vocab null") << with(g, "vocab_size", QJsonValue::Null) << "config.json: vocab_size is missing";
        QTest::newRow("n_inner zero") << with(g, "n_inner", 0) << "config.json: n_inner 0 must be at least 1";
        QTest::newRow("activation unknown") << with(g, "activation_function", QStringLiteral("swiglu"))
                                            << "config.json: activation_function \"swiglu\" is not supported (gelu_new, "
                                               "gelu, gelu_pytorch_tanh, gelu_fast, quick_gelu, relu, silu)";
        QTest::newRow("activation not string") << with(g, "activation_function", true)
                                               << "config.json: activation_function must be a string, got true";
        QTest::newRow("epsilon negative") << with(g, "layer_norm_epsilon", -1e-5)
                                          << "config.json: layer_norm_epsilon -1e-05 must be positive";
        QTest::newRow("epsilon zero") << with(g, "layer_norm_epsilon", 0) << "config.json: layer_norm_epsilon 0 must be positive";
        QTest::newRow("epsilon huge") << with(g, "layer_norm_epsilon", 10) << "config.json: layer_norm_epsilon 10 is more than 1";
        QTest::newRow("epsilon string") << with(g, "layer_norm_epsilon", QStringLiteral("1e-5"))
                                        << "config.json: layer_norm_epsilon must be a number, got \"1e-5\"";
        QTest::newRow("scale flag not bool") << with(g, "scale_attn_weights", 1)
                                             << "config.json: scale_attn_weights must be true or false, got 1";
        QTest::newRow("cross-attention") << with(g, "add_cross_attention", true)
                                         << "config.json: add_cross_attention true is not supported (self-attention models only)";
        QJsonObject huge = g; // every field within its limit, the product not
        huge.insert(QLatin1String("n_embd"), 12288);
        huge.insert(QLatin1String("n_layer"), 256);
        QTest::newRow("too many weights") << with(huge, "n_head", 96)
                                          << "config.json: 464528 million weights are more than this program opens (4000 million)";
        QTest::newRow("bert no hidden_size") << with(b, "hidden_size", gone) << "config.json: hidden_size is missing";
        QTest::newRow("bert heads do not divide") << with(b, "num_attention_heads", 7)
                                                  << "config.json: num_attention_heads 7 does not divide hidden_size 768";
        QTest::newRow("bert no intermediate_size") << with(b, "intermediate_size", gone)
                                                   << "config.json: intermediate_size is missing";
        QTest::newRow("bert type_vocab_size zero") << with(b, "type_vocab_size", 0)
                                                   << "config.json: type_vocab_size 0 must be at least 1";
        QTest::newRow("bert hidden_act unknown") << with(b, "hidden_act", QStringLiteral("mish"))
                                                 << "config.json: hidden_act \"mish\" is not supported (gelu_new, gelu, "
                                                    "gelu_pytorch_tanh, gelu_fast, quick_gelu, relu, silu)";
        QTest::newRow("bert relative positions") << with(b, "position_embedding_type", QStringLiteral("relative_key"))
                                                 << "config.json: position_embedding_type \"relative_key\" is not "
                                                    "supported (absolute)";
        // Found by fuzz_modelconfig: a name from the file went into the message as it was.
        QTest::newRow("activation with a line break")
            << with(b, "hidden_act", QStringLiteral("re\n") + QChar(0x2028) + QChar(0) + QStringLiteral("lu"))
            << "config.json: hidden_act \"re???lu\" is not supported (gelu_new, gelu, gelu_pytorch_tanh, gelu_fast, "
               "quick_gelu, relu, silu)";
        QTest::newRow("activation very long") << with(g, "activation_function", QString(5000, QLatin1Char('x')))
                                              << "config.json: activation_function \"" + QString(40, QLatin1Char('x'))
                                                     + "…\" is not supported (gelu_new, gelu, gelu_pytorch_tanh, "
                                                       "gelu_fast, quick_gelu, relu, silu)";
        QTest::newRow("position type with a line break")
            << with(b, "position_embedding_type", QStringLiteral("abs\r\nolute"))
            << "config.json: position_embedding_type \"abs??olute\" is not supported (absolute)";
        QTest::newRow("bert eps negative") << with(b, "layer_norm_eps", -1) << "config.json: layer_norm_eps -1 must be positive";
    }
    void malformed()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!parseModelConfig(json, QStringLiteral("config.json"), &error));
        QCOMPARE(error, message);
    }
};

QTEST_APPLESS_MAIN(TestModelConfig)
#include "tst_modelconfig.moc"
