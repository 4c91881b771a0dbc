#pragma once
// Splits a sentence into the word and punctuation tokens the chips show.

#include <QString>
#include <vector>

namespace attn {

struct Token
{
    QString text;
    int start = 0;  // index of the first UTF-16 code unit in the sentence
    int length = 0; // in UTF-16 code units

    bool operator==(const Token &o) const { return text == o.text && start == o.start && length == o.length; }
};

// Words (letters, digits and combining marks, with an inner apostrophe or
// hyphen kept: "don't", "self-attention") are one token each. Every
// punctuation mark, symbol, emoji and CJK character is a token of its own.
// Whitespace separates and is dropped; text without any token gives none.
std::vector<Token> tokenize(const QString &sentence);

QStringList tokenTexts(const std::vector<Token> &tokens);

} // namespace attn
