// export --model (contract section 6) run as a separate process with no
// display on the tiny checkpoints of tests/data/models: .json is the compute
// --model result, pictures have the size asked, .csv holds the numbers of
// make_fixtures.py (numpy), and an unwritable path leaves nothing behind.

#include "climodelfixture.h"

#include <QTest>

using namespace climodel;

class TestCliModelExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void exportJsonIsTheResult_data();
    void exportJsonIsTheResult();
    void exportPicture_data();
    void exportPicture();
    void exportCsv_data();
    void exportCsv();
    void exportUnwritable();

private:
    QTemporaryDir m_dir;
    QJsonObject m_cli;
};

void TestCliModelExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_cli = fixtures::cliExpected();
    for (const char *f : {"gpt2-f32", "bert-f32"})
        makeModel(m_dir, QLatin1String(f));
}

void TestCliModelExport::exportJsonIsTheResult_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QStringList>("more");
    QTest::newRow("gpt2") << "gpt2-f32" << QStringList{};
    QTest::newRow("gpt2, layer and head make no difference") << "gpt2-f32" << QStringList{"--layer", "1", "--head", "2"};
    QTest::newRow("bert with the MLM head") << "bert-f32" << QStringList{};
}

// .json is byte for byte the compute --model result, whichever view or head.
void TestCliModelExport::exportJsonIsTheResult()
{
    QFETCH(QString, fixture);
    QFETCH(QStringList, more);
    const QString model = m_dir.filePath(fixture);
    const QString text = m_cli[fixture.section('-', 0, 0)].toObject()["text"].toString();
    const Run compute = runApp(computeArgs(model, text));
    QVERIFY2(compute.exitCode == 0, compute.err.constData());
    const QString out = m_dir.filePath(fixture + "-export.json");
    const Run run = runApp(QStringList{"export", "--model", model, "--text", text, "-o", out} + more);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.isEmpty() && run.err.isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), compute.out);
}

void TestCliModelExport::exportPicture_data()
{
    QTest::addColumn<QStringList>("more");
    QTest::addColumn<QSize>("size"); // in pixels
    QTest::newRow("heatmap of layer 1 head 0, the default size") << QStringList{"--layer", "1", "--head", "0"}
                                                                 << QSize(800, 700);
    QTest::newRow("scores, 300x200 at scale 2") << QStringList{"--layer", "1", "--head", "0", "--view", "scores",
                                                               "--size", "300x200", "--scale", "2"}
                                                << QSize(600, 400);
    QTest::newRow("the average, dark") << QStringList{"--head", "average", "--dark", "--size", "400x300"}
                                       << QSize(400, 300);
    QTest::newRow("the layers x heads grid") << QStringList{"--layer", "1", "--head", "2", "--view", "heads",
                                                           "--size", "500x340"}
                                             << QSize(500, 340);
    for (const char *view : {"pipeline", "bars", "dashboard"})
        QTest::newRow(view) << QStringList{"--layer", "1", "--head", "-1", "--view", view, "--size", "700x500",
                                           "--transparent"}
                            << QSize(700, 500);
}

void TestCliModelExport::exportPicture()
{
    QFETCH(QStringList, more);
    QFETCH(QSize, size);
    const QString out = m_dir.filePath(QStringLiteral("picture-%1.png").arg(QTest::currentDataTag()).replace(' ', '_'));
    const Run run = runApp(exportArgs(m_dir.filePath("gpt2-f32"), out, more));
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.isEmpty() && run.err.isEmpty());
    QCOMPARE(pngSize(out), size);
}

void TestCliModelExport::exportCsv_data()
{
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("head");
    QTest::newRow("layer 1 head 0") << 1 << 0;
    QTest::newRow("layer 0 head 2") << 0 << 2;
    QTest::newRow("layer 1, the average") << 1 << -1;
}

// The shown head's weights against make_fixtures.py's (numpy), within 1e-5.
void TestCliModelExport::exportCsv()
{
    QFETCH(int, layer);
    QFETCH(int, head);
    const QString out = m_dir.filePath(QStringLiteral("weights-%1-%2.csv").arg(layer).arg(head));
    const Run run = runApp(exportArgs(m_dir.filePath("gpt2-f32"), out,
                                      {"--layer", QString::number(layer), "--head", QString::number(head)}));
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonArray heads = fixtures::expected("gpt2")["layers"].toArray()[layer].toObject()["heads"].toArray();
    attn::RowMatrix<double> expected = fixtures::matrix(heads[std::max(head, 0)].toObject()["weights"]);
    if (head < 0) {
        for (int h = 1; h < heads.size(); ++h)
            expected += fixtures::matrix(heads[h].toObject()["weights"]);
        expected /= double(heads.size());
    }
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    const int n = int(expected.rows());
    QCOMPARE(lines.size(), n + 1); // the keys' header, then one row per query
    attn::RowMatrix<double> actual(n, n);
    for (int r = 0; r < n; ++r) {
        // The numbers are the last n fields: a token label may hold a quoted comma.
        const QStringList fields = lines[r + 1].split(',');
        QVERIFY(fields.size() > n);
        for (int c = 0; c < n; ++c) {
            bool ok = false;
            actual(r, c) = fields[fields.size() - n + c].toDouble(&ok);
            QVERIFY(ok);
        }
    }
    const QString why = fixtures::difference(actual, expected, 1e-5);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestCliModelExport::exportUnwritable()
{
    for (const char *name : {"missing-folder/grid.png", "missing-folder/weights.csv", "missing-folder/result.json"}) {
        const QString out = m_dir.filePath(QLatin1String(name));
        const Run run = runApp(exportArgs(m_dir.filePath("gpt2-f32"), out, {"--view", "heads"}));
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.startsWith("attention-explorer: ") && run.err.count('\n') == 1);
        QVERIFY(!QFileInfo::exists(out));
        QVERIFY(!QFileInfo::exists(m_dir.filePath("missing-folder")));
    }
}

QTEST_GUILESS_MAIN(TestCliModelExport)
#include "tst_cli_modelexport.moc"
