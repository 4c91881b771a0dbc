#pragma once
// Learn › Trained models: the model folders the training window saved under
// AppDataLocation/models, newest first, listed again each time the menu opens.

#include <QMenu>

class TrainedModelsMenu : public QMenu
{
    Q_OBJECT
public:
    explicit TrainedModelsMenu(QWidget *parent = nullptr);

    // Its subfolders that hold a config.json, newest first.
    static QStringList trainedModelFolders();
    void rebuild();

signals:
    void openRequested(const QString &folder);
};
