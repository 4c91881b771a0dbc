#include "helpdialogs.h"

#include "screenfit.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

struct ShortcutRow
{
    QString keys;
    QString what;
};

void collect(const QMenu *menu, const QString &path, QList<ShortcutRow> &rows)
{
    for (QAction *action : menu->actions()) {
        const QString name = QString(action->text()).remove(QLatin1Char('&'));
        if (action->menu()) {
            collect(action->menu(), path + name + QStringLiteral(" › "), rows);
        } else if (!action->shortcut().isEmpty()) {
            rows.append({action->shortcut().toString(QKeySequence::NativeText), path + name});
        }
    }
}

QList<ShortcutRow> shortcutRows(QMainWindow *window)
{
    QList<ShortcutRow> rows;
    for (QAction *top : window->menuBar()->actions())
        if (top->menu())
            collect(top->menu(), QString(top->text()).remove(QLatin1Char('&')) + QStringLiteral(" › "), rows);
    const auto tr = [](const char *text) { return QCoreApplication::translate("Shortcuts", text); };
    rows.append({tr("Tab / Shift+Tab"), tr("Move between the sentence, the tokens, the heatmap and the panels")});
    rows.append({tr("Left / Right, Home / End"), tr("Tokens: move the query")});
    rows.append({tr("Up / Down"), tr("Heatmap: move the query")});
    rows.append({tr("Left / Right"), tr("Heatmap: move the cell cursor along the query's row")});
    rows.append({tr("Left / Right, Page Up / Page Down"), tr("Walkthrough: previous and next step")});
    rows.append({tr("Return"), tr("Sentence: re-tokenize now")});
    return rows;
}

} // namespace

QString shortcutsText(QMainWindow *window)
{
    QStringList lines;
    for (const ShortcutRow &row : shortcutRows(window))
        lines << row.keys + QLatin1Char('\t') + row.what;
    return lines.join(QLatin1Char('\n'));
}

void showShortcutsDialog(QMainWindow *window)
{
    const QList<ShortcutRow> rows = shortcutRows(window);
    QDialog dialog(window);
    dialog.setWindowTitle(QCoreApplication::translate("Shortcuts", "Keyboard shortcuts"));
    auto *table = new QTableWidget(int(rows.size()), 2);
    table->setHorizontalHeaderLabels({QCoreApplication::translate("Shortcuts", "Keys"),
                                      QCoreApplication::translate("Shortcuts", "Action")});
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows[i].keys));
        table->setItem(i, 1, new QTableWidgetItem(rows[i].what));
    }
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAccessibleName(QCoreApplication::translate("Shortcuts", "Keyboard shortcuts"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resizeWithinScreen(&dialog, {640, 480});
    dialog.exec();
}

void showAboutDialog(QWidget *parent)
{
    QMessageBox::about(
        parent, QCoreApplication::translate("About", "About Attention Explorer"),
        QCoreApplication::translate(
            "About",
            "<h3>Attention Explorer %1</h3>"
            "<p>See self-attention at work: edit embeddings, pick a query, and follow its scores, "
            "weights and context vector.</p>"
            "<p>Released under the MIT licence. Built with Qt %2 and Eigen.</p>")
            .arg(QApplication::applicationVersion(), QLatin1String(qVersion())));
}
