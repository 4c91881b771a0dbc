// The memory a model run needs, stated before anything large is allocated
// (core/model/memoryestimate): the parts worked by hand for a small config,
// the figures as messages show them, and `compute --model` refusing a config
// whose run cannot fit, with both figures, even under `ulimit -v`.

#include "io/safetensorswriter.h"
#include "model/memoryestimate.h"
#include "model/modelconfig.h"
#include "sanitized.h"
#include "runtime/freedmemory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>

using namespace attn;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A GPT-2 whose config is inside every limit of the parser but whose run
// over a few thousand tokens needs petabytes, beside a tiny weights file
// and a real tokenizer: only the estimate can refuse it first.
bool makeAbsurdModel(const QString &dir)
{
    const QJsonObject config{{"model_type", "gpt2"}, {"n_layer", 256}, {"n_head", 256}, {"n_embd", 1024},
                             {"n_inner", 1024},      {"n_positions", 65536}, {"vocab_size", 1000}};
    QString error;
    const QByteArray weights = serializeSafetensors({{"wte.weight", {1, 1}, {0.5f}, Dtype::F32}}, {}, &error);
    const QString tokenizer = QStringLiteral(ATTN_TEST_DATA "/models/cli/gpt2-tokenizer/");
    return QDir().mkpath(dir) && writeFile(dir + "/config.json", QJsonDocument(config).toJson())
           && writeFile(dir + "/model.safetensors", weights)
           && QFile::copy(tokenizer + "vocab.json", dir + "/vocab.json")
           && QFile::copy(tokenizer + "merges.txt", dir + "/merges.txt");
}

int tokenCount(const QString &dir, const QString &text)
{
    QProcess p;
    p.start(QStringLiteral(ATTN_APP_PATH), {"tokenize", "--model", dir, "--text", text});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return -1;
    return int(QJsonDocument::fromJson(p.readAllStandardOutput()).object().value("token_ids").toArray().size());
}

// "6.3 GiB" as bytes.
double bytesOf(const QString &figure)
{
    const QStringList parts = figure.split(' ');
    const QStringList units{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    return parts.value(0).toDouble() * std::pow(1024.0, double(units.indexOf(parts.value(1))));
}

} // namespace

class TestMemoryEstimate : public QObject
{
    Q_OBJECT
private slots:
    // The freed memory the program keeps for reuse: an eighth of the
    // machine's (MemTotal of /proc/meminfo, read here on its own), within
    // 512 MiB ... 2 GiB.
    void keptFreedMemoryFollowsTheMachine()
    {
        QFile meminfo(QStringLiteral("/proc/meminfo"));
        QVERIFY(meminfo.open(QIODevice::ReadOnly));
        const QRegularExpressionMatch total =
            QRegularExpression(QStringLiteral("MemTotal:\\s+(\\d+) kB")).match(QString::fromLatin1(meminfo.readAll()));
        QVERIFY(total.hasMatch());
        const double expected = std::clamp(total.captured(1).toDouble() * 1024 / 8, 512.0 * (1 << 20), 2048.0 * (1 << 20));
        const double kept = double(attn::keptFreedBytes());
        QVERIFY2(std::abs(kept - expected) <= 0.02 * expected, qPrintable(QStringLiteral("%1 vs %2").arg(kept).arg(expected)));
    }

    // The fixture GPT-2 (2 layers, 3 heads, d 12, d_ff 20, 16 positions,
    // vocab 29), 5 tokens, scores kept, 100 result numbers. By hand:
    // weights per block 4*144 + 4*12 + 2*12*20 + 20 + 12 + 4*12 = 1184, in all
    // 29*12 + 16*12 + 2*1184 + 2*12 = 2932, as floats 11728 bytes (used in
    // place when the file holds them as aligned F32: no copy);
    // activations 4 * (2*4*5*12 + 3*5*12 + (4*5*12 + 2*5*20) + 2*29) = 4632;
    // attention 4 * 2 layers * 3 heads * 25 * 2 = 1200; result 64 * 100 = 6400.
    void partsByHand()
    {
        ModelConfig c;
        c.layers = 2, c.heads = 3, c.dModel = 12, c.dFF = 20, c.positions = 16, c.vocab = 29;
        const WeightsOnDisk w{18152, 2932, 2932};
        const MemoryEstimate e = estimateRunMemory(c, w, 5, true, 100);
        QCOMPARE(e.mappedWeights, 18152.0);
        QCOMPARE(e.weightCopies, 0.0);
        QCOMPARE(e.activations, 4632.0);
        QCOMPARE(e.attention, 1200.0);
        QCOMPARE(e.result, 6400.0);
        QCOMPARE(e.total(), 42112.0 - 11728.0);
        // Stored as F16: converted a band at a time, at most two bands (here
        // smaller than the model: every weight once). Not the config's
        // weights at all: counted as copied whole.
        QCOMPARE(estimateRunMemory(c, WeightsOnDisk{18152, 2932, 0}, 5, true, 100).weightCopies, 11728.0);
        QCOMPARE(estimateRunMemory(c, WeightsOnDisk{18152, 100, 100}, 5, true, 100).weightCopies, 11728.0);
        // Without scores the attention halves; BERT predicts at every position.
        QCOMPARE(estimateRunMemory(c, w, 5, false, 0).attention, 600.0);
        c.causal = false;
        c.tokenTypes = 2; // 24 more weights
        // An encoder's nn.Linear weights are used as stored too: no copy of an F32 file.
        const MemoryEstimate bert = estimateRunMemory(c, WeightsOnDisk{18152, 2932 + 24, 2932 + 24}, 5, true, 0);
        QCOMPARE(bert.weightCopies, 0.0);
        QCOMPARE(bert.activations, 4632.0 + 4 * (5 - 1) * 2 * 29);
    }

