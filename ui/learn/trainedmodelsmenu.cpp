#include "trainedmodelsmenu.h"

#include "menumnemonics.h"
#include "trainingsession.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <algorithm>

TrainedModelsMenu::TrainedModelsMenu(QWidget *parent) : QMenu(tr("Trained m&odels"), parent)
{
    setObjectName(QStringLiteral("trainedModelsMenu"));
    setToolTipsVisible(true);
    connect(this, &QMenu::aboutToShow, this, &TrainedModelsMenu::rebuild);
    rebuild();
}

QStringList TrainedModelsMenu::trainedModelFolders()
{
    // Models trained before the folder moved stay where they are (sessions name
    // them by path) and are listed with the others, newest first.
    QFileInfoList entries;
    for (const QString &root : QStringList{TrainingSession::modelsFolder()} + TrainingSession::earlierModelsFolders())
        entries += QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot);
    std::stable_sort(entries.begin(), entries.end(), [](const QFileInfo &a, const QFileInfo &b) {
        return a.lastModified() > b.lastModified();
    });
    QStringList folders;
    for (const QFileInfo &e : entries)
        if (QFileInfo::exists(QDir(e.filePath()).filePath(QStringLiteral("config.json"))))
            folders << e.filePath();
    return folders;
}

void TrainedModelsMenu::rebuild()
{
    clear();
    const QStringList folders = trainedModelFolders();
    if (folders.isEmpty()) {
        QAction *none = addAction(tr("None yet: Learn › Train a model… saves them in %1").arg(TrainingSession::modelsFolder()));
        none->setEnabled(false);
        MenuMnemonics::markAutomatic(none);
        return;
    }
    for (const QString &folder : folders) {
        QAction *action = addAction(QFileInfo(folder).fileName());
        MenuMnemonics::markAutomatic(action);
        action->setToolTip(folder);
        connect(action, &QAction::triggered, this, [this, folder] { emit openRequested(folder); });
    }
}
