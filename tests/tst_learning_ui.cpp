// The learning panels and dialogs: stepping through the walkthrough, the
// demos showing the core's numbers, the practice dialog checking answers.
// Set ATTN_LEARN_GRABS=/some/dir to save a picture of each for a look.
#include "barcolumnsview.h"
#include "contributionview.h"
#include "crossattentionpanel.h"
#include "document.h"
#include "heatmapview.h"
#include "lessons.h"
#include "mistakesdialog.h"
#include "notation.h"
#include "practicedialog.h"
#include "walkthroughpanel.h"

#include <QButtonGroup>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QPalette>
#include <QTest>

namespace {

void grab(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("ATTN_LEARN_GRABS");
    if (dir.isEmpty())
        return;
    QCoreApplication::processEvents(); // let pending layout requests settle first
    widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    // And once on a dark palette: the views take their colours from it.
    const QPalette light = widget->palette();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
    dark.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    widget->setPalette(dark);
    QCoreApplication::processEvents();
    widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral("-dark.png"));
    widget->setPalette(light);
}

std::vector<double> rowOf(const Eigen::MatrixXd &m, int row)
{
    std::vector<double> v;
    for (Eigen::Index c = 0; c < m.cols(); ++c)
        v.push_back(m(row, c));
    return v;
}

bool close(const std::vector<double> &a, const std::vector<double> &b, double tolerance = 1e-12)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::abs(a[i] - b[i]) > tolerance)
            return false;
    return true;
}

void follow(WalkthroughPanel &panel, Document &doc)
{
    panel.setSnapshot(doc.snapshot());
    panel.setQuery(doc.query());
    QObject::connect(&doc, &Document::resultChanged, &panel, [&] { panel.setSnapshot(doc.snapshot()); });
    QObject::connect(&doc, &Document::queryChanged, &panel, &WalkthroughPanel::setQuery);
}

} // namespace

class TestLearningUi : public QObject
{
    Q_OBJECT
private slots:
    void walkthroughSteps()
    {
        Document doc(attn::exampleSession());
        WalkthroughPanel panel;
        follow(panel, doc);
        panel.resize(560, 380);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.currentStep(), 0);
        QVERIFY(!panel.backButton()->isEnabled());
        QSignalSpy highlight(&panel, &WalkthroughPanel::highlightChanged);
        QTest::mouseClick(panel.nextButton(), Qt::LeftButton);
        QCOMPARE(panel.currentStep(), 1);
        QCOMPARE(highlight.count(), 1);
        QCOMPARE(highlight.at(0).at(0).toInt(), 1);
        QCOMPARE(highlight.at(0).at(1).value<QList<int>>(), (QList<int>{0, 1, 2, 3, 4, 5}));
        const attn::HeadResult &h = doc.result().heads[0];
        for (int j = 0; j < 6; ++j)
            QVERIFY2(panel.formulaText().contains(attn::formatNumber(h.scores(1, j))), qPrintable(panel.formulaText()));
        QVERIFY(panel.titleText().contains(QStringLiteral("2.")));
        grab(&panel, QStringLiteral("walkthrough-scores"));

