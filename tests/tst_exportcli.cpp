// `attention-explorer export`, run as a separate process with no display at all.

#include "session/session.h"
#include "session/sessionio.h"

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
#include <cmath>

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

// The example sentence with `heads` heads of width 2, weights from seed 7.
QString writeMultiHeadSession(const QString &dir, int heads)
{
    attn::Session s = attn::exampleSession();
    s.attention.mode = attn::Mode::ScaledDotProduct;
    s.attention.heads = heads;
    s.attention.headDim = 2;
    s.attention.scale = true;
    s.attention.outputProjection = true;
    s.attention.seed = 7;
    const QString path = QDir(dir).filePath(QStringLiteral("heads%1.attn.json").arg(heads));
    QString error;
    return attn::writeSession(path, s, &error) ? path : QString();
}

QStringList filesIn(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
}

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
    void eachHead_data();
    void eachHead();
    void eachHeadAllOrNothing();
    void transparentPng();
    void transparentSvg();

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
                 {"bars", {"journey"}}, {"heads", {"head 0", "journey", "starts", "weight"}}, {"dashboard", tokens}};
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
    QTest::addColumn<QString>("head"); // as typed after --head
    for (const char *file : {"example.attn.json", "cross.attn.json", "two-heads.attn.json"}) {
        for (const char *view : {"heatmap", "scores"}) {
            QTest::addRow("%s %s", file, view) << file << view << "0";
            if (QByteArray(file).startsWith("two-heads")) {
                QTest::addRow("%s %s head 1", file, view) << file << view << "1";
                QTest::addRow("%s %s average", file, view) << file << view << "average";
                QTest::addRow("%s %s head -1", file, view) << file << view << "-1"; // the average too
            }
        }
    }
}

void TestExportCli::csvMatchesCompute()
{
    QFETCH(QString, session);
    QFETCH(QString, view);
    QFETCH(QString, head);
    const QString out = m_dir.filePath(QStringLiteral("numbers.csv"));
    const QString path = data(session.toLatin1().constData());
    const Run run = runApp({"export", path, "-o", out, "--view", view, "--head", head});
    QVERIFY2(run.exitCode == 0, run.err.constData());

    QString error;
    const std::optional<attn::Session> s = attn::readSession(path, &error);
    QVERIFY2(s, qPrintable(error));
    const attn::AttentionResult result = attn::computeSession(*s);
    const bool scores = view == QLatin1String("scores");
    const auto headMatrix = [&](std::size_t h) {
        return scores ? result.heads[h].scores.toDouble() : result.heads[h].weights.toDouble();
    };
    const bool average = head == QLatin1String("average") || head == QLatin1String("-1");
    // The average: the per-cell mean of the heads, summed here.
    Eigen::MatrixXd m = headMatrix(average ? 0 : std::size_t(head.toInt()));
    if (average) {
        for (std::size_t h = 1; h < result.heads.size(); ++h)
            m += headMatrix(h);
        m /= double(result.heads.size());
        QVERIFY((m - headMatrix(1)).cwiseAbs().maxCoeff() > 1e-3); // the average is no head
    }
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
            // Exactly: a head reads back as the same double; the mean may sum in another order.
            QVERIFY2(average ? std::abs(value - m(r, c)) < 1e-12 : value == m(r, c), qPrintable(rows[r + 1][c + 1]));
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
    QTest::newRow("negative head") << QStringList{"export", example, "--head=-2"} << "out.png" << 2
                                   << "out\\.png: head -2 does not exist"; // only -1 means the average
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
    QTest::newRow("transparent PDF") << QStringList{"export", example, "--transparent"} << "out.pdf" << 2
                                     << "^attention-explorer: --transparent works for \\.png and \\.svg pictures only, "
                                        "not \\.pdf\\n$";
    QTest::newRow("each head of the heads view") << QStringList{"export", example, "--each-head", "--view", "heads"}
                                                 << "out.png" << 2 << "--each-head: the heads view already shows";
    QTest::newRow("each head, query out of range") << QStringList{"export", example, "--each-head", "--query", "9"}
                                                   << "out.png" << 2 << "out\\.png: query 9 does not exist";
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

void TestExportCli::eachHead_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QStringList>("names");
    const auto names = [](const char *suffix, int count, int width) {
        QStringList list;
        for (int k = 0; k < count; ++k)
            list << QStringLiteral("out-head%1.%2").arg(k, width, 10, QLatin1Char('0')).arg(QLatin1String(suffix));
        return list;
    };
    QTest::newRow("4 heads, heatmap png") << 4 << "png" << QStringList{} << names("png", 4, 1);
    QTest::newRow("4 heads, transparent scores svg")
        << 4 << "svg" << QStringList{"--view", "scores", "--transparent", "--size", "500x400"} << names("svg", 4, 1);
    QTest::newRow("2 heads, pipeline png 2x") << 2 << "png" << QStringList{"--view", "pipeline", "--scale", "2"}
                                              << names("png", 2, 1);
    QTest::newRow("2 heads, dashboard svg") << 2 << "svg" << QStringList{"--view", "dashboard"} << names("svg", 2, 1);
    // From 11 heads on the index is padded, so that a file list sorts in head order.
    QTest::newRow("12 heads, csv") << 12 << "csv" << QStringList{} << names("csv", 12, 2);
    QTest::newRow("1 head") << 1 << "png" << QStringList{"--view", "scores"} << QStringList{"out-head0.png"};
}

