#include "mainwindow.h"

#include "document.h"

#include <QLabel>

MainWindow::MainWindow(Document *document, QWidget *parent) : QMainWindow(parent), m_document(document)
{
    setWindowTitle(tr("Attention Explorer"));
    auto *label = new QLabel(tr("%n token(s)", nullptr, document->tokenCount()), this);
    setCentralWidget(label);
    resize(1280, 800);
}
