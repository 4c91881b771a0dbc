// The model commands (contract section 6) run as a separate process with no
// display: tokenize, compute --model and bench --model (export --model in
// tst_cli_modelexport) on the tiny checkpoints of tests/data/models, against
// the numbers of make_fixtures.py and cli/make_cli_fixtures.py (numpy), and
// the exact message of each bad input.

#include "climodelfixture.h"

#include <QTest>

using namespace climodel;

class TestCliModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void tokenize_data();
    void tokenize();
    void computeMatchesReference_data();
    void computeMatchesReference();
    void nextTokenTop();
    void ablation();
    void rollout_data();
    void rollout();
    void outputFile();
    void failures_data();
    void failures();
    void unwritableOutput();
    void huggingFaceCache();
    void bench();

private:
    QTemporaryDir m_dir;
    QJsonObject m_cli;
};

void TestCliModel::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_cli = fixtures::cliExpected();
    for (const char *f : {"gpt2-f32", "gpt2-bf16", "bert-f32", "bert-f16-gamma-beta"})
        makeModel(m_dir, QLatin1String(f));
}

void TestCliModel::tokenize_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("family");
    QTest::newRow("gpt2: pieces with their space, <|endoftext|> typed") << "gpt2-f32" << "gpt2";
    QTest::newRow("bert: [CLS] ... [SEP], lower case, ##s, [MASK] typed") << "bert-f32" << "bert";
}

void TestCliModel::tokenize()
{
    QFETCH(QString, fixture);
    QFETCH(QString, family);
    const QJsonObject expected = m_cli[family].toObject();
    const Run run = runApp({QStringLiteral("tokenize"), QStringLiteral("--model"), m_dir.filePath(fixture),
                            QStringLiteral("--text"), expected["text"].toString()});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.endsWith('\n') && run.out.count('\n') == 1); // one JSON line
    const QJsonObject out = parse(run);
    QCOMPARE(out.keys(), (QStringList{"token_ids", "tokens"}));
    QCOMPARE(out["token_ids"], expected["token_ids"]);
    QCOMPARE(out["tokens"], expected["tokens"]);
}

void TestCliModel::computeMatchesReference_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("family");
    QTest::newRow("gpt2 F32") << "gpt2-f32" << "gpt2";
    QTest::newRow("gpt2 BF16") << "gpt2-bf16" << "gpt2";
    QTest::newRow("bert F32 with the MLM head") << "bert-f32" << "bert";
    QTest::newRow("bert F16, no MLM head") << "bert-f16-gamma-beta" << "bert";
}

