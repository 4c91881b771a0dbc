// The command line, run as a separate process with no display at all.

#include "formats/resultio.h"
#include "session/session.h"
#include "session/sessionio.h"
#include "testdata.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include "headlessrun.h"

#include <QTest>

namespace {

using Run = HeadlessRun;

// compute and --help must not need a display: every way to one is taken away.
Run runApp(const QStringList &arguments, const QString &workingDirectory = QString())
{
    return runHeadless(QStringLiteral(ATTN_APP_PATH), arguments, workingDirectory);
}

QString data(const char *file) { return QStringLiteral(ATTN_TEST_DATA "/") + QLatin1String(file); }

// True when a JSON matrix holds exactly the numbers of m.
bool sameMatrix(const QJsonValue &json, const Eigen::MatrixXd &m)
{
    const QJsonArray rows = json.toArray();
    if (rows.size() != m.rows())
        return false;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        const QJsonArray row = rows[i].toArray();
        if (row.size() != m.cols())
            return false;
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            if (!row[j].isDouble() || row[j].toDouble() != m(i, j))
                return false;
    }
    return true;
}

bool isOneLine(const QByteArray &text) { return text.endsWith('\n') && text.count('\n') == 1; }

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void compute_data();
    void compute();
    void crossAttentionHandWorked();
    void crossAttentionIgnoresTheCausalMask();
    void outputFile();
    void largeSessionInDouble();
    void helpAndVersion_data();
    void helpAndVersion();
    void failures_data();
    void failures();
    void unwritableOutput();
};

void TestCli::compute_data()
{
    QTest::addColumn<QString>("session");
    QTest::newRow("example (simplified)") << data("example.attn.json");
    QTest::newRow("two heads, causal, sinusoidal") << data("two-heads.attn.json");
    QTest::newRow("cross-attention") << data("cross.attn.json");
}

void TestCli::compute()
{
    QFETCH(QString, session);
    const Run run = runApp({QStringLiteral("compute"), session});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.err, QByteArray());

    QString error;
    const std::optional<attn::Session> s = attn::readSession(session, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    const attn::AttentionResult expected = attn::computeSession(*s);
    QCOMPARE(run.out, attn::resultToJson(*s, expected)); // the very same bytes

    QJsonParseError parseError;
    const QJsonObject root = QJsonDocument::fromJson(run.out, &parseError).object();
    QCOMPARE(parseError.error, QJsonParseError::NoError);
    QCOMPARE(root["format"].toString(), QStringLiteral("attention-explorer-result"));
    QCOMPARE(root["version"].toInt(), 1);
    QCOMPARE(root["tokens"].toVariant().toStringList(), s->tokens);
    QVERIFY(sameMatrix(root["inputs"], expected.inputs));
    QVERIFY(sameMatrix(root["output"], expected.output));
    const QJsonArray heads = root["heads"].toArray();
    QCOMPARE(heads.size(), qsizetype(expected.heads.size()));
    for (qsizetype h = 0; h < heads.size(); ++h) {
        const QJsonObject head = heads[h].toObject();
        const attn::HeadResult &e = expected.heads[std::size_t(h)];
        QVERIFY(sameMatrix(head["queries"], e.queries));
        QVERIFY(sameMatrix(head["keys"], e.keys));
        QVERIFY(sameMatrix(head["values"], e.values));
        QVERIFY(sameMatrix(head["scores"], e.scores.toDouble()));
        QVERIFY(sameMatrix(head["weights"], e.weights.toDouble()));
        QVERIFY(sameMatrix(head["context"], e.context));
    }
}

