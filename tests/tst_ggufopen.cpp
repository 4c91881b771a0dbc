// Opening GGUF files through every entry point of the command line, as a
// separate process: compute --model on each converted family file and each
// quantised file gives tests/data/gguf/expected.json's numbers (the folder's
// own, from ../families/expected.json, where the file converts a folder
// exactly), with model.format naming the file's main type; tokenize, export
// and bench --model take a GGUF file; every hostile file of hostile.json is
// refused with exit 2 and one line holding its words, under a 4 GiB
// address-space limit; each ggml block type dequantises bit for bit to
// blocks.json (ggml's own floats); resolveModel tells GGUF files from folders.

#include "io/ggmltypes.h"
#include "io/gguffile.h"
#include "io/modelfolder.h"
#include "sanitized.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>

using namespace attn;

namespace {

const QString kGguf = QStringLiteral(ATTN_TEST_DATA "/gguf/");

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QJsonDocument::fromJson(f.readAll()).object();
}

struct Run
{
    int exitCode = -1;
    QByteArray out, err;
};

// The program with no display, its address space limited to `addressSpaceKiB`
// when given: through bash's `ulimit -v`, as tst_memoryestimate does, so the
// limit is set where the shell sets it rather than in a forked copy of this
// test. A child that does not exit normally leaves its reason in `err`.
Run runApp(const QStringList &arguments, int addressSpaceKiB = 0)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
#if ATTN_UNDER_ASAN
    // AddressSanitizer reserves terabytes of address space for its shadow, so
    // no ulimit -v can hold it; its allocator enforces the same bound instead:
    // any one allocation above the limit, or a resident size above it, aborts.
    if (addressSpaceKiB > 0) {
        const int mib = addressSpaceKiB / 1024;
        env.insert(QStringLiteral("ASAN_OPTIONS"),
                   env.value(QStringLiteral("ASAN_OPTIONS"))
                       + QStringLiteral(":max_allocation_size_mb=%1:hard_rss_limit_mb=%1").arg(mib));
        addressSpaceKiB = 0;
    }
#endif
    QProcess p;
    p.setProcessEnvironment(env);
    if (addressSpaceKiB > 0)
        p.start(QStringLiteral("bash"),
                QStringList{QStringLiteral("-c"),
                            QStringLiteral("ulimit -v %1 && exec \"$0\" \"$@\"").arg(addressSpaceKiB),
                            QStringLiteral(ATTN_APP_PATH)}
                    + arguments);
    else
        p.start(QStringLiteral(ATTN_APP_PATH), arguments);
    Run run;
    const bool finished = p.waitForFinished(120000);
    if (!finished) {
        p.kill();
        p.waitForFinished();
    }
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    if (finished && p.exitStatus() == QProcess::NormalExit)
        run.exitCode = p.exitCode();
    else
        run.err += QStringLiteral("[%1: %2]\n").arg(finished ? "crashed" : "no exit within 120 s", p.errorString()).toUtf8();
    return run;
}

// 4 GiB, in the KiB that ulimit -v takes.
constexpr int kFourGiB = 4 * 1024 * 1024;

// The expected numbers of a file: its own, or its folder's.
QJsonObject expectedFor(const QString &file)
{
    const QJsonObject e = readJson(kGguf + "expected.json")["files"].toObject()[file].toObject();
    if (!e["same_as_folder"].toBool())
        return e;
    for (const QJsonValue &c : readJson(QStringLiteral(ATTN_TEST_DATA "/families/expected.json"))["cases"].toObject())
        if (c["folders"].toObject().contains(e["folder"].toString()))
            return c.toObject();
    return {};
}

// Largest |a - b| / max(1, |b|) over two equally shaped matrices of JSON
// numbers (scores grow with the width of q and k); infinity when the shapes differ.
double largestDifference(const QJsonValue &a, const QJsonValue &b)
{
    const QJsonArray ra = a.toArray(), rb = b.toArray();
    if (ra.size() != rb.size())
        return INFINITY;
    double worst = 0;
    for (qsizetype i = 0; i < ra.size(); ++i) {
        const QJsonArray ca = ra[i].toArray(), cb = rb[i].toArray();
        if (ca.size() != cb.size())
            return INFINITY;
        for (qsizetype j = 0; j < ca.size(); ++j)
            worst = std::max(worst, std::abs(ca[j].toDouble() - cb[j].toDouble()) / std::max(1.0, std::abs(cb[j].toDouble())));
    }
    return worst;
}

