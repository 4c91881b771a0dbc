// tst_modelmonkey's text and query actions: typing, deleting and pasting in
// the sentence field (mostly what the model's tokenizer reads, now and then
// not), clicking token chips and heatmap rows, and bursts of actions that do
// not wait for the model between them.

#include "modelmonkey.h"

#include "heatmapview.h"
#include "modelactions.h"
#include "modeldocument.h"
#include "modelgridview.h"
#include "tokenchips.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QLineEdit>
#include <QTest>
#include <QTextBoundaryFinder>
#include <QThread>

namespace {

// One key event per character the user sees (a grapheme cluster), as a keyboard without an input method.
void typeText(QWidget *widget, const QString &text)
{
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, text);
    int start = 0;
    for (int end = finder.toNextBoundary(); end != -1; end = finder.toNextBoundary()) {
        const QString cluster = text.mid(start, end - start);
        start = end;
        if (cluster.size() == 1 && cluster[0].unicode() < 0x80 && cluster[0].isPrint())
            QTest::keyClick(widget, cluster[0].toLatin1());
        else
            QTest::sendKeyEvent(QTest::Click, widget, Qt::Key_unknown, cluster, Qt::NoModifier);
    }
}

} // namespace

// A text for the open model: from its alphabet (or its words), or, when not
// `inside`, with something its tokenizer does not read put in.
QString TestModelMonkey::randomText(bool inside)
{
    const MonkeyModel &m = current();
    QString text;
    if (m.bert) {
        QStringList words;
        for (int k = 0, n = 1 + below(8); k < n; ++k)
            words << m.words[below(int(m.words.size()))];
        text = words.join(QLatin1Char(' '));
    } else {
        const int length = 1 + below(m.name == QLatin1String("induction") ? 30 : 14);
        for (int k = 0; k < length; ++k)
            text += m.alphabet[below(int(m.alphabet.size()))];
        if (m.name == QLatin1String("induction") && chance(0.4))
            text += text; // the repeat the trained heads look for
        if (m.name == QLatin1String("tiny-gpt2") && chance(0.1))
            text.insert(below(int(text.size()) + 1), QStringLiteral("<|endoftext|>"));
    }
    if (!inside) {
        // One character (a surrogate pair for an emoji) or a word from outside.
        QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, m.outside);
        QStringList clusters;
        int start = 0;
        for (int end = finder.toNextBoundary(); end != -1; end = finder.toNextBoundary(), start = end)
            clusters << m.outside.mid(start, end - start);
        const QString odd = m.bert ? m.outside.split(QLatin1Char(' '))[below(int(m.outside.count(QLatin1Char(' ')) + 1))]
                                   : clusters[below(int(clusters.size()))];
        text.insert(m.bert ? int(text.size()) : below(int(text.size()) + 1), m.bert ? QStringLiteral(" ") + odd : odd);
    }
    return text;
}

