#pragma once
// The rows of File › Models on This Computer: the entries attn::listModels
// finds (core/model/modellist.h), listed on a worker thread each time
// refresh() is called, so that the window stays live while a large store's
// headers are read; a newer listing cancels an older one. The model only
// words what the core found: names, numbers and sizes as people read them,
// numbers for sorting, and the rows that cannot be opened greyed.

#include "model/modellist.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <memory>

class ModelListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Store, Family, Parameters, Quantisation, Size, Notes, ColumnCount };
    // What columns sort by: numbers for parameters and sizes, the store's
    // order for stores, the shown text elsewhere.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ModelListModel(QObject *parent = nullptr);
    ~ModelListModel() override;

    // The stores of this computer: the environment's (modelStoreRootsFromEnvironment)
    // and the models the training window saved.
    static attn::ModelStoreRoots storeRootsOfThisComputer();

    // Lists `roots` again on a worker; the rows change when it is done.
    void refresh(const attn::ModelStoreRoots &roots);
    bool isListing() const { return m_running != nullptr; }
    const attn::ModelStoreRoots &roots() const { return m_roots; }

    void setEntries(QList<attn::ModelListEntry> entries);
    const QList<attn::ModelListEntry> &entries() const { return m_entries; }
    const attn::ModelListEntry &entry(int row) const { return m_entries[row]; }

    // "80.8 K", "124 M", "8.03 B": three significant digits.
    static QString shortCount(double count);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void listingStarted();
    void listingFinished();

private:
    QString text(const attn::ModelListEntry &e, int column) const;
    QString toolTip(const attn::ModelListEntry &e, int column) const;

    using Watcher = QFutureWatcher<QList<attn::ModelListEntry>>;
    QList<attn::ModelListEntry> m_entries;
    attn::ModelStoreRoots m_roots;
    Watcher *m_running = nullptr;
    std::shared_ptr<attn::CancelFlag> m_cancel;
};
