#include "practicedialog.h"

#include "document.h"
#include "notation.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRandomGenerator>
#include <QVBoxLayout>

PracticeDialog::PracticeDialog(Document *document, QWidget *parent)
    : QDialog(parent), m_document(document), m_seed(QRandomGenerator::global()->generate64())
{
    setWindowTitle(tr("Practice"));
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    auto *kindLabel = new QLabel(tr("&Exercise:"));
    m_kind = new QComboBox;
    m_kind->addItems({tr("Any kind"), tr("Weighted sum by hand"), tr("Counting comparisons"),
                      tr("Which token wins? (small example)"), tr("Which token wins? (your sentence)")});
    kindLabel->setBuddy(m_kind);
    auto *fresh = new QPushButton(tr("Ne&w exercise"));
    top->addWidget(kindLabel);
    top->addWidget(m_kind, 1);
    top->addWidget(fresh);
    layout->addLayout(top);

    m_question = new QLabel;
    m_question->setWordWrap(true);
    m_question->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_question->font();
    big.setPointSizeF(big.pointSizeF() * 1.1);
    m_question->setFont(big);
    layout->addWidget(m_question);

    m_answer = new QLineEdit;
    m_answer->setPlaceholderText(tr("Your answer, for example 3.5"));
    m_answer->setAccessibleName(tr("Answer"));
    layout->addWidget(m_answer);
    m_choiceBox = new QWidget;
    m_choiceLayout = new QVBoxLayout(m_choiceBox);
    m_choiceLayout->setContentsMargins(0, 0, 0, 0);
    m_choices = new QButtonGroup(this);
    layout->addWidget(m_choiceBox);

    auto *actions = new QHBoxLayout;
    m_check = new QPushButton(tr("&Check"));
    m_check->setDefault(true);
    m_reveal = new QPushButton(tr("Show &answer"));
    m_score = new QLabel(tr("Right so far: %1 of %2").arg(0).arg(0));
    actions->addWidget(m_check);
    actions->addWidget(m_reveal);
    actions->addStretch(1);
    actions->addWidget(m_score);
    layout->addLayout(actions);
    m_feedback = new QLabel;
    m_feedback->setWordWrap(true);
    m_feedback->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_feedback, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(fresh, &QPushButton::clicked, this, &PracticeDialog::newExercise);
    connect(m_kind, qOverload<int>(&QComboBox::activated), this, &PracticeDialog::newExercise);
    connect(m_check, &QPushButton::clicked, this, &PracticeDialog::check);
    connect(m_answer, &QLineEdit::returnPressed, this, &PracticeDialog::check);
    connect(m_reveal, &QPushButton::clicked, this, &PracticeDialog::reveal);
    resize(560, 420);
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
    return m_feedback->text();
}

void PracticeDialog::newExercise()
{
    ++m_seed;
    switch (m_kind->currentIndex()) {
    case WeightedSum: m_exercise = attn::weightedOutputExercise(m_seed); break;
    case Comparisons: m_exercise = attn::comparisonsExercise(m_seed); break;
    case PredictGenerated: m_exercise = attn::predictionExercise(m_seed); break;
    case PredictSentence:
        if (m_document->hasResult()) {
            const SnapshotPtr snap = m_document->snapshot();
            m_exercise = attn::predictionExercise(snap->rowTokens, snap->columnTokens, *snap->result,
                                                  m_document->query(), m_head);
            m_exercise.question += QLatin1Char(' ') + tr("(Change the query or the vectors in the main window for "
                                                         "another one.)");
        } else {
            m_exercise = attn::predictionExercise(m_seed);
        }
        break;
    default: m_exercise = attn::randomExercise(m_seed); break;
    }
    showExercise();
}

void PracticeDialog::showExercise()
{
    m_answered = false;
    m_question->setText(m_exercise.question);
    m_feedback->clear();
    m_answer->clear();
    for (QAbstractButton *b : m_choices->buttons()) {
        m_choices->removeButton(b);
        delete b;
    }
    const bool choice = m_exercise.isMultipleChoice();
    m_answer->setVisible(!choice);
    m_choiceBox->setVisible(choice);
    for (int i = 0; i < m_exercise.choices.size(); ++i) {
        auto *button = new QRadioButton(QStringLiteral("&%1  %2").arg(i + 1).arg(m_exercise.choices[i]));
        m_choices->addButton(button, i);
        m_choiceLayout->addWidget(button);
    }
    m_check->setEnabled(true);
    if (!choice)
        m_answer->setFocus();
}

void PracticeDialog::check()
{
    const bool choice = m_exercise.isMultipleChoice();
    const attn::AnswerCheck result = choice ? attn::checkChoice(m_exercise, m_choices->checkedId())
                                            : attn::checkAnswer(m_exercise, m_answer->text());
    m_feedback->setText((result.correct ? tr("✔ ") : result.understood ? tr("✘ ") : QString()) + result.message);
    if (!result.understood)
        return;
    // One attempt counts per exercise, so retrying after the working is shown does not inflate the score.
    if (!m_answered) {
        ++m_tried;
        m_right += result.correct ? 1 : 0;
        m_answered = true;
    }
    m_score->setText(tr("Right so far: %1 of %2").arg(m_right).arg(m_tried));
}

void PracticeDialog::reveal()
{
    QString text = m_exercise.isMultipleChoice()
        ? tr("Answer: “%1”. %2").arg(m_exercise.choices.value(int(m_exercise.answer)), m_exercise.working)
        : tr("Answer: %1. %2").arg(attn::formatNumber(m_exercise.answer), m_exercise.working);
    m_feedback->setText(text);
    if (!m_answered) {
        ++m_tried;
        m_answered = true;
        m_score->setText(tr("Right so far: %1 of %2").arg(m_right).arg(m_tried));
    }
}
