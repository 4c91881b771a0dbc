// The catalogue of bad input, part one: every kind of bad session file and
// bad command line the product handles, each with the exact message a user
// sees and, on the command line, the exit code. The README's bad-input table is this
// table for people. The session reader's field-by-field messages are in
// tst_sessionreader; here every kind of file goes through the real window and
// the real binary. Part two, tst_badinput_document, has the bad edits, what
// the engine refuses, and the proof that work is never lost.

#include "badinput.h"
#include "fileactions.h"
#include "mainwindow.h"
#include "session/session.h"
#include "session/sessionio.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include "headlessrun.h"

#include <QTest>

namespace {

QByteArray manyTokens(int count)
{
    QJsonArray tokens, embeddings;
    for (int i = 0; i < count; ++i) {
        tokens.append(QStringLiteral("t%1").arg(i));
        embeddings.append(QJsonArray{double(i % 7)});
    }
    return QJsonDocument(QJsonObject{{"format", "attention-explorer-session"}, {"version", 1}, {"tokens", tokens},
                                     {"embeddings", embeddings}})
        .toJson(QJsonDocument::Compact);
}

QByteArray wideRow(int dModel)
{
    QByteArray row = "[";
    for (int i = 0; i < dModel; ++i)
        row += i ? ",0" : "0";
    return session(R"("tokens": ["a"], "embeddings": [)" + row + "]]");
}

// A big file written in 1 MB blocks.
bool writeRepeated(const QString &path, char c, qint64 megabytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    const QByteArray block(1024 * 1024, c);
    for (qint64 i = 0; i < megabytes; ++i)
        if (f.write(block) != block.size())
            return false;
    return true;
}

using Run = HeadlessRun;

Run runApp(const QStringList &arguments)
{
    return runHeadless(QStringLiteral(ATTN_APP_PATH), arguments);
}

enum class Special { None, Folder, Missing, Spaces100MB, Digits100MB, DevZero };

} // namespace

Q_DECLARE_METATYPE(Special)

class TestBadInput : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // The file of a row: its content written under `name`, or the special case.
    QString prepare(const QString &name, const QByteArray &content, Special special)
    {
        const QString path = m_dir.filePath(name);
        switch (special) {
        case Special::Folder: QDir(m_dir.path()).mkpath(name); break;
        case Special::Missing: QFile::remove(path); break;
        case Special::Spaces100MB: writeRepeated(path, ' ', 100); break;
        case Special::Digits100MB: writeRepeated(path, '7', 100); break;
        case Special::DevZero: return QStringLiteral("/dev/zero");
        case Special::None: writeBytes(path, content); break;
        }
        return path;
    }

private slots:
    void initTestCase();
    void sessionFiles_data();
    void sessionFiles();
    void overflowingSession();
    void commandLine_data();
    void commandLine();
};

void TestBadInput::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::exists(QStringLiteral(ATTN_APP_PATH)));
}

