#include "practicedialog.h"

#include "document.h"
#include "lessons/notation.h"
#include "screenfit.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRandomGenerator>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QVBoxLayout>

namespace {

// What the answer box lets through: digits only for a count, so "3.5" cannot
// even be typed; a lenient number otherwise (the core reads "= −7,6" too).
const QRegularExpression wholeNumberPattern(QStringLiteral("\\s*\\d{0,9}\\s*"));
const QRegularExpression decimalPattern(QStringLiteral("\\s*=?\\s*[+\\-\u2212]?\\d{0,9}(?:[.,]\\d{0,9})?\\s*"));
// Several numbers (a turned pair): digits, signs, separators and brackets.
const QRegularExpression numbersPattern(QStringLiteral("[\\s=()\\[\\]+\\-\u2212\\d.,;]{0,60}"));

// The choices show at most this many rows before they scroll (long sentences).
constexpr int maxChoiceRows = 6;

// The verdict (up to the first full stop) in bold after a coloured mark, so a
// glance tells right from wrong; the rest as it is. Mid-tone colours read on
// light and dark palettes alike.
QString emphasised(const QString &mark, bool right, const QString &message)
{
    int end = -1;
    for (const QString &stop : {QStringLiteral(". "), QStringLiteral("! ")}) {
        const int at = message.indexOf(stop);
        if (at >= 0 && (end < 0 || at < end))
            end = at + 1;
    }
    const QString verdict = end < 0 ? message : message.left(end);
    const QString rest = end < 0 ? QString() : message.mid(end);
    return QStringLiteral("<span style=\"color:%1\">%2</span> <b>%3</b>%4")
        .arg(right ? QStringLiteral("#2f9e44") : QStringLiteral("#d9480f"), mark, verdict.toHtmlEscaped(),
             rest.toHtmlEscaped());
}

} // namespace

