// The documentation stays true to itself and to the program: every link
// between the pages and every picture they name exists (a link into another
// page lands on one of its headings), pages in docs/ link nothing outside
// docs/ (they are installed on their own), and the command-line page documents
// exactly the commands and options the program's --help lists, with the same
// synopsis.

#include "guidewindow.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextTable>
#include <QUrl>

#include <memory>
#include <optional>

namespace {

const QString kDocs = QStringLiteral(ATTN_SOURCE_DIR "/docs");

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

std::unique_ptr<QTextDocument> markdownOf(const QString &path)
{
    auto document = std::make_unique<QTextDocument>();
    document->setMarkdown(readText(path));
    return document;
}

// The anchors of a page's headings, numbered as GitHub numbers repeats.
QSet<QString> anchorsOf(const QString &path)
{
    QSet<QString> anchors;
    QHash<QString, int> seen;
    const auto document = markdownOf(path);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0)
            continue;
        const QString anchor = headingAnchor(block.text());
        const int count = seen.value(anchor, 0);
        seen.insert(anchor, count + 1);
        anchors.insert(count == 0 ? anchor : QStringLiteral("%1-%2").arg(anchor).arg(count));
    }
    return anchors;
}

// Every problem with the links and pictures of `page`, one line each. Links
// and pictures of a page under `confined` must stay inside that folder.
QStringList linkProblems(const QString &page, const QString &confined)
{
    QStringList problems;
    const QString name = QFileInfo(page).fileName();
    const QUrl base = QUrl::fromLocalFile(page);
    const auto document = markdownOf(page);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            const bool picture = format.isImageFormat();
            const QString target = picture ? format.toImageFormat().name() : format.anchorHref();
            if (target.isEmpty())
                continue;
            const QUrl url(target);
            if (!url.scheme().isEmpty() && url.scheme() != QLatin1String("file")) {
                if (picture || !QStringList{"http", "https", "mailto"}.contains(url.scheme()))
                    problems << QStringLiteral("%1: %2: not a file or web link").arg(name, target);
                continue;
            }
            const QUrl resolved = base.resolved(url);
            const QString path = QFileInfo(resolved.toLocalFile()).absoluteFilePath();
            if (!QFileInfo::exists(path)) {
                problems << QStringLiteral("%1: %2: no such file").arg(name, target);
                continue;
            }
            if (!confined.isEmpty() && !path.startsWith(confined + QLatin1Char('/')))
                problems << QStringLiteral("%1: %2: outside %3, so it is missing where the pages are installed")
                                .arg(name, target, QFileInfo(confined).fileName());
            if (picture && path.endsWith(QLatin1String(".png")) && QImage(path).isNull())
                problems << QStringLiteral("%1: %2: not a picture").arg(name, target);
            if (url.hasFragment() && path.endsWith(QLatin1String(".md")) && !anchorsOf(path).contains(url.fragment()))
                problems << QStringLiteral("%1: %2: no heading #%3 in %4")
                                .arg(name, target, url.fragment(), QFileInfo(path).fileName());
        }
    }
    return problems;
}

// What the program prints for `arguments`.
QString programOutput(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(ATTN_APP_PATH), arguments);
    if (!process.waitForFinished(30000) || process.exitCode() != 0)
        return {};
    return QString::fromUtf8(process.readAllStandardOutput());
}

// The options a command's --help lists: "-o", "--output", "--view", ...
QSet<QString> helpOptions(const QString &help)
{
    QSet<QString> options;
    static const QRegularExpression line(QStringLiteral("^  (-\\w)?(?:, )?(--[\\w-]+)?"));
    const QString section = help.section(QStringLiteral("Options:\n"), 1).section(QStringLiteral("\n\n"), 0, 0);
    for (const QString &text : section.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = line.match(text);
        for (int i = 1; i <= 2; ++i)
            if (!m.captured(i).isEmpty())
                options.insert(m.captured(i));
    }
    return options;
}