void TestBadInput::sessionFiles_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<Special>("special");
    QTest::addColumn<QString>("reason"); // after "NAME: "

    QByteArray garbage;
    for (int i = 0; i < 256; ++i)
        garbage += char((i * 167 + 13) & 0xFF); // every byte value, shuffled
    const QByteArray truncated = valid().left(80);
    QByteArray nested = R"({"format": "attention-explorer-session", "version": 1, "tokens": ["a"], "embeddings": )";
    const qsizetype nestStart = nested.size();
    nested += QByteArray(3000, '[') + QByteArray(3000, ']') + '}';

    const Special none = Special::None;
    QTest::newRow("empty file") << "empty.attn.json" << QByteArray() << none << "the file is empty, not a session";
    QTest::newRow("100 MB of spaces") << "spaces.attn.json" << QByteArray() << Special::Spaces100MB
                                      << "the file is empty, not a session";
    QTest::newRow("100 MB of digits") << "digits.attn.json" << QByteArray() << Special::Digits100MB
                                      << "not valid JSON: illegal value at byte 1";
    QTest::newRow("endless input (/dev/zero)") << "zero" << QByteArray() << Special::DevZero
                                               << "the input is more than the limit of 256 MB for a session";
    QTest::newRow("binary garbage") << "garbage.attn.json" << garbage << none
                                    << "not valid JSON: illegal value at byte 2";
    QTest::newRow("a picture renamed") << "picture.attn.json" << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                                       << none << "not valid JSON: illegal value at byte 1";
    QTest::newRow("truncated JSON") << "truncated.attn.json" << truncated << none
                                    << QStringLiteral("not valid JSON: unterminated object at byte %1").arg(truncated.size());
    QTest::newRow("invalid UTF-8") << "latin1.attn.json"
                                   << session(R"("tokens": ["caf)" + QByteArray("\xe9") + R"("], "embeddings": [[1]])")
                                   << none << "not valid JSON: invalid UTF8 string at byte 70";
    QTest::newRow("deeply nested arrays") << "nested.attn.json" << nested << none
                                          << QStringLiteral("not valid JSON: too deeply nested document at byte %1")
                                                 .arg(nestStart + 1024);
    QTest::newRow("top level not an object") << "list.attn.json" << QByteArray("[1, 2, 3]") << none
                                             << "expected a JSON object at the top level";
    QTest::newRow("a result file, not a session")
        << "result.json" << QByteArray(R"({"format": "attention-explorer-result", "version": 1})") << none
        << "format: expected \"attention-explorer-session\", got \"attention-explorer-result\"";
    QTest::newRow("newer version") << "v2.attn.json"
                                   << QByteArray(R"({"format": "attention-explorer-session", "version": 2})") << none
                                   << "version: the file is version 2, but this build reads version 1 only; a newer "
                                      "Attention Explorer wrote it";
    QTest::newRow("wrong type") << "type.attn.json" << session(R"("tokens": "a b c", "embeddings": [[1]])") << none
                                << "tokens: expected a list, got a string";
    QTest::newRow("zero tokens") << "none.attn.json" << session(R"("tokens": [], "embeddings": [])") << none
                                 << "tokens: expected at least 1 token, got none";
    QTest::newRow("ragged matrix") << "ragged.attn.json"
                                   << session(R"("tokens": ["a", "b"], "embeddings": [[1, 2], [3]])") << none
                                   << "embeddings[1]: expected 2 numbers, got 1";
    QTest::newRow("number too large (1e999)") << "huge.attn.json"
                                              << session(R"("tokens": ["a"], "embeddings": [[0.5, 1e999]])") << none
                                              << "embeddings[0][1]: expected a finite number, got 1e999, too large to represent";
    QTest::newRow("NaN") << "nan.attn.json" << session(R"("tokens": ["a"], "embeddings": [[NaN]])") << none
                         << QStringLiteral("not valid JSON: illegal number at byte %1")
                                .arg(session(R"("tokens": ["a"], "embeddings": [[NaN]])").indexOf("NaN"));
    QTest::newRow("4097 tokens") << "long.attn.json" << manyTokens(4097) << none
                                 << "tokens: 4097 tokens is more than the limit of 4096";
    QTest::newRow("d_model 1025") << "wide.attn.json" << wideRow(1025) << none
                                  << "embeddings[0]: 1025 numbers is more than the limit of 1024";
    QTest::newRow("65 heads") << "heads.attn.json" << valid(R"("attention": {"heads": 65})") << none
                              << "attention.heads: expected a whole number from 1 to 64, got 65";
    QTest::newRow("index out of range") << "query.attn.json" << valid(R"("query": 3)") << none
                                        << "query: expected a whole number from 0 to 2, got 3";
    QTest::newRow("unknown mode") << "mode.attn.json" << valid(R"("attention": {"mode": "linear"})") << none
                                  << "attention.mode: expected \"simplified\" or \"scaled-dot-product\", got \"linear\"";
    QTest::newRow("mis-sized weights") << "weights.attn.json"
                                       << valid(R"("attention": {"head_dim": 1}, "weights": {"key": [[[1], [0]]]})")
                                       << none << "weights.key[0]: expected 3 rows (d_model), got 2";
    QTest::newRow("rotary with an odd head_dim") << "rotary.attn.json"
                                                 << valid(R"("attention": {"positional_encoding": "rotary"})") << none
                                                 << "attention.head_dim: rotary positions turn pairs of numbers: "
                                                    "expected an even head_dim, got 3";
    QTest::newRow("rope_theta not positive")
        << "theta.attn.json"
        << valid(R"("attention": {"head_dim": 2, "positional_encoding": "rotary", "rope_theta": -1})") << none
        << "attention.rope_theta: expected a positive number (the base of the rotary angles, 10000 by default), got -1";
    QTest::newRow("kv_heads not dividing heads") << "kv.attn.json"
                                                 << valid(R"("attention": {"heads": 3, "head_dim": 1, "kv_heads": 2})")
                                                 << none
                                                 << "attention.kv_heads: expected a number that divides heads (3), got 2";
    QTest::newRow("weights.key per key/value head")
        << "kvweights.attn.json"
        << valid(R"("attention": {"heads": 3, "head_dim": 1, "kv_heads": 1}, "weights": {"key": [[[1], [0], [0]], [[1], [0], [0]]]})")
        << none << "weights.key: expected 1 matrix (one per key/value head), got 2";
    QTest::newRow("a folder") << "folder.attn.json" << QByteArray() << Special::Folder
                              << "is a folder, not a session file";
    QTest::newRow("a missing file") << "gone.attn.json" << QByteArray() << Special::Missing
                                    << "cannot open: No such file or directory";
}