PracticeDialog::PracticeDialog(Document *document, QWidget *parent)
    : QDialog(parent), m_document(document), m_seed(QRandomGenerator::global()->generate64())
{
    setWindowTitle(tr("Practice"));
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    auto *kindLabel = new QLabel(tr("&Exercise:"));
    m_kind = new QComboBox;
    m_kind->addItems({tr("Any kind"), tr("Weighted sum by hand"), tr("Counting comparisons"),
                      tr("Which token wins? (small example)"), tr("Which token wins? (your sentence)"),
                      tr("Turn a pair (rotary positions)"), tr("Keys and values kept (shared heads)")});
    m_kind->setToolTip(tr("Which kind of exercise comes next. “Your sentence” asks about the sentence, weights "
                          "and head of the main window."));
    kindLabel->setBuddy(m_kind);
    m_new = new QPushButton(tr("Ne&w exercise"));
    m_new->setToolTip(tr("Another exercise with fresh numbers. One you tried but did not solve counts as "
                         "“not solved”."));
    top->addWidget(kindLabel);
    top->addWidget(m_kind, 1);
    top->addWidget(m_new);
    layout->addLayout(top);

    m_question = new QLabel;
    m_question->setWordWrap(true);
    m_question->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_question);
    layout->addSpacing(4);

    m_choiceBox = new QWidget;
    m_choiceLayout = new QGridLayout(m_choiceBox);
    m_choiceLayout->setContentsMargins(0, 0, 0, 0);
    m_choiceLayout->setHorizontalSpacing(24);
    m_choices = new QButtonGroup(this);
    m_choiceArea = new QScrollArea;
    m_choiceArea->setWidget(m_choiceBox);
    m_choiceArea->setWidgetResizable(true);
    m_choiceArea->setFrameShape(QFrame::NoFrame);
    m_choiceArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(m_choiceArea);

    // The answer, its buttons and the verdict sit together, so the eye does
    // not travel between typing and reading the feedback.
    auto *answerRow = new QHBoxLayout;
    m_answer = new QLineEdit;
    m_answer->setAccessibleName(tr("Answer"));
    m_check = new QPushButton(tr("&Check"));
    m_check->setDefault(true);
    m_check->setToolTip(tr("Check your answer (Enter). A wrong answer gets a hint, and you can try again."));
    m_solution = new QPushButton(tr("Show &solution"));
    m_solution->setToolTip(tr("Show the worked solution. This exercise then counts as “shown”, not as right."));
    answerRow->addWidget(m_answer);
    answerRow->addWidget(m_check);
    answerRow->addWidget(m_solution);
    answerRow->addStretch(1);
    layout->addLayout(answerRow);

    m_feedback = new QLabel;
    m_feedback->setTextFormat(Qt::RichText);
    m_feedback->setWordWrap(true);
    m_feedback->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_feedback->setAccessibleName(tr("Feedback"));
    layout->addWidget(m_feedback);
    m_solutionText = new QLabel;
    m_solutionText->setTextFormat(Qt::RichText);
    m_solutionText->setWordWrap(true);
    m_solutionText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_solutionText->setFrameShape(QFrame::StyledPanel);
    m_solutionText->setMargin(6);
    m_solutionText->setAccessibleName(tr("Solution"));
    layout->addWidget(m_solutionText);
    layout->addStretch(1);

    auto *bottom = new QHBoxLayout;
    m_scoreLabel = new QLabel;
    m_scoreLabel->setToolTip(tr("Right: at the first try. After a retry: right after a wrong answer. Shown: the "
                                "solution was shown. Not solved: tried, then left for a new exercise."));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    bottom->addWidget(m_scoreLabel, 1);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_new, &QPushButton::clicked, this, &PracticeDialog::newExercise);
    connect(m_kind, qOverload<int>(&QComboBox::activated), this, &PracticeDialog::newExercise);
    // Enter in the answer box reaches the default button (Check, or New exercise
    // once the exercise is settled), so returnPressed is not connected too.
    connect(m_check, &QPushButton::clicked, this, &PracticeDialog::check);
    connect(m_solution, &QPushButton::clicked, this, &PracticeDialog::showSolution);
    applyFonts();
    resizeWithinScreen(this, {600, 400});
    newExercise();
}

void PracticeDialog::setKind(Kind kind)
{
    m_kind->setCurrentIndex(kind);
    newExercise();
}

QString PracticeDialog::questionText() const
{
    return m_question->text();
}

QString PracticeDialog::feedbackText() const
{
    return m_feedbackPlain;
}

QString PracticeDialog::solutionText() const
{
    return m_solutionText->isVisibleTo(this) ? m_solutionPlain : QString();
}

void PracticeDialog::setFeedback(const QString &plain, const QString &rich)
{
    m_feedbackPlain = plain;
    m_feedback->setText(rich.isEmpty() ? plain.toHtmlEscaped() : rich);
    m_feedback->setVisible(!plain.isEmpty());
}

QString PracticeDialog::scoreText() const
{
    return m_scoreLabel->text();
}

void PracticeDialog::newExercise()
{
    m_score.nextExercise();
    ++m_seed;
    switch (m_kind->currentIndex()) {
    case WeightedSum: m_exercise = attn::weightedOutputExercise(m_seed); break;
    case Comparisons: m_exercise = attn::comparisonsExercise(m_seed); break;
    case PredictGenerated: m_exercise = attn::predictionExercise(m_seed); break;
    case PredictSentence:
        if (m_document->hasResult()) {
            // Each new exercise asks about another query of the sentence.
            const SnapshotPtr snap = m_document->snapshot();
            const int n = int(snap->rowTokens.size());
            int query = n > 0 ? int(m_seed % std::uint64_t(n)) : 0;
            if (n > 1 && m_exercise.isMultipleChoice() && query == m_exercise.query)
                query = (query + 1) % n;
            m_exercise = attn::predictionExercise(snap->rowTokens, snap->columnTokens, *snap->result, query, m_head);
        } else {
            m_exercise = attn::predictionExercise(m_seed);
        }
        break;
    case RotatePair: m_exercise = attn::rotatePairExercise(m_seed); break;
    case KeyValueCount: m_exercise = attn::keyValueCountExercise(m_seed); break;
    default: m_exercise = attn::randomExercise(m_seed); break;
    }
    showExercise();
    updateScore();
}