void TestCli::crossAttentionHandWorked()
{
    // cross.attn.json is case G of tests/data/handworked.py.
    const Run run = runApp({QStringLiteral("compute"), data("cross.attn.json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject head = QJsonDocument::fromJson(run.out).object()["heads"].toArray()[0].toObject();
    const QJsonArray scores = head["scores"].toArray();
    QCOMPARE(scores.size(), qsizetype(3));
    QCOMPARE(scores[0].toArray().size(), qsizetype(2)); // n x m
    QCOMPARE(scores[2].toArray()[1].toDouble(), 4.0);
    const double w01 = head["weights"].toArray()[0].toArray()[1].toDouble();
    QVERIFY(std::fabs(w01 - 0.742816684773193) <= 1e-12);
    const double z10 = head["context"].toArray()[1].toArray()[0].toDouble();
    QVERIFY(std::fabs(z10 - -0.6744038733166422) <= 1e-12);
}

void TestCli::crossAttentionIgnoresTheCausalMask()
{
    // Case G again, with "causal": true asked for: the decoder sees every
    // source token, so the weights are case G's unmasked ones.
    QFile in(data("cross.attn.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject session = QJsonDocument::fromJson(in.readAll()).object();
    QJsonObject attention = session["attention"].toObject();
    attention["causal"] = true;
    session["attention"] = attention;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cross-causal.attn.json"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(session).toJson());
    out.close();

    const Run run = runApp({QStringLiteral("compute"), path});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject result = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(result["causal"].toBool(true), false);
    QCOMPARE(result["cross_attention"].toBool(), true);
    const QJsonObject head = result["heads"].toArray()[0].toObject();
    const double w01 = head["weights"].toArray()[0].toArray()[1].toDouble();
    QVERIFY(std::fabs(w01 - 0.742816684773193) <= 1e-12); // key 1 after query 0, not masked

    // The picture's title does not claim a mask either.
    const QString svg = dir.filePath(QStringLiteral("dash.svg"));
    const Run exported = runApp({QStringLiteral("export"), path, QStringLiteral("-o"), svg,
                                 QStringLiteral("--view"), QStringLiteral("dashboard")});
    QCOMPARE(exported.exitCode, 0);
    QFile picture(svg);
    QVERIFY(picture.open(QIODevice::ReadOnly));
    const QByteArray text = picture.readAll();
    QVERIFY(text.contains("cross-attention"));
    QVERIFY(!text.contains("causal mask"));
}

void TestCli::outputFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("result.json"));
    const Run toFile = runApp({QStringLiteral("compute"), data("two-heads.attn.json"), QStringLiteral("-o"), out});
    QVERIFY2(toFile.exitCode == 0, toFile.err.constData());
    QCOMPARE(toFile.out, QByteArray());
    QCOMPARE(toFile.err, QByteArray());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const Run toStdout = runApp({QStringLiteral("compute"), data("two-heads.attn.json")});
    QCOMPARE(f.readAll(), toStdout.out);

    // The long option, a relative path, and an existing file replaced.
    const Run again = runApp({QStringLiteral("compute"), data("example.attn.json"), QStringLiteral("--output"),
                              QStringLiteral("result.json")},
                             dir.path());
    QCOMPARE(again.exitCode, 0);
    f.close();
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), runApp({QStringLiteral("compute"), data("example.attn.json")}).out);
}

// The window computes a session this large in single precision; a result file
// must still hold the double numbers.
void TestCli::largeSessionInDouble()
{
    const attn::Session s = largeSession();
    QVERIFY(attn::sessionFlops(s) > attn::kFullPrecisionFlops);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.attn.json"));
    QString error;
    QVERIFY2(attn::writeSession(path, s, &error), qPrintable(error));
    const Run run = runApp({QStringLiteral("compute"), path});
    QCOMPARE(run.exitCode, 0);
    const attn::AttentionResult exact = attn::computeSession(s, attn::Precision::Double);
    const QJsonObject head = QJsonDocument::fromJson(run.out).object()["heads"].toArray()[2].toObject();
    // Not bit for bit: this process and the app may run different OpenBLAS
    // kernels (the app picks better ones), which sum in another order. Float
    // would be off by about 1e-7.
    const auto furthest = [](const QJsonValue &json, const Eigen::MatrixXd &m) {
        double most = 0;
        for (Eigen::Index i = 0; i < m.rows(); ++i)
            for (Eigen::Index j = 0; j < m.cols(); ++j)
                most = std::max(most, std::abs(json.toArray()[i].toArray()[j].toDouble() - m(i, j)));
        return most;
    };
    QVERIFY(furthest(head["weights"], exact.heads[2].weights.toDouble()) < 1e-13);
    QVERIFY(furthest(head["scores"], exact.heads[2].scores.toDouble()) < 1e-11);
}

void TestCli::helpAndVersion_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("pattern"); // what stdout must match
    QTest::newRow("--help") << QStringList{"--help"} << "^Usage:\\n.*attention-explorer compute SESSION \\[-o OUT\\]";
    QTest::newRow("-h") << QStringList{"-h"} << "^Usage:\\n.*Exit status: 0 success";
    QTest::newRow("--version") << QStringList{"--version"} << "^attention-explorer \\d+\\.\\d+\\.\\d+\\n$";
    QTest::newRow("compute --help") << QStringList{"compute", "--help"} << "SESSION.*-o, --output <OUT>";
}

