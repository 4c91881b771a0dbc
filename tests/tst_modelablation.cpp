// Switching heads off and attention rollout in the window, on the tiny GPT-2
// fixture with the tokenizer of tests/data/models/cli: the window's numbers
// against the core forward pass run here with the same heads off (what
// `compute --model --ablate L:H` runs) and against the numpy numbers of
// cli/make_cli_fixtures.py; earlier layers unchanged bit for bit; undo and
// redo; the session round trip; the grid's marks; the rollout dock.

#include "modelfixtures.h"
#include "modelwindowfixture.h"

#include "document.h"
#include "fileactions.h"
#include "mainwindow.h"
#include "modelactions.h"
#include "modeldocument.h"
#include "modelgridpainter.h"
#include "modelgridview.h"
#include "model/modelloader.h"
#include "model/rollout.h"
#include "nexttokenview.h"
#include "rolloutview.h"
#include "session/session.h"
#include "session/sessionio.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

namespace {

// The reference: the core's forward pass with `off` switched off, as `compute --model --ablate` runs it.
attn::ModelTrace reference(const attn::ModelParameters &model, const std::vector<int> &ids,
                           const std::set<attn::LayerHead> &off)
{
    attn::ForwardOptions options;
    options.ablatedHeads = off;
    return attn::forward(model, ids, options);
}

QAction *action(QMenu *menu, const char *name)
{
    return menu->findChild<QAction *>(QLatin1String(name));
}

} // namespace