// The top entries of a result's next_token against the reference's probabilities.
void compareTop(const QJsonObject &result, const QJsonObject &next)
{
    const QJsonArray probabilities = next["probabilities"].toArray();
    QCOMPARE(result["position"].toInt(), next["position"].toInt());
    const QJsonArray top = result["top"].toArray();
    QVERIFY(top.size() >= 3);
    double previous = 1;
    for (const QJsonValue &t : top) {
        const double p = t["probability"].toDouble();
        QVERIFY2(std::abs(p - probabilities[t["id"].toInt()].toDouble()) < 2e-5, qPrintable(t["token"].toString()));
        QVERIFY(p <= previous);
        previous = p;
    }
    // No token left out is more probable than the last one shown.
    int above = 0;
    for (const QJsonValue &p : probabilities)
        above += p.toDouble() > previous + 2e-5;
    QVERIFY(above < top.size());
}

QString formatOf(const QString &file)
{
    if (file.startsWith(QLatin1String("quantised/llama")))
        return QStringLiteral("gguf-Q4_K");
    if (file.startsWith(QLatin1String("quantised/qwen2")))
        return QStringLiteral("gguf-Q8_0");
    return QStringLiteral("gguf-F32"); // the families' F32 conversions, of F16 and BF16 folders too
}

// blocks.json's values of one type, read from the text: Qt's JSON keeps a
// number that is a whole number as an integer, which loses the sign of -0.0
// (a Q4_0 zero nibble times a negative scale), and -0.0 is what ggml gives.
std::vector<std::vector<double>> blockValues(const QString &type)
{
    QFile f(kGguf + "blocks/blocks.json");
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read blocks.json");
    const QByteArray text = f.readAll();
    const qsizetype types = text.indexOf("\"types\"");
    const qsizetype entry = text.indexOf("\"" + type.toLatin1() + "\":", types);
    qsizetype at = text.indexOf('[', text.indexOf("\"values\"", entry));
    std::vector<std::vector<double>> rows;
    int depth = 0;
    QByteArray number;
    for (; at < text.size(); ++at) {
        const char c = text[at];
        if (c == '[' || c == ']' || c == ',') {
            if (!number.trimmed().isEmpty())
                rows.back().push_back(number.trimmed().toDouble());
            number.clear();
            if (c == '[' && ++depth == 2)
                rows.emplace_back();
            if (c == ']' && --depth == 0)
                break;
        } else {
            number += c;
        }
    }
    return rows;
}

} // namespace