        QTest::keyClick(&panel, Qt::Key_Right);
        QCOMPARE(panel.currentStep(), 2);
        QTest::keyClick(&panel, Qt::Key_PageUp);
        QCOMPARE(panel.currentStep(), 1);
        QTest::mouseClick(panel.backButton(), Qt::LeftButton);
        QCOMPARE(panel.currentStep(), 0);
        for (int i = 0; i < 20; ++i)
            panel.next();
        QCOMPARE(panel.currentStep(), panel.stepCount() - 1);
        QVERIFY(!panel.nextButton()->isEnabled());
        QVERIFY(panel.formulaText().contains(attn::formatNumber(doc.result().output(1, 0))));
    }

    void walkthroughFollowsEdits()
    {
        Document doc(attn::exampleSession());
        WalkthroughPanel panel;
        follow(panel, doc);
        panel.setCurrentStep(1);
        const QString before = panel.formulaText();
        doc.setEmbeddingValue(0, 0, 0.99);
        QCOMPARE(panel.currentStep(), 1); // the learner stays on the step
        QVERIFY(panel.formulaText() != before);
        QVERIFY(panel.formulaText().contains(attn::formatNumber(doc.result().heads[0].scores(1, 0))));
        doc.setQuery(3);
        QVERIFY(panel.formulaText().startsWith(QStringLiteral("ω₃₀ = q⁽³⁾·k⁽⁰⁾")));
    }

    void mistakesShowTheCoresNumbers()
    {
        Document doc(attn::exampleSession());
        MistakesDialog dialog(&doc);
        dialog.resize(900, 600);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const attn::Session &s = doc.session();
        const attn::HeadResult &h = doc.result().heads[0];

        dialog.showDemo(MistakesDialog::ScoresAreNotWeights);
        auto cols = dialog.columnsView(MistakesDialog::ScoresAreNotWeights)->columns();
        QCOMPARE(cols.size(), std::size_t(3)); // scores, scaled, weights
        QCOMPARE(cols.front().values, rowOf(h.scores.toDouble(), 1));
        QCOMPARE(cols.back().values, rowOf(h.weights.toDouble(), 1));
        grab(&dialog, QStringLiteral("mistake-scores"));

        dialog.showDemo(MistakesDialog::ForgettingToScale);
        QCOMPARE(dialog.scalingHeadDim(), 64);
        cols = dialog.columnsView(MistakesDialog::ForgettingToScale)->columns();
        const attn::AttentionResult raw = attn::computeSession(attn::withScaling(s, false, 64));
        const attn::AttentionResult scaled = attn::computeSession(attn::withScaling(s, true, 64));
        QCOMPARE(cols[1].values, rowOf(raw.heads[0].weights.toDouble(), 1));
        QCOMPARE(cols[2].values, rowOf(scaled.heads[0].weights.toDouble(), 1));
        QVERIFY(cols[1].footer.contains(attn::formatNumber(raw.heads[0].weights.row(1).maxCoeff())));
        grab(&dialog, QStringLiteral("mistake-scaling"));

        dialog.showDemo(MistakesDialog::WordOrder);
        cols = dialog.columnsView(MistakesDialog::WordOrder)->columns();
        QCOMPARE(cols.size(), std::size_t(4));
        QVERIFY(close(cols[0].values, cols[1].values));  // no positions: the same weights per word
        QVERIFY(!close(cols[2].values, cols[3].values, 1e-3)); // positions: order matters
        QCOMPARE(cols[0].values, rowOf(h.weights.toDouble(), 1));
        const std::vector<int> first = dialog.shuffleOrder();
        dialog.shuffleAgain();
        QVERIFY(dialog.shuffleOrder() != first);
        grab(&dialog, QStringLiteral("mistake-wordorder"));

        dialog.showDemo(MistakesDialog::LargestWeight);
        const ContributionModel &m = dialog.contributionView()->model();
        QVERIFY(m.isValid());
        QCOMPARE(m.context, rowOf(h.context, 1));
        QCOMPARE(m.series, s.tokens);
        QVERIFY(close(rowOf(m.parts.colwise().sum(), 0), m.context));
        QVERIFY(dialog.explanationText().contains(
            attn::formatNumber(h.weights.row(1).maxCoeff())));
        grab(&dialog, QStringLiteral("mistake-contributions"));

        dialog.showDemo(MistakesDialog::CausalMask);
        cols = dialog.columnsView(MistakesDialog::CausalMask)->columns();
        const attn::AttentionResult causal = attn::computeSession(attn::withCausal(s, true));
        QCOMPARE(cols[1].values, rowOf(causal.heads[0].weights.toDouble(), 1));
        QCOMPARE(cols[1].masked, (std::vector<bool>{false, false, true, true, true, true}));
        QVERIFY(dialog.causalHeatmap()->painter().isMasked(1, 2));
        QVERIFY(!doc.session().attention.causal); // the demo never changes the user's session
        grab(&dialog, QStringLiteral("mistake-causal"));
    }

    void crossAttentionPanel()
    {
        Document doc(attn::exampleSession());
        CrossAttentionPanel panel(&doc);
        panel.resize(620, 380);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.compareView()->columns().size(), std::size_t(1));
        QTest::keyClicks(panel.sourceEdit(), QStringLiteral("one small step"));
        QTest::keyClick(panel.sourceEdit(), Qt::Key_Return);
        QVERIFY(doc.session().source);
        QCOMPARE(doc.snapshot()->columnTokens, (QStringList{"one", "small", "step"}));
        const auto cols = panel.compareView()->columns();
        QCOMPARE(cols.size(), std::size_t(2));
        const attn::AttentionResult self = attn::computeSession(attn::withoutSource(doc.session()));
        QCOMPARE(cols[0].values, rowOf(self.heads[0].weights.toDouble(), 1));
        QCOMPARE(cols[1].values, rowOf(doc.result().heads[0].weights.toDouble(), 1));
        QVERIFY(panel.statusText().contains(QStringLiteral("3")));
        grab(&panel, QStringLiteral("cross-attention"));
    }

    void practiceChecksTypedAnswers()
    {
        Document doc(attn::exampleSession());
        PracticeDialog dialog(&doc);
        dialog.setSeed(7);
        dialog.setKind(PracticeDialog::WeightedSum);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const attn::Exercise e = dialog.exercise();
        QCOMPARE(e.kind, attn::ExerciseKind::WeightedOutput);
        QCOMPARE(dialog.questionText(), e.question);
        QTest::keyClicks(dialog.answerEdit(), QString::number(e.answer + 1.0));
        QTest::mouseClick(dialog.checkButton(), Qt::LeftButton);
        QVERIFY2(dialog.feedbackText().contains(e.working), qPrintable(dialog.feedbackText()));
        QVERIFY(dialog.feedbackText().startsWith(QStringLiteral("✘")));
        dialog.answerEdit()->clear();
        QTest::keyClicks(dialog.answerEdit(), QString::number(e.answer, 'f', 2).replace('.', ','));
        QTest::keyClick(dialog.answerEdit(), Qt::Key_Return);
        QVERIFY2(dialog.feedbackText().startsWith(QStringLiteral("✔")), qPrintable(dialog.feedbackText()));
        QCOMPARE(dialog.triedCount(), 1); // one attempt per exercise counts
        QCOMPARE(dialog.rightCount(), 0);
        grab(&dialog, QStringLiteral("practice-weighted"));

        dialog.setKind(PracticeDialog::PredictSentence);
        Eigen::Index best = 0;
        doc.result().heads[0].weights.row(1).maxCoeff(&best);
        QCOMPARE(int(dialog.exercise().answer), int(best));
        dialog.choiceGroup()->button(int(best))->click(); // freshly added: not laid out for a mouse click yet
        QTest::mouseClick(dialog.checkButton(), Qt::LeftButton);
        QVERIFY(dialog.feedbackText().startsWith(QStringLiteral("✔")));
        QCOMPARE(dialog.rightCount(), 1);
        grab(&dialog, QStringLiteral("practice-predict"));
        dialog.setKind(PracticeDialog::PredictGenerated);
        grab(&dialog, QStringLiteral("practice-generated"));
    }
};

QTEST_MAIN(TestLearningUi)
#include "tst_learning_ui.moc"
