// tst_monkey's action table: every kind of thing a user does, with its
// weight and the expectations it checks on the spot.

#include "monkey.h"

#include "barchartview.h"
#include "fileactions.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "optionspanel.h"
#include "session/sessionio.h"
#include "tokenchips.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <cmath>

std::vector<TestMonkey::Action> TestMonkey::actions()
{
    std::vector<Action> list;
    auto add = [&list](const char *name, int weight, std::function<QString()> run) {
        list.push_back({name, weight, std::move(run)});
    };

    add("click a chip", 8, [this] {
        const int i = below(m_doc.tokenCount());
        const QRect chip = window().chips()->chipRect(i);
        expect(chip.isValid(), QStringLiteral("chip %1 has no rectangle").arg(i));
        QTest::mouseClick(window().chips(), Qt::LeftButton, {}, chip.center());
        expect(m_doc.query() == i, QStringLiteral("query is %1, not the clicked chip").arg(m_doc.query()));
        return QStringLiteral("click chip %1 of %2").arg(i).arg(m_doc.tokenCount());
    });
    add("click between chips", 1, [this] {
        const int before = m_doc.query();
        const QPoint pos(window().chips()->width() - 1, window().chips()->height() - 1);
        if (window().chips()->chipAt(pos) < 0) {
            QTest::mouseClick(window().chips(), Qt::LeftButton, {}, pos);
            expect(m_doc.query() == before, QStringLiteral("a click beside the chips moved the query"));
        }
        return QStringLiteral("click beside the chips at (%1, %2)").arg(pos.x()).arg(pos.y());
    });
    add("click a heatmap cell", 6, [this] {
        HeatmapView *heatmap = window().heatmap();
        const int rows = heatmap->painter().rows(), columns = heatmap->painter().columns();
        if (rows == 0)
            return QStringLiteral("click the heatmap (no cells)");
        const int row = below(rows), column = below(columns);
        const QRectF cell = heatmap->cellRect(row, column);
        const QPoint at = cell.center().toPoint();
        const auto hit = heatmap->cellAt(at);
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, at);
        if (hit)
            expect(m_doc.query() == hit->first, QStringLiteral("query is %1, the clicked row is %2")
                                                     .arg(m_doc.query())
                                                     .arg(hit->first));
        if (cell.height() >= 2 && cell.width() >= 2)
            expect(hit && hit->first == row && hit->second == column,
                   QStringLiteral("cellAt(cellRect(%1, %2).center()) is another cell").arg(row).arg(column));
        return QStringLiteral("click heatmap cell (%1, %2) of %3 x %4").arg(row).arg(column).arg(rows).arg(columns);
    });
    add("click a head tile", 4, [this] {
        HeadsGridView *grid = window().headsGrid();
        if (grid->tileCount() == 0)
            return QStringLiteral("click the heads grid (no tiles)");
        const int tile = below(grid->tileCount());
        const QRectF rect = grid->tileRect(tile);
        QTest::mouseClick(grid, Qt::LeftButton, {}, rect.center().toPoint());
        if (rect.width() >= 2 && rect.height() >= 2)
            expect(window().selectedHead() == grid->gridPainter().headOfTile(tile),
                   QStringLiteral("selected %1 after clicking tile %2").arg(headText(window().selectedHead())).arg(tile));
        return QStringLiteral("click head tile %1 of %2").arg(tile).arg(grid->tileCount());
    });
    add("drag a slider", 10, [this] {
        const int dim = below(shownDims());
        QSlider *slider = window().editor()->slider(dim);
        expect(slider, QStringLiteral("no slider for dimension %1").arg(dim));
        if (!slider)
            return QStringLiteral("drag slider %1 (missing)").arg(dim);
        const int token = window().editor()->editedToken();
        const int undoIndex = m_doc.undoStack()->index();
        QStringList positions;
        bool moved = false;
        slider->setSliderDown(true);
        for (int k = 0, moves = 1 + below(6); k < moves; ++k) {
            const int position = slider->minimum() + below(slider->maximum() - slider->minimum() + 1);
            moved = moved || position != slider->value();
            positions << QString::number(position);
            slider->setValue(position);
        }
        slider->setSliderDown(false);
        expect(m_doc.undoStack()->index() <= undoIndex + 1,
               QStringLiteral("one drag made %1 undo steps").arg(m_doc.undoStack()->index() - undoIndex));
        if (moved) {
            const double step = 2.0 * window().editor()->sliderRange() / 400.0;
            const double value = std::round(slider->value() * step * 1e9) / 1e9;
            expect(m_doc.session().embeddings(token, dim) == value,
                   QStringLiteral("embedding is %1 after the drag, the slider says %2")
                       .arg(m_doc.session().embeddings(token, dim))
                       .arg(value));
        }
        return QStringLiteral("drag slider d%1 of token %2 through %3").arg(dim).arg(token).arg(positions.join(','));
    });
    add("type into a number box", 6, [this] {
        const int dim = below(shownDims());
        QDoubleSpinBox *spin = window().editor()->spinBox(dim);
        static const QStringList texts = {"0", "-0.5", "1.2345", "999999.9999", "-1000000", "1e6", "abc", "",
                                          "12,5", "-", "0.00001", "3.14159", "-999999"};
        const QString text = chance(0.5) ? QString::number(m_rng.nextSymmetric(3.0), 'f', 4) : pick(texts);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, text);
        QTest::keyClick(spin, Qt::Key_Return);
        return QStringLiteral("type %1 + Return into number box d%2").arg(shortText(text)).arg(dim);
    });
    add("set a number box", 3, [this] {
        const int dim = below(shownDims());
        const double value = chance(0.1) ? (chance(0.5) ? 1e6 : -1e6) : m_rng.nextSymmetric(2.0);
        window().editor()->spinBox(dim)->setValue(value);
        return QStringLiteral("set number box d%1 to %2").arg(dim).arg(value, 0, 'g', 17);
    });
    add("step a number box", 2, [this] {
        const int dim = below(shownDims());
        const Qt::Key key = pick(QList<Qt::Key>{Qt::Key_Up, Qt::Key_Down, Qt::Key_PageUp, Qt::Key_PageDown});
        QTest::keyClick(window().editor()->spinBox(dim), key);
        return QStringLiteral("key %1 in number box d%2").arg(QTest::toString(key)).arg(dim);
    });
    add("keys on the chips", 5, [this] {
        TokenChips *chips = window().chips();
        const int n = m_doc.tokenCount(), q = m_doc.query();
        const Qt::Key key = pick(QList<Qt::Key>{Qt::Key_Left, Qt::Key_Right, Qt::Key_Home, Qt::Key_End});
        const int expected = key == Qt::Key_Left ? std::max(q - 1, 0)
            : key == Qt::Key_Right               ? std::min(q + 1, n - 1)
            : key == Qt::Key_Home                ? 0
                                                 : n - 1;
        chips->setFocus();
        QTest::keyClick(chips, key);
        expect(m_doc.query() == expected, QStringLiteral("query %1, expected %2").arg(m_doc.query()).arg(expected));
        return QStringLiteral("key %1 on the chips (query was %2)").arg(QTest::toString(key)).arg(q);
    });
    add("keys on the heatmap", 4, [this] {
        const int n = m_doc.tokenCount(), q = m_doc.query();
        const bool up = chance(0.5);
        window().heatmap()->setFocus();
        QTest::keyClick(window().heatmap(), up ? Qt::Key_Up : Qt::Key_Down);
        const int expected = std::clamp(q + (up ? -1 : 1), 0, n - 1);
        expect(m_doc.query() == expected, QStringLiteral("query %1, expected %2").arg(m_doc.query()).arg(expected));
        return QStringLiteral("key %1 on the heatmap (query was %2)").arg(up ? "Up" : "Down").arg(q);
    });
    add("toggle an option", 8, [this] {
        OptionsPanel *o = window().options();
        const int which = below(3);
        QCheckBox *box = QList<QCheckBox *>{o->causalBox(), o->scaleBox(), o->projectionBox()}[which];
        if (!box->isEnabled())
            return QStringLiteral("\"%1\" disabled (cross-attention)").arg(box->text());
        const attn::AttentionConfig before = m_doc.session().attention;
        box->click();
        const attn::AttentionConfig &after = m_doc.session().attention;
        const bool toggled = which == 0 ? after.causal != before.causal
            : which == 1               ? after.scale != before.scale
                                       : after.outputProjection != before.outputProjection;
        expect(toggled, QStringLiteral("the option did not change the session"));
        return QStringLiteral("click \"%1\" (now %2)").arg(box->text()).arg(box->isChecked() ? "on" : "off");
    });
    add("choose positions", 3, [this] {
        QComboBox *box = window().options()->positionalBox();
        const int index = below(3);
        const auto wanted = attn::PositionalEncoding(box->itemData(index).toInt());
        const attn::AttentionConfig before = m_doc.session().attention;
        box->setCurrentIndex(index);
        // Rotary needs an even head width: with an odd one the choice is not taken.
        const bool possible = wanted != attn::PositionalEncoding::Rotary
            || attn::effectiveHeadDim(before, m_doc.session().dModel()) % 2 == 0;
        expect(m_doc.session().attention.positionalEncoding == (possible ? wanted : before.positionalEncoding),
               QStringLiteral("positions not applied"));
        return QStringLiteral("choose positions \"%1\"").arg(box->itemText(index));
    });
    add("change key/value heads", 2, [this] {
        QComboBox *box = window().options()->kvHeadsBox();
        if (!box->isEnabled() || box->count() == 0)
            return QStringLiteral("key/value heads disabled");
        const int index = below(box->count());
        box->setCurrentIndex(index);
        expect(m_doc.session().attention.keyValueHeads() == box->itemData(index).toInt(),
               QStringLiteral("key/value heads %1, chosen %2").arg(m_doc.session().attention.keyValueHeads())
                   .arg(box->itemData(index).toInt()));
        return QStringLiteral("set key/value heads to %1").arg(box->itemData(index).toInt());
    });
    add("change heads", 4, [this] {
        const int heads = 1 + below(kMaxHeads);
        QSpinBox *box = window().options()->headsBox();
        if (!box->isEnabled())
            return QStringLiteral("heads box disabled (simplified mode)");
        box->setValue(heads);
        // Simplified attention has one head: asking for more gives one.
        const bool simplified = m_doc.session().attention.mode == attn::Mode::Simplified;
        expect(m_doc.session().attention.heads == (simplified ? 1 : heads),
               QStringLiteral("heads is %1").arg(m_doc.session().attention.heads));
        return QStringLiteral("set heads to %1").arg(heads);
    });
    add("change head_dim", 3, [this] {
        QSpinBox *box = window().options()->headDimBox();
        const int headDim = 1 + below(kMaxHeadDim);
        if (!box->isEnabled())
            return QStringLiteral("head_dim box disabled (simplified mode)");
        box->setValue(headDim);
        // Rotary positions turn pairs: an odd width becomes the next even one.
        const int expected = m_doc.session().attention.rotary() && headDim % 2 != 0
            ? (headDim + 1 <= kMaxHeadDim ? headDim + 1 : headDim - 1)
            : headDim;
        expect(m_doc.session().attention.headDim == expected,
               QStringLiteral("head_dim is %1").arg(m_doc.session().attention.headDim));
        return QStringLiteral("set head_dim to %1").arg(headDim);
    });
    add("change mode", 3, [this] {
        const int index = below(2);
        QComboBox *box = window().options()->modeBox();
        box->setCurrentIndex(index);
        expect(int(m_doc.session().attention.mode) == box->itemData(index).toInt(), QStringLiteral("mode not applied"));
        return QStringLiteral("choose mode \"%1\"").arg(box->itemText(index));
    });
    add("change seed", 2, [this] {
        auto *seed = window().options()->findChild<QSpinBox *>();
        const QList<QSpinBox *> boxes = window().options()->findChildren<QSpinBox *>();
        for (QSpinBox *box : boxes)
            if (box->accessibleName() == QLatin1String("Random seed"))
                seed = box;
        const int value = below(1000000000);
        if (!seed->isEnabled())
            return QStringLiteral("seed box disabled");
        seed->setValue(value);
        expect(m_doc.session().attention.seed == value, QStringLiteral("seed not applied"));
        return QStringLiteral("set seed to %1").arg(value);
    });
    add("new random weights", 2, [this] {
        QPushButton *button = window().options()->newWeightsButton();
        if (!button->isEnabled())
            return QStringLiteral("\"New random weights\" disabled");
        button->click();
        return QStringLiteral("click \"New random weights\" (seed became %1)").arg(m_doc.session().attention.seed);
    });
    add("change d_model", 4, [this] {
        QSpinBox *box = nullptr;
        for (QSpinBox *b : window().editor()->findChildren<QSpinBox *>())
            if (b->accessibleName() == QLatin1String("Embedding size d_model"))
                box = b;
        const int dModel = 1 + below(kMaxDModel);
        box->setValue(dModel);
        expect(m_doc.dModel() == dModel, QStringLiteral("d_model is %1").arg(m_doc.dModel()));
        return QStringLiteral("set d_model to %1").arg(dModel);
    });
    add("slider range", 1, [this] {
        const double range = pick(QList<double>{0.1, 1.0, 2.0, 5.0, 1000.0});
        window().editor()->setSliderRange(range);
        return QStringLiteral("set slider range to ±%1").arg(range);
    });
    add("weights/scores", 3, [this] {
        const bool scores = chance(0.5);
        window().setShowScores(scores);
        expect(window().heatmap()->showScores() == scores, QStringLiteral("heatmap ignores Weights/Scores"));
        return QStringLiteral("show %1").arg(scores ? "scores" : "weights");
    });
    add("select head", 3, [this] {
        const int heads = m_doc.session().attention.heads;
        const int pick = below(heads + 1) - 1; // -1: the average
        const std::optional<int> head = pick < 0 ? std::nullopt : std::optional<int>(pick);
        const std::optional<int> before = window().selectedHead();
        window().selectHead(head);
        // The average of a single head is that head: the selection keeps what it had.
        const std::optional<int> expected = !head && heads == 1 ? before : head;
        expect(window().selectedHead() == expected, QStringLiteral("selection has %1").arg(headText(window().selectedHead())));
        expect(window().heatmap()->head() == expected, QStringLiteral("heatmap shows %1").arg(headText(window().heatmap()->head())));
        return QStringLiteral("select %1").arg(headText(head));
    });
    add("set the sentence", 5, [this] {
        const QString text = randomSentence();
        m_doc.setSentence(text);
        return QStringLiteral("doc.setSentence(%1)").arg(shortText(text));
    });
    add("type a sentence", 4, [this] {
        QLineEdit *edit = window().sentenceEdit();
        const QString text = randomSentence();
        const bool append = chance(0.3);
        edit->setFocus();
        if (append)
            edit->end(false);
        else
            edit->selectAll();
        if (text.size() > 200)
            edit->insert(text); // a paste: 5,000 key events would be slow
        else
            typeText(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
        expect(m_doc.session().sentence == edit->text(),
               QStringLiteral("the session's sentence is %1, the field shows %2")
                   .arg(shortText(m_doc.session().sentence), shortText(edit->text())));
        return QStringLiteral("%1 %2 + Return in the sentence field").arg(append ? "append" : "type", shortText(text));
    });
    add("undo", 5, [this] {
        const bool can = m_doc.undoStack()->canUndo();
        m_doc.undoStack()->undo();
        return QStringLiteral("undo%1").arg(can ? QString() : QStringLiteral(" (nothing to undo)"));
    });
    add("redo", 3, [this] {
        const bool can = m_doc.undoStack()->canRedo();
        m_doc.undoStack()->redo();
        return QStringLiteral("redo%1").arg(can ? QString() : QStringLiteral(" (nothing to redo)"));
    });
    add("open a bad file", 3, [this] {
        const QString path = pick(m_badPaths);
        const QString name = QFileInfo(path).fileName();
        const attn::Session before = m_doc.session();
        const int count = m_doc.undoStack()->count(), index = m_doc.undoStack()->index();
        const bool modified = m_doc.isModified();
        const QString file = m_doc.filePath();
        QSignalSpy errors(window().fileActions(), &FileActions::errorOccurred);
        const bool opened = window().fileActions()->openPath(path);
        expect(!opened, QStringLiteral("%1 opened").arg(name));
        expect(errors.count() == 1, QStringLiteral("%1 errors signalled").arg(errors.count()));
        const QString message = errors.value(0).value(0).toString();
        expect(message.startsWith(name + QStringLiteral(": ")) && message.size() > name.size() + 4
                   && !message.contains(QLatin1Char('\n')),
               QStringLiteral("message %1").arg(shortText(message)));
        expect(m_doc.session() == before, QStringLiteral("the session changed"));
        expect(m_doc.undoStack()->count() == count && m_doc.undoStack()->index() == index,
               QStringLiteral("the undo history changed"));
        expect(m_doc.isModified() == modified && m_doc.filePath() == file, QStringLiteral("modified/file path changed"));
        return QStringLiteral("open bad file %1: %2").arg(name, message);
    });
    add("open a valid file", 1, [this] {
        const QString path = pick(m_validPaths);
        QString error;
        const std::optional<attn::Session> expected = attn::readSession(path, &error);
        expect(window().fileActions()->openPath(path), QStringLiteral("could not open %1").arg(path));
        expect(expected && m_doc.session() == *expected, QStringLiteral("the session is not the file's"));
        expect(m_doc.undoStack()->count() == 0 && !m_doc.isModified(), QStringLiteral("history after open"));
        return QStringLiteral("open %1").arg(QFileInfo(path).fileName());
    });
    add("save", 1, [this] {
        const QString path = m_dir.filePath(QStringLiteral("saved-%1.attn.json").arg(m_saves++ % 4));
        expect(window().fileActions()->saveTo(path), QStringLiteral("save failed"));
        QString error;
        const std::optional<attn::Session> back = attn::readSession(path, &error);
        expect(back.has_value(), QStringLiteral("the saved file does not open again: %1").arg(error));
        expect(!back || *back == m_doc.session(), QStringLiteral("the saved file holds another session"));
        expect(!m_doc.isModified() && m_doc.filePath() == path, QStringLiteral("not clean after saving"));
        return QStringLiteral("save to %1").arg(QFileInfo(path).fileName());
    });
    add("hover and tooltips", 2, [this] {
        const int n = m_doc.tokenCount();
        const int row = below(n), column = below(window().heatmap()->painter().columns());
        const QString tip = window().heatmap()->tooltipText(row, column);
        const QString bars = window().barChart()->tooltipText(below(m_doc.dModel()));
        for (const QString &text : {tip, bars})
            expect(!text.contains(QLatin1String("nan"), Qt::CaseInsensitive)
                       && !text.contains(QLatin1String("inf"), Qt::CaseInsensitive),
                   QStringLiteral("a tooltip shows %1").arg(shortText(text)));
        expect(!tip.isEmpty(), QStringLiteral("no tooltip for cell (%1, %2)").arg(row).arg(column));
        QTest::mouseMove(window().heatmap(), window().heatmap()->cellRect(row, column).center().toPoint());
        return QStringLiteral("hover heatmap cell (%1, %2)").arg(row).arg(column);
    });
    add("paint", 3, [] {
        QCoreApplication::processEvents();
        return QStringLiteral("process events (paint)");
    });
    add("resize the window", 1, [this] {
        const QSize size(400 + below(1200), 300 + below(700));
        window().resize(size);
        QCoreApplication::processEvents();
        return QStringLiteral("resize the window to %1x%2").arg(size.width()).arg(size.height());
    });
    return list;
}