std::vector<TestModelMonkey::Action> TestModelMonkey::editActions()
{
    std::vector<Action> list;
    auto add = [&list](const char *name, int weight, std::function<QString()> run) {
        list.push_back({name, weight, std::move(run)});
    };
    ModelDocument *model = m_doc.model();

    // Return applies the field at once; without it the field waits for the typing pause.
    auto finish = [this, model](QLineEdit *edit) {
        if (chance(0.9)) {
            QTest::keyClick(edit, Qt::Key_Return);
            expect(model->text() == edit->text(), QStringLiteral("the model reads \"%1\", the field shows \"%2\"")
                                                      .arg(model->text(), edit->text()));
            return QStringLiteral(" + Return");
        }
        return QStringLiteral(" (no Return: waits for the pause)");
    };
    add("type", 8, [this, finish] {
        QLineEdit *edit = window().sentenceEdit();
        const bool inside = chance(0.9);
        const QString text = randomText(inside);
        const bool append = chance(0.3);
        edit->setFocus();
        if (append)
            edit->end(false);
        else
            edit->selectAll();
        typeText(edit, text);
        return QStringLiteral("%1 \"%2\"%3%4").arg(append ? "append" : "type", text,
                                                 inside ? QString() : QStringLiteral(" (outside the alphabet)"), finish(edit));
    });
    add("delete", 4, [this, finish] {
        QLineEdit *edit = window().sentenceEdit();
        edit->setFocus();
        const int size = int(edit->text().size());
        QString what;
        switch (below(3)) {
        case 0: {
            const int n = 1 + below(5);
            edit->end(false);
            for (int k = 0; k < n; ++k)
                QTest::keyClick(edit, Qt::Key_Backspace);
            what = QStringLiteral("%1 x Backspace at the end").arg(n);
            break;
        }
        case 1: {
            const int at = below(size + 1), n = 1 + below(3);
            edit->setCursorPosition(at);
            for (int k = 0; k < n; ++k)
                QTest::keyClick(edit, Qt::Key_Delete);
            what = QStringLiteral("%1 x Delete at %2").arg(n).arg(at);
            break;
        }
        default: {
            const int from = below(size + 1), length = below(size - from + 1);
            edit->setSelection(from, length);
            QTest::keyClick(edit, Qt::Key_Backspace);
            what = QStringLiteral("delete %1 characters from %2").arg(length).arg(from);
        }
        }
        return QStringLiteral("%1, leaving \"%2\"%3").arg(what, edit->text(), finish(edit));
    });
    add("paste", 3, [this, finish] {
        QLineEdit *edit = window().sentenceEdit();
        const bool inside = chance(0.85);
        const QString text = randomText(inside);
        QGuiApplication::clipboard()->setText(text);
        edit->setFocus();
        if (chance(0.5))
            edit->selectAll();
        else
            edit->setCursorPosition(below(int(edit->text().size()) + 1));
        QTest::keyClick(edit, Qt::Key_V, Qt::ControlModifier);
        expect(edit->text().contains(text), QStringLiteral("the field shows \"%1\" after pasting \"%2\"").arg(edit->text(), text));
        return QStringLiteral("paste \"%1\"%2%3").arg(text, inside ? QString() : QStringLiteral(" (outside the alphabet)"),
                                                      finish(edit));
    });
    add("wait for the typing pause", 1, [this, model] {
        const GuiStopwatch watch;
        while (window().sentencePending() && watch.elapsed().wallMs < 2000) {
            processSlice();
            QThread::usleep(500);
        }
        const GuiCost waited = watch.elapsed();
        m_waited = m_waited.plus(waited);
        expect(!window().sentencePending(), QStringLiteral("the typing pause never ended"));
        expect(model->text() == window().sentenceEdit()->text(), QStringLiteral("after the pause the model reads \"%1\", "
                                                                                "the field shows \"%2\"")
                                                                     .arg(model->text(), window().sentenceEdit()->text()));
        return QStringLiteral("wait %1 ms for the typing pause").arg(waited.wallMs, 0, 'f', 0);
    });
    add("click a chip", 6, [this, model] {
        const int n = int(model->tokens().size());
        if (n == 0)
            return QStringLiteral("click a chip (no tokens)");
        const int i = below(n);
        TokenChips *chips = window().chips();
        QTest::mouseClick(chips, Qt::LeftButton, {}, chips->chipRect(i).center());
        expect(model->query() == i, QStringLiteral("query %1 after clicking chip %2").arg(model->query()).arg(i));
        return QStringLiteral("click chip %1 of %2").arg(i).arg(n);
    });
    add("keys on the chips", 2, [this, model] {
        const int n = int(model->tokens().size()), q = model->query();
        const Qt::Key key = QList<Qt::Key>{Qt::Key_Left, Qt::Key_Right, Qt::Key_Home, Qt::Key_End}[below(4)];
        window().chips()->setFocus();
        QTest::keyClick(window().chips(), key);
        const int expected = n == 0 ? q
            : key == Qt::Key_Left   ? std::max(q - 1, 0)
            : key == Qt::Key_Right  ? std::min(q + 1, n - 1)
            : key == Qt::Key_Home   ? 0
                                    : n - 1;
        expect(model->query() == expected, QStringLiteral("query %1 after key %2 on %3").arg(model->query())
                                               .arg(QTest::toString(key)).arg(q));
        return QStringLiteral("key %1 on the chips (query was %2)").arg(QTest::toString(key)).arg(q);
    });
    add("click a heatmap row", 3, [this, model] {
        HeatmapView *heatmap = window().heatmap();
        const int rows = heatmap->painter().rows();
        if (rows == 0)
            return QStringLiteral("click the heatmap (no cells)");
        const int row = below(rows), column = below(heatmap->painter().columns());
        const QPoint at = heatmap->cellRect(row, column).center().toPoint();
        const auto hit = heatmap->cellAt(at);
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, at);
        if (hit)
            expect(model->query() == hit->first, QStringLiteral("query %1, the clicked row %2").arg(model->query()).arg(hit->first));
        return QStringLiteral("click heatmap cell (%1, %2)").arg(row).arg(column);
    });
    // Edits one after another with no wait between: each newer one must win.
    add("burst", 2, [this, model] {
        QStringList did;
        QLineEdit *edit = window().sentenceEdit();
        for (int k = 0, n = 2 + below(4); k < n; ++k) {
            switch (below(4)) {
            case 0: {
                const QString text = randomText(chance(0.9));
                edit->setFocus();
                edit->selectAll();
                typeText(edit, text);
                QTest::keyClick(edit, Qt::Key_Return);
                did << QStringLiteral("type \"%1\" + Return").arg(text);
                break;
            }
            case 1: {
                const std::set<attn::LayerHead> before = model->ablatedHeads();
                const attn::LayerHead h{below(model->config()->layers), below(model->config()->heads)};
                window().modelActions()->switchHead(h.layer, h.head, !model->isAblated(h.layer, h.head));
                recordSwitch(before);
                did << QStringLiteral("switch %1:%2").arg(h.layer).arg(h.head);
                break;
            }
            case 2: {
                const int layer = below(model->config()->layers);
                m_doc.selection()->setLayer(layer);
                did << QStringLiteral("layer %1").arg(layer);
                break;
            }
            default: {
                const int q = below(std::max(1, int(model->tokens().size())));
                m_doc.setQuery(q);
                did << QStringLiteral("query %1").arg(q);
            }
            }
        }
        return QStringLiteral("burst: %1").arg(did.join(QStringLiteral(", ")));
    });
    return list;
}
