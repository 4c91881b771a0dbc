#pragma once
// A model's guesses for one position (GPT-2's next token, BERT's [MASK]):
// the most probable tokens with their probabilities as bars.

#include <QString>
#include <QWidget>
#include <vector>

struct TokenGuess
{
    int id = -1;
    QString text; // as a chip shows it (" world")
    double probability = 0;
};

class NextTokenView : public QWidget
{
    Q_OBJECT
public:
    explicit NextTokenView(QWidget *parent = nullptr);

    // Most probable first; `title` says what is predicted. An empty list shows `emptyText`.
    void setGuesses(const QString &title, const std::vector<TokenGuess> &guesses);
    void setEmptyText(const QString &text);
    const std::vector<TokenGuess> &guesses() const { return m_guesses; }
    QString title() const { return m_title; }
    QRectF barRect(int index) const;

    QSize sizeHint() const override { return {280, 260}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_title, m_empty;
    std::vector<TokenGuess> m_guesses;
};
