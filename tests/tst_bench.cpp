// `attention-explorer bench`, run as a separate process: it runs on small
// sizes, reports what it measured, and uses OpenBLAS's best kernels.

#include "attention/attention.h"
#include "runtime/blasruntime.h"
#include "headlessrun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QFileInfo>
#include <QTest>

namespace {

QJsonObject runBench(const QStringList &arguments)
{
    const HeadlessRun run = runHeadless(QStringLiteral(ATTN_APP_PATH), QStringList{QStringLiteral("bench")} + arguments);
    if (run.exitCode != 0)
        qWarning("bench exited with %d: %s", run.exitCode, run.err.constData());
    return QJsonDocument::fromJson(run.out).object();
}

} // namespace

class TestBench : public QObject
{
    Q_OBJECT
private slots:
    void forwardPass()
    {
        const QJsonObject out = runBench({"--tokens", "64", "--d-model", "32", "--heads", "2", "--repeat", "2"});
        QCOMPARE(out["tokens"].toInt(), 64);
        QCOMPARE(out["head_dim"].toInt(), 16);
        attn::AttentionConfig c;
        c.heads = 2;
        c.headDim = 16;
        c.outputProjection = true;
        QCOMPARE(out["flops_per_pass"].toDouble(), attn::forwardFlops(64, 64, 32, c));
        QCOMPARE(out["precision"].toString(), QStringLiteral("double")); // a teaching size
        QVERIFY(out["min_ms"].toDouble() > 0 && out["min_ms"].toDouble() <= out["median_ms"].toDouble());
        QVERIFY(out["sgemm_gflops"].toDouble() > 0);
        QVERIFY(out["peak_rss_mib"].toDouble() > 1);
    }

    void forwardPassInSinglePrecision()
    {
        const QJsonObject out = runBench({"--tokens", "64", "--d-model", "32", "--repeat", "1", "--precision", "single"});
        QCOMPARE(out["precision"].toString(), QStringLiteral("single"));
    }

    // OpenBLAS 0.3.21 falls back to SSE3 kernels on processors newer than it;
    // the app must start again with kernels that use the processor's vectors.
    void usesTheBestBlasKernels()
    {
        if (qEnvironmentVariableIsSet("OPENBLAS_CORETYPE"))
            QSKIP("OPENBLAS_CORETYPE is set: the user chose the kernels");
        const QString core = runBench({"--tokens", "8", "--d-model", "8", "--repeat", "1"})["blas_core"].toString();
        QVERIFY(!core.isEmpty());
        const attn::CpuFeatures cpu = attn::detectCpuFeatures();
        if (cpu.avx2 && cpu.fma)
            QVERIFY2(core != QLatin1String("Prescott"), qPrintable(core));
    }

    void betterCoreTypes_data()
    {
        QTest::addColumn<QString>("current");
        QTest::addColumn<int>("level"); // 0 none, 1 AVX2+FMA, 2 AVX-512, 3 AVX-512 with BF16
        QTest::addColumn<QString>("expected");
        QTest::newRow("prescott on avx-512 bf16") << "Prescott" << 3 << "Cooperlake";
        QTest::newRow("prescott on avx-512") << "Prescott" << 2 << "SkylakeX";
        QTest::newRow("prescott on avx2") << "Prescott" << 1 << "Haswell";
        QTest::newRow("prescott on an old processor") << "Prescott" << 0 << "";
        QTest::newRow("a good choice stays") << "Haswell" << 3 << "";
        QTest::newRow("an amd choice stays") << "Zen" << 1 << "";
    }
    void betterCoreTypes()
    {
        QFETCH(QString, current);
        QFETCH(int, level);
        QFETCH(QString, expected);
        attn::CpuFeatures cpu;
        cpu.avx2 = cpu.fma = level >= 1;
        cpu.avx512f = cpu.avx512bw = cpu.avx512vl = cpu.avx512dq = level >= 2;
        cpu.avx512bf16 = level >= 3;
        QCOMPARE(QString::fromStdString(attn::betterBlasCoreType(current.toStdString(), cpu)), expected);
    }