// Each file twice: opened in the window (the message the user reads, and
// nothing changes), and given to `compute` (exit 2, the same line on stderr).
void TestBadInput::sessionFiles()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(Special, special);
    QFETCH(QString, reason);
    const QString path = prepare(name, content, special);
    const QString expected = name + QStringLiteral(": ") + reason;

    Document doc;
    MainWindow window(&doc);
    window.fileActions()->setInteractive(false);
    makeHistory(doc);
    const attn::Session before = doc.session();
    const int count = doc.undoStack()->count(), index = doc.undoStack()->index();
    QSignalSpy errors(window.fileActions(), &FileActions::errorOccurred);
    QElapsedTimer timer;
    timer.start();
    QVERIFY(!window.fileActions()->openPath(path));
    const qint64 elapsed = timer.elapsed();
    QCOMPARE(errors.count(), 1);
    QCOMPARE(errors.at(0).at(0).toString(), expected);
    QCOMPARE(doc.session(), before);
    QCOMPARE(doc.undoStack()->count(), count);
    QCOMPARE(doc.undoStack()->index(), index);
    QVERIFY(window.fileActions()->recentFiles().isEmpty() || window.fileActions()->recentFiles().first() != path);
    // Even 100 MB is turned down in a few seconds (Release build on a slow machine).
    QVERIFY2(elapsed < 10000, qPrintable(QStringLiteral("%1 ms").arg(elapsed)));

    const Run run = runApp({QStringLiteral("compute"), path});
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(QString::fromUtf8(run.err), QStringLiteral("attention-explorer: ") + expected + QLatin1Char('\n'));
    if (special == Special::Spaces100MB || special == Special::Digits100MB)
        QFile::remove(path);
}

