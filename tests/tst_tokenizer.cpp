// The tokenizer: which tokens a sentence gives, and where each one sits.

#include "session/tokenizer.h"

#include <QStringList>
#include <QTest>

using TokenSpans = QList<QPair<int, int>>; // (start, length) in UTF-16 code units

class TestTokenizer : public QObject
{
    Q_OBJECT
private slots:
    void tokens_data();
    void tokens();
    void noTokens_data();
    void noTokens();
    void spans_data();
    void spans();
    void longText();
    void tokenTexts();
};

namespace {

QString u(const char *utf8) { return QString::fromUtf8(utf8); }

} // namespace

void TestTokenizer::tokens_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("plain words") << u("Your journey starts with one step")
                                 << QStringList{"Your", "journey", "starts", "with", "one", "step"};
    QTest::newRow("punctuation") << u("Hello, world!") << QStringList{"Hello", ",", "world", "!"};
    QTest::newRow("every mark its own") << u("Wait...what?!") << QStringList{"Wait", ".", ".", ".", "what", "?", "!"};
    QTest::newRow("brackets and quotes") << u("(a) \"b\"") << QStringList{"(", "a", ")", "\"", "b", "\""};
    QTest::newRow("apostrophe inside") << u("don't stop") << QStringList{"don't", "stop"};
    QTest::newRow("typographic apostrophe") << u("it\u2019s") << QStringList{u("it\u2019s")};
    QTest::newRow("hyphen inside") << u("self-attention works") << QStringList{"self-attention", "works"};
    QTest::newRow("several joiners") << u("rock'n'roll state-of-the-art")
                                     << QStringList{"rock'n'roll", "state-of-the-art"};
    QTest::newRow("quote at word edges") << u("'tis the dogs'") << QStringList{"'", "tis", "the", "dogs", "'"};
    QTest::newRow("hyphen at edges and doubled") << u("-a- b--c") << QStringList{"-", "a", "-", "b", "-", "-", "c"};
    QTest::newRow("numbers") << u("42 cats and 7 dogs") << QStringList{"42", "cats", "and", "7", "dogs"};
    QTest::newRow("decimal point splits") << u("pi is 3.14") << QStringList{"pi", "is", "3", ".", "14"};
    QTest::newRow("letters and digits") << u("GPT4 x2") << QStringList{"GPT4", "x2"};
    QTest::newRow("underscore is a word char") << u("head_dim = 2") << QStringList{"head_dim", "=", "2"};
    QTest::newRow("precomposed accents") << u("caf\u00e9 na\u00efve") << QStringList{u("caf\u00e9"), u("na\u00efve")};
    QTest::newRow("combining accent") << u("cafe\u0301 ok") << QStringList{u("cafe\u0301"), "ok"};
    QTest::newRow("stacked combining marks") << u("a\u0301\u0323b") << QStringList{u("a\u0301\u0323b")};
    QTest::newRow("CJK") << u("我爱你") << QStringList{u("我"), u("爱"), u("你")};
    QTest::newRow("CJK with punctuation") << u("你好，世界。")
                                          << QStringList{u("你"), u("好"), u("，"), u("世"), u("界"), u("。")};
    QTest::newRow("hiragana") << u("ありがとう") << QStringList{u("あ"), u("り"), u("が"), u("と"), u("う")};
    QTest::newRow("katakana") << u("カタカナ") << QStringList{u("カ"), u("タ"), u("カ"), u("ナ")};
    QTest::newRow("CJK extension B (surrogates)") << u("\U00020000\U00020001")
                                                  << QStringList{u("\U00020000"), u("\U00020001")};
    QTest::newRow("Korean words") << u("안녕 세계") << QStringList{u("안녕"), u("세계")};
    QTest::newRow("emoji") << u("I ❤ 🍕!") << QStringList{"I", u("❤"), u("🍕"), "!"};
    QTest::newRow("emoji glued to word") << u("pizza🍕") << QStringList{"pizza", u("🍕")};
    QTest::newRow("ZWJ family") << u("\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466 ok")
                                << QStringList{u("\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466"), "ok"};
    QTest::newRow("flags") << u("\U0001F1EF\U0001F1F5\U0001F1EB\U0001F1F7")
                           << QStringList{u("\U0001F1EF\U0001F1F5"), u("\U0001F1EB\U0001F1F7")};
    QTest::newRow("skin tone") << u("\U0001F44D\U0001F3FD") << QStringList{u("\U0001F44D\U0001F3FD")};
    QTest::newRow("keycaps are emoji, not digits") << u("1\uFE0F\u20E32\uFE0F\u20E3 a#\uFE0F\u20E3")
                                                  << QStringList{u("1\uFE0F\u20E3"), u("2\uFE0F\u20E3"), "a",
                                                                 u("#\uFE0F\u20E3")};
    QTest::newRow("emoji with VS16") << u("\u2764\uFE0F!") << QStringList{u("\u2764\uFE0F"), "!"};
    QTest::newRow("Arabic") << u("مرحبا بالعالم") << QStringList{u("مرحبا"), u("بالعالم")};
    QTest::newRow("Arabic with harakat") << u("كَتَبَ") << QStringList{u("كَتَبَ")};
    QTest::newRow("Arabic question mark") << u("كيف؟") << QStringList{u("كيف"), u("؟")};
    QTest::newRow("Hebrew") << u("שלום עולם") << QStringList{u("שלום"), u("עולם")};
    QTest::newRow("mixed LTR and RTL") << u("say שלום now") << QStringList{"say", u("שלום"), "now"};
    QTest::newRow("leading and trailing spaces") << u("   two words   ") << QStringList{"two", "words"};
    QTest::newRow("tabs and newlines") << u("a\tb\nc\r\nd") << QStringList{"a", "b", "c", "d"};
    QTest::newRow("no-break and ideographic spaces") << u("a\u00a0b\u3000c") << QStringList{"a", "b", "c"};
    QTest::newRow("zero-width space separates") << u("a\u200bb") << QStringList{"a", "b"};
    QTest::newRow("single letter") << u("a") << QStringList{"a"};
}

