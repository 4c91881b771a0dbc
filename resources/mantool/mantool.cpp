// Build tool: the manual page attention-explorer.1, written from the command
// line's documentation page (docs/command-line.md), so that `man
// attention-explorer` and the page cannot drift apart. The Markdown is read by
// Qt's own parser, the one Help › User Guide shows the page with; this walks
// what it made and writes the man macros.
//
//   attn-mantool PAGE.md OUT.1 VERSION DATE "ONE-LINE DESCRIPTION" DOCDIR
//
// The page's first-level heading is its title; the paragraphs before the first
// second-level heading become DESCRIPTION (after SYNOPSIS, when the page has
// one); every second-level heading becomes a section (.SH), deeper ones
// subsections (.SS). A table becomes one tagged paragraph per row; a link to
// another page names its installed file under DOCDIR; pictures are left out.

#include <QFile>
#include <QGuiApplication>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextStream>
#include <QTextTable>
#include <QUrl>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Section
{
    QString title;
    QString body;
};

QString g_docDir; // where the installed pages are, for links between them

// Text escaped for roff: backslashes, minus signs (so options copy as typed),
// and every character beyond ASCII as a named Unicode escape, which groff reads
// without preconv.
QString escaped(const QString &text)
{
    QString out;
    for (const uint c : text.toUcs4()) {
        if (c == '\\')
            out += QLatin1String("\\e");
        else if (c == '-')
            out += QLatin1String("\\-");
        else if (c == 0xA0)
            out += QLatin1String("\\ ");
        else if (c == 0x2028 || c == '\n')
            out += QLatin1Char(' ');
        else if (c < 0x80)
            out += QChar(char16_t(c));
        else
            out += QLatin1String("\\[u") + QString::number(c, 16).toUpper().rightJustified(4, QLatin1Char('0'))
                + QLatin1Char(']');
    }
    return out;
}

// A roff text line must not start with a control character.
QString safeLine(const QString &line)
{
    return line.startsWith(QLatin1Char('.')) || line.startsWith(QLatin1Char('\''))
        ? QLatin1String("\\&") + line
        : line;
}

bool isCode(const QTextCharFormat &format)
{
    return format.fontFixedPitch() || format.fontFamilies().toStringList().contains(QLatin1String("monospace"));
}

// One block's text with bold for code and strong emphasis, italics for emphasis.
QString inlineText(const QTextBlock &block)
{
    QString out;
    for (auto it = block.begin(); !it.atEnd(); ++it) {
        const QTextFragment fragment = it.fragment();
        const QTextCharFormat format = fragment.charFormat();
        if (format.isImageFormat())
            continue;
        QString text = escaped(fragment.text());
        if (isCode(format) || format.fontWeight() >= QFont::Bold)
            text = QLatin1String("\\fB") + text + QLatin1String("\\fR");
        else if (format.fontItalic())
            text = QLatin1String("\\fI") + text + QLatin1String("\\fR");
        const QUrl link(format.anchorHref());
        if (format.isAnchor() && !format.anchorHref().isEmpty()) {
            if (link.scheme().startsWith(QLatin1String("http")))
                text += QStringLiteral(" <%1>").arg(escaped(link.toString()));
            else if (!link.path().isEmpty())
                text += QStringLiteral(" (%1)").arg(escaped(g_docDir + QLatin1Char('/') + link.path()));
        }
        out += text;
    }
    return out.simplified();
}

QString cellText(const QTextTableCell &cell)
{
    QStringList parts;
    for (auto it = cell.begin(); !it.atEnd(); ++it)
        if (!it.currentFrame())
            parts << inlineText(it.currentBlock());
    return parts.join(QLatin1Char(' '));
}

// Each row a tagged paragraph: the first cell the tag; with two columns the
// second is the text, with more each cell is named by its column's header.
QString tableText(QTextTable *table)
{
    QString out;
    for (int row = 1; row < table->rows(); ++row) {
        out += QLatin1String(".TP\n") + safeLine(cellText(table->cellAt(row, 0))) + QLatin1Char('\n');
        QStringList rest;
        for (int column = 1; column < table->columns(); ++column) {
            const QString text = cellText(table->cellAt(row, column));
            if (text.isEmpty())
                continue;
            rest << (table->columns() == 2 ? text : cellText(table->cellAt(0, column)) + QLatin1String(": ") + text);
        }
        out += safeLine(rest.join(QLatin1String("; "))) + QLatin1Char('\n');
    }
    return out;
}

