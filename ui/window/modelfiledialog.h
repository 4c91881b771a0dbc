#pragma once
// The file dialog of File › Open Model: one dialog that takes a model folder
// (Hugging Face layout, a cache entry or a snapshot) or a GGUF file. Qt's
// dialogs choose either folders or files, never both: this one lists folders
// and .gguf files, opens a model folder when one is chosen (and looks inside
// any other folder), and accepts a file where its own Directory mode would
// ignore it.

#include <QFileDialog>

class QPushButton;

class ModelFileDialog : public QFileDialog
{
    Q_OBJECT
public:
    ModelFileDialog(QWidget *parent, const QString &caption, const QString &directory);

    // The folder or .gguf file chosen; empty when cancelled.
    QString chosenModel() const;

    // Runs the dialog; the chosen folder or GGUF file, or empty.
    static QString getModel(QWidget *parent, const QString &caption, const QString &directory);

    // The dialog's Open button (Qt's own, found by its object name).
    QPushButton *openButton() const;

public slots:
    void accept() override;

private:
    void allowFiles();

    QString m_chosen;
};
