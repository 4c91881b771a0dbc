// Every entry of every menu of the main window, submenus included, has a
// mnemonic (the underlined letter of Alt+F, then the letter) that no other
// entry of its menu uses: Learn once had M twice ("Mistakes…" and "Trained
// models"), so Alt+L M opened neither, and Examples, View and the lists of
// files and models had none. Each menu is opened as a user opens it (the
// lists are filled then), with no model and with one open (the docks'
// titles change), so an entry added anywhere later is checked too.

#include "document.h"
#include "lessons/examples.h"
#include "fileactions.h"
#include "mainwindow.h"
#include "menumnemonics.h"
#include "modelactions.h"
#include "modeldocument.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTest>

namespace {

// The problems of `menu` and its submenus ("Learn › Trained models: ..."), opening each.
QStringList problems(QMenu *menu, const QString &path)
{
    menu->popup(QPoint(0, 0)); // fills the lists that are made as the menu opens
    QStringList found;
    QHash<QChar, QString> used;
    for (QAction *a : menu->actions()) {
        if (a->isSeparator() || !a->isVisible())
            continue;
        const QString name = path + QStringLiteral(" › ") + a->text();
        const QChar key = MenuMnemonics::mnemonicOf(a->text());
        if (key.isNull())
            found << QStringLiteral("no mnemonic: %1").arg(name);
        else if (used.contains(key))
            found << QStringLiteral("%1 and %2 both use %3").arg(used.value(key), name, key);
        else
            used.insert(key, name);
    }
    menu->hide();
    for (QAction *a : menu->actions())
        if (a->menu() && a->isVisible())
            found += problems(a->menu(), path + QStringLiteral(" › ") + a->text());
    return found;
}

QStringList problems(MainWindow &window)
{
    QStringList found;
    QHash<QChar, QString> used;
    for (QAction *a : window.menuBar()->actions()) {
        const QChar key = MenuMnemonics::mnemonicOf(a->text());
        if (key.isNull())
            found << QStringLiteral("no mnemonic: %1").arg(a->text());
        else if (used.contains(key))
            found << QStringLiteral("%1 and %2 both use %3").arg(used.value(key), a->text(), key);
        used.insert(key, a->text());
        if (a->menu())
            found += problems(a->menu(), a->text());
    }
    return found;
}

} // namespace

class TestWindowMenus : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void mnemonicOfReadsTheMarker()
    {
        QCOMPARE(MenuMnemonics::mnemonicOf(QStringLiteral("&File")), QChar('f'));
        QCOMPARE(MenuMnemonics::mnemonicOf(QStringLiteral("Save &As…")), QChar('a'));
        QCOMPARE(MenuMnemonics::mnemonicOf(QStringLiteral("Rock && &Roll")), QChar('r')); // && is an ampersand
        QVERIFY(MenuMnemonics::mnemonicOf(QStringLiteral("Rock && Roll")).isNull());
        QVERIFY(MenuMnemonics::mnemonicOf(QStringLiteral("Attention")).isNull());
    }

    void automaticMnemonicsAvoidTheMenusOwn()
    {
        QMenu menu;
        menu.addAction(QStringLiteral("&All heads"));
        QAction *a = menu.addAction(QStringLiteral("Attention rollout"));
        QAction *b = menu.addAction(QStringLiteral("Attention"));
        QAction *c = menu.addAction(QStringLiteral("Q && A"));
        for (QAction *x : {a, b, c})
            MenuMnemonics::markAutomatic(x);
        MenuMnemonics::choose(&menu);
        // Word starts first (A is taken: "rollout"), then any letter.
        QCOMPARE(a->text(), QStringLiteral("Attention &rollout"));
        QCOMPARE(b->text(), QStringLiteral("A&ttention"));
        QCOMPARE(c->text(), QStringLiteral("&Q && A"));
        // Chosen again (a title changed): the same letters, no second marker.
        MenuMnemonics::choose(&menu);
        QCOMPARE(a->text(), QStringLiteral("Attention &rollout"));
    }

    void everyEntryHasItsOwnMnemonic()
    {
        Document doc{attn::exampleSession()};
        MainWindow window{&doc};
        window.fileActions()->setInteractive(false);
        window.show();
        const QStringList before = problems(window);
        QVERIFY2(before.isEmpty(), qPrintable(before.join(QLatin1Char('\n'))));

        // With a model open the docks' titles and the lists change.
        window.findChild<QAction *>(QStringLiteral("example-trained-pronoun"))->trigger();
        QVERIFY(QTest::qWaitFor([&] { return doc.model()->isOpen() && doc.model()->trace(); }, 20000));
        const QStringList after = problems(window);
        QVERIFY2(after.isEmpty(), qPrintable(after.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestWindowMenus)
#include "tst_windowmenus.moc"
