#pragma once
// The main window on the hand-made example, shown, with file dialogs off:
// what every window test that opens a model starts from.

#include "document.h"
#include "lessons/examples.h"
#include "fileactions.h"
#include "mainwindow.h"
#include "modelactions.h"
#include "modeldocument.h"

#include <QLineEdit>
#include <QTest>

struct ModelWindowFixture
{
    Document doc{attn::exampleSession()};
    MainWindow window{&doc};

    ModelWindowFixture()
    {
        window.fileActions()->setInteractive(false);
        window.resize(1280, 800);
        window.show();
    }
    ModelDocument *model() { return doc.model(); }
    ModelActions *actions() { return window.modelActions(); }
    // Until nothing is being opened or computed (false after 10 s).
    bool idle()
    {
        return QTest::qWaitFor([&] { return !model()->isOpening() && !model()->isComputing(); }, 10000);
    }
    // Opens `path` on what the sentence field shows, as File › Open Model does.
    bool open(const QString &path)
    {
        actions()->openFolder(path);
        return idle();
    }
    // Types `text` into the sentence field and presses Return.
    void type(const QString &text)
    {
        window.sentenceEdit()->setText(text);
        QTest::keyClick(window.sentenceEdit(), Qt::Key_Return);
    }
};