void PracticeDialog::showExercise()
{
    m_question->setText(m_exercise.question);
    setFeedback(QString());
    m_solutionPlain.clear();
    m_solutionText->clear();
    m_solutionText->hide();
    m_answer->clear();
    m_answer->setReadOnly(false);
    m_check->setEnabled(true);
    m_solution->setEnabled(true);
    m_check->setDefault(true);
    const bool choice = m_exercise.isMultipleChoice();
    m_answer->setVisible(!choice);
    m_choiceArea->setVisible(choice);
    m_choiceBox->setEnabled(true);
    fillChoices();
    if (choice) {
        if (!m_choices->buttons().isEmpty())
            m_choices->buttons().constFirst()->setFocus();
    } else {
        setInputHint();
        m_answer->setFocus();
    }
}

void PracticeDialog::fillChoices()
{
    for (QAbstractButton *b : m_choices->buttons()) {
        m_choices->removeButton(b);
        delete b;
    }
    const int n = int(m_exercise.choiceLabels.size());
    const int columns = n <= 4 ? std::max(n, 1) : n <= 9 ? 3 : 4;
    for (int i = 0; i < n; ++i) {
        // The position is the 0-based token number every view uses; the
        // first ten double as Alt+digit shortcuts.
        QString label = m_exercise.choiceLabels[i];
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        auto *button = new QRadioButton(i < 10 ? QStringLiteral("&%1  %2").arg(i).arg(label)
                                               : QStringLiteral("%1  %2").arg(i).arg(label));
        button->setToolTip(tr("Token %1: “%2”").arg(i).arg(m_exercise.choiceLabels[i]));
        m_choices->addButton(button, i);
        m_choiceLayout->addWidget(button, i / columns, i % columns);
    }
    // Pack the columns to the left instead of spreading them over the width.
    const int used = std::max(m_choiceLayout->columnCount(), columns + 1); // earlier exercises may have had more
    for (int c = 0; c < used; ++c)
        m_choiceLayout->setColumnStretch(c, c == columns ? 1 : 0);
    sizeChoiceArea();
}

void PracticeDialog::sizeChoiceArea()
{
    const int n = int(m_choices->buttons().size());
    const int columns = n <= 4 ? std::max(n, 1) : n <= 9 ? 3 : 4;
    const int rows = (n + columns - 1) / columns;
    const int rowHeight = m_choices->buttons().isEmpty() ? 0 : m_choices->buttons().constFirst()->sizeHint().height();
    const int spacing = std::max(m_choiceLayout->verticalSpacing(), 0);
    const int shownRows = std::min(rows, maxChoiceRows);
    m_choiceArea->setFixedHeight(shownRows * rowHeight + std::max(shownRows - 1, 0) * spacing);
    m_choiceArea->setVerticalScrollBarPolicy(rows > maxChoiceRows ? Qt::ScrollBarAlwaysOn : Qt::ScrollBarAlwaysOff);
}

void PracticeDialog::applyFonts()
{
    // From the dialog's font each time, so they follow View › Zoom In.
    QFont big = font();
    if (big.pointSizeF() > 0)
        big.setPointSizeF(big.pointSizeF() * 1.1);
    m_question->setFont(big);
    const QFontMetrics fm(m_answer->font());
    m_answer->setMinimumWidth(std::max(fm.horizontalAdvance(tr("Your answer: a whole number")),
                                       fm.horizontalAdvance(tr("Your answer, for example 0.42")))
                              + 24);
}

void PracticeDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        sizeChoiceArea();
    }
}

