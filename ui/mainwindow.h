#pragma once
// The main window: wires the document to the views; owns no state of its own.

#include <QMainWindow>

class Document;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(Document *document, QWidget *parent = nullptr);

private:
    Document *m_document;
};