void TestExportCli::eachHead()
{
    QFETCH(int, heads);
    QFETCH(QString, suffix);
    QFETCH(QStringList, extra);
    QFETCH(QStringList, names);
    QTemporaryDir sessions, series, single;
    const QString session = writeMultiHeadSession(sessions.path(), heads);
    QVERIFY(!session.isEmpty());
    const Run run = runApp(QStringList{"export", session, "-o", series.filePath("out." + suffix), "--each-head"} + extra);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.isEmpty() && run.out.isEmpty(), run.err.constData());
    QCOMPARE(filesIn(series.path()), names);
    // Each file is exactly what a single export of that head writes.
    for (int k = 0; k < heads; ++k) {
        const QString one = single.filePath("one." + suffix);
        const Run head = runApp(QStringList{"export", session, "-o", one, "--head", QString::number(k)} + extra);
        QVERIFY2(head.exitCode == 0, head.err.constData());
        const QByteArray expected = readAll(one);
        QVERIFY(!expected.isEmpty());
        QVERIFY2(readAll(series.filePath(names[k])) == expected, qPrintable(names[k]));
    }
    if (heads > 1) // and they differ: the head really changed
        QVERIFY(readAll(series.filePath(names[0])) != readAll(series.filePath(names[1])));
}

// A head that cannot be written leaves every file as it was: none of the new
// ones, the old ones untouched, no temporary file.
void TestExportCli::eachHeadAllOrNothing()
{
    QTemporaryDir sessions, dir;
    const QString session = writeMultiHeadSession(sessions.path(), 4);
    const QByteArray old = "an earlier export\n";
    {
        QFile f(dir.filePath("out-head0.png"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(old);
    }
    QVERIFY(QDir(dir.path()).mkdir("out-head2.png"));
    const Run run = runApp({"export", session, "-o", dir.filePath("out.png"), "--each-head"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(isOneLine(run.err), run.err.constData());
    QVERIFY2(run.err.contains("out-head2.png: cannot write"), run.err.constData());
    QCOMPARE(filesIn(dir.path()), QStringList{"out-head0.png"});
    QCOMPARE(readAll(dir.filePath("out-head0.png")), old);
}

void TestExportCli::transparentPng()
{
    const QString opaque = m_dir.filePath("opaque-heatmap.png"), clear = m_dir.filePath("clear-heatmap.png");
    for (const auto &[path, flag] : {std::pair{opaque, false}, std::pair{clear, true}}) {
        QStringList arguments{"export", data("example.attn.json"), "-o", path, "--size", "400x300"};
        if (flag)
            arguments << "--transparent";
        const Run run = runApp(arguments);
        QVERIFY2(run.exitCode == 0, run.err.constData());
    }
    const QImage a(opaque), b(clear);
    QCOMPARE(b.size(), QSize(400, 300));
    QVERIFY(b.hasAlphaChannel());
    QCOMPARE(qAlpha(a.pixel(1, 1)), 255);
    QCOMPARE(qAlpha(b.pixel(1, 1)), 0);        // the background corner
    QCOMPARE(qAlpha(b.pixel(399, 299)), 0);
    // The cells' middle is a cell either way, opaque and the same colour.
    const QPoint cell(250, 170);
    QCOMPARE(qAlpha(b.pixel(cell)), 255);
    QCOMPARE(b.pixel(cell), a.pixel(cell));
}

// The rectangles an SVG fills (visibly) that are at least `width` × `height`.
int largeFilledRects(const QByteArray &svg, double width, double height)
{
    QXmlStreamReader xml(svg);
    QList<bool> visible{false}; // per open element: does it fill visibly
    int count = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const QXmlStreamAttributes a = xml.attributes();
            bool fills = visible.last();
            if (a.hasAttribute("fill"))
                fills = a.value("fill") != QLatin1String("none");
            if (a.hasAttribute("fill-opacity"))
                fills = fills && a.value("fill-opacity").toDouble() > 0;
            visible << fills;
            if (xml.name() == QLatin1String("rect") && fills && a.value("width").toDouble() >= width
                && a.value("height").toDouble() >= height)
                ++count;
        } else if (xml.isEndElement()) {
            visible.removeLast();
        }
    }
    return xml.hasError() ? -1 : count;
}

void TestExportCli::transparentSvg()
{
    for (const char *view : {"heatmap", "heads", "pipeline", "bars", "dashboard"}) {
        const QString opaque = m_dir.filePath(QStringLiteral("opaque-%1.svg").arg(view));
        const QString clear = m_dir.filePath(QStringLiteral("clear-%1.svg").arg(view));
        const QStringList arguments{"export", data("two-heads.attn.json"), "--view", view, "--size", "600x400"};
        QCOMPARE(runApp(arguments + QStringList{"-o", opaque}).exitCode, 0);
        const Run run = runApp(arguments + QStringList{"-o", clear, "--transparent"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        // A background covers all of the picture but its 8-pixel margin; cells never do.
        QVERIFY2(largeFilledRects(readAll(opaque), 584, 384) >= 1, view);
        QCOMPARE(largeFilledRects(readAll(clear), 584, 384), 0);
        QVERIFY(!readAll(clear).contains("fill-opacity=\"0\" stroke=\"none\""));
        bool ok = false;
        QString viewBox;
        QVERIFY(svgText(readAll(clear), &ok, &viewBox).contains("journey") && ok);
    }
}

QTEST_GUILESS_MAIN(TestExportCli)
#include "tst_exportcli.moc"