void TestBadInput::overflowingSession()
{
    // A valid file whose numbers overflow: it opens (the numbers are the
    // user's to fix), and the window says why there is nothing to show.
    const QString path = m_dir.filePath(QStringLiteral("overflow.attn.json"));
    QVERIFY(writeBytes(path, session(R"("tokens": ["a", "b"], "embeddings": [[1e200, 1], [1, 1e200]])")));
    const QString reason = QStringLiteral("the numbers are too large: the result overflows to infinity "
                                          "(keep embeddings and weights within about ±1e150)");
    Document doc;
    MainWindow window(&doc);
    window.fileActions()->setInteractive(false);
    QVERIFY(window.fileActions()->openPath(path));
    QVERIFY(!doc.hasResult());
    QCOMPARE(doc.computeError(), reason);
    bool shown = false;
    for (const QLabel *label : window.findChildren<QLabel *>())
        shown = shown || label->text() == QStringLiteral("Cannot compute: ") + reason;
    QVERIFY(shown);

    const Run run = runApp({QStringLiteral("compute"), path});
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(QString::fromUtf8(run.err), QStringLiteral("attention-explorer: overflow.attn.json: %1\n").arg(reason));
}

void TestBadInput::commandLine_data()
{
    QTest::addColumn<QStringList>("arguments"); // {DIR} stands for a temporary folder, {SESSION} a good file
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message"); // the line on stderr after "attention-explorer: "

    QTest::newRow("compute -o into a missing folder")
        << QStringList{"compute", "{SESSION}", "-o", "/nonexistent/dir/x.json"} << 1
        << "x.json: cannot write: No such file or directory";
    QTest::newRow("compute -o under a regular file") << QStringList{"compute", "{SESSION}", "-o", "{SESSION}/x.json"}
                                                     << 1 << "x.json: cannot write: Not a directory";
    QTest::newRow("compute -o onto a folder") << QStringList{"compute", "{SESSION}", "-o", "{DIR}"} << 1
                                              << "{DIRNAME}: cannot write: Filename refers to a directory";
    QTest::newRow("compute -o without OUT") << QStringList{"compute", "{SESSION}", "-o"} << 2
                                            << "Missing value after '-o'.";
    QTest::newRow("compute without SESSION") << QStringList{"compute"} << 2
                                             << "compute takes one SESSION file (see --help)";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << 2
                                     << "frobnicate: no such command or session file (see --help)";
    QTest::newRow("window: missing session file") << QStringList{"{DIR}/no-such.attn.json"} << 2
                                                  << "{DIR}/no-such.attn.json: no such command or session file (see --help)";
    QTest::newRow("window: unknown option") << QStringList{"--bogus"} << 2 << "unknown option \"--bogus\" (see --help)";
    QTest::newRow("window: two files") << QStringList{"{SESSION}", "{SESSION}"} << 2
                                       << "the window opens one session file at a time (see --help)";
    QTest::newRow("export without -o") << QStringList{"export", "{SESSION}"} << 2 << "export needs -o OUT (see --help)";
}

void TestBadInput::commandLine()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const QString sessionPath = m_dir.filePath(QStringLiteral("good.attn.json"));
    QString error;
    QVERIFY2(attn::writeSession(sessionPath, attn::exampleSession(), &error), qPrintable(error));
    const QString dir = m_dir.filePath(QStringLiteral("out"));
    QVERIFY(QDir().mkpath(dir));
    auto expand = [&](QString s) {
        return s.replace(QLatin1String("{SESSION}"), sessionPath)
            .replace(QLatin1String("{DIRNAME}"), QFileInfo(dir).fileName())
            .replace(QLatin1String("{DIR}"), dir);
    };
    for (QString &a : arguments)
        a = expand(a);
    const QByteArray sessionBefore = fileBytes(sessionPath);
    const Run run = runApp(arguments);
    QCOMPARE(run.exitCode, exitCode);
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(QString::fromUtf8(run.err), QStringLiteral("attention-explorer: ") + expand(message) + QLatin1Char('\n'));
    QCOMPARE(fileBytes(sessionPath), sessionBefore); // the input is never touched
    QVERIFY(QDir(dir).isEmpty());                    // and nothing partial is left
}

QTEST_MAIN(TestBadInput)
#include "tst_badinput.moc"
