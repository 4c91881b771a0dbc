#include "exportactions.h"

#include "document.h"
#include "exportseries.h"
#include "exportsizedialog.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QWidget>

namespace {

const char *const kDirectoryKey = "export/directory";

// The menu entries, in the order of the File › Export submenu.
struct PictureEntry
{
    ExportView view;
    const char *text;
};
const PictureEntry kPictureEntries[] = {
    {ExportView::Heatmap, QT_TRANSLATE_NOOP("ExportActions", "&Heatmap…")},
    {ExportView::Scores, QT_TRANSLATE_NOOP("ExportActions", "&Scores Heatmap…")},
    {ExportView::Pipeline, QT_TRANSLATE_NOOP("ExportActions", "&Pipeline…")},
    {ExportView::Bars, QT_TRANSLATE_NOOP("ExportActions", "&Bar Chart…")},
    {ExportView::Heads, QT_TRANSLATE_NOOP("ExportActions", "&All Heads…")},
    {ExportView::Dashboard, QT_TRANSLATE_NOOP("ExportActions", "&Dashboard…")},
};

} // namespace

ExportActions::ExportActions(Document *document, QWidget *window)
    : QObject(window), m_document(document), m_window(window)
{
}

void ExportActions::addToMenu(QMenu *fileMenu)
{
    QMenu *menu = fileMenu->addMenu(tr("&Export"));
    for (const PictureEntry &entry : kPictureEntries) {
        const ExportView view = entry.view;
        menu->addAction(tr(entry.text), this, [this, view] { exportPicture(view); });
    }
    QAction *eachHead = menu->addAction(tr("Every Head as Separate &Files…"), this, &ExportActions::exportEachHead);
    eachHead->setToolTip(tr("The heatmap of each head in its own file (name-head0.png, name-head1.png, …), "
                            "for slides"));
    // Only useful with more than one head; the menu is checked as it opens.
    connect(menu, &QMenu::aboutToShow, eachHead, [this, eachHead] {
        const SnapshotPtr snapshot = m_document->snapshot();
        eachHead->setEnabled(snapshot && snapshot->result && snapshot->result->heads.size() > 1);
    });
    menu->addSeparator();
    menu->addAction(tr("Numbers as &CSV…"), this, &ExportActions::exportCsv);
    menu->addAction(tr("Result as &JSON…"), this, &ExportActions::exportJson);
    menu->addSeparator();
    QAction *copy = menu->addAction(tr("C&opy View as Image"), this, &ExportActions::copyCurrentView);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
}

void ExportActions::attachContextMenu(QWidget *view, ExportView kind)
{
    m_views.insert(view, kind);
    connect(view, &QObject::destroyed, this, [this, view] { m_views.remove(view); });
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, [this, view, kind](const QPoint &pos) {
        QMenu menu(view);
        menu.addAction(tr("&Export This View…"), this,
                       [this, view, kind] { exportPictureOf(resolved(kind), pictureDefaults(resolved(kind), view)); });
        menu.addAction(tr("&Copy as Image"), this, [this, view, kind] {
            copyToClipboard(resolved(kind), view->size(), view->devicePixelRatioF());
        });
        menu.exec(view->mapToGlobal(pos));
    });
}

ExportView ExportActions::resolved(ExportView kind) const
{
    const ExportViewState state = m_state ? m_state() : ExportViewState();
    return kind == ExportView::Heatmap && state.showScores ? ExportView::Scores : kind;
}

ExportOptions ExportActions::optionsFor(ExportView view) const
{
    const ExportViewState state = m_state ? m_state() : ExportViewState();
    ExportOptions options;
    options.view = view;
    options.head = state.head;
    options.query = m_document->query();
    options.showScores = state.showScores;
    options.colorMap = state.colorMap;
    options.firstTokenAside = state.firstTokenAside;
    options.title = dashboardTitle(m_document->session(), options.query);
    return options;
}

bool ExportActions::exportTo(ExportView view, const QString &path, const QSize &size, double scale, bool transparent)
{
    ExportOptions options = optionsFor(view);
    options.size = size;
    options.scale = scale;
    options.transparent = transparent;
    QString error;
    if (!exportFile(m_document->session(), m_document->snapshot(), options, path, &error)) {
        showError(error);
        return false;
    }
    emit exported(path);
    return true;
}

QStringList ExportActions::exportEachHeadTo(ExportView view, const QString &path, const QSize &size, double scale,
                                            bool transparent)
{
    ExportOptions options = optionsFor(view);
    options.size = size;
    options.scale = scale;
    options.transparent = transparent;
    QStringList written;
    QString error;
    if (!::exportEachHead(m_document->session(), m_document->snapshot(), options, path, &written, &error)) {
        showError(error);
        return {};
    }
    for (const QString &file : written)
        emit exported(file);
    return written;
}

QImage ExportActions::copyToClipboard(ExportView view, const QSize &size, double scale)
{
    ExportOptions options = optionsFor(view);
    options.size = size;
    options.scale = scale;
    // Checked against a PNG name: the clipboard gets the same picture a PNG would.
    const QString problem = checkExport(m_document->snapshot(), options, tr("clipboard.png"));
    if (!problem.isEmpty()) {
        showError(problem);
        return {};
    }
    const QImage image = renderImage(m_document->snapshot(), options);
    QGuiApplication::clipboard()->setImage(image);
    return image;
}

