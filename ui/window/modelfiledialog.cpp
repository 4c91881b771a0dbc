#include "modelfiledialog.h"

#include <QFileInfo>

ModelFileDialog::ModelFileDialog(QWidget *parent, const QString &caption, const QString &directory)
    : QFileDialog(parent, caption, directory)
{
    setObjectName(QStringLiteral("modelFileDialog"));
    // Qt's own dialog: a platform dialog in Directory mode lists no files.
    setOption(QFileDialog::DontUseNativeDialog, true);
    setFileMode(QFileDialog::Directory);
    setOption(QFileDialog::ShowDirsOnly, false);
    setNameFilters({tr("Model folders and GGUF files (*.gguf)")});
    setLabelText(QFileDialog::Accept, tr("&Open"));
}

QString ModelFileDialog::chosenModel() const { return m_chosen; }

void ModelFileDialog::accept()
{
    const QStringList files = selectedFiles();
    const QFileInfo chosen(files.value(0));
    if (chosen.isFile()) {
        // Directory mode would do nothing with a file: a GGUF file is a model.
        m_chosen = chosen.absoluteFilePath();
        QDialog::accept();
        return;
    }
    if (chosen.isDir())
        m_chosen = chosen.absoluteFilePath();
    QFileDialog::accept();
}

QString ModelFileDialog::getModel(QWidget *parent, const QString &caption, const QString &directory)
{
    ModelFileDialog dialog(parent, caption, directory);
    return dialog.exec() == QDialog::Accepted ? dialog.chosenModel() : QString();
}