    // One slider step in the real window, offscreen: the views repaint.
    void drag()
    {
        const QJsonObject out = runBench({"--drag", "--tokens", "24", "--d-model", "16", "--heads", "2", "--repeat", "3"});
        QCOMPARE(out["tokens"].toInt(), 24);
        QVERIFY(out["widgets_painted_per_change"].toInt() >= 3); // heatmap, pipeline, bars at least
        QVERIFY(out["change_to_repainted_median_ms"].toDouble() > 0);
        QVERIFY(out["compute_median_ms"].toDouble() > 0);
    }

    // One more character typed into the sentence in the real window, offscreen: the views repaint.
    void typing()
    {
        const QJsonObject out = runBench({"--typing", "--tokens", "30", "--repeat", "3"});
        QCOMPARE(out["tokens"].toInt(), 30); // the last word grew; the count stays
        QCOMPARE(out["d_model"].toInt(), 3);  // the window's starting session
        QCOMPARE(out["mode"].toString(), QStringLiteral("simplified"));
        QVERIFY(out["widgets_painted_per_change"].toInt() >= 3); // heatmap, pipeline, bars at least
        QVERIFY(out["typed_to_repainted_min_ms"].toDouble() > 0);
        QVERIFY(out["typed_to_repainted_min_ms"].toDouble() <= out["typed_to_repainted_median_ms"].toDouble());
        const QJsonObject sized = runBench({"--typing", "--tokens", "20", "--d-model", "16", "--heads", "2", "--repeat", "2"});
        QCOMPARE(sized["mode"].toString(), QStringLiteral("scaled-dot-product"));
        QCOMPARE(sized["heads"].toInt(), 2);
    }

    void modelWindow()
    {
        // The shipped trained model: typing one more token into the real window.
        const QString model = QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/induction");
        const QJsonObject out = runBench({"--model", model, "--window", "--tokens", "20", "--repeat", "3"});
        QCOMPARE(out["model"].toString(), QStringLiteral("gpt2"));
        QCOMPARE(out["tokens"].toInt(), 20);
        QCOMPARE(out["repeat"].toInt(), 3);
        // Only the new position was computed: the 19 before it came from the shorter text's trace.
        QCOMPARE(out["reused_positions"].toInt(), 19);
        QVERIFY(out["open_to_whole_grid_ms"].toDouble() > 0);
        // The first layer on screen, at the latest with the whole first result.
        QVERIFY(out["open_to_first_layer_ms"].toDouble() > 0);
        QVERIFY(out["open_to_first_layer_ms"].toDouble() <= out["open_to_whole_grid_ms"].toDouble());
        QVERIFY(out["typed_to_repainted_min_ms"].toDouble() > 0);
        QVERIFY(out["typed_to_repainted_min_ms"].toDouble() <= out["typed_to_repainted_median_ms"].toDouble());
        QVERIFY(out["longest_gui_event_max_ms"].toDouble() >= out["longest_gui_event_median_ms"].toDouble());
        QVERIFY(!out["longest_gui_event"].toString().isEmpty());
        // What the peak is made of: the program before the model, the weights file, a trace.
        QVERIFY(out["resident_before_open_mib"].toDouble() > 0);
        QVERIFY(out["resident_before_open_mib"].toDouble() <= out["peak_rss_mib"].toDouble());
        QCOMPARE(out["weights_file_mib"].toDouble(), QFileInfo(model + "/model.safetensors").size() / (1024.0 * 1024.0));
        QVERIFY(out["trace_mib"].toDouble() > 0);
        // Switching a head of the middle layer (of 2: layer 1) off and on, each until repainted.
        QCOMPARE(out["switch_off_layer"].toInt(), 1);
        QVERIFY(out["switch_to_repainted_min_ms"].toDouble() > 0);
        // A length the model cannot read is refused, not quietly changed.
        const HeadlessRun tooLong = runHeadless(QStringLiteral(ATTN_APP_PATH),
                                                {"bench", "--model", model, "--window", "--tokens", "65"});
        QCOMPARE(tooLong.exitCode, 2);
        QCOMPARE(QString::fromUtf8(tooLong.err).trimmed(),
                 QStringLiteral("attention-explorer: --tokens 65: --window types into a text of 2 to 64 tokens (the "
                                "model's positions)"));
    }
};

QTEST_GUILESS_MAIN(TestBench)
#include "tst_bench.moc"