void ExportActions::copyCurrentView()
{
    // The view holding the focus, or the one the focus is inside of.
    for (QWidget *w = QApplication::focusWidget(); w; w = w->parentWidget()) {
        const auto it = m_views.constFind(w);
        if (it != m_views.constEnd()) {
            copyToClipboard(resolved(*it), w->size(), w->devicePixelRatioF());
            return;
        }
    }
    copyToClipboard(resolved(ExportView::Heatmap), QSize(), m_window->devicePixelRatioF());
}

ExportActions::PictureDefaults ExportActions::pictureDefaults(ExportView view, const QWidget *shownIn) const
{
    PictureDefaults defaults;
    defaults.size = shownIn && view != ExportView::Heads ? shownIn->size()
                                                         : exportSize(m_document->snapshot(), optionsFor(view));
    return defaults;
}

void ExportActions::exportPicture(ExportView view)
{
    exportPictureOf(view, pictureDefaults(view));
}

void ExportActions::exportPictureOf(ExportView view, const PictureDefaults &defaults)
{
    const QStringList filters{tr("PNG image (*.png)"), tr("SVG drawing (*.svg)"), tr("PDF document (*.pdf)")};
    const QString path = askSavePath(tr("Export %1").arg(exportViewName(view)), exportViewName(view), filters);
    if (path.isEmpty())
        return;
    QSize size = defaults.size;
    double scale = defaults.scale;
    bool transparent = false;
    if (askPictureOptions(path, &size, &scale, &transparent))
        exportTo(view, path, size, scale, transparent);
}

bool ExportActions::askPictureOptions(const QString &path, QSize *size, double *scale, bool *transparent)
{
    const std::optional<ExportFormat> format = exportFormatForPath(path);
    if (format != ExportFormat::Png)
        *scale = 1.0; // only a PNG has pixels to double
    if (format != ExportFormat::Png && format != ExportFormat::Svg)
        return true; // a PDF page is exactly the view; nothing to ask
    ExportSizeDialog dialog(*size, format == ExportFormat::Png, m_window, *scale > 1.0);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    *size = dialog.exportSize();
    *scale = dialog.exportScale();
    *transparent = dialog.isTransparent();
    return true;
}

void ExportActions::exportEachHead()
{
    const ExportView view = resolved(ExportView::Heatmap);
    const QStringList filters{tr("PNG image (*.png)"), tr("SVG drawing (*.svg)"), tr("PDF document (*.pdf)"),
                              tr("CSV table (*.csv)")};
    // The dialog asks for one name; each head's file gets -head0, -head1, ... before its suffix.
    const QString path = askSavePath(tr("Export Every Head (files get -head0, -head1, … added)"),
                                     exportViewName(view), filters);
    if (path.isEmpty())
        return;
    const PictureDefaults defaults = pictureDefaults(view);
    QSize size = defaults.size;
    double scale = defaults.scale;
    bool transparent = false;
    if (askPictureOptions(path, &size, &scale, &transparent))
        exportEachHeadTo(view, path, size, scale, transparent);
}

void ExportActions::exportCsv()
{
    exportNumbers(ExportFormat::Csv);
}

void ExportActions::exportJson()
{
    exportNumbers(ExportFormat::Json);
}

void ExportActions::exportNumbers(ExportFormat format)
{
    const bool csv = format == ExportFormat::Csv;
    // The CSV holds the matrix the heatmap shows: weights or scores of its head.
    const ExportView view = resolved(ExportView::Heatmap);
    const QString base = csv ? exportViewName(view) : QStringLiteral("result");
    const QString path = askSavePath(csv ? tr("Export Numbers as CSV") : tr("Export Result as JSON"), base,
                                     {csv ? tr("CSV table (*.csv)") : tr("Result file (*.json)")});
    if (!path.isEmpty())
        exportTo(view, path);
}

QString ExportActions::askSavePath(const QString &title, const QString &baseName, const QStringList &filters)
{
    QSettings settings;
    const QString documentDir = m_document->filePath().isEmpty() ? QDir::homePath()
                                                                 : QFileInfo(m_document->filePath()).absolutePath();
    const QString dir = settings.value(QLatin1String(kDirectoryKey), documentDir).toString();
    // "journey.attn.json" suggests "journey-heatmap.png".
    const QString stem = m_document->filePath().isEmpty()
        ? QStringLiteral("attention")
        : QFileInfo(m_document->filePath()).fileName().section(QLatin1Char('.'), 0, 0);
    QString selected = filters.first();
    const QString suffix = selected.section(QLatin1String("*"), 1).chopped(1); // ".png"
    QString path = QFileDialog::getSaveFileName(m_window, title,
                                                QDir(dir).filePath(stem + QLatin1Char('-') + baseName + suffix),
                                                filters.join(QLatin1String(";;")), &selected);
    if (path.isEmpty())
        return {};
    // A name typed without a known suffix gets the one of the chosen filter.
    if (!exportFormatForPath(path))
        path += selected.section(QLatin1String("*"), 1).chopped(1);
    settings.setValue(QLatin1String(kDirectoryKey), QFileInfo(path).absolutePath());
    return path;
}

void ExportActions::showError(const QString &message)
{
    emit errorOccurred(message);
    if (m_interactive)
        QMessageBox::warning(m_window, tr("Export Failed"), message);
}
