// `attention-explorer export`, run as a separate process with no display at all.

#include "session.h"
#include "sessionio.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "headlessrun.h"

#include <QTest>
#include <QXmlStreamReader>

namespace {

using Run = HeadlessRun;

// Export must not need a display: every way to one is taken away.
Run runProgram(const QString &program, const QStringList &arguments)
{
    return runHeadless(program, arguments);
}

Run runApp(const QStringList &arguments)
{
    return runProgram(QStringLiteral(ATTN_APP_PATH), arguments);
}

QString data(const char *file) { return QStringLiteral(ATTN_TEST_DATA "/") + QLatin1String(file); }

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool isOneLine(const QByteArray &text) { return text.endsWith('\n') && text.count('\n') == 1; }

// RFC 4180: quoted fields may hold commas, doubled quotes and line breaks.
QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row << field;
            field.clear();
        } else if (c == u'\r' || c == u'\n') {
            if (c == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n')
                ++i;
            rows << (row << field);
            row.clear();
            field.clear();
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty())
        rows << (row << field);
    return rows;
}

// All character data of an SVG's elements; empty and `ok` false when it is not well-formed XML.
QString svgText(const QByteArray &svg, bool *ok, QString *viewBox)
{
    QXmlStreamReader xml(svg);
    QString text;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("svg"))
            *viewBox = xml.attributes().value(QLatin1String("viewBox")).toString();
        if (xml.isCharacters())
            text += xml.text().toString() + QLatin1Char('\n');
    }
    *ok = !xml.hasError();
    return text;
}

// Pages in a PDF: "/Type /Page" that is not "/Type /Pages".
int pdfPageCount(const QByteArray &pdf)
{
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?!s)"));
    return int(QString::fromLatin1(pdf).count(page));
}

} // namespace

class TestExportCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void pictures_data();
    void pictures();
    void defaultSizes_data();
    void defaultSizes();
    void csvMatchesCompute_data();
    void csvMatchesCompute();
    void csvQuotesTokens();
    void jsonMatchesCompute();
    void help();
    void failures_data();
    void failures();

private:
    QTemporaryDir m_dir;
    QString m_pdftotext;
};

void TestExportCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    QVERIFY2(!m_pdftotext.isEmpty(), "pdftotext is needed (poppler-utils; scripts/setup.sh installs it)");
}

void TestExportCli::pictures_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QSize>("pixels");      // of the PNG; the SVG and PDF are the layout size
    QTest::addColumn<QStringList>("texts"); // drawn as text, found in every format

    const QStringList tokens{"journey", "starts"};
    const struct
    {
        const char *view;
        QStringList texts;
    } views[] = {{"heatmap", tokens},  {"scores", tokens},           {"pipeline", tokens},
                 {"bars", {"journey"}}, {"heads", {"head 0", "average"}}, {"dashboard", tokens}};
    for (const auto &v : views) {
        for (const char *suffix : {"png", "svg", "pdf"}) {
            QTest::addRow("%s.%s", v.view, suffix)
                << v.view << suffix << QStringList{"--size", "640x480"} << QSize(640, 480) << v.texts;
        }
        QTest::addRow("%s.png scale 2", v.view)
            << v.view << "png" << QStringList{"--size", "500x300", "--scale", "2"} << QSize(1000, 600) << v.texts;
    }
    QTest::newRow("heatmap default size, scale 2")
        << "heatmap" << "png" << QStringList{"--scale", "2"} << QSize(1600, 1400) << tokens;
    QTest::newRow("dark magma heatmap")
        << "heatmap" << "svg" << QStringList{"--dark", "--colormap", "magma", "--size", "640x480"} << QSize(640, 480)
        << tokens;
}

void TestExportCli::pictures()
{
    QFETCH(QString, view);
    QFETCH(QString, suffix);
    QFETCH(QStringList, extra);
    QFETCH(QSize, pixels);
    QFETCH(QStringList, texts);
    const QString out = m_dir.filePath(QStringLiteral("%1-%2.%3").arg(view, QTest::currentDataTag()).arg(suffix)
                                           .replace(QLatin1Char(' '), QLatin1Char('_')).replace(QLatin1Char(','), QLatin1Char('_')));
    const Run run = runApp(QStringList{"export", data("example.attn.json"), "-o", out, "--view", view} + extra);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.isEmpty(), run.err.constData());
    const QByteArray bytes = readAll(out);
    QVERIFY(!bytes.isEmpty());
    const double scale = extra.contains("--scale") ? extra[extra.indexOf("--scale") + 1].toDouble() : 1.0;
    const QSize layout = (QSizeF(pixels) / scale).toSize();

    if (suffix == QLatin1String("png")) {
        QImage image;
        QVERIFY(image.loadFromData(bytes, "PNG"));
        QCOMPARE(image.size(), pixels);
    } else if (suffix == QLatin1String("svg")) {
        bool ok = false;
        QString viewBox;
        const QString text = svgText(bytes, &ok, &viewBox);
        QVERIFY2(ok, "the SVG is not well-formed XML");
        QCOMPARE(viewBox, QStringLiteral("0 0 %1 %2").arg(layout.width()).arg(layout.height()));
        for (const QString &t : texts)
            QVERIFY2(text.contains(t), qPrintable(t));
        // The cells of a six-token matrix are vectors, never an embedded bitmap.
        QVERIFY(!bytes.contains("<image"));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
        QCOMPARE(pdfPageCount(bytes), 1);
        const QRegularExpression mediaBox(QStringLiteral("/MediaBox \\[0 0 ([\\d.]+) ([\\d.]+)\\]"));
        const QRegularExpressionMatch box = mediaBox.match(QString::fromLatin1(bytes));
        QVERIFY(box.hasMatch());
        QCOMPARE(box.captured(1).toDouble(), double(layout.width()));
        QCOMPARE(box.captured(2).toDouble(), double(layout.height()));
        const Run text = runProgram(m_pdftotext, {out, QStringLiteral("-")});
        QCOMPARE(text.exitCode, 0);
        for (const QString &t : texts)
            QVERIFY2(QString::fromUtf8(text.out).contains(t), qPrintable(t + QStringLiteral(" in ") + text.out));
    }
}