void TestCliModel::computeMatchesReference()
{
    QFETCH(QString, fixture);
    QFETCH(QString, family);
    const QJsonObject reference = fixtures::expected(family.toLatin1().constData());
    const Run run = runApp(computeArgs(m_dir.filePath(fixture), m_cli[family].toObject()["text"].toString()));
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = parse(run);
    QCOMPARE(out["format"].toString(), QStringLiteral("attention-explorer-result"));
    QCOMPARE(out["version"].toInt(), 2);
    const bool gpt2 = family == QLatin1String("gpt2");
    QCOMPARE(out["model"].toObject(),
             (QJsonObject{{"type", family}, {"layers", 2}, {"heads", gpt2 ? 3 : 4}, {"kv_heads", gpt2 ? 3 : 4},
                          {"head_dim", gpt2 ? 4 : 3}, {"d_model", 12},
                          {"format", QStringLiteral("safetensors-") + QString::fromLatin1(QTest::currentDataTag()).section(' ', 1, 1).remove(',')}}));
    QCOMPARE(out["token_ids"], reference["token_ids"]);
    QCOMPARE(out["tokens"], m_cli[family].toObject()["tokens"]);
    const QJsonArray layers = out["layers"].toArray(), expectedLayers = reference["layers"].toArray();
    QCOMPARE(layers.size(), expectedLayers.size());
    for (int l = 0; l < layers.size(); ++l) {
        const QJsonArray heads = layers[l].toObject()["heads"].toArray();
        const QJsonArray expectedHeads = expectedLayers[l].toObject()["heads"].toArray();
        QCOMPARE(heads.size(), expectedHeads.size());
        for (int h = 0; h < heads.size(); ++h)
            for (const char *what : {"weights", "scores"}) {
                const QString why = fixtures::difference(fixtures::matrix(heads[h].toObject()[what]),
                                                         fixtures::matrix(expectedHeads[h].toObject()[what]), 2e-5);
                QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("layer %1 head %2 %3: ").arg(l).arg(h).arg(what) + why));
            }
    }
    QCOMPARE(out.contains("next_token"), gpt2);
    QVERIFY(!out.contains("rollout"));
    if (gpt2) {
        const QJsonObject next = out["next_token"].toObject();
        QCOMPARE(next["position"].toInt(), 6);
        const attn::RowMatrix<double> p = fixtures::matrix(reference["next_token"]);
        const QJsonArray top = next["top"].toArray();
        QCOMPARE(top.size(), 10);
        for (const QJsonValue &t : top)
            QVERIFY(std::fabs(t["probability"].toDouble() - p(0, t["id"].toInt())) < 2e-6);
        QCOMPARE(top[0]["id"], reference["next_token_top"].toArray()[0]);
    }
    // BERT: the [MASK] predictions when (and only when) the checkpoint has its MLM head.
    const bool mlm = fixture == QLatin1String("bert-f32");
    QCOMPARE(out.contains("mask_predictions"), mlm);
    if (mlm) {
        const QJsonArray masks = out["mask_predictions"].toArray(), expectedMasks = reference["mask"].toArray();
        QCOMPARE(masks.size(), 2);
        for (int m = 0; m < masks.size(); ++m) {
            const QJsonObject e = expectedMasks[m].toObject();
            QCOMPARE(masks[m]["position"], e["position"]);
            const QJsonArray top = masks[m]["top"].toArray();
            for (int k = 0; k < 5; ++k)
                QCOMPARE(top[k]["id"], e["top"].toArray()[k]);
            const attn::RowMatrix<double> p = fixtures::matrix(e["probabilities"]);
            QVERIFY(std::fabs(top[0]["probability"].toDouble() - p(0, top[0]["id"].toInt())) < 2e-6);
        }
    }
}

void TestCliModel::nextTokenTop()
{
    // --top 29 is the whole vocabulary: sorted, summing to 1 within float rounding.
    for (int k : {1, 5, 29, 1000}) {
        const Run run = runApp(computeArgs(m_dir.filePath("gpt2-f32"), QLatin1String(kGpt2Text),
                                           {"--top", QString::number(k)}));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonArray top = parse(run)["next_token"].toObject()["top"].toArray();
        QCOMPARE(top.size(), std::min(k, 29));
        double sum = 0;
        for (int i = 0; i < top.size(); ++i) {
            const double p = top[i]["probability"].toDouble();
            QVERIFY(p >= 0 && p <= 1);
            if (i > 0)
                QVERIFY(p <= top[i - 1]["probability"].toDouble());
            QVERIFY(!top[i]["token"].toString().isEmpty());
            sum += p;
        }
        QVERIFY(sum <= 1.0 + 1e-6);
        if (k >= 29)
            QVERIFY(std::fabs(sum - 1.0) < 1e-5);
    }
}