class TestGgufOpen : public QObject
{
    Q_OBJECT

private slots:
    void computeGivesTheNumbers_data()
    {
        QTest::addColumn<QString>("file");
        const QJsonObject files = readJson(kGguf + "expected.json")["files"].toObject();
        for (auto it = files.begin(); it != files.end(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.key();
        QCOMPARE(files.size(), 14);
    }

    void computeGivesTheNumbers()
    {
        QFETCH(QString, file);
        const QJsonObject e = expectedFor(file);
        QVERIFY(!e.isEmpty());
        const QString text = readJson(kGguf + "expected.json")["text"].toString();
        const Run run = runApp({"compute", "--model", kGguf + file, "--text", text, "--top", "5"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject result = QJsonDocument::fromJson(run.out).object();
        const QJsonObject model = result["model"].toObject(), shape = e["model"].toObject();
        QCOMPARE(model["format"].toString(), formatOf(file));
        for (const char *key : {"layers", "heads", "kv_heads", "head_dim", "d_model"})
            QCOMPARE(model[key].toInt(), shape[key].toInt());
        QCOMPARE(result["token_ids"].toArray(), e["token_ids"].toArray());
        const QJsonArray layers = result["layers"].toArray(), expected = e["layers"].toArray();
        QCOMPARE(layers.size(), expected.size());
        for (qsizetype l = 0; l < layers.size(); ++l) {
            const QJsonArray heads = layers[l]["heads"].toArray(), want = expected[l]["heads"].toArray();
            QCOMPARE(heads.size(), want.size());
            for (qsizetype h = 0; h < heads.size(); ++h) {
                // Float32 against a float64 reference, as tst_families compares them.
                QVERIFY2(largestDifference(heads[h]["weights"], want[h]["weights"]) < 2e-5, qPrintable(QString::number(l)));
                QVERIFY2(largestDifference(heads[h]["scores"], want[h]["scores"]) < 1e-4, qPrintable(QString::number(l)));
            }
        }
        compareTop(result["next_token"].toObject(), e["next_token"].toObject());

        // A switched-off head: the next token as the reference has it.
        const QJsonObject ablated = e["ablated"].toObject();
        const QString head = QStringLiteral("%1:%2").arg(ablated["layer"].toInt()).arg(ablated["head"].toInt());
        const Run off = runApp({"compute", "--model", kGguf + file, "--text", text, "--ablate", head});
        QVERIFY2(off.exitCode == 0, off.err.constData());
        compareTop(QJsonDocument::fromJson(off.out).object()["next_token"].toObject(), ablated["next_token"].toObject());
    }

    void hostileFilesAreRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("words");
        const QJsonArray files = readJson(kGguf + "hostile/hostile.json")["files"].toArray();
        for (const QJsonValue &f : files)
            QTest::newRow(qPrintable(f["file"].toString())) << f["file"].toString() << f["words"].toVariant().toStringList();
        QVERIFY(files.size() >= 30);
    }

    void hostileFilesAreRefused()
    {
        // Exit 2 and one line whose words (after the file's name, which
        // would give "truncated" away) are hostile.json's, under ulimit -v 4 GiB.
        QFETCH(QString, file);
        QFETCH(QStringList, words);
        const Run run = runApp({"compute", "--model", kGguf + "hostile/" + file, "--text", "the cat"}, kFourGiB);
        QVERIFY2(run.exitCode == 2, run.err.constData());
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.count('\n'), 1);
        const QString prefix = QStringLiteral("attention-explorer: ") + file + QStringLiteral(": ");
        const QString line = QString::fromUtf8(run.err).trimmed();
        QVERIFY2(line.startsWith(prefix), qPrintable(line));
        for (const QString &w : words)
            QVERIFY2(line.mid(prefix.size()).contains(w, Qt::CaseInsensitive), qPrintable(line));
    }

    void theHostileFilesBaseOpens()
    {
        // Each hostile file breaks one rule of base.gguf, which computes under the same limit.
        const Run run = runApp({"compute", "--model", kGguf + "hostile/base.gguf", "--text", "the cat"}, kFourGiB);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(QJsonDocument::fromJson(run.out).object()["model"].toObject()["format"].toString(), QStringLiteral("gguf-Q8_0"));
    }

    void blocksBitForBit_data()
    {
        QTest::addColumn<QString>("type");
        const QJsonObject types = readJson(kGguf + "blocks/blocks.json")["types"].toObject();
        for (auto it = types.begin(); it != types.end(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.key();
        QCOMPARE(types.size(), 13);
    }

    void blocksBitForBit()
    {
        QFETCH(QString, type);
        const QJsonObject t = readJson(kGguf + "blocks/blocks.json")["types"].toObject()[type].toObject();
        QString error;
        const std::optional<GgufFile> file = GgufFile::open(kGguf + "blocks/" + t["file"].toString(), &error);
        QVERIFY2(file, qPrintable(error));
        const GgufTensor *tensor = file->findTensor(t["tensor"].toString());
        QVERIFY(tensor);
        QCOMPARE(int(tensor->type), t["type"].toInt());
        QCOMPARE(QLatin1String(ggmlTypeInfo(quint32(tensor->type))->name), type);
        const std::vector<std::vector<double>> rows = blockValues(type);
        QCOMPARE(tensor->rows(), qint64(rows.size()));
        const qint64 cols = tensor->dims[0];
        const qint64 blocks = cols / t["block_elements"].toInt();
        for (qint64 r = 0; r < tensor->rows(); ++r) {
            std::vector<float> out(static_cast<std::size_t>(cols));
            qint64 bad = -1;
            QVERIFY(dequantizeBlocks(tensor->type, file->data(*tensor) + r * tensor->rowBytes, blocks, out.data(), &bad));
            const std::vector<double> &want = rows[std::size_t(r)];
            QCOMPARE(qint64(want.size()), cols);
            for (qint64 i = 0; i < cols; ++i) {
                const float expected = float(want[std::size_t(i)]);
                QVERIFY2(std::memcmp(&out[std::size_t(i)], &expected, sizeof(float)) == 0,
                         qPrintable(QStringLiteral("row %1, value %2: %3, expected %4").arg(r).arg(i)
                                        .arg(double(out[std::size_t(i)]), 0, 'g', 9).arg(double(expected), 0, 'g', 9)));
            }
        }
    }

    void otherCommands()
    {
        QTemporaryDir dir;
        const QString llama = kGguf + "families/llama.gguf";
        const Run tokens = runApp({"tokenize", "--model", llama, "--text", "The robot"});
        QCOMPARE(tokens.exitCode, 0);
        QCOMPARE(tokens.out, QByteArray(R"({"token_ids":[288,257,262],"tokens":["<|begin_of_text|>","The"," robot"]})" "\n"));
        const QString png = dir.filePath("heads.png");
        const Run picture = runApp({"export", "--model", kGguf + "quantised/qwen2-q8_0.gguf", "--text", "The robot moved",
                                    "-o", png, "--view", "heads"});
        QVERIFY2(picture.exitCode == 0, picture.err.constData());
        QFile written(png);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.read(8) == "\x89PNG\r\n\x1a\n");
        const Run bench = runApp({"bench", "--model", kGguf + "quantised/llama-q4_k_m.gguf", "--tokens", "16", "--repeat", "1"});
        QVERIFY2(bench.exitCode == 0, bench.err.constData());
        const QJsonObject timing = QJsonDocument::fromJson(bench.out).object();
        QCOMPARE(timing["tokens"].toInt(), 16);
        QCOMPARE(timing["layers"].toInt(), 2);
        QVERIFY(timing["median_ms"].toDouble() > 0);
        // The position limit is named where it comes from.
        const Run tooLong = runApp({"bench", "--model", kGguf + "families/phi3.gguf", "--tokens", "5000"});
        QCOMPARE(tooLong.exitCode, 2);
        QCOMPARE(tooLong.err, QByteArray("attention-explorer: --tokens 5000: the model takes at most 4096 "
                                         "(phi3.context_length in phi3.gguf)\n"));
    }

    void resolvesModelForms()
    {
        QTemporaryDir dir;
        QString error;
        // A .gguf file, and an Ollama-style blob without suffix that starts with "GGUF".
        const std::optional<ModelFiles> gguf = resolveModel(kGguf + "families/qwen2.gguf", &error);
        QVERIFY2(gguf, qPrintable(error));
        QVERIFY(gguf->isGguf());
        QCOMPARE(gguf->weightsFile(), QFileInfo(kGguf + "families/qwen2.gguf").absoluteFilePath());
        QVERIFY(gguf->config.isEmpty());
        const QString blob = dir.filePath("sha256-0123");
        QVERIFY(QFile::copy(kGguf + "families/qwen2.gguf", blob));
        QVERIFY(isGgufFile(blob));
        QCOMPARE(resolveModel(blob, &error)->gguf, blob);
        const Run run = runApp({"tokenize", "--model", blob, "--text", "The robot"});
        QCOMPARE(run.exitCode, 0);
        // Any other file is neither.
        const QString notes = dir.filePath("notes.txt");
        QFile f(notes);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("hello");
        f.close();
        QVERIFY(!isGgufFile(notes));
        QVERIFY(!resolveModel(notes, &error));
        QCOMPARE(error, QDir::toNativeSeparators(notes) + ": not a model folder or a GGUF file");
        // A folder is a folder, as before.
        const std::optional<ModelFiles> folder = resolveModel(QStringLiteral(ATTN_TEST_DATA "/families/llama"), &error);
        QVERIFY2(folder, qPrintable(error));
        QVERIFY(!folder->isGguf());
        QVERIFY(folder->config.endsWith("config.json"));
        QCOMPARE(folder->weightsFile(), folder->weights);
    }
};

QTEST_GUILESS_MAIN(TestGgufOpen)
#include "tst_ggufopen.moc"