    void formatted_data()
    {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("bytes") << 512.0 << "512 bytes";
        QTest::newRow("KiB") << 12.0 * 1024 << "12 KiB";
        QTest::newRow("MiB") << 640.0 * 1024 * 1024 << "640 MiB";
        QTest::newRow("GiB, one decimal below ten") << 1.5 * 1024 * 1024 * 1024 << "1.5 GiB";
        QTest::newRow("PiB") << 3.0 * 1024 * 1024 * 1024 * 1024 * 1024 << "3.0 PiB";
    }
    void formatted()
    {
        QFETCH(double, bytes);
        QFETCH(QString, text);
        QCOMPARE(formatBytes(bytes), text);
    }

    void availableIsMemAvailable()
    {
        QFile meminfo("/proc/meminfo");
        QVERIFY(meminfo.open(QIODevice::ReadOnly));
        const QRegularExpression field("MemAvailable:\\s+(\\d+) kB");
        const QRegularExpressionMatch m = field.match(QString::fromLatin1(meminfo.readAll()));
        QVERIFY(m.hasMatch());
        const MemoryLimit limit = availableMemory();
        if (limit.what.contains("ulimit"))
            QSKIP("this test runs under ulimit -v");
        QCOMPARE(limit.what, QStringLiteral("free memory (MemAvailable)"));
        QVERIFY(qAbs(limit.bytes - m.captured(1).toDouble() * 1024) < 256.0 * 1024 * 1024); // it moves a little
    }

    void computeRefusesWhatCannotFit_data()
    {
        QTest::addColumn<bool>("underUlimit");
        QTest::newRow("free memory") << false;
        QTest::newRow("ulimit -v 2 GiB") << true;
    }
    void computeRefusesWhatCannotFit()
    {
        QFETCH(bool, underUlimit);
#if ATTN_UNDER_ASAN
        if (underUlimit)
            QSKIP("AddressSanitizer reserves terabytes of address space");
#endif
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("absurd");
        QVERIFY(makeAbsurdModel(dir));
        const QString text = QString("hello world ").repeated(400);
        const int tokens = tokenCount(dir, text);
        QVERIFY(tokens > 100);
        const QString app = QStringLiteral(ATTN_APP_PATH);
        QProcess p;
        if (underUlimit)
            p.start("bash", {"-c", "ulimit -v 2097152 && exec \"$0\" \"$@\"", app, "compute", "--model", dir, "--text", text});
        else
            p.start(app, {"compute", "--model", dir, "--text", text});
        QVERIFY(p.waitForFinished(60000));
        const QString message = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        const qint64 fileBytes = QFileInfo(dir + "/model.safetensors").size();
        const QRegularExpression line(QStringLiteral(
            "^attention-explorer: %1: %2 tokens need about (\\S+ \\S+) \\(weights %3 bytes mapped and (\\S+ GiB) as "
            "floats, activations (\\S+ \\S+), attention (\\S+ \\S+), result (\\S+ \\S+)\\), more than the "
            "(\\S+ \\S+) of %4\\n$").arg(QRegularExpression::escape(dir)).arg(tokens).arg(fileBytes)
            .arg(QRegularExpression::escape(underUlimit ? QStringLiteral("address space left under ulimit -v")
                                                        : availableMemory().what))); // the suite may run under ulimit
        const QRegularExpressionMatch m = line.match(message);
        QVERIFY2(m.hasMatch(), qPrintable(message));
        // 1.68e9 weights as floats: 6.3 GiB; 256 x 256 heads of n x n weights and scores.
        QCOMPARE(m.captured(2), QStringLiteral("6.3 GiB"));
        const double n = tokens, attention = 4.0 * 256 * 256 * n * n * 1; // 256 layers > 8: no scores kept
        QVERIFY2(qAbs(bytesOf(m.captured(4)) / attention - 1) < 0.05, qPrintable(m.captured(4)));
        QVERIFY(bytesOf(m.captured(1)) > bytesOf(m.captured(6)));
        QVERIFY(bytesOf(m.captured(6)) > 0);
        QCOMPARE(p.readAllStandardOutput(), QByteArray());
    }

    // bench keeps no result, but the weights alone (6.3 GiB as floats) do not
    // fit in 2 GiB of address space.
    void benchRefusesWhatCannotFit()
    {
#if ATTN_UNDER_ASAN
        QSKIP("AddressSanitizer reserves terabytes of address space");
#endif
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("absurd");
        QVERIFY(makeAbsurdModel(dir));
        QProcess p;
        p.start("bash", {"-c", "ulimit -v 2097152 && exec \"$0\" \"$@\"", QStringLiteral(ATTN_APP_PATH), "bench",
                         "--model", dir, "--tokens", "3"});
        QVERIFY(p.waitForFinished(60000));
        const QString message = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 2);
        const QRegularExpression line(QStringLiteral(
            "^attention-explorer: %1: 3 tokens need about 6.3 GiB \\(weights \\d+ bytes mapped and 6.3 GiB as floats, "
            "activations \\S+ MiB, attention \\S+ MiB, result 0 bytes\\), more than the \\S+ \\S+ of address space "
            "left under ulimit -v\\n$").arg(QRegularExpression::escape(dir)));
        QVERIFY2(line.match(message).hasMatch(), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestMemoryEstimate)
#include "tst_memoryestimate.moc"