void PracticeDialog::setInputHint()
{
    // The hint and the validator follow the question: a count takes whole
    // numbers only, a decimal answer shows as many decimals as it needs.
    const bool whole = attn::answerDecimals(m_exercise) == 0;
    if (m_exercise.answerCount() > 1) {
        m_answer->setPlaceholderText(tr("Your answer: %1 numbers, for example %2")
                                         .arg(m_exercise.answerCount())
                                         .arg(attn::answerExample(m_exercise)));
        m_answer->setToolTip(tr("Type the numbers separated by a comma and a space and press Enter. Each within %1 "
                                "of the exact value counts as right.")
                                 .arg(attn::formatNumber(m_exercise.tolerance)));
        delete m_answer->validator();
        m_answer->setValidator(new QRegularExpressionValidator(numbersPattern, m_answer));
        return;
    }
    if (whole) {
        m_answer->setPlaceholderText(tr("Your answer: a whole number"));
        m_answer->setToolTip(tr("Type a whole number and press Enter."));
    } else {
        m_answer->setPlaceholderText(tr("Your answer, for example %1").arg(attn::answerExample(m_exercise)));
        m_answer->setToolTip(tr("Type a number (a dot or a comma before the decimals) and press Enter. Within %1 "
                                "of the exact value counts as right.")
                                 .arg(attn::formatNumber(m_exercise.tolerance)));
    }
    delete m_answer->validator();
    m_answer->setValidator(new QRegularExpressionValidator(whole ? wholeNumberPattern : decimalPattern, m_answer));
}

void PracticeDialog::check()
{
    if (m_score.settled())
        return;
    const bool choice = m_exercise.isMultipleChoice();
    const attn::AnswerCheck result = choice ? attn::checkChoice(m_exercise, m_choices->checkedId())
                                            : attn::checkAnswer(m_exercise, m_answer->text());
    if (!result.understood) {
        setFeedback(result.message);
        return;
    }
    const attn::PracticeScore::Outcome outcome = m_score.answered(result.correct);
    const QString right = tr("✔"), wrong = tr("✘");
    if (result.correct) {
        QString text = result.message;
        if (outcome == attn::PracticeScore::Outcome::RightAfterRetry)
            text += QLatin1Char(' ') + tr("(Counted as right after a retry.)");
        setFeedback(right + QLatin1Char(' ') + text, emphasised(right, true, text));
        settle();
    } else {
        const QString text = m_score.attempts() > 1 ? tr("Try %1: %2").arg(m_score.attempts()).arg(result.message)
                                                    : result.message;
        setFeedback(wrong + QLatin1Char(' ') + text, emphasised(wrong, false, text));
        if (!choice)
            m_answer->selectAll(); // typing the next try replaces the last one
    }
    updateScore();
}

void PracticeDialog::showSolution()
{
    if (m_score.settled())
        return;
    m_score.solutionShown();
    m_solutionPlain = attn::solutionText(m_exercise);
    // "Solution: 6.1." in bold, the working after it.
    const int stop = m_solutionPlain.indexOf(QStringLiteral(". "));
    m_solutionText->setText(stop < 0 ? m_solutionPlain.toHtmlEscaped()
                                     : QStringLiteral("<b>%1</b>%2").arg(m_solutionPlain.left(stop + 1).toHtmlEscaped(),
                                                                         m_solutionPlain.mid(stop + 1).toHtmlEscaped()));
    m_solutionText->show();
    settle();
    updateScore();
}

void PracticeDialog::settle()
{
    // Settled: the answer stays readable, Enter moves on to a new exercise.
    m_answer->setReadOnly(true);
    m_choiceBox->setEnabled(false);
    m_check->setEnabled(false);
    m_solution->setEnabled(false);
    m_new->setDefault(true);
    m_new->setFocus();
}

void PracticeDialog::updateScore()
{
    m_scoreLabel->setText(tr("Score: %1").arg(m_score.text()));
}
