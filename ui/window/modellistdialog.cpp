#include "modellistdialog.h"

#include "modellistmodel.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace {

// Rows whose name, store, family or quantisation hold every word typed, in any case.
class ModelFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setWords(const QString &text)
    {
        m_words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        QString searched;
        for (int column : {ModelListModel::Name, ModelListModel::Store, ModelListModel::Family, ModelListModel::Quantisation})
            searched += sourceModel()->index(row, column, parent).data().toString() + QLatin1Char('\n');
        for (const QString &word : m_words)
            if (!searched.contains(word, Qt::CaseInsensitive))
                return false;
        return true;
    }

private:
    QStringList m_words;
};

// Notes are read from their start (a reason, "also …"); names keep both ends.
class NotesFromTheStart : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideRight;
    }
};

// The path as the user knows it: ~ for the home folder.
QString shownPath(const QString &path)
{
    const QString home = QDir::homePath();
    return path.startsWith(home + QLatin1Char('/')) ? QLatin1Char('~') + path.mid(home.size()) : path;
}

} // namespace

ModelListDialog::ModelListDialog(QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("modelListDialog"));
    setWindowTitle(tr("Models on This Computer"));
    m_model = new ModelListModel(this);
    auto *filter = new ModelFilter(this);
    filter->setSourceModel(m_model);
    filter->setSortRole(ModelListModel::SortRole);
    m_shown = filter;

    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("modelFilter"));
    m_filter->setPlaceholderText(tr("Filter by name, family, quantisation or store"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter the models"));
    m_filter->installEventFilter(this);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("modelTable"));
    m_table->setModel(m_shown);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ModelListModel::Store, Qt::AscendingOrder);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAccessibleName(tr("Models"));
    m_table->setItemDelegateForColumn(ModelListModel::Notes, new NotesFromTheStart(m_table));

    m_details = new QLabel;
    m_details->setObjectName(QStringLiteral("modelDetails"));
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setWordWrap(true);
    m_status = new QLabel;

    auto *buttons = new QDialogButtonBox;
    m_open = buttons->addButton(tr("&Open"), QDialogButtonBox::ActionRole);
    m_open->setObjectName(QStringLiteral("openListedModel"));
    m_refresh = buttons->addButton(tr("&Refresh"), QDialogButtonBox::ActionRole);
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    // Enter belongs to the list and the filter (each opens the row), not to a default button.
    for (QPushButton *b : {m_open, m_refresh, close})
        b->setAutoDefault(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_details);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(m_filter, &QLineEdit::textChanged, this, &ModelListDialog::onFilter);
    connect(m_filter, &QLineEdit::returnPressed, this, &ModelListDialog::openCurrent);
    // activated: a double click, or Enter in the list.
    connect(m_table, &QAbstractItemView::activated, this, &ModelListDialog::openCurrent);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelListDialog::updateCurrent);
    connect(m_open, &QPushButton::clicked, this, &ModelListDialog::openCurrent);
    connect(m_refresh, &QPushButton::clicked, this, &ModelListDialog::refresh);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_model, &ModelListModel::listingStarted, this, [this] {
        m_status->setText(tr("Looking for models…"));
        m_refresh->setEnabled(false);
    });
    connect(m_model, &ModelListModel::listingFinished, this, &ModelListDialog::onListed);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ModelListDialog::onFilter);
    resize(1040, 520);
    updateCurrent();
}

void ModelListDialog::refresh() { m_model->refresh(ModelListModel::storeRootsOfThisComputer()); }

void ModelListDialog::onListed()
{
    m_refresh->setEnabled(true);
    m_table->resizeColumnsToContents();
    const int most = m_table->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 48;
    for (int c = 0; c < ModelListModel::Notes; ++c)
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c) + 12, most));
    const attn::ModelStoreRoots &r = m_model->roots();
    QStringList looked;
    for (const QStringList *folders : {&r.huggingFace, &r.ollama, &r.lmStudio, &r.llamaCpp})
        for (const QString &f : *folders)
            looked << shownPath(f);
    m_status->setToolTip(tr("Looked in %1").arg(looked.join(QStringLiteral(", "))));
    updateStatus();
}

void ModelListDialog::updateStatus()
{
    if (m_model->isListing())
        return;
    const int count = int(m_model->entries().size()), shown = m_shown->rowCount();
    if (count == 0)
        m_status->setText(tr("No models found. %1.").arg(m_status->toolTip()));
    else if (shown < count)
        m_status->setText(tr("%1 of %2 models shown").arg(shown).arg(count));
    else
        m_status->setText(count == 1 ? tr("1 model") : tr("%1 models").arg(count));
}

void ModelListDialog::onFilter()
{
    static_cast<ModelFilter *>(m_shown)->setWords(m_filter->text());
    // Something chosen whenever something is shown: Enter in the filter opens it.
    if (!m_table->currentIndex().isValid() && m_shown->rowCount() > 0)
        m_table->setCurrentIndex(m_shown->index(0, 0));
    updateCurrent();
    updateStatus();
}

void ModelListDialog::updateCurrent()
{
    const QModelIndex current = m_shown->mapToSource(m_table->currentIndex());
    if (!current.isValid()) {
        m_details->clear();
        m_open->setEnabled(false);
        return;
    }
    const attn::ModelListEntry &e = m_model->entry(current.row());
    m_open->setEnabled(e.canOpen());
    QString details = e.canOpen() ? shownPath(e.path) : tr("Cannot be opened: %1").arg(e.problem);
    for (const QString &other : e.alsoAt)
        details += QLatin1Char('\n') + tr("The same file as %1").arg(other);
    m_details->setText(details);
}

bool ModelListDialog::eventFilter(QObject *watched, QEvent *event)
{
    // Up and Down in the filter move through the list: typing and choosing need no mouse.
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Down || key == Qt::Key_Up || key == Qt::Key_PageDown || key == Qt::Key_PageUp) {
            QCoreApplication::sendEvent(m_table, event);
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

bool ModelListDialog::openCurrent()
{
    const QModelIndex current = m_shown->mapToSource(m_table->currentIndex());
    if (!current.isValid() || !m_model->entry(current.row()).canOpen())
        return false;
    const QString model = m_model->entry(current.row()).openWith;
    accept();
    emit openRequested(model);
    return true;
}
