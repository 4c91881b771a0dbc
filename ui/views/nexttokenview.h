#pragma once
// A model's guesses for one position (GPT-2's next token, BERT's [MASK]):
// the most probable tokens with their probabilities as bars. After heads are
// switched off or on, each also shows its probability before (a tick on the
// bar, "before → after" in numbers), and the tokens that moved most follow.

#include <QString>
#include <QWidget>
#include <vector>

struct TokenGuess
{
    int id = -1;
    QString text; // as a chip shows it (" world")
    double probability = 0;
    double before = -1; // the probability in the run before; -1: no such run
};

class NextTokenView : public QWidget
{
    Q_OBJECT
public:
    explicit NextTokenView(QWidget *parent = nullptr);

    // Most probable first; `title` says what is predicted. An empty list shows `emptyText`.
    void setGuesses(const QString &title, const std::vector<TokenGuess> &guesses);
    // The tokens whose probability changed most, largest change first (each with `before`); empty: none shown.
    void setMovers(const std::vector<TokenGuess> &movers);
    void setEmptyText(const QString &text);
    QString emptyText() const { return m_empty; }
    const std::vector<TokenGuess> &guesses() const { return m_guesses; }
    const std::vector<TokenGuess> &movers() const { return m_movers; }
    QString title() const { return m_title; }
    // How a guess's probability reads ("0.0031 → 0.0047 %"): at least two
    // significant digits, and as many more as two different numbers need to differ.
    static QString changeText(const TokenGuess &guess);
    // A mover's line: its change and the difference in points.
    static QString moverText(const TokenGuess &guess);
    QRectF barRect(int index) const;
    // Where the "Biggest changes" heading and the movers' rows start (below the bars).
    double moversTop() const;

    QSize sizeHint() const override { return {300, 380}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    bool hasBefore() const;
    double rowHeight() const;
    double numberWidth() const;
    double fullBarWidth() const; // a bar of probability 1
    void updateDescription();

    QString m_title, m_empty;
    std::vector<TokenGuess> m_guesses;
    std::vector<TokenGuess> m_movers;
};