void TestCliModel::ablation()
{
    const QString model = m_dir.filePath("gpt2-f32");
    const QJsonObject plain = parse(runApp(computeArgs(model, QLatin1String(kGpt2Text), {"--top", "29"})));
    const Run run = runApp(computeArgs(model, QLatin1String(kGpt2Text), {"--top", "29", "--ablate", "0:1"}));
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject ablated = parse(run);
    // One pair, appended: clang reads QJsonArray{QJsonArray{0, 1}} as a copy of the inner array.
    QJsonArray onePair;
    onePair.append(QJsonArray{0, 1});
    QCOMPARE(ablated["ablated"], QJsonValue(onePair));
    // Layer 0 is computed before the switched-off head acts: unchanged, bit for bit.
    QVERIFY(sameLayer(ablated["layers"][0], plain["layers"][0]));
    QVERIFY(!sameLayer(ablated["layers"][1], plain["layers"][1]));
    const QJsonObject expected = m_cli["gpt2_ablate_0_1"].toObject();
    const QJsonArray heads = ablated["layers"][1]["heads"].toArray();
    for (int h = 0; h < heads.size(); ++h) {
        const QString why = fixtures::difference(fixtures::matrix(heads[h]["weights"]),
                                                 fixtures::matrix(expected["layers"][1][h]), 2e-5);
        QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("head %1: ").arg(h) + why));
    }
    const attn::RowMatrix<double> p = fixtures::matrix(expected["next_token"]);
    for (const QJsonValue &t : ablated["next_token"]["top"].toArray())
        QVERIFY(std::fabs(t["probability"].toDouble() - p(0, t["id"].toInt())) < 2e-6);

    // A head of the last layer changes no attention at all, only the prediction.
    const QJsonObject last = parse(runApp(computeArgs(model, QLatin1String(kGpt2Text),
                                                      {"--top", "29", "--ablate", "1:2", "--ablate", "1:0"})));
    QCOMPARE(last["ablated"], QJsonValue(QJsonArray{QJsonArray{1, 0}, QJsonArray{1, 2}}));
    QCOMPARE(last["layers"], plain["layers"]);
    QVERIFY(last["next_token"] != plain["next_token"]);
}

void TestCliModel::rollout_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("more");
    QTest::newRow("gpt2") << "gpt2-f32" << "gpt2" << QStringList{};
    QTest::newRow("bert") << "bert-f32" << "bert" << QStringList{};
    QTest::newRow("gpt2, head 0:1 off") << "gpt2-f32" << "gpt2_ablate_0_1" << QStringList{"--ablate", "0:1"};
}

void TestCliModel::rollout()
{
    QFETCH(QString, fixture);
    QFETCH(QString, key);
    QFETCH(QStringList, more);
    const QString family = fixture.section('-', 0, 0);
    const Run run = runApp(computeArgs(m_dir.filePath(fixture), m_cli[family].toObject()["text"].toString(),
                                       more + QStringList{"--rollout"}));
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QString why = fixtures::difference(fixtures::matrix(parse(run)["rollout"]),
                                             fixtures::matrix(m_cli[key].toObject()["rollout"]), 2e-5);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestCliModel::outputFile()
{
    const QStringList args = computeArgs(m_dir.filePath("gpt2-f32"), QLatin1String(kGpt2Text), {"--rollout"});
    const Run toStdout = runApp(args);
    const QString out = m_dir.filePath("result.json");
    const Run toFile = runApp(args + QStringList{"-o", out});
    QVERIFY2(toFile.exitCode == 0, toFile.err.constData());
    QVERIFY(toFile.out.isEmpty() && toFile.err.isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), toStdout.out);
}

