#pragma once
// The sentence's tokens as clickable chips that wrap over lines; the query's
// chip is filled. Painted in one widget so thousands of tokens stay cheap.
// Spaces at a token's ends show as "␣", newlines and tabs as "↵" and "⇥";
// a special token (a BOS) is drawn in italics with a dashed outline, a byte
// token ("<0xE2>") in a fixed-pitch font with a dotted one.

#include "tokenizers/modeltokenizer.h"

#include <QHash>
#include <QStringList>
#include <QWidget>
#include <vector>

class TokenChips : public QWidget
{
    Q_OBJECT
public:
    using Role = attn::ModelToken::Role;

    explicit TokenChips(QWidget *parent = nullptr);

    // `roles[i]` says how chip i is drawn; missing ones are text.
    void setTokens(const QStringList &tokens, const QList<Role> &roles = {});
    const QStringList &tokens() const { return m_tokens; }
    const QList<Role> &roles() const { return m_roles; }
    // What a chip shows for a token's text: the whitespace at its ends, and
    // every newline, tab and carriage return, made visible.
    static QString visibleLabel(const QString &token);
    // A model token's tooltip: its text, id and what kind of token it is.
    static QString toolTipFor(const attn::ModelToken &token);
    // One tooltip per chip (a model's token id); empty: none.
    void setToolTips(const QStringList &tips) { m_tips = tips; }
    QStringList toolTips() const { return m_tips; }
    void setQuery(int query);
    int query() const { return m_query; }
    // Chips outlined as well as the query (the walkthrough's current keys).
    void setHighlighted(const QList<int> &indices);
    QList<int> highlighted() const { return m_highlighted; }

    // Geometry, for the tests and for the click mapping.
    QRect chipRect(int index) const;
    int chipAt(const QPoint &pos) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void querySelected(int index);
    // The chips wrapped differently: the height they need may have changed.
    void heightNeeded(int height);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    std::vector<QRect> layoutChips(int width) const;
    // The labels and widths layoutChips() places, once per text and font;
    // words the last text had keep their measurement unless the font changed.
    void measureChips(bool fontChanged);
    void relayout();
    void updateAccessibleText();
    QString chipLabel(int index) const;

    QStringList m_tokens;
    QList<Role> m_roles;
    QStringList m_tips;
    int m_query = 0;
    std::vector<QRect> m_rects;
    int m_rectsWidth = -1;         // the width m_rects were laid out for
    QStringList m_labels;          // each chip's text, elided to the widest chip
    std::vector<int> m_chipWidths; // each chip's width (shaping 512 labels takes milliseconds: done once)
    struct MeasuredChip
    {
        QString label;
        int width = -1;
    };
    QFont chipFont(int index, bool bold) const;
    QHash<QString, MeasuredChip> m_measured; // keyed by role and text // the last text's distinct words, measured
    QList<int> m_highlighted;
    int m_hintedHeight = -1; // sizeHint()'s height when the layout was last told
};