void TestExportCli::defaultSizes_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QSize>("largest");
    QTest::addColumn<bool>("exact"); // false: fitted to the content, never larger
    QTest::newRow("heatmap") << "heatmap" << QSize(800, 700) << true;
    QTest::newRow("scores") << "scores" << QSize(800, 700) << true;
    QTest::newRow("bars") << "bars" << QSize(900, 420) << true;
    QTest::newRow("dashboard") << "dashboard" << QSize(1600, 1000) << true;
    QTest::newRow("pipeline") << "pipeline" << QSize(900, 420) << false;
    QTest::newRow("heads") << "heads" << QSize(900, 700) << false;
}

void TestExportCli::defaultSizes()
{
    QFETCH(QString, view);
    QFETCH(QSize, largest);
    QFETCH(bool, exact);
    const QString out = m_dir.filePath(view + QStringLiteral("-default.png"));
    const Run run = runApp({"export", data("example.attn.json"), "-o", out, "--view", view});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QImage image(out);
    QVERIFY(!image.isNull());
    if (exact) {
        QCOMPARE(image.size(), largest);
    } else {
        QVERIFY(image.width() <= largest.width() && image.height() <= largest.height());
        QVERIFY(image.width() >= 200 && image.height() >= 120);
    }
}

void TestExportCli::csvMatchesCompute_data()
{
    QTest::addColumn<QString>("session");
    QTest::addColumn<QString>("view");
    QTest::addColumn<int>("head");
    for (const char *file : {"example.attn.json", "cross.attn.json", "two-heads.attn.json"}) {
        for (const char *view : {"heatmap", "scores"}) {
            QTest::addRow("%s %s", file, view) << file << view << 0;
            if (QByteArray(file).startsWith("two-heads"))
                QTest::addRow("%s %s head 1", file, view) << file << view << 1;
        }
    }
}

void TestExportCli::csvMatchesCompute()
{
    QFETCH(QString, session);
    QFETCH(QString, view);
    QFETCH(int, head);
    const QString out = m_dir.filePath(QStringLiteral("numbers.csv"));
    const QString path = data(session.toLatin1().constData());
    const Run run = runApp({"export", path, "-o", out, "--view", view, "--head", QString::number(head)});
    QVERIFY2(run.exitCode == 0, run.err.constData());

    QString error;
    const std::optional<attn::Session> s = attn::readSession(path, &error);
    QVERIFY2(s, qPrintable(error));
    const attn::AttentionResult result = attn::computeSession(*s);
    const Eigen::MatrixXd m = view == QLatin1String("scores") ? result.heads[size_t(head)].scores.toDouble()
                                                              : result.heads[size_t(head)].weights.toDouble();
    const QStringList keys = s->source ? s->source->tokens : s->tokens;
    const QList<QStringList> rows = parseCsv(QString::fromUtf8(readAll(out)));
    QCOMPARE(rows.size(), int(m.rows()) + 1);
    QCOMPARE(rows[0].mid(1), keys);
    for (int r = 0; r < m.rows(); ++r) {
        QCOMPARE(rows[r + 1].size(), int(m.cols()) + 1);
        QCOMPARE(rows[r + 1][0], s->tokens[r]);
        for (int c = 0; c < m.cols(); ++c) {
            bool ok = false;
            const double value = rows[r + 1][c + 1].toDouble(&ok);
            QVERIFY(ok);
            QVERIFY2(value == m(r, c), qPrintable(rows[r + 1][c + 1])); // exactly: read back the same double
        }
    }
}

