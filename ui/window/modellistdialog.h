#pragma once
// File › Models on This Computer: one list of every model the stores on this
// computer hold (the Hugging Face cache, Ollama, LM Studio, llama.cpp's cache
// and the models trained here), with its family, parameters, quantisation
// and size, filtered as the user types and sorted by any column. Open (the
// button, a double click or Enter) asks the window to open the chosen model
// as File › Open Model does; a row that cannot be opened is greyed and says why.

#include <QDialog>

class ModelListModel;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

class ModelListDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ModelListDialog(QWidget *parent = nullptr);

    // Lists the stores of this computer again (ModelListModel::storeRootsOfThisComputer).
    void refresh();

    ModelListModel *listModel() const { return m_model; }
    QSortFilterProxyModel *shownRows() const { return m_shown; }
    QTableView *table() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }
    QPushButton *openButton() const { return m_open; }
    QLabel *detailsLabel() const { return m_details; }
    QLabel *statusLabel() const { return m_status; }

    // Opens the current row, when it can be opened; false otherwise.
    bool openCurrent();

signals:
    // What File › Open Model would open: a folder, a GGUF file or "ollama:NAME".
    void openRequested(const QString &model);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onListed();
    void onFilter();
    void updateCurrent();
    void updateStatus(); // how many models, how many shown

    ModelListModel *m_model;
    QSortFilterProxyModel *m_shown;
    QTableView *m_table;
    QLineEdit *m_filter;
    QPushButton *m_open;
    QPushButton *m_refresh;
    QLabel *m_details;
    QLabel *m_status;
};
