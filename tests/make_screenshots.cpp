// Renders the README's screenshots of the main window, offscreen:
//   QT_QPA_PLATFORM=offscreen build/release/tests/make_screenshots docs/images
// Not a test: it is how the pictures in docs/ are made, so they can be redone.

#include "document.h"
#include "mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QStandardPaths>
#include <QStyleFactory>
#include <cstdio>

namespace {

void shoot(MainWindow &window, const QString &path)
{
    window.resize(1280, 800);
    window.show();
    QApplication::processEvents();
    if (!window.grab().save(path))
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
    else
        std::printf("%s\n", qPrintable(path));
}

} // namespace

int main(int argc, char **argv)
{
    QStandardPaths::setTestModeEnabled(true); // never read the user's settings
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QDir out(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("."));
    QDir().mkpath(out.path());

    {
        Document doc;
        MainWindow window(&doc);
        shoot(window, out.filePath(QStringLiteral("window-example.png")));
    }
    {
        Document doc;
        attn::AttentionConfig c = doc.session().attention;
        c.heads = 4;
        c.headDim = 2;
        c.causal = true;
        c.outputProjection = true;
        doc.setAttention(c);
        MainWindow window(&doc);
        window.selectHead(2);
        shoot(window, out.filePath(QStringLiteral("window-four-heads-causal.png")));
    }
    {
        Document doc;
        doc.setSentence(QStringLiteral("The robot moved the heavy box across the room because it was blocking "
                                       "the door, and then it rested."));
        doc.setQuery(10);
        MainWindow window(&doc);
        shoot(window, out.filePath(QStringLiteral("window-twenty-tokens.png")));
    }
    return 0;
}
