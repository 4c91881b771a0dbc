// Help › User Guide: F1 opens the guide's first page from the source tree (the
// build is not installed), links lead to other pages and to their headings,
// Back returns, pictures fit the page, and links to web sites go to the
// system's browser instead of the guide.

#include "document.h"
#include "lessons/examples.h"
#include "guidewindow.h"
#include "helpdialogs.h"
#include "mainwindow.h"

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QDesktopServices>
#include <QImage>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QUrl>

namespace {

// The cursor on the middle of the first link to `href` on the shown page.
QTextCursor linkCursor(const QTextBrowser *browser, const QString &href)
{
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().anchorHref() == href) {
                QTextCursor cursor(browser->document());
                cursor.setPosition(it.fragment().position() + it.fragment().length() / 2);
                return cursor;
            }
    return {};
}

// Clicks the first link to `href` as a user would: scrolled into view, then pressed and released.
bool clickLink(QTextBrowser *browser, const QString &href)
{
    const QTextCursor cursor = linkCursor(browser, href);
    if (cursor.isNull())
        return false;
    browser->setTextCursor(cursor);
    browser->ensureCursorVisible();
    QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, browser->cursorRect(cursor).center());
    return true;
}

// The top of the heading block whose text is `heading`, in document coordinates.
qreal headingTop(const QTextBrowser *browser, const QString &heading)
{
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next())
        if (block.blockFormat().headingLevel() > 0 && block.text() == heading)
            return browser->document()->documentLayout()->blockBoundingRect(block).top();
    return -1;
}

} // namespace

class TestGuideWindow : public QObject
{
    Q_OBJECT

public slots:
    void openWebLink(const QUrl &url) { m_opened << url; }

private slots:
    void f1OpensTheGuide()
    {
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        window.show();
        auto *guide = window.findChild<QAction *>(QStringLiteral("userGuide"));
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        // The shortcuts dialog moved to Shift+F1, next to it.
        QVERIFY(shortcutsText(&window).contains(QStringLiteral("Shift+F1\tHelp › Keyboard shortcuts")));
        QVERIFY(shortcutsText(&window).contains(QStringLiteral("F1\tHelp › User Guide")));

        guide->trigger();
        auto *guideWindow = window.findChild<GuideWindow *>();
        QVERIFY(guideWindow);
        QVERIFY(guideWindow->isVisible());
        QCOMPARE(guideWindow->browser()->source().fileName(), QStringLiteral("user-guide.md"));
        QCOMPARE(guideWindow->browser()->pageTitle(), QStringLiteral("User guide"));
        QCOMPARE(guideWindow->windowTitle(), QStringLiteral("User guide — Attention Explorer"));
        QVERIFY(guideWindow->browser()->toPlainText().contains(QStringLiteral("Help › User Guide (F1)")));

        guide->trigger(); // a second F1 raises the same window
        QCOMPARE(window.findChildren<GuideWindow *>().size(), 1);
    }

    void followsLinksAndComesBack()
    {
        GuideWindow window(guideFolder());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GuideBrowser *browser = window.browser();
        QVERIFY(clickLink(browser, QStringLiteral("models.md")));
        QCOMPARE(browser->source().fileName(), QStringLiteral("models.md"));
        QCOMPARE(browser->pageTitle(), QStringLiteral("Models"));
        QCOMPARE(window.windowTitle(), QStringLiteral("Models — Attention Explorer"));
        browser->backward();
        QCOMPARE(browser->source().fileName(), QStringLiteral("user-guide.md"));
        QCOMPARE(browser->pageTitle(), QStringLiteral("User guide"));
    }

    void linksLandOnTheirHeading()
    {
        GuideWindow window(guideFolder());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GuideBrowser *browser = window.browser();
        // A link into another page, as the user guide's Examples table has it.
        QVERIFY(clickLink(browser, QStringLiteral("models.md#which-word-does-it-stand-for")));
        QCOMPARE(browser->source().fileName(), QStringLiteral("models.md"));
        const qreal top = headingTop(browser, QStringLiteral("Which word does \"it\" stand for?"));
        QVERIFY(top > browser->viewport()->height()); // far down the page: scrolling was needed
        const int scrolled = browser->verticalScrollBar()->value();
        QVERIFY2(qAbs(scrolled - top) < 40, qPrintable(QStringLiteral("scrolled to %1, heading at %2").arg(scrolled).arg(top)));
    }

    void picturesFitThePage()
    {
        GuideWindow window(guideFolder());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QUrl picture = window.browser()->source().resolved(QUrl(QStringLiteral("images/window-example.png")));
        QVERIFY(!QImage(picture.toLocalFile()).isNull());
        QVERIFY(QImage(picture.toLocalFile()).width() > 860); // the file is wider than a page
        const QImage shown = window.browser()->document()->resource(QTextDocument::ImageResource, picture).value<QImage>();
        QVERIFY(!shown.isNull());
        QCOMPARE(qRound(shown.width() / shown.devicePixelRatio()), 860);
    }

    void webLinksGoToTheBrowser()
    {
        QDesktopServices::setUrlHandler(QStringLiteral("https"), this, "openWebLink");
        GuideWindow window(guideFolder());
        window.showPage(QStringLiteral("models.md"));
        GuideBrowser *browser = window.browser();
        const QString href = QStringLiteral("https://arxiv.org/abs/2309.17453");
        QVERIFY(!linkCursor(browser, href).isNull());
        emit browser->anchorClicked(QUrl(href));
        QCOMPARE(m_opened, QList<QUrl>{QUrl(href)});
        QCOMPARE(browser->source().fileName(), QStringLiteral("models.md")); // the guide stays
        QDesktopServices::unsetUrlHandler(QStringLiteral("https"));
    }

    void saysWhenThePagesAreMissing()
    {
        GuideWindow window{QString()};
        QCOMPARE(window.browser()->pageTitle(), QStringLiteral("User guide"));
        QVERIFY(window.browser()->toPlainText().contains(QStringLiteral("are not installed")));
    }

private:
    QList<QUrl> m_opened;
};

QTEST_MAIN(TestGuideWindow)
#include "tst_guidewindow.moc"
