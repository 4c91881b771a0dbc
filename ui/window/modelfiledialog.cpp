#include "modelfiledialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>

namespace {

// A folder to open rather than to look into: a model folder, a Hugging Face
// cache entry or its snapshots.
bool looksLikeModel(const QDir &dir)
{
    return dir.exists(QStringLiteral("config.json")) || dir.exists(QStringLiteral("snapshots"))
           || dir.dirName() == QLatin1String("snapshots");
}

} // namespace

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
    setLabelText(QFileDialog::FileName, tr("Folder or file:"));
    // Qt disables Open for a file in Directory mode: enabled again once Qt
    // has decided (queued: after its own handler of the same change).
    connect(this, &QFileDialog::currentChanged, this, &ModelFileDialog::allowFiles, Qt::QueuedConnection);
    if (auto *name = findChild<QLineEdit *>(QStringLiteral("fileNameEdit")))
        connect(name, &QLineEdit::textChanged, this, &ModelFileDialog::allowFiles, Qt::QueuedConnection);
}

QPushButton *ModelFileDialog::openButton() const
{
    auto *box = findChild<QDialogButtonBox *>(QStringLiteral("buttonBox"));
    return box ? box->button(QDialogButtonBox::Open) : nullptr;
}

void ModelFileDialog::allowFiles()
{
    QPushButton *open = openButton();
    const QStringList files = selectedFiles();
    if (open && !files.isEmpty() && QFileInfo(files.first()).isFile())
        open->setEnabled(true);
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
    if (chosen.isDir() && !looksLikeModel(QDir(chosen.absoluteFilePath()))) {
        // A folder of models (an LM Studio publisher, Downloads): look inside.
        setDirectory(chosen.absoluteFilePath());
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