// Option names written in `text`: "--view", and with `shortToo` also "-o".
QSet<QString> optionsIn(const QString &text, bool shortToo)
{
    static const QRegularExpression longOption(QStringLiteral("(?<![\\w-])--[a-z][\\w-]*"));
    static const QRegularExpression shortOption(QStringLiteral("(?<![\\w-])-[a-z](?![\\w-])"));
    QSet<QString> found;
    for (const QRegularExpression *re : {&longOption, &shortOption}) {
        if (re == &shortOption && !shortToo)
            continue;
        for (auto it = re->globalMatch(text); it.hasNext();)
            found.insert(it.next().captured());
    }
    return found;
}

// The usage block of --help, without its indentation.
QStringList usageLines(const QString &help)
{
    QStringList lines;
    for (const QString &line : help.section(QStringLiteral("Usage:\n"), 1).section(QStringLiteral("\n\n"), 0, 0)
                                   .split(QLatin1Char('\n')))
        lines << line.mid(2);
    return lines;
}

// The commands the usage lists, as the command-line page heads them
// ("compute", "compute --model", "tokenize"), each with the arguments that
// ask for its own help.
QList<QPair<QString, QStringList>> commandsOf(const QStringList &usage)
{
    QStringList plain, withModel;
    for (const QString &line : usage) {
        const QStringList words = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.size() < 2 || words[0] != QLatin1String("attention-explorer") || words[1].startsWith('-')
            || words[1].startsWith('['))
            continue;
        (words.value(2) == QLatin1String("--model") ? withModel : plain) << words[1];
    }
    QList<QPair<QString, QStringList>> commands;
    for (const QString &c : plain)
        commands.append({c, {c, QStringLiteral("--help")}});
    for (const QString &c : withModel) {
        const QString heading = plain.contains(c) ? c + QLatin1String(" --model") : c;
        commands.append({heading, {c, QStringLiteral("--model"), QStringLiteral("x"), QStringLiteral("--help")}});
    }
    return commands;
}

struct PageSection
{
    QString text;                // every block under the heading, tables included
    QStringList firstColumns;    // the first cell of every table row but the header
    QStringList firstCodeBlock;  // the lines of the first code block
};

// The part of the page under the heading whose text is `heading`, up to the
// next heading of the same or a higher level.
std::optional<PageSection> sectionOf(const QTextDocument &document, const QString &heading)
{
    std::optional<PageSection> section;
    int level = 0;
    bool codeDone = false;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        const int blockLevel = block.blockFormat().headingLevel();
        if (section && blockLevel > 0 && blockLevel <= level)
            break;
        if (!section) {
            if (blockLevel > 0 && block.text() == heading) {
                section = PageSection();
                level = blockLevel;
            }
            continue;
        }
        section->text += block.text() + QLatin1Char('\n');
        const bool code = block.blockFormat().hasProperty(QTextFormat::BlockCodeFence);
        if (code && !codeDone)
            section->firstCodeBlock << block.text();
        else if (!section->firstCodeBlock.isEmpty())
            codeDone = true;
        if (QTextTable *table = QTextCursor(block).currentTable()) {
            const QTextTableCell cell = table->cellAt(block.position());
            if (cell.column() == 0 && cell.row() > 0)
                section->firstColumns << block.text();
        }
    }
    return section;
}

} // namespace