void TestTokenizer::tokens()
{
    QFETCH(QString, sentence);
    QFETCH(QStringList, expected);
    const std::vector<attn::Token> tokens = attn::tokenize(sentence);
    QCOMPARE(attn::tokenTexts(tokens), expected);
    // Every token is exactly the text at its span.
    for (const attn::Token &t : tokens) {
        QCOMPARE(t.length, int(t.text.size()));
        QCOMPARE(sentence.mid(t.start, t.length), t.text);
    }
    // Spans are in order and do not overlap.
    for (std::size_t i = 1; i < tokens.size(); ++i)
        QVERIFY(tokens[i].start >= tokens[i - 1].start + tokens[i - 1].length);
}

void TestTokenizer::noTokens_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::newRow("empty") << QString();
    QTest::newRow("empty, not null") << QStringLiteral("");
    QTest::newRow("spaces") << QStringLiteral("     ");
    QTest::newRow("tabs and newlines") << QStringLiteral("\t\n\r\n \t");
    QTest::newRow("zero-width characters") << u("\u200b\ufeff\u200d");
}

void TestTokenizer::noTokens()
{
    QFETCH(QString, sentence);
    QVERIFY(attn::tokenize(sentence).empty());
}

void TestTokenizer::spans_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::addColumn<TokenSpans>("expected");
    QTest::newRow("punctuation") << u("Hello, world!") << TokenSpans{{0, 5}, {5, 1}, {7, 5}, {12, 1}};
    QTest::newRow("leading spaces") << u("  hi  there ") << TokenSpans{{2, 2}, {6, 5}};
    QTest::newRow("combining accent keeps its letter") << u("cafe\u0301!") << TokenSpans{{0, 5}, {5, 1}};
    QTest::newRow("surrogate pairs") << u("\U0001F355 a") << TokenSpans{{0, 2}, {3, 1}};
    QTest::newRow("ZWJ family is 11 code units")
        << u("x \U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466") << TokenSpans{{0, 1}, {2, 11}};
    QTest::newRow("flags are 4 code units each")
        << u("\U0001F1EF\U0001F1F5 \U0001F1EB\U0001F1F7") << TokenSpans{{0, 4}, {5, 4}};
    QTest::newRow("CJK") << u("我爱你") << TokenSpans{{0, 1}, {1, 1}, {2, 1}};
}

void TestTokenizer::spans()
{
    QFETCH(QString, sentence);
    QFETCH(TokenSpans, expected);
    const std::vector<attn::Token> tokens = attn::tokenize(sentence);
    TokenSpans actual;
    for (const attn::Token &t : tokens)
        actual.append({t.start, t.length});
    QCOMPARE(actual, expected);
}

void TestTokenizer::longText()
{
    // 1,000 repetitions of "word " (5,000 characters), then the same with punctuation.
    const QString words = QStringLiteral("word ").repeated(1000);
    QCOMPARE(words.size(), 5000);
    const std::vector<attn::Token> a = attn::tokenize(words);
    QCOMPARE(int(a.size()), 1000);
    QCOMPARE(a.back().start, 4995);
    QCOMPARE(a.back().text, QStringLiteral("word"));

    const QString mixed = QStringLiteral("ab, ").repeated(1250); // 5,000 characters, 2 tokens each
    const std::vector<attn::Token> b = attn::tokenize(mixed);
    QCOMPARE(int(b.size()), 2500);
    QCOMPARE(b[2499].text, QStringLiteral(","));
    QCOMPARE(b[2499].start, 4998);

    // One 5,000-letter word stays one token.
    const std::vector<attn::Token> c = attn::tokenize(QString(5000, QLatin1Char('x')));
    QCOMPARE(int(c.size()), 1);
    QCOMPARE(c[0].length, 5000);
}

void TestTokenizer::tokenTexts()
{
    QCOMPARE(attn::tokenTexts({}), QStringList());
    const std::vector<attn::Token> tokens{{QStringLiteral("a"), 0, 1}, {QStringLiteral("bc"), 2, 2}};
    QCOMPARE(attn::tokenTexts(tokens), (QStringList{"a", "bc"}));
}

QTEST_APPLESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"
