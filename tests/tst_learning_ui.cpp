// The learning panels and dialogs: stepping through the walkthrough, the
// demos showing the core's numbers, the practice dialog checking answers.
// Set ATTN_LEARN_GRABS=/some/dir to save a picture of each for a look.
#include "barcolumnsview.h"
#include "contributionview.h"
#include "crossattentionpanel.h"
#include "document.h"
#include "session/embedding.h"
#include "heatmapview.h"
#include "lessons/lessons.h"
#include "mistakesdialog.h"
#include "lessons/notation.h"
#include "practicedialog.h"
#include "walkthroughpanel.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QPalette>
#include <QTest>
#include <cmath>

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
            QVERIFY2(panel.formulaText().contains(attn::formatFixed(h.scores(1, j))), qPrintable(panel.formulaText()));
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
        QVERIFY(panel.formulaText().contains(attn::formatFixed(doc.result().output(1, 0))));
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
        QVERIFY(panel.formulaText().contains(attn::formatFixed(doc.result().heads[0].scores(1, 0))));
        doc.setQuery(3);
        QVERIFY(panel.formulaText().startsWith(QStringLiteral("ω₃₀ = q⁽³⁾·k⁽⁰⁾")));
    }

    // With rotary positions the word-order demo shuffles with the session's own
    // positions: turning q and k by position makes order matter too.
    void mistakesWordOrderWithRotaryPositions()
    {
        attn::Session s = attn::exampleSession();
        s.embeddings = attn::resizeEmbeddings(s.tokens, s.embeddings, 4);
        s.attention.headDim = 4;
        s.attention.positionalEncoding = attn::PositionalEncoding::Rotary;
        Document doc(s);
        MistakesDialog dialog(&doc);
        dialog.resize(900, 600);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.showDemo(MistakesDialog::WordOrder);
        const auto cols = dialog.columnsView(MistakesDialog::WordOrder)->columns();
        QCOMPARE(cols.size(), std::size_t(4));
        QCOMPARE(cols[2].title, QStringLiteral("Rotary positions"));
        QCOMPARE(cols[3].title, QStringLiteral("Rotary positions, shuffled"));
        QVERIFY(close(cols[0].values, cols[1].values));
        QVERIFY(!close(cols[2].values, cols[3].values, 1e-3));
        QCOMPARE(cols[2].values, rowOf(doc.result().heads[0].weights.toDouble(), 1));
        QVERIFY(dialog.explanationText().contains(QStringLiteral("Rotary positions turn each query and key")));
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
        QVERIFY(cols[1].footer.contains(attn::formatFixed(raw.heads[0].weights.row(1).maxCoeff())));
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
            attn::formatFixed(h.weights.row(1).maxCoeff())));
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

    // The rotary pair is typed as two numbers, as a learner writes them; a
    // pair turned the wrong way gets its hint; the key/value count takes a
    // whole number. Both are scored as every exercise is.
    void practiceModernBlockExercises()
    {
        Document doc(attn::exampleSession());
        PracticeDialog dialog(&doc);
        dialog.setSeed(11);
        dialog.setKind(PracticeDialog::RotatePair);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const attn::Exercise e = dialog.exercise();
        QCOMPARE(e.kind, attn::ExerciseKind::RotatePair);
        QCOMPARE(dialog.answerEdit()->placeholderText(), QStringLiteral("Your answer: 2 numbers, for example 0.42, −0.17"));
        // Turned backwards: (a cos + b sin, b cos − a sin).
        const double c = std::cos(double(e.position)), s = std::sin(double(e.position));
        QTest::keyClicks(dialog.answerEdit(), QStringLiteral("%1, %2")
                                                  .arg(e.pair[0] * c + e.pair[1] * s, 0, 'f', 4)
                                                  .arg(e.pair[1] * c - e.pair[0] * s, 0, 'f', 4));
        QTest::keyClick(dialog.answerEdit(), Qt::Key_Return);
        QVERIFY2(dialog.feedbackText().contains(QStringLiteral("the other way round")), qPrintable(dialog.feedbackText()));
        QTest::keyClicks(dialog.answerEdit(), QStringLiteral("(%1; %2)")
                                                  .arg(e.answers[0], 0, 'f', 3)
                                                  .arg(e.answers[1], 0, 'f', 3));
        QCOMPARE(dialog.answerEdit()->text(), QStringLiteral("(%1; %2)").arg(e.answers[0], 0, 'f', 3).arg(e.answers[1], 0, 'f', 3));
        QTest::keyClick(dialog.answerEdit(), Qt::Key_Return);
        QVERIFY2(dialog.feedbackText().startsWith(QStringLiteral("✔ Correct: (")), qPrintable(dialog.feedbackText()));
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 0 right, 1 after a retry"));
        grab(&dialog, QStringLiteral("practice-rotary-pair"));

        dialog.setKind(PracticeDialog::KeyValueCount);
        const attn::Exercise k = dialog.exercise();
        QCOMPARE(k.kind, attn::ExerciseKind::KeyValueCount);
        QCOMPARE(dialog.answerEdit()->placeholderText(), QStringLiteral("Your answer: a whole number"));
        QTest::keyClicks(dialog.answerEdit(), QString::number(2 * k.heads));
        QTest::keyClick(dialog.answerEdit(), Qt::Key_Return);
        QVERIFY2(dialog.feedbackText().contains(QStringLiteral("a key and a value for every query head")),
                 qPrintable(dialog.feedbackText()));
        QVERIFY(!dialog.feedbackText().contains(QString::number(2 * k.kvHeads) + QStringLiteral(" vectors")));
        dialog.solutionButton()->click();
        QVERIFY(dialog.solutionText().startsWith(QStringLiteral("Solution: %1.").arg(2 * k.kvHeads)));
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 0 right, 1 after a retry, 1 shown"));
    }

    // A wrong answer gets "Not quite" and a hint right under the box, never the
    // number; a right retry counts as such; Enter then moves on.
    void practiceRetryCountsHonestly()
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
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: none yet"));
        QCOMPARE(dialog.answerEdit()->placeholderText(), QStringLiteral("Your answer, for example 0.42"));
        QVERIFY(!dialog.feedbackLabel()->isVisible());
        QVERIFY(dialog.solutionText().isEmpty());
        QVERIFY(dialog.answerEdit()->hasFocus());
        grab(&dialog, QStringLiteral("practice-fresh"));

        const QString answer = attn::formatNumber(e.answer);
        QTest::keyClicks(dialog.answerEdit(), QString::number(e.answer + 1.0));
        QTest::keyClick(dialog.answerEdit(), Qt::Key_Return);
        QVERIFY2(dialog.feedbackText().startsWith(QStringLiteral("✘ Not quite.")), qPrintable(dialog.feedbackText()));
        QVERIFY(dialog.feedbackText().contains(QStringLiteral("Multiply each value by its weight")));
        QVERIFY(!dialog.feedbackText().contains(e.working));
        QVERIFY(!dialog.feedbackText().contains(answer));
        QVERIFY(dialog.solutionText().isEmpty()); // the solution waits behind its button
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: none yet"));
        QVERIFY(dialog.checkButton()->isEnabled() && dialog.solutionButton()->isEnabled());
        // The feedback is directly below the answer box, starting where it starts.
        QCoreApplication::processEvents();
        const QRect box(dialog.answerEdit()->mapTo(&dialog, QPoint(0, 0)), dialog.answerEdit()->size());
        const QRect feedback(dialog.feedbackLabel()->mapTo(&dialog, QPoint(0, 0)), dialog.feedbackLabel()->size());
        QVERIFY(dialog.feedbackLabel()->isVisible());
        QCOMPARE(feedback.left(), box.left());
        QVERIFY2(feedback.top() > box.bottom() && feedback.top() - box.bottom() <= 16,
                 qPrintable(QStringLiteral("box bottom %1, feedback top %2").arg(box.bottom()).arg(feedback.top())));
        QVERIFY(feedback.width() >= box.width());
        grab(&dialog, QStringLiteral("practice-wrong"));

        // A second wrong try says which try it is; the box text is selected so
        // typing replaces it.
        QTest::keyClicks(dialog.answerEdit(), QString::number(e.answer + 2.0));
        QCOMPARE(dialog.answerEdit()->text(), QString::number(e.answer + 2.0));
        QTest::keyClick(dialog.answerEdit(), Qt::Key_Return);
        QVERIFY2(dialog.feedbackText().startsWith(QStringLiteral("✘ Try 2: Not quite.")), qPrintable(dialog.feedbackText()));

        QTest::keyClicks(dialog.answerEdit(), QString::number(e.answer, 'f', 2).replace('.', ','));
        QTest::keyClick(dialog.answerEdit(), Qt::Key_Return);
        QVERIFY2(dialog.feedbackText().startsWith(QStringLiteral("✔ Correct: ") + answer), qPrintable(dialog.feedbackText()));
        QVERIFY(dialog.feedbackText().contains(e.working)); // the working comes with the right answer
        QVERIFY(dialog.feedbackText().endsWith(QStringLiteral("(Counted as right after a retry.)")));
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 0 right, 1 after a retry"));
        QCOMPARE(dialog.score().rightAfterRetry(), 1);
        QVERIFY(!dialog.checkButton()->isEnabled() && !dialog.solutionButton()->isEnabled());
        QVERIFY(dialog.answerEdit()->isReadOnly());
        QVERIFY(dialog.newButton()->isDefault());
        grab(&dialog, QStringLiteral("practice-right-after-retry"));

        // Enter now asks for the next exercise; the score stays.
        QTest::keyClick(dialog.newButton(), Qt::Key_Return);
        QVERIFY(dialog.questionText() != e.question);
        QVERIFY(dialog.feedbackText().isEmpty());
        QVERIFY(!dialog.answerEdit()->isReadOnly() && dialog.answerEdit()->text().isEmpty());
        QVERIFY(dialog.checkButton()->isDefault());
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 0 right, 1 after a retry"));
    }

    void practiceShowSolutionAndScore()
    {
        Document doc;
        PracticeDialog dialog(&doc);
        dialog.setSeed(11);
        dialog.setKind(PracticeDialog::WeightedSum);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const auto typeAndCheck = [&](const QString &text) {
            dialog.answerEdit()->clear();
            QTest::keyClicks(dialog.answerEdit(), text);
            QTest::mouseClick(dialog.checkButton(), Qt::LeftButton);
        };
        // Two right at the first try.
        for (int i = 0; i < 2; ++i) {
            typeAndCheck(QString::number(dialog.exercise().answer));
            QVERIFY(dialog.feedbackText().startsWith(QStringLiteral("✔ Correct")));
            QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        }
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 2 right"));
        // One right after a retry.
        typeAndCheck(QString::number(dialog.exercise().answer + 0.5));
        typeAndCheck(QString::number(dialog.exercise().answer));
        QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        // One wrong, then the solution shown: it counts as shown, below the feedback.
        const attn::Exercise e = dialog.exercise();
        typeAndCheck(QString::number(e.answer + 0.5));
        QTest::mouseClick(dialog.solutionButton(), Qt::LeftButton);
        QVERIFY(dialog.feedbackText().startsWith(QStringLiteral("✘ Not quite.")));
        QCOMPARE(dialog.solutionText(), attn::solutionText(e));
        QVERIFY(dialog.solutionText().startsWith(QStringLiteral("Solution: ") + attn::formatNumber(e.answer) + '.'));
        QVERIFY(dialog.solutionText().contains(e.working));
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 2 right, 1 after a retry, 1 shown"));
        QVERIFY(!dialog.checkButton()->isEnabled());
        QCoreApplication::processEvents();
        const QLabel *solution = dialog.solutionLabel();
        QVERIFY(solution->isVisible());
        QVERIFY(solution->mapTo(&dialog, QPoint(0, 0)).y()
                > dialog.feedbackLabel()->mapTo(&dialog, QPoint(0, 0)).y() + dialog.feedbackLabel()->height() - 1);
        grab(&dialog, QStringLiteral("practice-solution-shown"));

        // Straight to the solution, without a try: shown too, right under the box.
        QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        QTest::mouseClick(dialog.solutionButton(), Qt::LeftButton);
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 2 right, 1 after a retry, 2 shown"));
        QVERIFY(!dialog.feedbackLabel()->isVisible());
        QCoreApplication::processEvents();
        const int gap = solution->mapTo(&dialog, QPoint(0, 0)).y()
            - (dialog.answerEdit()->mapTo(&dialog, QPoint(0, 0)).y() + dialog.answerEdit()->height());
        QVERIFY2(gap >= 0 && gap <= 16, qPrintable(QString::number(gap)));
        // Tried, then left for a new exercise: not solved.
        QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        typeAndCheck(QString::number(dialog.exercise().answer + 0.5));
        QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 2 right, 1 after a retry, 2 shown, 1 not solved"));
    }

    // A count asks for a whole number, and its box refuses "3.5".
    void practiceWholeNumbers()
    {
        Document doc;
        PracticeDialog dialog(&doc);
        dialog.setSeed(3);
        dialog.setKind(PracticeDialog::Comparisons);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.exercise().wholeNumber);
        QCOMPARE(dialog.answerEdit()->placeholderText(), QStringLiteral("Your answer: a whole number"));
        QVERIFY(!dialog.answerEdit()->placeholderText().contains(QStringLiteral("3.5")));
        const QValidator *validator = dialog.answerEdit()->validator();
        QVERIFY(validator);
        QString text = QStringLiteral("3.5");
        int pos = 0;
        QCOMPARE(validator->validate(text, pos), QValidator::Invalid);
        text = QStringLiteral("35");
        QCOMPARE(validator->validate(text, pos), QValidator::Acceptable);
        QTest::keyClicks(dialog.answerEdit(), QStringLiteral("3.5"));
        QCOMPARE(dialog.answerEdit()->text(), QStringLiteral("35")); // the dot never got in
        dialog.answerEdit()->clear();
        QTest::keyClicks(dialog.answerEdit(), QString::number(qint64(dialog.exercise().answer)));
        QTest::keyClick(dialog.answerEdit(), Qt::Key_Return);
        QVERIFY2(dialog.feedbackText().startsWith(QStringLiteral("✔ Correct")), qPrintable(dialog.feedbackText()));
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 1 right"));
        grab(&dialog, QStringLiteral("practice-count"));
        // A decimal question takes decimals again.
        dialog.setKind(PracticeDialog::WeightedSum);
        text = QStringLiteral("3,5");
        QCOMPARE(dialog.answerEdit()->validator()->validate(text, pos), QValidator::Acceptable);
        text = QStringLiteral("seven");
        QCOMPARE(dialog.answerEdit()->validator()->validate(text, pos), QValidator::Invalid);
    }

    // Picking a token: choices numbered from 0 with the labels of every view.
    void practicePredictsOnTheSentence()
    {
        Document doc;
        doc.setSentence(QStringLiteral("the cat saw the dog"));
        PracticeDialog dialog(&doc);
        dialog.setSeed(1);
        dialog.setKind(PracticeDialog::PredictSentence);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const attn::Exercise e = dialog.exercise();
        QVERIFY(e.query >= 0 && e.query < 5);
        Eigen::Index best = 0;
        doc.result().heads[0].weights.row(e.query).maxCoeff(&best);
        QCOMPARE(int(e.answer), int(best));
        const QList<QAbstractButton *> buttons = dialog.choiceGroup()->buttons();
        QCOMPARE(buttons.size(), 5);
        QCOMPARE(buttons[0]->text(), QStringLiteral("&0  the₀"));
        QCOMPARE(buttons[3]->text(), QStringLiteral("&3  the₃"));
        QCOMPARE(buttons[4]->text(), QStringLiteral("&4  dog"));
        QCOMPARE(buttons[3]->toolTip(), QStringLiteral("Token 3: “the₃”"));
        QVERIFY(!dialog.answerEdit()->isVisible());
        QVERIFY(dialog.questionText().contains(QStringLiteral("(token %1)").arg(e.query)));

        QTest::mouseClick(dialog.checkButton(), Qt::LeftButton); // nothing picked yet
        QCOMPARE(dialog.feedbackText(), QStringLiteral("Pick one of the 5 tokens."));
        const int wrong = (int(best) + 1) % 5;
        dialog.choiceGroup()->button(wrong)->click(); // freshly added: not laid out for a mouse click yet
        QTest::mouseClick(dialog.checkButton(), Qt::LeftButton);
        QVERIFY2(dialog.feedbackText().startsWith(QStringLiteral("✘ Not quite: “%1”").arg(e.choiceLabels[wrong])),
                 qPrintable(dialog.feedbackText()));
        QVERIFY(!dialog.feedbackText().contains(QStringLiteral("“%1”").arg(e.choiceLabels[int(best)])));
        QCoreApplication::processEvents();
        const QRect row(dialog.checkButton()->mapTo(&dialog, QPoint(0, 0)), dialog.checkButton()->size());
        const QRect feedback(dialog.feedbackLabel()->mapTo(&dialog, QPoint(0, 0)), dialog.feedbackLabel()->size());
        QCOMPARE(feedback.left(), row.left());
        QVERIFY(feedback.top() > row.bottom() && feedback.top() - row.bottom() <= 16);
        grab(&dialog, QStringLiteral("practice-predict-wrong"));
        // Alt+digit picks by position (shortcuts need the active window).
        dialog.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QTest::keyClick(&dialog, Qt::Key(Qt::Key_0 + int(best)), Qt::AltModifier);
        QTRY_COMPARE(dialog.choiceGroup()->checkedId(), int(best)); // a mnemonic animates its click
        QTest::mouseClick(dialog.checkButton(), Qt::LeftButton);
        QVERIFY(dialog.feedbackText().startsWith(QStringLiteral("✔ Correct!")));
        QCOMPARE(dialog.scoreText(), QStringLiteral("Score: 0 right, 1 after a retry"));
        grab(&dialog, QStringLiteral("practice-predict"));
        // The next one asks about another query.
        dialog.newExercise();
        QVERIFY(dialog.exercise().query != e.query);
        dialog.setKind(PracticeDialog::PredictGenerated);
        grab(&dialog, QStringLiteral("practice-generated"));
        QTest::mouseClick(dialog.solutionButton(), Qt::LeftButton);
        QVERIFY(dialog.solutionText().startsWith(QStringLiteral("Solution: “%1” (token %2). Scores: ")
                                                     .arg(dialog.exercise().choiceLabels[int(dialog.exercise().answer)])
                                                     .arg(int(dialog.exercise().answer))));
        grab(&dialog, QStringLiteral("practice-generated-solution"));
    }

    // A long sentence: the choices scroll instead of pushing the buttons and
    // the feedback off the screen.
    void practiceLongSentence()
    {
        Document doc;
        QStringList words;
        for (int i = 0; i < 120; ++i)
            words << QStringLiteral("w%1").arg(i % 40);
        doc.setSentence(words.join(' '));
        QCOMPARE(doc.tokenCount(), 120);
        PracticeDialog dialog(&doc);
        dialog.setKind(PracticeDialog::PredictSentence);
        dialog.resize(600, 420);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.choiceGroup()->buttons().size(), 120);
        QCOMPARE(dialog.choiceGroup()->button(41)->text(), QStringLiteral("41  w1₄₁")); // no mnemonic past 9
        QVERIFY(dialog.sizeHint().height() < 500);
        QCoreApplication::processEvents();
        const int buttonsBottom = dialog.checkButton()->mapTo(&dialog, QPoint(0, 0)).y() + dialog.checkButton()->height();
        QVERIFY2(buttonsBottom < dialog.height() / 2 + 60, qPrintable(QString::number(buttonsBottom)));
        // The solution lists the five largest weights, not 120 numbers.
        QTest::mouseClick(dialog.solutionButton(), Qt::LeftButton);
        const attn::Exercise &e = dialog.exercise();
        std::vector<double> sorted = e.choiceWeights;
        std::sort(sorted.rbegin(), sorted.rend());
        QVERIFY2(dialog.solutionText().contains(QStringLiteral("The weights: the largest “%1” %2, ")
                                                    .arg(e.choiceLabels[int(e.answer)], attn::formatNumber(sorted[0], 4))),
                 qPrintable(dialog.solutionText()));
        QVERIFY(dialog.solutionText().endsWith(QStringLiteral(", … (115 more).")));
        QVERIFY(dialog.solutionText().contains(attn::formatNumber(sorted[4], 4)));
        grab(&dialog, QStringLiteral("practice-long-sentence"));
    }

    // Controls whose meaning is not in their text explain themselves.
    void practiceTooltips()
    {
        Document doc;
        PracticeDialog dialog(&doc);
        dialog.setKind(PracticeDialog::WeightedSum);
        const QList<QWidget *> explained{dialog.findChild<QComboBox *>(), dialog.newButton(), dialog.checkButton(),
                                         dialog.solutionButton(), dialog.answerEdit()};
        for (QWidget *w : explained) {
            QVERIFY(w);
            QVERIFY2(!w->toolTip().isEmpty(), w->metaObject()->className());
        }
        QVERIFY(dialog.solutionButton()->toolTip().contains(QStringLiteral("shown")));
        QVERIFY(dialog.answerEdit()->toolTip().contains(QStringLiteral("Within 0.01")));
        const QList<QLabel *> labels = dialog.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [&](QLabel *l) {
            return l->text() == dialog.scoreText() && l->toolTip().contains(QStringLiteral("After a retry"));
        }));
        dialog.setKind(PracticeDialog::Comparisons);
        QVERIFY(dialog.answerEdit()->toolTip().contains(QStringLiteral("whole number")));
    }
};

QTEST_MAIN(TestLearningUi)
#include "tst_learning_ui.moc"
