#pragma once
// Practice: exercises with fresh numbers (core/exercises), answered by typing
// a number or picking a token. A wrong answer gets a hint and another try; the
// worked solution waits behind "Show solution"; the score counts honestly.

#include "lessons/exercises.h"

#include <QDialog>
#include <cstdint>

class Document;
class QButtonGroup;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;

class PracticeDialog : public QDialog
{
    Q_OBJECT
public:
    enum Kind { Mixed, WeightedSum, Comparisons, PredictGenerated, PredictSentence, RotatePair, KeyValueCount };

    explicit PracticeDialog(Document *document, QWidget *parent = nullptr);

    // The next exercise uses seed + 1, so a test can pin the numbers.
    void setSeed(std::uint64_t seed) { m_seed = seed; }
    void setKind(Kind kind);
    void setHead(int head) { m_head = std::max(head, 0); }

    const attn::Exercise &exercise() const { return m_exercise; }
    const attn::PracticeScore &score() const { return m_score; }
    QLineEdit *answerEdit() const { return m_answer; }
    QPushButton *checkButton() const { return m_check; }
    QPushButton *solutionButton() const { return m_solution; }
    QPushButton *newButton() const { return m_new; }
    QButtonGroup *choiceGroup() const { return m_choices; }
    QLabel *feedbackLabel() const { return m_feedback; }
    QLabel *solutionLabel() const { return m_solutionText; }
    QString questionText() const;
    QString feedbackText() const; // plain text, as the learner reads it
    QString solutionText() const; // empty while the solution is hidden
    QString scoreText() const;

public slots:
    void newExercise();
    void check();
    void showSolution();

protected:
    void changeEvent(QEvent *event) override;

private:
    void showExercise();
    void fillChoices();
    void sizeChoiceArea();
    void applyFonts();
    void setInputHint();
    void settle();
    void updateScore();
    void setFeedback(const QString &plain, const QString &rich = QString());

    Document *m_document;
    std::uint64_t m_seed;
    int m_head = 0;
    attn::PracticeScore m_score;
    attn::Exercise m_exercise;
    QComboBox *m_kind = nullptr;
    QPushButton *m_new = nullptr;
    QLabel *m_question = nullptr;
    QScrollArea *m_choiceArea = nullptr;
    QWidget *m_choiceBox = nullptr;
    QGridLayout *m_choiceLayout = nullptr;
    QButtonGroup *m_choices = nullptr;
    QLineEdit *m_answer = nullptr;
    QPushButton *m_check = nullptr;
    QPushButton *m_solution = nullptr;
    QLabel *m_feedback = nullptr;
    QLabel *m_solutionText = nullptr;
    QLabel *m_scoreLabel = nullptr;
    QString m_feedbackPlain, m_solutionPlain; // the labels hold rich text
};