bool isCodeBlock(const QTextBlock &block)
{
    return block.blockFormat().hasProperty(QTextFormat::BlockCodeFence) || block.blockFormat().nonBreakableLines();
}

std::vector<Section> sectionsOf(const QTextDocument &document, QString *title)
{
    std::vector<Section> sections{{QStringLiteral("DESCRIPTION"), {}}};
    bool inCode = false;
    for (auto it = document.rootFrame()->begin(); !it.atEnd(); ++it) {
        QString &body = sections.back().body;
        if (auto *table = qobject_cast<QTextTable *>(it.currentFrame())) {
            if (inCode)
                body += QLatin1String(".fi\n.RE\n");
            inCode = false;
            body += tableText(table);
            continue;
        }
        const QTextBlock block = it.currentBlock();
        if (!block.isValid())
            continue;
        const bool code = isCodeBlock(block);
        if (inCode && !code)
            body += QLatin1String(".fi\n.RE\n");
        if (code) {
            if (!inCode)
                body += QLatin1String(".PP\n.RS\n.nf\n");
            inCode = true;
            body += safeLine(escaped(block.text())) + QLatin1Char('\n');
            continue;
        }
        inCode = false;
        const int level = block.blockFormat().headingLevel();
        const QString text = inlineText(block);
        if (level == 1) {
            *title = block.text();
        } else if (level == 2) {
            sections.push_back({block.text().toUpper(), {}});
        } else if (level > 2) {
            body += QLatin1String(".SS \"") + escaped(block.text()) + QLatin1String("\"\n");
        } else if (block.textList()) {
            body += QLatin1String(".IP \\(bu 2\n") + safeLine(text) + QLatin1Char('\n');
        } else if (!text.isEmpty()) {
            body += QLatin1String(".PP\n") + safeLine(text) + QLatin1Char('\n');
        }
    }
    if (inCode)
        sections.back().body += QLatin1String(".fi\n.RE\n");
    return sections;
}

// The offscreen platform warns about XDG_RUNTIME_DIR, which a build does not need.
void quietHandler(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (!message.startsWith(QLatin1String("QStandardPaths:")))
        std::fprintf(stderr, "%s\n", qPrintable(message));
    if (type == QtFatalMsg)
        std::abort();
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen"); // the parser's fonts need a QGuiApplication, not a display
    qInstallMessageHandler(quietHandler);
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 7) {
        std::fprintf(stderr, "usage: attn-mantool PAGE.md OUT.1 VERSION DATE DESCRIPTION DOCDIR\n");
        return 2;
    }
    QFile page(args[1]);
    if (!page.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "%s: cannot read\n", qPrintable(args[1]));
        return 1;
    }
    g_docDir = args[6];
    QTextDocument document;
    document.setMarkdown(QString::fromUtf8(page.readAll()));
    QString title;
    std::vector<Section> sections = sectionsOf(document, &title);
    if (title.isEmpty()) {
        std::fprintf(stderr, "%s: no first-level heading; is it the command line's page?\n", qPrintable(args[1]));
        return 1;
    }

    QString man;
    man += QLatin1String(".\\\" Made by attn-mantool from docs/command-line.md: edit that page, not this file.\n");
    man += QStringLiteral(".TH ATTENTION-EXPLORER 1 \"%1\" \"attention-explorer %2\" \"User Commands\"\n")
               .arg(args[4], args[3]);
    man += QLatin1String(".SH NAME\nattention-explorer \\- ") + escaped(args[5]) + QLatin1Char('\n');
    // SYNOPSIS, then DESCRIPTION (the page's opening paragraphs), then the rest in the page's order.
    std::vector<Section> ordered;
    for (const Section &s : sections)
        if (s.title == QLatin1String("SYNOPSIS"))
            ordered.push_back(s);
    ordered.push_back(sections.front());
    for (std::size_t i = 1; i < sections.size(); ++i)
        if (sections[i].title != QLatin1String("SYNOPSIS"))
            ordered.push_back(sections[i]);
    for (const Section &s : ordered)
        man += QLatin1String(".SH ") + escaped(s.title) + QLatin1Char('\n') + s.body;

    QFile out(args[2]);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(man.toUtf8()) < 0) {
        std::fprintf(stderr, "%s: cannot write\n", qPrintable(args[2]));
        return 1;
    }
    return 0;
}