class TestModelAblation : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_model;
    QJsonObject m_cli;
    QString m_text;
    std::vector<int> m_ids;
    attn::SharedModelParameters m_params;

    QJsonValue cli(const char *entry, const char *field) const
    {
        return m_cli.value(QLatin1String(entry)).toObject().value(QLatin1String(field));
    }

    struct Fixture : ModelWindowFixture
    {
        bool open(const QString &path, const QString &text)
        {
            window.sentenceEdit()->setText(text);
            actions()->openFolder(path);
            return idle() && model()->isOpen() && model()->trace();
        }
        // Through the grid's context menu, as a right-click does.
        bool toggle(int layer, int head)
        {
            std::unique_ptr<QMenu> menu(actions()->headMenu(HeadRef::one(layer, head)));
            QAction *a = action(menu.get(), "switchHead");
            if (!a)
                return false;
            a->trigger();
            return idle();
        }
        const attn::RowVector<float> &probabilities() { return model()->trace()->nextToken->probabilities; }
    };

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_model = m_dir.filePath(QStringLiteral("tiny-gpt2"));
        QVERIFY(QDir().mkpath(m_model));
        QVERIFY(fixtures::copyInto(fixtures::modelDir("gpt2-f32"), m_model));
        QVERIFY(fixtures::copyInto(QStringLiteral(ATTN_TEST_DATA "/models/cli/gpt2-tokenizer"), m_model));
        m_cli = fixtures::cliExpected();
        m_text = cli("gpt2", "text").toString();
        m_ids = fixtures::ids(cli("gpt2", "token_ids"));
        QString error;
        m_params = attn::loadModel(m_model, &error);
        QVERIFY2(m_params, qPrintable(error));
    }

    void switchOffMatchesTheCore()
    {
        Fixture f;
        QVERIFY(f.open(m_model, m_text));
        std::vector<int> ids;
        for (const attn::ModelToken &t : f.model()->tokens())
            ids.push_back(t.id);
        QCOMPARE(ids, m_ids);
        const attn::ModelTrace plain = reference(*m_params, m_ids, {});
        const attn::ModelTrace off = reference(*m_params, m_ids, {{0, 1}});
        QCOMPARE(f.probabilities(), plain.nextToken->probabilities);
        const std::shared_ptr<const attn::ModelTrace> before = f.model()->trace();

        QSignalSpy ablation(f.model(), &ModelDocument::ablationChanged);
        QVERIFY(!f.doc.isModified());
        QVERIFY(f.toggle(0, 1));
        QCOMPARE(ablation.count(), 1);
        QVERIFY(f.model()->isAblated(0, 1));
        QCOMPARE(f.model()->ablatedHeads(), (std::set<attn::LayerHead>{{0, 1}}));
        QVERIFY(f.doc.isModified());
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Switch head 0:1 off"));

        // Exactly what the core (and so compute --model --ablate 0:1) gives ...
        const std::shared_ptr<const attn::ModelTrace> shown = f.model()->trace();
        const attn::ModelTrace &now = *shown;
        QCOMPARE(f.probabilities(), off.nextToken->probabilities);
        // ... and what numpy gives (make_cli_fixtures.py, gpt2_ablate_0_1).
        const QString why = fixtures::difference(f.probabilities(), fixtures::matrix(cli("gpt2_ablate_0_1", "next_token")), 2e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The head's contribution is gone exactly: its context is zero, the others' are as before.
        QVERIFY((now.layers[0].headContext(1).array() == 0.0f).all());
        QCOMPARE(attn::RowMatrix<float>(now.layers[0].headContext(0)), attn::RowMatrix<float>(before->layers[0].headContext(0)));
        QCOMPARE(attn::RowMatrix<float>(now.layers[0].headContext(2)), attn::RowMatrix<float>(before->layers[0].headContext(2)));
        // What comes before it is unchanged bit for bit; what comes after changes.
        QCOMPARE(now.hidden[0], before->hidden[0]);
        for (int h = 0; h < 3; ++h)
            QCOMPARE(now.layers[0].weights[std::size_t(h)], before->layers[0].weights[std::size_t(h)]);
        QVERIFY(now.hidden[1] != before->hidden[1]);
        QVERIFY(now.layers[1].weights[0] != before->layers[1].weights[0]);

        // The next-token view: after with before, and the biggest movers first.
        const std::vector<TokenGuess> &guesses = f.actions()->nextTokens()->guesses();
        QCOMPARE(int(guesses.size()), 10);
        for (const TokenGuess &g : guesses) {
            QCOMPARE(g.probability, double(off.nextToken->probabilities(g.id)));
            QCOMPARE(g.before, double(plain.nextToken->probabilities(g.id)));
        }
        const std::vector<TokenGuess> &movers = f.actions()->nextTokens()->movers();
        QVERIFY(!movers.empty());
        const attn::RowVector<float> moved = (off.nextToken->probabilities - plain.nextToken->probabilities).cwiseAbs();
        Eigen::Index largest = 0;
        moved.maxCoeff(&largest);
        QCOMPARE(movers.front().id, int(largest));
        for (std::size_t i = 1; i < movers.size(); ++i)
            QVERIFY(std::fabs(movers[i].probability - movers[i].before)
                    <= std::fabs(movers[i - 1].probability - movers[i - 1].before));

        // A second head: the sets add up; a head of the last layer changes only the prediction.
        QVERIFY(f.toggle(1, 2));
        QCOMPARE(f.probabilities(), reference(*m_params, m_ids, {{0, 1}, {1, 2}}).nextToken->probabilities);
        QCOMPARE(f.model()->trace()->layers[1].weights[0], now.layers[1].weights[0]);
        QCOMPARE(f.doc.undoStack()->count(), 2);

        // The same head's menu now offers to switch it back on.
        std::unique_ptr<QMenu> menu(f.actions()->headMenu(HeadRef::one(0, 1)));
        QCOMPARE(action(menu.get(), "switchHead")->text(), QStringLiteral("Switch head 0:1 back on"));
        QVERIFY(action(menu.get(), "switchAllOn")->isEnabled());
        action(menu.get(), "switchAllOn")->trigger();
        QVERIFY(f.idle());
        QVERIFY(f.model()->ablatedHeads().empty());
        QCOMPARE(f.probabilities(), plain.nextToken->probabilities);
    }

    void undoAndRedo()
    {
        Fixture f;
        QVERIFY(f.open(m_model, m_text));
        const attn::RowVector<float> plain = f.probabilities();
        QVERIFY(f.toggle(1, 0));
        const attn::RowVector<float> off = f.probabilities();
        QVERIFY(off != plain);
        QCOMPARE(off, reference(*m_params, m_ids, {{1, 0}}).nextToken->probabilities);

        f.doc.undoStack()->undo();
        QVERIFY(f.idle());
        QVERIFY(f.model()->ablatedHeads().empty());
        QVERIFY(f.actions()->grid()->switchedOff().empty());
        QCOMPARE(f.probabilities(), plain);
        QVERIFY(!f.doc.isModified());
        // Before -> after now compares the other way round.
        const TokenGuess top = f.actions()->nextTokens()->guesses().front();
        QCOMPARE(top.before, double(off(top.id)));

        f.doc.undoStack()->redo();
        QVERIFY(f.idle());
        QCOMPARE(f.model()->ablatedHeads(), (std::set<attn::LayerHead>{{1, 0}}));
        QCOMPARE(f.probabilities(), off);
        QVERIFY(f.doc.isModified());

        // A new text has no "before" to compare with.
        f.window.sentenceEdit()->setText(QStringLiteral("Hello world!"));
        QTest::keyClick(f.window.sentenceEdit(), Qt::Key_Return);
        QVERIFY(f.idle());
        QVERIFY(!f.model()->hasBefore());
        QCOMPARE(f.actions()->nextTokens()->guesses().front().before, -1.0);
        QVERIFY(f.actions()->nextTokens()->movers().empty());
    }

    void headBoxMenu()
    {
        Fixture f;
        QVERIFY(f.open(m_model, m_text));
        QComboBox *box = f.window.headBox();
        QCOMPARE(box->contextMenuPolicy(), Qt::CustomContextMenu);
        f.doc.selection()->setHead(HeadRef::one(1, 2));
        QVERIFY(f.toggle(f.model()->layer(), f.model()->head()));
        QVERIFY(f.model()->isAblated(1, 2));
        QCOMPARE(box->itemText(box->findData(2)), QStringLiteral("2 of 3 · switched off"));
        QCOMPARE(box->itemText(box->findData(1)), QStringLiteral("1 of 3"));
        // Another layer: its head 2 is on.
        f.doc.selection()->setLayer(0);
        QCOMPARE(box->itemText(box->findData(2)), QStringLiteral("2 of 3"));
        // The average offers only "all back on".
        std::unique_ptr<QMenu> menu(f.actions()->headMenu(HeadRef::average(0)));
        QVERIFY(!action(menu.get(), "switchHead"));
        QVERIFY(action(menu.get(), "switchAllOn")->isEnabled());
    }

    void sessionRoundTrip()
    {
        const QString path = m_dir.filePath(QStringLiteral("ablated.attn.json"));
        attn::RowVector<float> saved;
        {
            Fixture f;
            QVERIFY(f.open(m_model, m_text));
            QVERIFY(f.toggle(0, 1));
            QVERIFY(f.toggle(1, 2));
            saved = f.probabilities();
            QVERIFY(f.window.fileActions()->saveTo(path));
            QVERIFY(!f.doc.isModified());
        }
        QString error;
        const std::optional<attn::Session> read = attn::readSession(path, &error);
        QVERIFY2(read && read->model, qPrintable(error));
        QCOMPARE(read->model->ablated, (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject model = QJsonDocument::fromJson(file.readAll()).object()["model"].toObject();
        QCOMPARE(model["ablated"], QJsonValue(QJsonArray{QJsonArray{0, 1}, QJsonArray{1, 2}}));

        Fixture g;
        QVERIFY(g.window.fileActions()->openPath(path));
        QVERIFY(g.idle());
        QVERIFY(g.model()->isOpen());
        QCOMPARE(g.model()->ablatedHeads(), (std::set<attn::LayerHead>{{0, 1}, {1, 2}}));
        QCOMPARE(g.actions()->grid()->switchedOff(), g.model()->ablatedHeads());
        QCOMPARE(g.probabilities(), saved);
        QVERIFY(!g.doc.isModified());
        QCOMPARE(g.doc.undoStack()->count(), 0);

        // A head the model does not have is left out, with a notice.
        attn::Session other = *read;
        other.model->ablated = {{0, 1}, {5, 0}, {1, 7}};
        const QString otherPath = m_dir.filePath(QStringLiteral("other.attn.json"));
        QVERIFY2(attn::writeSession(otherPath, other, &error), qPrintable(error));
        Fixture h;
        QSignalSpy notices(&h.doc, &Document::notice);
        QVERIFY(h.window.fileActions()->openPath(otherPath));
        QVERIFY(h.idle());
        QCOMPARE(h.model()->ablatedHeads(), (std::set<attn::LayerHead>{{0, 1}}));
        bool told = false;
        for (const QList<QVariant> &n : notices)
            told = told || n.value(0).toString() == QStringLiteral("This model has no head 1:7, 5:0: left out of the switched-off heads");
        QVERIFY(told);
    }

    void malformedAblated_data()
    {
        QTest::addColumn<QByteArray>("ablated");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a list") << QByteArray("3") << "model.ablated: expected a list, got a number";
        QTest::newRow("a pair too short") << QByteArray("[[1]]") << "model.ablated[0]: expected [layer, head], got 1 numbers";
        QTest::newRow("negative head") << QByteArray("[[0, 1], [1, -1]]")
                                       << "model.ablated[1][1]: expected a whole number from 0 to 1048576, got -1";
        QTest::newRow("a string") << QByteArray("[\"0:1\"]") << "model.ablated[0]: expected a list, got a string";
    }

    void malformedAblated()
    {
        QFETCH(QByteArray, ablated);
        QFETCH(QString, message);
        const QByteArray json = attn::sessionToJson(attn::exampleSession()).trimmed();
        const QByteArray withModel = json.left(json.size() - 1) + ",\"model\": {\"path\": \"m\", \"ablated\": " + ablated + "}}";
        QString error;
        QVERIFY(!attn::parseSession(withModel, QStringLiteral("bad.attn.json"), &error));
        QCOMPARE(error, QStringLiteral("bad.attn.json: ") + message);
        // Repeats fold into one, in order.
        const QByteArray repeats = json.left(json.size() - 1) + ",\"model\": {\"path\": \"m\", \"ablated\": [[1, 0], [0, 2], [1, 0]]}}";
        const std::optional<attn::Session> s = attn::parseSession(repeats, QStringLiteral("ok.attn.json"), &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->model->ablated, (std::vector<std::pair<int, int>>{{0, 2}, {1, 0}}));
    }

    void gridMarksTheTile()
    {
        Fixture f;
        QVERIFY(f.open(m_model, m_text));
        QVERIFY(f.toggle(1, 1));
        ModelGridView *grid = f.actions()->grid();
        QCOMPARE(grid->switchedOff(), (std::set<attn::LayerHead>{{1, 1}}));
        // The export reads the same marks from the trace: the heads whose context is zero.
        QCOMPARE(switchedOffHeads(*f.model()->trace()), (std::set<attn::LayerHead>{{1, 1}}));
        QVERIFY(switchedOffHeads(reference(*m_params, m_ids, {})).empty());

        grid->resize(300, 300);
        const QImage shot = grid->grab().toImage();
        const QRectF off = grid->tileRect(1, 1), on = grid->tileRect(1, 0);
        const QColor text = grid->palette().color(QPalette::Text), window = grid->palette().color(QPalette::Window);
        auto near = [](const QColor &a, const QColor &b, int tol) {
            return std::abs(a.red() - b.red()) <= tol && std::abs(a.green() - b.green()) <= tol
                && std::abs(a.blue() - b.blue()) <= tol;
        };
        // The cross through the middle; the veil elsewhere; the unmarked tile as its thumbnail.
        const qreal dpr = shot.devicePixelRatio();
        auto pixel = [&](const QPointF &p) { return shot.pixelColor((p * dpr).toPoint()); };
        QVERIFY(near(pixel(off.center()), text, 40));
        const QPointF top(off.center().x(), off.top() + off.height() * 0.08);
        QVERIFY(near(pixel(top), window, 60));
        const QImage &thumb = grid->thumbnail(1, 0);
        const QPointF onTop(on.center().x(), on.top() + on.height() * 0.08);
        const QPointF cell((onTop.x() - on.left()) / on.width() * thumb.width(),
                           (onTop.y() - on.top()) / on.height() * thumb.height());
        QVERIFY(near(pixel(onTop), thumb.pixelColor(cell.toPoint()), 8));
    }

    void rolloutDock()
    {
        Fixture f;
        QAction *toggle = f.actions()->rolloutDock()->toggleViewAction();
        QVERIFY(!toggle->isEnabled());
        QVERIFY(f.open(m_model, m_text));
        QVERIFY(toggle->isEnabled());
        // Not computed while the dock is hidden: most texts typed never show it.
        QVERIFY(!f.model()->rollout());
        toggle->trigger();
        QVERIFY(f.actions()->rolloutDock()->isVisible());
        RolloutView *view = f.actions()->rollout();
        QTRY_VERIFY(view->rollout()); // computed on a worker once shown
        QVERIFY(view->explanation().contains(QLatin1String("not an explanation")));

        const auto check = [&](const char *key) {
            const std::shared_ptr<const attn::RowMatrix<double>> r = view->rollout();
            QVERIFY(r);
            // Exactly the core's rollout of the shown trace, and the numpy numbers.
            QCOMPARE(*r, attn::attentionRollout(*f.model()->trace()));
            const QString why = fixtures::difference(*r, fixtures::matrix(cli(key, "rollout")), 1e-6);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            for (Eigen::Index i = 0; i < r->rows(); ++i)
                QVERIFY(std::fabs(r->row(i).sum() - 1.0) < 1e-12);
            // Causal: a position traces back only to itself and earlier tokens.
            for (Eigen::Index i = 0; i < r->rows(); ++i)
                for (Eigen::Index j = i + 1; j < r->cols(); ++j)
                    QCOMPARE((*r)(i, j), 0.0);
            QCOMPARE(view->painter().rows(), int(r->rows()));
            QCOMPARE(view->painter().valueAt(3, 1), (*r)(3, 1));
            QVERIFY(view->painter().isMasked(1, 3));
        };
        check("gpt2");
        // A switched-off head still counts in the mean, but the later layers' weights change.
        QVERIFY(f.toggle(0, 1));
        check("gpt2_ablate_0_1");
        // Typing at the end with the dock shown: the rows of the text before
        // are the rollout before's, the new ones carried down the layers
        // (the whole product's numbers to double's rounding).
        const std::shared_ptr<const attn::RowMatrix<double>> before = view->rollout();
        f.type(m_text + QStringLiteral(" the"));
        QVERIFY(f.idle());
        const int kept = f.model()->reusedPositions();
        QVERIFY(kept > 0);
        QTRY_VERIFY(view->rollout() && view->rollout() != before);
        const attn::RowMatrix<double> whole = attn::attentionRollout(*f.model()->trace());
        QCOMPARE(view->rollout()->rows(), whole.rows());
        QVERIFY((*view->rollout() - whole).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY(view->rollout()->topLeftCorner(kept, kept) == before->topLeftCorner(kept, kept));

        // Offscreen picture with the head off and the dock on screen, for a person to look at.
        const QString shots = qEnvironmentVariable("ATTN_ABLATION_SHOT");
        if (!shots.isEmpty()) {
            f.actions()->rolloutDock()->raise();
            QTest::qWait(50);
            QVERIFY(f.window.grab().save(shots));
            NextTokenView *next = f.actions()->nextTokens();
            next->resize(320, 420);
            QVERIFY(next->grab().save(QString(shots).replace(QLatin1String(".png"), QLatin1String("-next.png"))));
        }
        f.window.fileActions()->setInteractive(false, QMessageBox::Discard); // a head is still off: Close asks
        f.actions()->closeModel();
        QVERIFY(!toggle->isEnabled());
        QVERIFY(!f.actions()->rolloutDock()->isVisible());
        QVERIFY(!view->rollout());
    }
};

QTEST_MAIN(TestModelAblation)
#include "tst_modelablation.moc"
