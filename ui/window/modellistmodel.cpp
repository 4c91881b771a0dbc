#include "modellistmodel.h"

#include "trainedmodelsmenu.h"

#include <QApplication>
#include <QLocale>
#include <QPalette>
#include <QRegularExpression>
#include <QStyle>
#include <QtConcurrent>
#include <cmath>

namespace {

// A reason without the file or manifest it starts with ("manifest
// registry.ollama.ai/library/x/latest: ", "/home/…/snapshots/abc: "): the row
// names the model already, and the whole line is in the tooltip.
QString withoutItsFile(const QString &problem)
{
    static const QRegularExpression named(QRegularExpression::anchoredPattern(QStringLiteral("(manifest )?[^\\s]+: (.+)")));
    const QRegularExpressionMatch m = named.match(problem);
    return m.hasMatch() ? m.captured(2) : problem;
}

} // namespace

ModelListModel::ModelListModel(QObject *parent) : QAbstractTableModel(parent) {}

ModelListModel::~ModelListModel()
{
    // A listing nobody will read stops at its next model; the pool finishes it.
    if (m_cancel)
        m_cancel->store(true);
}

attn::ModelStoreRoots ModelListModel::storeRootsOfThisComputer()
{
    attn::ModelStoreRoots roots = attn::modelStoreRootsFromEnvironment();
    roots.trainedHere = TrainedModelsMenu::trainedModelFolders();
    return roots;
}

void ModelListModel::refresh(const attn::ModelStoreRoots &roots)
{
    if (m_cancel)
        m_cancel->store(true);
    if (m_running)
        m_running->disconnect(this);
    m_roots = roots;
    auto cancel = std::make_shared<attn::CancelFlag>(false);
    m_cancel = cancel;
    auto *watcher = new Watcher(this);
    m_running = watcher;
    connect(watcher, &Watcher::finished, this, [this, watcher] {
        m_running = nullptr;
        m_cancel.reset();
        setEntries(watcher->result());
        emit listingFinished();
    });
    // An older listing's watcher lives until its run ends; it no longer speaks to this model.
    connect(watcher, &Watcher::finished, watcher, &QObject::deleteLater);
    watcher->setFuture(QtConcurrent::run([roots, cancel] {
        try {
            return attn::listModels(roots, cancel.get());
        } catch (const std::bad_alloc &) {
            return QList<attn::ModelListEntry>(); // nothing listed rather than a crash
        }
    }));
    emit listingStarted();
}

void ModelListModel::setEntries(QList<attn::ModelListEntry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

QString ModelListModel::shortCount(double count)
{
    if (count < 1000)
        return QString::number(count, 'f', 0);
    static const char *const units[] = {" K", " M", " B", " T"};
    int unit = 0;
    double scaled = count / 1000;
    while (scaled >= 999.5 && unit < 3) {
        scaled /= 1000;
        ++unit;
    }
    const int decimals = scaled < 9.995 ? 2 : scaled < 99.95 ? 1 : 0;
    return QLocale().toString(scaled, 'f', decimals) + QLatin1String(units[unit]);
}

int ModelListModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_entries.size()); }

int ModelListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString ModelListModel::text(const attn::ModelListEntry &e, int column) const
{
    switch (column) {
    case Name: return e.name;
    case Store: return attn::modelStoreName(e.store);
    case Family: return e.family;
    case Parameters: return e.parameters > 0 ? shortCount(e.parameters) : QString();
    case Quantisation:
        // The file's own label too when it says more than the type of most weights ("Q4_K_M").
        if (!e.fileType.isEmpty() && !e.format.endsWith(QLatin1Char('-') + e.fileType))
            return e.format.isEmpty() ? e.fileType : tr("%1 (%2)").arg(e.format, e.fileType);
        return e.format;
    case Size: return e.sizeOnDisk >= 0 ? QLocale().formattedDataSize(e.sizeOnDisk, 1, QLocale::DataSizeSIFormat) : QString();
    case Notes: {
        QStringList notes;
        if (!e.canOpen())
            notes << withoutItsFile(e.problem);
        if (!e.alsoAt.isEmpty())
            notes << tr("also %1").arg(e.alsoAt.join(QStringLiteral(", ")));
        return notes.join(QStringLiteral("; "));
    }
    }
    return {};
}

QString ModelListModel::toolTip(const attn::ModelListEntry &e, int column) const
{
    if (column == Parameters && e.parameters > 0)
        return tr("%1 weights").arg(QLocale().toString(e.parameters, 'f', 0));
    if (column == Size && e.sizeOnDisk >= 0)
        return tr("%1 bytes").arg(QLocale().toString(e.sizeOnDisk));
    QStringList lines;
    if (!e.canOpen())
        lines << tr("Cannot be opened: %1").arg(e.problem);
    lines << e.path;
    for (const QString &other : e.alsoAt)
        lines << tr("The same file as %1").arg(other);
    return lines.join(QLatin1Char('\n'));
}

QVariant ModelListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const attn::ModelListEntry &e = m_entries[index.row()];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return text(e, column);
    case Qt::ToolTipRole:
        return toolTip(e, column);
    case SortRole:
        if (column == Parameters)
            return e.parameters;
        if (column == Size)
            return e.sizeOnDisk;
        if (column == Store)
            return int(e.store);
        return text(e, column).toCaseFolded();
    case Qt::TextAlignmentRole:
        if (column == Parameters || column == Size)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        if (!e.canOpen())
            return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::DecorationRole:
        if (column == Name && !e.canOpen())
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case Qt::AccessibleDescriptionRole:
        return e.canOpen() ? QVariant() : QVariant(tr("Cannot be opened: %1").arg(e.problem));
    }
    return {};
}

QVariant ModelListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return tr("Name");
    case Store: return tr("Store");
    case Family: return tr("Family");
    case Parameters: return tr("Parameters");
    case Quantisation: return tr("Quantisation");
    case Size: return tr("Size");
    case Notes: return tr("Notes");
    }
    return {};
}