class TestDocs : public QObject
{
    Q_OBJECT

private slots:
    void linksAndPictures_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("confined");
        QTest::newRow("README.md") << QStringLiteral(ATTN_SOURCE_DIR "/README.md") << QString();
        const QStringList pages = QDir(kDocs).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
        QVERIFY(pages.size() >= 8);
        for (const QString &page : pages)
            QTest::newRow(qPrintable(page)) << QDir(kDocs).filePath(page) << kDocs;
    }

    void linksAndPictures()
    {
        QFETCH(QString, page);
        QFETCH(QString, confined);
        const QStringList problems = linkProblems(page, confined);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The checker itself: a page with every kind of broken link is caught.
    void brokenLinksAreFound()
    {
        QTemporaryDir dir;
        QFile other(dir.filePath(QStringLiteral("other.md")));
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write("# Other\n\n## A heading\n");
        other.close();
        QDir(dir.path()).mkdir(QStringLiteral("docs"));
        QFile page(dir.filePath(QStringLiteral("docs/page.md")));
        QVERIFY(page.open(QIODevice::WriteOnly));
        page.write("# Page\n\n## Here\n\n[ok](#here) [missing](gone.md) [anchor](../other.md#a-heading) "
                   "[bad anchor](#nowhere) ![picture](images/none.png) [web](https://example.org)\n");
        page.close();
        const QStringList problems = linkProblems(page.fileName(), dir.filePath(QStringLiteral("docs")));
        QCOMPARE(problems, QStringList({"page.md: gone.md: no such file",
                                        "page.md: ../other.md#a-heading: outside docs, so it is missing where the "
                                        "pages are installed",
                                        "page.md: #nowhere: no heading #nowhere in page.md",
                                        "page.md: images/none.png: no such file"}));
    }

    void headingAnchors_data()
    {
        QTest::addColumn<QString>("heading");
        QTest::addColumn<QString>("anchor");
        // What GitHub makes of these headings (checked on its rendering of the pages).
        QTest::newRow("plain") << "The window" << "the-window";
        QTest::newRow("code") << "export --model" << "export---model";
        QTest::newRow("quotes and question mark") << "Which word does \u201cit\u201d stand for?"
                                                 << "which-word-does-it-stand-for";
        QTest::newRow("arrows") << "Query \u2192 scores \u2192 weights \u2192 context"
                                << "query--scores--weights--context";
        QTest::newRow("brackets") << "Model results (version 2)" << "model-results-version-2";
        QTest::newRow("underscore and capitals") << "Bad input, catalogued_X" << "bad-input-catalogued_x";
    }

    void headingAnchors()
    {
        QFETCH(QString, heading);
        QFETCH(QString, anchor);
        QCOMPARE(headingAnchor(heading), anchor);
    }

    void commandLinePage()
    {
        const QString help = programOutput({QStringLiteral("--help")});
        QVERIFY(!help.isEmpty());
        const QStringList usage = usageLines(help);
        const auto page = markdownOf(QDir(kDocs).filePath(QStringLiteral("command-line.md")));

        // The synopsis is the usage, line for line.
        const std::optional<PageSection> synopsis = sectionOf(*page, QStringLiteral("Synopsis"));
        QVERIFY(synopsis);
        QCOMPARE(synopsis->firstCodeBlock, usage);

        // Every command has its section, which documents every option of its
        // --help; its option tables name no option the command lacks.
        QSet<QString> everyOption{QStringLiteral("--help"), QStringLiteral("--version"), QStringLiteral("-h"),
                                  QStringLiteral("-v")};
        const auto commands = commandsOf(usage);
        QVERIFY(commands.size() >= 8);
        for (const auto &[heading, arguments] : commands) {
            const QSet<QString> options = helpOptions(programOutput(arguments));
            QVERIFY2(options.contains(QStringLiteral("--help")), qPrintable(arguments.join(' ')));
            everyOption.unite(options);
            const std::optional<PageSection> section = sectionOf(*page, heading);
            QVERIFY2(section, qPrintable(QStringLiteral("no heading \"%1\" in command-line.md").arg(heading)));
            const QSet<QString> written = optionsIn(section->text, true);
            for (const QString &option : options)
                if (option != QLatin1String("-h") && option != QLatin1String("--help"))
                    QVERIFY2(written.contains(option),
                             qPrintable(QStringLiteral("%1: %2 is not documented").arg(heading, option)));
            const QSet<QString> tabled = optionsIn(section->firstColumns.join(QLatin1Char('\n')), true);
            for (const QString &option : tabled)
                QVERIFY2(options.contains(option),
                         qPrintable(QStringLiteral("%1: the page documents %2, which --help does not list")
                                        .arg(heading, option)));
        }
        // Nowhere does the page name an option the program does not have.
        const QSet<QString> named = optionsIn(page->toPlainText(), false);
        for (const QString &option : named)
            QVERIFY2(everyOption.contains(option),
                     qPrintable(QStringLiteral("command-line.md names %1, which no --help lists").arg(option)));
        QVERIFY(named.contains(QStringLiteral("--version")) && named.contains(QStringLiteral("--help")));
    }
};

QTEST_MAIN(TestDocs)
#include "tst_docs.moc"