void TestCli::helpAndVersion()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, pattern);
    const Run run = runApp(arguments);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QByteArray());
    const QRegularExpression re(pattern, QRegularExpression::DotMatchesEverythingOption);
    QVERIFY2(re.match(QString::fromUtf8(run.out)).hasMatch(), run.out.constData());
}

void TestCli::failures_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("pattern"); // what the one line on stderr must match

    const QString missing = data("no-such-file.attn.json");
    QTest::newRow("missing file") << QStringList{"compute", missing} << 2
                                  << "no-such-file\\.attn\\.json: cannot open: No such file or directory\\n$";
    QTest::newRow("malformed file") << QStringList{"compute", data("bad-ragged.attn.json")} << 2
                                    << ": bad-ragged\\.attn\\.json: embeddings\\[2\\]: expected 3 numbers, got 2\\n$";
    QTest::newRow("not JSON") << QStringList{"compute", data("handworked.py")} << 2
                              << ": handworked\\.py: not valid JSON: .* at byte \\d+\\n$";
    QTest::newRow("result overflows") << QStringList{"compute", data("bad-overflow.attn.json")} << 2
                                      << "bad-overflow\\.attn\\.json: the numbers are too large";
    QTest::newRow("a folder") << QStringList{"compute", QStringLiteral(ATTN_TEST_DATA)} << 2 << "is a folder";
    QTest::newRow("compute without SESSION") << QStringList{"compute"} << 2 << "compute takes one SESSION";
    QTest::newRow("compute with two SESSIONs")
        << QStringList{"compute", data("example.attn.json"), data("cross.attn.json")} << 2 << "compute takes one SESSION";
    QTest::newRow("-o without OUT") << QStringList{"compute", data("example.attn.json"), "-o"} << 2 << "-o";
    QTest::newRow("unknown option of compute") << QStringList{"compute", "--bogus", data("example.attn.json")} << 2
                                               << "bogus";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << 2 << "frobnicate";
    QTest::newRow("unknown option") << QStringList{"--frobnicate"} << 2 << "frobnicate|unexpected arguments";
}

void TestCli::failures()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, pattern);
    const Run run = runApp(arguments);
    QVERIFY2(run.exitCode == exitCode, qPrintable(QStringLiteral("exit %1, stderr: %2")
                                                      .arg(run.exitCode)
                                                      .arg(QString::fromUtf8(run.err))));
    QCOMPARE(run.out, QByteArray());
    QVERIFY2(isOneLine(run.err), run.err.constData());
    QVERIFY2(QRegularExpression(pattern).match(QString::fromUtf8(run.err)).hasMatch(), run.err.constData());
}

void TestCli::unwritableOutput()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("missing/dir/result.json"));
    const Run run = runApp({QStringLiteral("compute"), data("example.attn.json"), QStringLiteral("-o"), out});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.out, QByteArray());
    QVERIFY2(isOneLine(run.err), run.err.constData());
    QVERIFY2(run.err.contains("result.json: cannot write"), run.err.constData());
    QVERIFY(!QFile::exists(out));
    QVERIFY(QDir(dir.path()).isEmpty());
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