void TestCliModel::failures_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("error"); // exactly, after "attention-explorer: "

    const QString gpt2 = m_dir.filePath("gpt2-f32");
    const QString missing = m_dir.filePath("no-such-model");
    const QString text = QLatin1String(kGpt2Text);
    QTest::newRow("missing folder") << computeArgs(missing, text) << missing + ": no such folder";
    QTest::newRow("tokenize, missing folder") << QStringList{"tokenize", "--model", missing, "--text", "x"}
                                              << missing + ": no such folder";
    QTest::newRow("bench, missing folder") << QStringList{"bench", "--model", missing} << missing + ": no such folder";

    QDir().mkpath(m_dir.filePath("bad-config"));
    fixtures::copyInto(gpt2, m_dir.filePath("bad-config"));
    writeFile(m_dir.filePath("bad-config/config.json"), "{");
    QTest::newRow("config.json not JSON") << computeArgs(m_dir.filePath("bad-config"), text)
                                          << "config.json: not JSON (unterminated object at byte 1)";
    QTest::newRow("tokenize, config.json not JSON")
        << QStringList{"tokenize", "--model", m_dir.filePath("bad-config"), "--text", "x"}
        << "config.json: not JSON (unterminated object at byte 1)";

    QDir().mkpath(m_dir.filePath("truncated"));
    fixtures::copyInto(gpt2, m_dir.filePath("truncated"));
    QFile full(gpt2 + "/model.safetensors");
    full.open(QIODevice::ReadOnly);
    writeFile(m_dir.filePath("truncated/model.safetensors"), full.read(100));
    QTest::newRow("truncated safetensors")
        << computeArgs(m_dir.filePath("truncated"), text)
        << "model.safetensors: header length 2968 runs past the end of the file (92 bytes follow the length)";
    QTest::newRow("bench, truncated safetensors")
        << QStringList{"bench", "--model", m_dir.filePath("truncated")}
        << "model.safetensors: header length 2968 runs past the end of the file (92 bytes follow the length)";

    QTest::newRow("no tokenizer files") << computeArgs(fixtures::modelDir("gpt2-f32"), text)
                                        << "gpt2-f32: no tokenizer: expected vocab.json and merges.txt, or tokenizer.json";
    QTest::newRow("--ablate 3") << computeArgs(gpt2, text, {"--ablate", "3"})
                                << "--ablate 3: expected LAYER:HEAD, for example 0:1 (both counted from 0)";
    QTest::newRow("--ablate x:y") << computeArgs(gpt2, text, {"--ablate", "x:y"})
                                  << "--ablate x:y: expected LAYER:HEAD, for example 0:1 (both counted from 0)";
    QTest::newRow("--ablate 0:99") << computeArgs(gpt2, text, {"--ablate", "0:99"})
                                   << "--ablate 0:99: the model has 3 heads per layer (0 to 2)";
    QTest::newRow("--ablate 2:0") << computeArgs(gpt2, text, {"--ablate", "0:0", "--ablate", "2:0"})
                                  << "--ablate 2:0: the model has 2 layers (0 to 1)";
    QTest::newRow("--top 0") << computeArgs(gpt2, text, {"--top", "0"}) << "--top must be a whole number from 1 to 1000";
    QTest::newRow("empty text") << computeArgs(gpt2, QString()) << "--text is empty: give the text to run through the model";
    QTest::newRow("tokenize, empty text") << QStringList{"tokenize", "--model", gpt2, "--text", ""}
                                          << "--text is empty: give the text to run through the model";
    QTest::newRow("no --text") << QStringList{"compute", "--model", gpt2} << "compute needs --text TEXT (see --help)";
    QTest::newRow("text too long") << computeArgs(gpt2, QStringLiteral(" the").repeated(17))
                                   << "--text is 17 tokens long; the model takes at most 16 (n_positions in config.json)";
    QTest::newRow("bert text too long")
        << computeArgs(m_dir.filePath("bert-f32"), QStringLiteral("the ").repeated(15))
        << "--text is 17 tokens long; the model takes at most 16 (max_position_embeddings in config.json)";
    QTest::newRow("bert, only white space") << computeArgs(m_dir.filePath("bert-f32"), QStringLiteral(" \t "))
                                            << "--text gives no tokens, only white space";
    QTest::newRow("an id outside the model's vocabulary") << computeArgs(gpt2, QStringLiteral("Hello, world"))
                                                          << "--text: \",\" (token 1) is not one of the model's 29 tokens";
    QTest::newRow("bench --tokens above the limit") << QStringList{"bench", "--model", gpt2, "--tokens", "17"}
                                                    << "--tokens 17: the model takes at most 16 (n_positions in config.json)";
    QTest::newRow("export --layer 5") << exportArgs(gpt2, m_dir.filePath("l5.png"), {"--layer", "5"})
                                      << "--layer 5: the model has 2 layers (0 to 1)";
    QTest::newRow("export --head 9") << exportArgs(gpt2, m_dir.filePath("h9.png"), {"--head", "9"})
                                     << "--head 9: the model has 3 heads per layer (0 to 2)";
    QTest::newRow("export --query 7") << exportArgs(gpt2, m_dir.filePath("q7.png"), {"--query", "7"})
                                      << "--query 7: the text has 7 tokens (0 to 6)";
    QTest::newRow("export without --text") << QStringList{"export", "--model", gpt2, "-o", m_dir.filePath("t.png")}
                                           << "export needs --text TEXT (see --help)";
    QTest::newRow("export, unknown view") << exportArgs(gpt2, m_dir.filePath("v.png"), {"--view", "grid"})
        << "--view grid: unknown view; use heatmap, scores, pipeline, bars, heads or dashboard";
    QTest::newRow("export, unknown suffix") << exportArgs(gpt2, m_dir.filePath("out.gif"))
                                            << "out.gif: unknown file type; use .png, .svg, .pdf, .csv or .json";
    QTest::newRow("export, missing folder") << exportArgs(missing, m_dir.filePath("m.png"))
                                            << missing + ": no such folder";
    QTest::newRow("bench --repeat 1001") << QStringList{"bench", "--model", gpt2, "--repeat", "1001"}
                                         << "--repeat must be a whole number from 0 to 1000";
    QTest::newRow("bench --window --repeat 0") << QStringList{"bench", "--model", gpt2, "--window", "--repeat", "0"}
                                               << "--repeat must be a whole number from 1 to 1000";
}

