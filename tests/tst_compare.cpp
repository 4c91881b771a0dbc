// The Compare dock (compareview.h) in the window, on the tiny GPT-2 fixture
// with the tokenizer of tests/data/models/cli: one colour scale shared by A
// and B, B − A and every head's change against two attn::forward calls made
// here, a replaced token and a moved embedding against the numpy numbers of
// tests/data/models/input_edits.py, another sentence of another length, a
// click on a head, the export, and a bad replacement word.

#include "modelfixtures.h"
#include "modelwindowfixture.h"

#include "comparecanvas.h"
#include "comparison.h"
#include "compareview.h"
#include "model/forward.h"
#include "model/inputedit.h"
#include "model/modelloader.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QImage>
#include <QJsonArray>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>

using fixtures::matrix;

namespace {

constexpr double kTol = 1e-5;

QJsonObject edits(const char *name)
{
    return fixtures::readJson(QStringLiteral(ATTN_TEST_DATA "/models/input_edits.json")).value(QLatin1String(name)).toObject();
}

// The largest |x| of the head matrices in the two traces that differ, per head.
float maxAbsDifference(const attn::RowMatrix<float> &a, const attn::RowMatrix<float> &b)
{
    return (a - b).cwiseAbs().maxCoeff();
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_model, m_text;
    std::vector<int> m_ids;
    attn::SharedModelParameters m_params;

    struct Fixture : ModelWindowFixture
    {
        CompareView *view = nullptr;
        bool openAndCompare(const QString &path, const QString &text)
        {
            window.sentenceEdit()->setText(text);
            actions()->openFolder(path);
            if (!idle() || !model()->isOpen())
                return false;
            QAction *compare = window.findChild<QAction *>(QStringLiteral("compareRuns"));
            if (!compare || !compare->isEnabled())
                return false;
            compare->trigger();
            view = qobject_cast<CompareView *>(actions()->compareDock()->widget());
            return view && settled() && view->comparison()->data();
        }
        bool settled()
        {
            return QTest::qWaitFor([&] { return !model()->isComputing() && !view->comparison()->isComputing(); }, 10000);
        }
        const ComparisonData &data() { return *view->comparison()->data(); }
        // Picks a kind of variant as the user does and applies it.
        bool choose(ComparisonVariant::Kind kind, int position = 0)
        {
            view->kindBox()->setCurrentIndex(int(kind));
            emit view->kindBox()->activated(int(kind));
            view->positionBox()->setCurrentIndex(position);
            return settled();
        }
    };

    void compareWithNumpy(const ComparisonData &d, const QJsonObject &expected, int layer, int head)
    {
        const QJsonArray heads = expected.value(QLatin1String("layers")).toArray()[layer].toArray();
        COMPARE_NEAR(d.b.weights, matrix(heads[head]), kTol);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_model = m_dir.filePath(QStringLiteral("tiny-gpt2"));
        QVERIFY(QDir().mkpath(m_model));
        QVERIFY(fixtures::copyInto(fixtures::modelDir("gpt2-f32"), m_model));
        QVERIFY(fixtures::copyInto(QStringLiteral(ATTN_TEST_DATA "/models/cli/gpt2-tokenizer"), m_model));
        const QJsonObject cli = fixtures::cliExpected().value(QLatin1String("gpt2")).toObject();
        m_text = cli.value(QLatin1String("text")).toString();
        m_ids = fixtures::ids(cli.value(QLatin1String("token_ids")));
        QCOMPARE(m_ids, fixtures::ids(edits("gpt2_moved").value(QLatin1String("token_ids"))));
        QString error;
        m_params = attn::loadModel(m_model, &error);
        QVERIFY2(m_params, qPrintable(error));
    }

    // B starts as the next head of the same run; both share one colour scale.
    void anotherHeadSharesTheScale()
    {
        Fixture f;
        QVERIFY(f.openAndCompare(m_model, m_text));
        const attn::ModelTrace plain = attn::forward(*m_params, m_ids);
        const ComparisonData &d = f.data();
        QVERIFY(d.a.weights == plain.layers[0].weights[0]);
        QVERIFY(d.b.weights == plain.layers[0].weights[1]);
        const double both = std::max(plain.layers[0].weights[0].maxCoeff(), plain.layers[0].weights[1].maxCoeff());
        const ComparisonPainter &painter = f.view->canvas()->painter();
        QCOMPARE(painter.rangeMax(ComparisonPanel::A), both);
        QCOMPARE(painter.rangeMax(ComparisonPanel::B), both);
        QCOMPARE(painter.colorFor(ComparisonPanel::A, 0.4), painter.colorFor(ComparisonPanel::B, 0.4));
        QVERIFY(d.cellwise);
        QVERIFY(d.difference == (plain.layers[0].weights[1] - plain.layers[0].weights[0]));
        QCOMPARE(d.headChange.size(), std::size_t(2));
        QCOMPARE(d.headChange[1][2], maxAbsDifference(plain.layers[1].weights[2], plain.layers[0].weights[0]));
        QCOMPARE(d.headChange[0][0], 0.0f);
    }

    void replacedTokenMatchesNumpyAndTheCore()
    {
        Fixture f;
        QVERIFY(f.openAndCompare(m_model, m_text));
        f.view->replacementEdit()->setText(QStringLiteral("h"));
        QVERIFY(f.choose(ComparisonVariant::Kind::ReplaceToken, 2));
        QVERIFY(f.view->apply());
        QVERIFY(f.settled());
        const QJsonObject expected = edits("gpt2_replaced");
        compareWithNumpy(f.data(), expected, 0, 0);
        // Every head's change and the shown difference, against two forward passes made here.
        const attn::ModelTrace a = attn::forward(*m_params, m_ids);
        const attn::ModelTrace b = attn::forward(*m_params, fixtures::ids(expected.value(QLatin1String("token_ids"))));
        QVERIFY(f.data().difference == (b.layers[0].weights[0] - a.layers[0].weights[0]));
        for (std::size_t l = 0; l < 2; ++l)
            for (std::size_t h = 0; h < 3; ++h)
                QCOMPARE(f.data().headChange[l][h], maxAbsDifference(b.layers[l].weights[h], a.layers[l].weights[h]));
        QVERIFY(f.data().headChange[0][0] > 0.0f);
        QCOMPARE(f.data().b.predictions.size(), 5);

        // A click on a tile of the change grid shows that head in A and B.
        CompareCanvas *canvas = f.view->canvas();
        const QRectF bounds = canvas->contentRect();
        const QFont font = canvas->font();
        QPoint target;
        for (int y = 0; y < canvas->height() && target.isNull(); y += 2)
            for (int x = 0; x < canvas->width() && target.isNull(); x += 2) {
                int l = -1, h = -1;
                if (canvas->painter().tileAt(bounds, font, QPointF(x, y), &l, &h) && l == 1 && h == 2)
                    target = QPoint(x + 3, y + 3);
            }
        QVERIFY(!target.isNull());
        QTest::mouseClick(canvas, Qt::LeftButton, {}, target);
        QVERIFY(f.settled());
        QTRY_COMPARE(f.model()->layer(), 1);
        QCOMPARE(f.model()->head(), 2);
        QVERIFY(f.settled());
        QCOMPARE(f.data().layer, 1);
        compareWithNumpy(f.data(), expected, 1, 2);
        QVERIFY(f.data().difference == (b.layers[1].weights[2] - a.layers[1].weights[2]));
    }

    void movedEmbeddingMatchesNumpy()
    {
        Fixture f;
        QVERIFY(f.openAndCompare(m_model, m_text));
        f.view->targetEdit()->setText(QStringLiteral("world")); // takes the space of " the": " world"
        f.view->fractionSlider()->setValue(30);
        QVERIFY(f.choose(ComparisonVariant::Kind::MoveEmbedding, 4));
        QVERIFY(f.view->apply());
        QVERIFY(f.settled());
        const QJsonObject expected = edits("gpt2_moved");
        QVERIFY2(f.data().description.contains(QLatin1String("30 %")), qPrintable(f.data().description));
        compareWithNumpy(f.data(), expected, 0, 0);
        // The next token B predicts: numpy's most probable, with its probability.
        const attn::RowMatrix<double> next = matrix(expected.value(QLatin1String("next_token")));
        Eigen::Index best = 0;
        next.row(0).maxCoeff(&best);
        QVERIFY2(f.data().b.predictions.first().contains(QString::number(100 * next(0, best), 'f', 1)),
                 qPrintable(f.data().b.predictions.first()));
        QVERIFY(f.data().a.predictions != f.data().b.predictions);
    }

    void firstDimensionsMatchTheCore()
    {
        Fixture f;
        QVERIFY(f.openAndCompare(m_model, m_text));
        QVERIFY(f.choose(ComparisonVariant::Kind::EditDimensions, 1));
        QSlider *d0 = f.view->findChildren<QSlider *>().at(1); // after the fraction slider
        d0->setValue(50);                                       // 0.5
        QVERIFY(f.settled());
        const ComparisonVariant v = f.view->comparison()->variant();
        QCOMPARE(v.kind, ComparisonVariant::Kind::EditDimensions);
        attn::ForwardOptions options;
        options.embeddingEdits.push_back({1, attn::deltaSettingFirstDims(*m_params, m_ids[1], v.dimensions)});
        QCOMPARE(v.dimensions.front(), 0.5f);
        const attn::ModelTrace b = attn::forward(*m_params, m_ids, options);
        COMPARE_NEAR(f.data().b.weights, b.layers[0].weights[0].cast<double>().eval(), 1e-7);
    }

    void badReplacementKeepsTheOldComparison()
    {
        Fixture f;
        QVERIFY(f.openAndCompare(m_model, m_text));
        const std::shared_ptr<const ComparisonData> before = f.view->comparison()->data();
        f.view->replacementEdit()->setText(QStringLiteral("world end"));
        QVERIFY(f.choose(ComparisonVariant::Kind::ReplaceToken, 2));
        QVERIFY(f.settled());
        const QString message = f.view->messageText();
        QVERIFY2(message.contains(QStringLiteral("“world end” is")) && message.contains(QLatin1String("single token")),
                 qPrintable(message));
        QVERIFY(!f.view->messageText().contains(QLatin1Char('\n')));
        QCOMPARE(f.view->comparison()->data(), before);
        QCOMPARE(f.view->comparison()->variant().kind, ComparisonVariant::Kind::OtherHead);
    }

    // Another length: heads side by side on one scale, no cell-wise difference, and the screen says so.
    void anotherSentenceOfAnotherLength()
    {
        Fixture f;
        QVERIFY(f.openAndCompare(m_model, m_text));
        f.view->sentenceEdit()->setText(QStringLiteral("Hello world"));
        QVERIFY(f.choose(ComparisonVariant::Kind::OtherSentence));
        const ComparisonData &d = f.data();
        QCOMPARE(d.b.weights.rows(), 2);
        QVERIFY(!d.cellwise);
        QVERIFY(d.headChange.empty());
        QVERIFY(d.note.contains(QLatin1String("no cell-by-cell difference")));
        const attn::ModelTrace b = attn::forward(*m_params, {3, 17});
        QVERIFY(d.b.weights == b.layers[0].weights[0]);
        const ComparisonPainter &painter = f.view->canvas()->painter();
        const double both = std::max(d.a.weights.maxCoeff(), b.layers[0].weights[0].maxCoeff());
        QCOMPARE(painter.rangeMax(ComparisonPanel::A), both);
        QCOMPARE(painter.rangeMax(ComparisonPanel::B), both);
        QCOMPARE(painter.rangeMax(ComparisonPanel::Difference), 0.0);
    }

    void exportWritesEveryFormat()
    {
        Fixture f;
        QVERIFY(f.openAndCompare(m_model, m_text));
        f.view->replacementEdit()->setText(QStringLiteral("h"));
        QVERIFY(f.choose(ComparisonVariant::Kind::ReplaceToken, 2));
        QTemporaryDir dir;
        for (const char *name : {"c.png", "c.svg", "c.pdf", "c.csv"}) {
            const QString path = dir.filePath(QLatin1String(name));
            QCOMPARE(f.view->exportTo(path), QString());
            QVERIFY2(QFileInfo(path).size() > 500, name);
        }
        QCOMPARE(QImage(dir.filePath(QStringLiteral("c.png"))).size(), QSize(1500, 900));
        QFile csv(dir.filePath(QStringLiteral("c.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList sections = QString::fromUtf8(csv.readAll()).split(QStringLiteral("\n\n"));
        QCOMPARE(sections.size(), 4);
        QVERIFY(sections[2].startsWith(QLatin1String("# B - A")));
        // Row 3 of B − A (query "<|endoftext|>"), key 2: the cell the replaced token sits in.
        const QStringList row = sections[2].split(QLatin1Char('\n'))[2 + 3].split(QLatin1Char(','));
        QCOMPARE(row.size(), 8);
        QCOMPARE(row[3].toFloat(), f.data().difference(3, 2));
        QVERIFY(sections[3].contains(QLatin1String("L1,")));
        QVERIFY(!f.view->exportTo(dir.filePath(QStringLiteral("c.bmp"))).isEmpty());
    }

    // The shipped induction model, grabbed to a picture to look at (ATTN_COMPARE_PNG names the file).
    void shippedModelPicture()
    {
        Fixture f;
        const QString folder = QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/induction");
        QVERIFY(f.openAndCompare(folder, QStringLiteral("qmEjxBtrkwaDcsqmEjxBtrkwaDcs")));
        f.view->targetEdit()->setText(QStringLiteral("b"));
        f.view->fractionSlider()->setValue(60);
        QVERIFY(f.choose(ComparisonVariant::Kind::MoveEmbedding, 3));
        QVERIFY(f.view->apply());
        QVERIFY(f.settled());
        QVERIFY2(f.view->messageText().isEmpty(), qPrintable(f.view->messageText()));
        QDockWidget *dock = f.actions()->compareDock();
        dock->setFloating(true);
        dock->resize(1400, 860);
        QTest::qWait(50);
        const QImage picture = dock->grab().toImage();
        QVERIFY(!picture.isNull());
        const QString path = qEnvironmentVariable("ATTN_COMPARE_PNG");
        if (!path.isEmpty()) {
            QVERIFY(picture.save(path));
            QCOMPARE(f.view->exportTo(QString(path).replace(QLatin1String(".png"), QLatin1String("-export.png"))),
                     QString());
        }
        QVERIFY(f.data().cellwise);
        QCOMPARE(f.data().headChange.size(), std::size_t(2));
        // Another sentence of another length: only the heads side by side.
        f.view->sentenceEdit()->setText(QStringLiteral("qmEjxBtrkwaDcsqmEjx"));
        QVERIFY(f.choose(ComparisonVariant::Kind::OtherSentence));
        QVERIFY(!f.data().cellwise);
        QTest::qWait(50);
        if (!path.isEmpty())
            QVERIFY(dock->grab().toImage().save(QString(path).replace(QLatin1String(".png"), QLatin1String("-sentence.png"))));
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