void TestExportCli::csvQuotesTokens()
{
    attn::Session s = attn::exampleSession();
    s.sentence.clear();
    s.tokens = QStringList{"He", ",", "said", "\"", "hi \"there\"", "a,b"};
    const QString sessionPath = m_dir.filePath(QStringLiteral("quotes.attn.json"));
    QString error;
    QVERIFY2(attn::writeSession(sessionPath, s, &error), qPrintable(error));
    const QString out = m_dir.filePath(QStringLiteral("quotes.csv"));
    const Run run = runApp({"export", sessionPath, "-o", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QList<QStringList> rows = parseCsv(QString::fromUtf8(readAll(out)));
    QCOMPARE(rows.size(), 7);
    QCOMPARE(rows[0].mid(1), s.tokens);
    for (int r = 0; r < 6; ++r)
        QCOMPARE(rows[r + 1][0], s.tokens[r]);
}

void TestExportCli::jsonMatchesCompute()
{
    for (const char *file : {"example.attn.json", "two-heads.attn.json", "cross.attn.json"}) {
        const QString out = m_dir.filePath(QStringLiteral("result.json"));
        const Run exported = runApp({"export", data(file), "-o", out, "--view", "dashboard"});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        const Run computed = runApp({"compute", data(file)});
        QCOMPARE(computed.exitCode, 0);
        QCOMPARE(readAll(out), computed.out);
    }
}

void TestExportCli::help()
{
    const Run usage = runApp({"--help"});
    QCOMPARE(usage.exitCode, 0);
    QVERIFY(usage.out.contains("attention-explorer export SESSION -o OUT"));
    const Run exportHelp = runApp({"export", "--help"});
    QCOMPARE(exportHelp.exitCode, 0);
    QVERIFY(exportHelp.out.contains("--view"));
    QVERIFY(exportHelp.out.contains("--colormap"));
}

void TestExportCli::failures_data()
{
    QTest::addColumn<QStringList>("arguments"); // OUT is appended as "-o OUT"
    QTest::addColumn<QString>("out");           // relative to the temporary directory
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("pattern"); // what the one line on stderr must match

    const QString example = data("example.attn.json");
    QTest::newRow("unknown suffix") << QStringList{"export", example} << "out.xyz" << 2
                                    << "out\\.xyz: unknown file type; use \\.png, \\.svg, \\.pdf, \\.csv or \\.json\\n$";
    QTest::newRow("unknown view") << QStringList{"export", example, "--view", "nope"} << "out.png" << 2
                                  << "--view nope: unknown view";
    QTest::newRow("head out of range") << QStringList{"export", example, "--head", "5"} << "out.png" << 2
                                       << "out\\.png: head 5 does not exist";
    QTest::newRow("head not a number") << QStringList{"export", example, "--head", "x"} << "out.png" << 2
                                       << "--head x: expected";
    QTest::newRow("query out of range") << QStringList{"export", example, "--query", "6"} << "out.svg" << 2
                                        << "out\\.svg: query 6 does not exist";
    QTest::newRow("bad size") << QStringList{"export", example, "--size", "800"} << "out.png" << 2
                              << "--size 800: expected WxH";
    QTest::newRow("size too small") << QStringList{"export", example, "--size", "4x4"} << "out.pdf" << 2
                                    << "out\\.pdf: size 4x4 out of range";
    QTest::newRow("bad scale") << QStringList{"export", example, "--scale", "0"} << "out.png" << 2
                               << "out\\.png: scale 0 out of range";
    QTest::newRow("unknown colour map") << QStringList{"export", example, "--colormap", "jet"} << "out.png" << 2
                                        << "--colormap jet: unknown colour map";
    QTest::newRow("malformed session") << QStringList{"export", data("bad-ragged.attn.json")} << "out.png" << 2
                                       << "bad-ragged\\.attn\\.json: embeddings\\[2\\]: expected 3 numbers, got 2\\n$";
    QTest::newRow("missing directory") << QStringList{"export", example} << "no-such-dir/out.png" << 1
                                       << "out\\.png: cannot write";
    QTest::newRow("missing directory, csv") << QStringList{"export", example} << "no-such-dir/out.csv" << 1
                                            << "out\\.csv: cannot write";
    QTest::newRow("OUT is a directory") << QStringList{"export", example} << "folder.pdf" << 1
                                        << "folder\\.pdf: cannot write";
}

void TestExportCli::failures()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, out);
    QFETCH(int, exitCode);
    QFETCH(QString, pattern);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.pdf")));
    const QString path = dir.filePath(out);

    // Without a file in the way, and with one: a failed export leaves it as it was.
    for (const bool existing : {false, true}) {
        const QByteArray old = "an earlier export\n";
        const bool canPlace = existing && !QFileInfo(path).isDir() && QFileInfo(path).dir().exists();
        if (canPlace) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(old);
        }
        const Run run = runApp(arguments + QStringList{"-o", path});
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(isOneLine(run.err), run.err.constData());
        QVERIFY2(QRegularExpression(pattern).match(QString::fromUtf8(run.err)).hasMatch(), run.err.constData());
        QVERIFY(run.out.isEmpty());
        if (canPlace)
            QCOMPARE(readAll(path), old);
        else if (!QFileInfo(path).isDir())
            QVERIFY(!QFileInfo::exists(path));
        // Nothing else either: no temporary file of QSaveFile left behind.
        const QStringList left = QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot);
        QCOMPARE(left, canPlace ? QStringList{QFileInfo(path).fileName()} : QStringList());
        if (canPlace)
            QFile::remove(path);
    }
}

QTEST_GUILESS_MAIN(TestExportCli)
#include "tst_exportcli.moc"