void TestCliModel::failures()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, error);
    const Run run = runApp(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    const qsizetype out = arguments.indexOf(QStringLiteral("-o"));
    if (arguments.first() == QLatin1String("export") && out >= 0)
        QVERIFY(!QFileInfo::exists(arguments.value(out + 1))); // a refused export writes nothing
    QCOMPARE(QString::fromUtf8(run.err), QStringLiteral("attention-explorer: ") + error + '\n');
}

void TestCliModel::unwritableOutput()
{
    const QString out = m_dir.filePath("missing-folder/result.json");
    const Run run = runApp(computeArgs(m_dir.filePath("gpt2-f32"), QLatin1String(kGpt2Text), {"-o", out}));
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.err.startsWith("attention-explorer: ") && run.err.count('\n') == 1);
    QVERIFY(!QFileInfo::exists(out));
    QVERIFY(!QFileInfo::exists(m_dir.filePath("missing-folder"))); // nothing left behind, not even the folder
}

void TestCliModel::huggingFaceCache()
{
    // hub/models--tiny--gpt2: refs/main names the snapshot, whose files are
    // symbolic links into blobs/, as huggingface_hub lays them out.
    const QString entry = m_dir.filePath("hub/models--tiny--gpt2");
    const QString snapshot = entry + "/snapshots/0123abcd";
    QVERIFY(QDir().mkpath(entry + "/blobs") && QDir().mkpath(entry + "/refs") && QDir().mkpath(snapshot));
    QVERIFY(writeFile(entry + "/refs/main", "0123abcd"));
    int blob = 0;
    for (const QString &from : {m_dir.filePath("gpt2-f32")}) {
        for (const QString &name : QDir(from).entryList(QDir::Files)) {
            const QString target = QStringLiteral("%1/blobs/%2").arg(entry).arg(++blob, 40, 10, QLatin1Char('0'));
            QVERIFY(QFile::copy(from + '/' + name, target));
            QVERIFY(QFile::link(QStringLiteral("../../blobs/%1").arg(blob, 40, 10, QLatin1Char('0')),
                                snapshot + '/' + name));
        }
    }
    const QByteArray direct = runApp(computeArgs(m_dir.filePath("gpt2-f32"), QLatin1String(kGpt2Text))).out;
    for (const QString &path : {entry, snapshot}) {
        const Run run = runApp(computeArgs(path, QLatin1String(kGpt2Text)));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.out, direct);
        const Run tokens = runApp({"tokenize", "--model", path, "--text", QLatin1String(kGpt2Text)});
        QCOMPARE(parse(tokens)["token_ids"], m_cli["gpt2"].toObject()["token_ids"]);
    }
}

