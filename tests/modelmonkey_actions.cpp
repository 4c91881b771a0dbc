// tst_modelmonkey's action table: what a user does with an open model
// (layers, heads, grid tiles, switching heads off and on, undo, redo, broken
// folders, closing and opening again), each with its weight and the
// expectations it checks on the spot. The text edits are in modelmonkey_edits.cpp.

#include "headbox.h"
#include "modelmonkey.h"

#include "modelactions.h"
#include "modeldocument.h"
#include "modelgridview.h"

#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QLineEdit>
#include <QMenu>
#include <QStatusBar>
#include <QTest>
#include <QUndoStack>

namespace {

QString headsText(const std::set<attn::LayerHead> &heads)
{
    QStringList names;
    for (const attn::LayerHead &h : heads)
        names << QStringLiteral("%1:%2").arg(h.layer).arg(h.head);
    return QStringLiteral("{%1}").arg(names.join(QLatin1Char(' ')));
}

// The open popup menu's action `name`, clicked as a user does; false when there is none or it is disabled.
bool clickMenuAction(const char *name)
{
    auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
    if (!menu)
        return false;
    QAction *action = menu->findChild<QAction *>(QLatin1String(name));
    const bool usable = action && action->isEnabled() && menu->actionGeometry(action).isValid();
    if (usable)
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(action).center());
    if (QApplication::activePopupWidget() == menu)
        menu->close(); // a disabled entry leaves it open, as Escape would close it
    return usable;
}

} // namespace

// A closed popup menu leaves no window active on the offscreen platform (a
// window manager would give the activation back): the window's shortcuts need it.
bool TestModelMonkey::activateWindow()
{
    if (m_window->isActiveWindow())
        return true;
    m_window->activateWindow();
    const bool active = QTest::qWaitForWindowActive(m_window, 1000);
    expect(active, QStringLiteral("the window does not become active for a shortcut"));
    return active;
}

// A switch the document takes as one undo step (it drops a switch that changes nothing).
void TestModelMonkey::recordSwitch(const std::set<attn::LayerHead> &before)
{
    const std::set<attn::LayerHead> after = m_doc.model()->ablatedHeads();
    if (after == before)
        return;
    m_switches.resize(std::size_t(m_switchIndex));
    m_switches.push_back({before, after, m_doc.model()->generation()});
    ++m_switchIndex;
    m_expectedAblated = after;
}

