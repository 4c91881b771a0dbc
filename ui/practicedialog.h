#pragma once
// Practice: exercises with fresh numbers (core/exercises), answered by typing
// a number or picking a token, and checked by the app with the working shown.

#include "exercises.h"

#include <QDialog>
#include <cstdint>

class Document;
class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QVBoxLayout;

class PracticeDialog : public QDialog
{
    Q_OBJECT
public:
    enum Kind { Mixed, WeightedSum, Comparisons, PredictGenerated, PredictSentence };

    explicit PracticeDialog(Document *document, QWidget *parent = nullptr);

    // The next exercise uses seed + 1, so a test can pin the numbers.
    void setSeed(std::uint64_t seed) { m_seed = seed; }
    void setKind(Kind kind);
    void setHead(int head) { m_head = std::max(head, 0); }

    const attn::Exercise &exercise() const { return m_exercise; }
    QLineEdit *answerEdit() const { return m_answer; }
    QPushButton *checkButton() const { return m_check; }
    QButtonGroup *choiceGroup() const { return m_choices; }
    QString questionText() const;
    QString feedbackText() const;
    int rightCount() const { return m_right; }
    int triedCount() const { return m_tried; }

public slots:
    void newExercise();
    void check();
    void reveal();

private:
    void showExercise();

    Document *m_document;
    std::uint64_t m_seed;
    int m_head = 0;
    int m_right = 0;
    int m_tried = 0;
    bool m_answered = false;
    attn::Exercise m_exercise;
    QComboBox *m_kind = nullptr;
    QLabel *m_question = nullptr;
    QLineEdit *m_answer = nullptr;
    QWidget *m_choiceBox = nullptr;
    QVBoxLayout *m_choiceLayout = nullptr;
    QButtonGroup *m_choices = nullptr;
    QPushButton *m_check = nullptr;
    QPushButton *m_reveal = nullptr;
    QLabel *m_feedback = nullptr;
    QLabel *m_score = nullptr;
};