void TestCliModel::bench()
{
    const Run run = runApp({"bench", "--model", m_dir.filePath("gpt2-f32"), "--repeat", "3"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.endsWith('\n') && run.out.count('\n') == 1);
    const QJsonObject out = parse(run);
    QCOMPARE(out["tokens"].toInt(), 16); // the default 1024 is above this model's 16 positions
    QCOMPARE(out["layers"].toInt(), 2);
    QCOMPARE(out["heads"].toInt(), 3);
    QCOMPARE(out["d_model"].toInt(), 12);
    QCOMPARE(out["repeat"].toInt(), 3);
    QVERIFY(out["min_ms"].toDouble() > 0 && out["min_ms"].toDouble() <= out["median_ms"].toDouble());
    QVERIFY(out["gflops"].toDouble() > 0 && out["sgemm_gflops"].toDouble() > 0 && out["peak_rss_mib"].toDouble() > 0);
    QVERIFY(std::fabs(out["next_token_probability_sum"].toDouble() - 1.0) < 1e-5);
    // Opening: the folder read, then the first pass, with the memory each left resident.
    QVERIFY(out["open_ms"].toDouble() > 0 && out["first_forward_ms"].toDouble() > 0);
    QCOMPARE(out["first_result_ms"].toDouble(), out["open_ms"].toDouble() + out["first_forward_ms"].toDouble());
    QVERIFY(out["open_peak_rss_mib"].toDouble() > 0);
    QVERIFY(out["open_peak_rss_mib"].toDouble() <= out["first_result_peak_rss_mib"].toDouble());
    QVERIFY(out["first_result_peak_rss_mib"].toDouble() <= out["peak_rss_mib"].toDouble());
    // The first layer of a pass comes before its end: in the first pass, and in the median of the others.
    QVERIFY(out["first_pass_first_layer_ms"].toDouble() > 0);
    QVERIFY(out["first_pass_first_layer_ms"].toDouble() < out["first_forward_ms"].toDouble());
    QVERIFY(out["first_layer_median_ms"].toDouble() > 0);
    QVERIFY(out["first_layer_median_ms"].toDouble() < out["median_ms"].toDouble());
    // Switching a head of the middle layer off; every head's pattern scores (the model's 16 positions).
    QCOMPARE(out["switch_off_layer"].toInt(), 1);
    QVERIFY(out["switch_off_ms"].toDouble() > 0);
    QCOMPARE(out["scores_tokens"].toInt(), 16);
    QVERIFY(out["scores_ms"].toDouble() > 0);
    // The 16th token typed at the end of the text: the first 15 extended.
    QCOMPARE(out["typed_tokens"].toInt(), 16);
    QVERIFY(out["typed_min_ms"].toDouble() > 0 && out["typed_min_ms"].toDouble() <= out["typed_median_ms"].toDouble());
    const QJsonObject eight = parse(runApp({"bench", "--model", m_dir.filePath("bert-f32"), "--tokens", "8",
                                            "--repeat", "1"}));
    QCOMPARE(eight["tokens"].toInt(), 8);
    QCOMPARE(eight["model"].toString(), QStringLiteral("bert"));
    QVERIFY(!eight.contains("typed_min_ms")); // every position sees every other: nothing to extend
    // --repeat 0: the first pass alone (a model too large to run again), and nothing after it.
    const QJsonObject once = parse(runApp({"bench", "--model", m_dir.filePath("gpt2-f32"), "--repeat", "0"}));
    QCOMPARE(once["repeat"].toInt(), 0);
    QCOMPARE(once["median_ms"].toDouble(), once["first_forward_ms"].toDouble());
    QCOMPARE(once["first_layer_median_ms"].toDouble(), once["first_pass_first_layer_ms"].toDouble());
    QVERIFY(once["first_pass_first_layer_ms"].toDouble() < once["first_forward_ms"].toDouble());
    QVERIFY(!once.contains("extend_ms") && !once.contains("scores_ms") && !once.contains("typed_min_ms"));
}


QTEST_GUILESS_MAIN(TestCliModel)
#include "tst_cli_model.moc"