std::vector<TestModelMonkey::Action> TestModelMonkey::actions()
{
    std::vector<Action> list = editActions();
    auto add = [&list](const char *name, int weight, std::function<QString()> run) {
        list.push_back({name, weight, std::move(run)});
    };
    ModelDocument *model = m_doc.model();

    add("pick a layer", 6, [this, model] {
        QComboBox *box = window().modelActions()->layerBox();
        const int layers = model->config()->layers;
        if (chance(0.5)) {
            const Qt::Key key = QList<Qt::Key>{Qt::Key_Up, Qt::Key_Down, Qt::Key_Home, Qt::Key_End}[below(4)];
            const int was = model->layer();
            const int expected = key == Qt::Key_Up ? std::max(was - 1, 0)
                : key == Qt::Key_Down              ? std::min(was + 1, layers - 1)
                : key == Qt::Key_Home              ? 0
                                                   : layers - 1;
            box->setFocus();
            QTest::keyClick(box, key);
            expect(model->layer() == expected, QStringLiteral("layer %1 after key %2 on layer %3")
                                                   .arg(model->layer()).arg(QTest::toString(key)).arg(was));
            return QStringLiteral("key %1 on the layer box (was layer %2)").arg(QTest::toString(key)).arg(was);
        }
        const int layer = below(layers);
        box->setCurrentIndex(layer);
        emit box->activated(layer); // what choosing it in the list does
        expect(model->layer() == layer, QStringLiteral("layer %1 after choosing %2").arg(model->layer()).arg(layer));
        return QStringLiteral("choose layer %1 in the layer box").arg(layer);
    });
    add("pick a head", 6, [this, model] {
        QComboBox *box = window().headBox();
        const int index = below(box->count());
        const int head = headOfBoxItem(box, index).value_or(-1); // -1: the average, as ModelDocument numbers it
        box->setCurrentIndex(index);
        emit box->activated(index);
        expect(model->head() == head, QStringLiteral("head %1 after choosing %2").arg(model->head()).arg(head));
        return QStringLiteral("choose \"%1\" in the head box").arg(box->itemText(index));
    });
    add("click a grid tile", 6, [this, model] {
        ModelGridView *grid = window().modelActions()->grid();
        if (grid->layerCount() == 0)
            return QStringLiteral("click the grid (no tiles: %1)").arg(m_doc.snapshot()->error);
        const int layer = below(grid->layerCount()), head = below(grid->headCount());
        QTest::mouseClick(grid, Qt::LeftButton, {}, grid->tileRect(layer, head).center().toPoint());
        expect(model->layer() == layer && model->head() == head,
               QStringLiteral("layer %1 head %2 after clicking tile %3:%4").arg(model->layer()).arg(model->head())
                   .arg(layer).arg(head));
        return QStringLiteral("click grid tile %1:%2").arg(layer).arg(head);
    });
    add("right-click a grid tile", 5, [this, model] {
        ModelGridView *grid = window().modelActions()->grid();
        if (grid->layerCount() == 0)
            return QStringLiteral("right-click the grid (no tiles)");
        const int layer = below(grid->layerCount()), head = below(grid->headCount());
        const std::set<attn::LayerHead> before = model->ablatedHeads();
        const bool wasOff = model->isAblated(layer, head);
        const QPoint at = grid->tileRect(layer, head).center().toPoint();
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, grid->mapToGlobal(at));
        QApplication::sendEvent(grid, &event);
        const bool all = chance(0.15);
        const bool clicked = clickMenuAction(all ? "switchAllOn" : "switchHead");
        expect(all || clicked, QStringLiteral("no \"switch head\" entry in the tile's menu"));
        recordSwitch(before);
        if (!all)
            expect(model->isAblated(layer, head) != wasOff, QStringLiteral("head %1:%2 did not switch").arg(layer).arg(head));
        else
            expect(model->ablatedHeads().empty(), QStringLiteral("heads still off after \"switch all on\""));
        return QStringLiteral("right-click tile %1:%2, %3 (now off: %4)")
            .arg(layer).arg(head).arg(all ? "switch all on" : wasOff ? "switch on" : "switch off",
                                      headsText(model->ablatedHeads()));
    });
    add("head box menu", 2, [this, model] {
        QComboBox *box = window().headBox();
        const std::set<attn::LayerHead> before = model->ablatedHeads();
        const int layer = model->layer(), head = model->head();
        QContextMenuEvent event(QContextMenuEvent::Mouse, box->rect().center(), box->mapToGlobal(box->rect().center()));
        QApplication::sendEvent(box, &event);
        const bool clicked = clickMenuAction(head >= 0 && chance(0.85) ? "switchHead" : "switchAllOn");
        recordSwitch(before);
        return QStringLiteral("head box menu on %1:%2, %3 (now off: %4)")
            .arg(layer).arg(head).arg(clicked ? "clicked" : "nothing to click", headsText(model->ablatedHeads()));
    });
    add("switch heads (document)", 2, [this, model] {
        std::set<attn::LayerHead> heads;
        const int layers = model->config()->layers, perLayer = model->config()->heads;
        for (int k = 0, n = below(4); k < n; ++k)
            heads.insert({below(layers + 1), below(perLayer + 1)}); // now and then one the model lacks
        const std::set<attn::LayerHead> before = model->ablatedHeads();
        m_doc.setAblatedHeads(heads, QStringLiteral("monkey"));
        recordSwitch(before);
        expect(model->ablatedHeads() == model->withinModel(heads),
               QStringLiteral("switched off %1, asked for %2").arg(headsText(model->ablatedHeads()), headsText(heads)));
        return QStringLiteral("doc.setAblatedHeads(%1)").arg(headsText(heads));
    });
    add("undo", 5, [this, model] {
        QUndoStack *undo = m_doc.undoStack();
        const bool can = undo->canUndo();
        expect(can == (m_switchIndex > 0), QStringLiteral("canUndo() is %1 with %2 switches to undo").arg(can).arg(m_switchIndex));
        const bool key = chance(0.5);
        if (key && activateWindow())
            QTest::keyClick(m_window, Qt::Key_Z, Qt::ControlModifier);
        else
            undo->undo();
        if (can && m_switchIndex > 0) {
            const Switch &undone = m_switches[std::size_t(--m_switchIndex)];
            if (undone.generation == model->generation())
                m_expectedAblated = model->withinModel(undone.before);
        }
        return QStringLiteral("undo%1%2 (now off: %3)").arg(key ? " (Ctrl+Z)" : "", can ? QString() : QStringLiteral(" (nothing to undo)"),
                                                          headsText(model->ablatedHeads()));
    });
    add("redo", 3, [this, model] {
        QUndoStack *undo = m_doc.undoStack();
        const bool can = undo->canRedo();
        expect(can == (m_switchIndex < int(m_switches.size())),
               QStringLiteral("canRedo() is %1 with %2 switches to redo").arg(can).arg(int(m_switches.size()) - m_switchIndex));
        const bool key = chance(0.5);
        if (key && activateWindow())
            QTest::keyClick(m_window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        else
            undo->redo();
        if (can && m_switchIndex < int(m_switches.size())) {
            const Switch &redone = m_switches[std::size_t(m_switchIndex++)];
            if (redone.generation == model->generation())
                m_expectedAblated = model->withinModel(redone.after);
        }
        return QStringLiteral("redo%1%2 (now off: %3)").arg(key ? " (Ctrl+Shift+Z)" : "", can ? QString() : QStringLiteral(" (nothing to redo)"),
                                                          headsText(model->ablatedHeads()));
    });
    add("weights or scores", 1, [this] {
        const bool scores = chance(0.3);
        window().setShowScores(scores);
        return QStringLiteral("show %1").arg(scores ? "scores" : "weights");
    });
    add("open a bad model folder", 3, [this, model] {
        const BadFolder &bad = m_bad[std::size_t(below(int(m_bad.size())))];
        // What must stay: the model, its text (the field's, which Open applies), switches, selection, history.
        const QString name = model->name(), folder = model->folder();
        const QString text = window().sentenceEdit()->text();
        const std::vector<attn::ModelToken> tokens = text == model->text() ? model->tokens() : std::vector<attn::ModelToken>{};
        const std::set<attn::LayerHead> ablated = model->ablatedHeads();
        const HeadRef head = m_doc.selection()->head();
        const int query = model->query(), undoCount = m_doc.undoStack()->count(), undoIndex = m_doc.undoStack()->index();
        window().modelActions()->openFolder(bad.path);
        const bool idle = waitIdle();
        const QString error = window().modelActions()->lastError();
        expect(idle, QStringLiteral("still opening after 20 s"));
        expect(error == QStringLiteral("Cannot open the model: ") + bad.message && !error.contains(QLatin1Char('\n')),
               QStringLiteral("the message is \"%1\", expected \"Cannot open the model: %2\"").arg(error, bad.message));
        expect(window().statusBar()->currentMessage() == error, QStringLiteral("the status bar says \"%1\"")
                                                                    .arg(window().statusBar()->currentMessage()));
        expect(model->isOpen() && model->name() == name && model->folder() == folder, QStringLiteral("another model is open"));
        expect(model->text() == text, QStringLiteral("the text changed"));
        expect(model->ablatedHeads() == ablated, QStringLiteral("the switched-off heads changed"));
        expect(m_doc.selection()->head() == head, QStringLiteral("the selected layer or head changed"));
        expect(m_doc.undoStack()->count() == undoCount && m_doc.undoStack()->index() == undoIndex,
               QStringLiteral("the undo history changed"));
        if (!tokens.empty()) {
            bool same = tokens.size() == model->tokens().size();
            for (std::size_t t = 0; same && t < tokens.size(); ++t)
                same = tokens[t].id == model->tokens()[t].id;
            expect(same, QStringLiteral("the tokens changed"));
            expect(model->query() == query, QStringLiteral("the query moved from %1 to %2").arg(query).arg(model->query()));
        }
        return QStringLiteral("open bad folder %1: %2").arg(bad.name, error);
    });
    add("close and open again", 1, [this, model] {
        const QString was = model->name();
        window().modelActions()->closeModel();
        expect(!model->isOpen(), QStringLiteral("still open after Close Model"));
        const QString closed = checkClosed();
        expect(closed.isEmpty(), closed);
        m_expectedAblated.clear();
        // The sentence field keeps the model's text; the next model reads a text of its own.
        const int next = below(int(m_models.size()));
        m_current = next;
        window().sentenceEdit()->setText(randomText(true));
        const bool opened = openModel(next);
        expect(opened, QStringLiteral("%1 did not open: %2").arg(m_models[std::size_t(next)].name,
                                                                 window().modelActions()->lastError()));
        expect(model->layer() == 0 && model->head() == 0, QStringLiteral("opened on layer %1 head %2, not 0 and 0")
                                                              .arg(model->layer()).arg(model->head()));
        expect(model->ablatedHeads().empty(), QStringLiteral("a new model with heads switched off"));
        return QStringLiteral("close %1, open %2").arg(was, m_models[std::size_t(next)].name);
    });
    return list;
}
