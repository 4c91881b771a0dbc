// Token chips show what a model's tokens are: spaces at a token's ends and
// newlines made visible, a special token (a BOS) and a byte token drawn apart
// from text, and each token's id and kind in its tooltip.

#include "tokenchips.h"
#include "tokenizers/tokenizerloader.h"

#include <QtTest>

using Role = attn::ModelToken::Role;

class TestTokenChips : public QObject
{
    Q_OBJECT

private slots:
    void visibleLabel_data()
    {
        QTest::addColumn<QString>("token");
        QTest::addColumn<QString>("label");
        QTest::newRow("leading space") << " world" << QStringLiteral("\u2423world");
        QTest::newRow("trailing space") << "the " << QStringLiteral("the\u2423");
        QTest::newRow("inner space kept") << "New York" << "New York";
        QTest::newRow("only spaces") << "  " << QStringLiteral("\u2423\u2423");
        QTest::newRow("newlines") << "\n\n" << QStringLiteral("\u21B5\u21B5");
        QTest::newRow("tab") << "\tx" << QStringLiteral("\u21E5x");
        QTest::newRow("carriage return") << " \r\n" << QStringLiteral("\u2423\u240D\u21B5");
        QTest::newRow("plain") << "Hello" << "Hello";
        QTest::newRow("empty") << "" << "";
    }

    void visibleLabel()
    {
        QFETCH(QString, token);
        QFETCH(QString, label);
        QCOMPARE(TokenChips::visibleLabel(token), label);
    }

    void toolTips()
    {
        QCOMPARE(TokenChips::toolTipFor({1, "", "<s>", Role::Special}),
                 QStringLiteral("“<s>” · id 1 · a special token the tokenizer puts around every text (not typed)"));
        QCOMPARE(TokenChips::toolTipFor({1, "<s>", "<s>", Role::Special}), QStringLiteral("“<s>” · id 1 · a special token"));
        QCOMPARE(TokenChips::toolTipFor({242, "\xEF", "<0xEF>", Role::Byte}),
                 QStringLiteral("<0xEF> · id 242 · one byte (0xEF) of a character the vocabulary has no token for"));
        QCOMPARE(TokenChips::toolTipFor({1879, " world", " world"}), QStringLiteral("“\u2423world” · id 1879"));
    }

    void rolesDrawnApart()
    {
        // The same text as a text chip, a special chip and a byte chip: three
        // different pictures.
        QImage images[3];
        const Role roles[3] = {Role::Text, Role::Special, Role::Byte};
        for (int k = 0; k < 3; ++k) {
            TokenChips chips;
            chips.resize(300, 60);
            chips.setTokens({"x", "<0x0A>"}, {Role::Text, roles[k]});
            chips.setQuery(0);
            QCOMPARE(chips.roles().value(1), roles[k]);
            images[k] = chips.grab(chips.chipRect(1).adjusted(-2, -2, 2, 2)).toImage();
        }
        QVERIFY(images[0] != images[1]);
        QVERIFY(images[0] != images[2]);
        QVERIFY(images[1] != images[2]);
    }

    void mistralSentence()
    {
        // Mistral's tokens of a sentence with a newline and a character it
        // spells in bytes: BOS first, "␣moved", the newline's byte token.
        // ATTN_CHIPS_PNG=FILE keeps the picture.
        QString error;
        const attn::TokenizerPtr t = attn::loadTokenizerFromFolder(ATTN_TEST_DATA "/tokenizers/mistral", "mistral", &error);
        QVERIFY2(t, qPrintable(error));
        QStringList texts;
        QList<Role> roles;
        for (const attn::ModelToken &token : t->encode(QStringLiteral("The robot moved the box\nbecause it was heavy \U0001D11E")))
            texts << token.text, roles << token.role;
        QCOMPARE(texts.mid(0, 4), (QStringList{"<s>", " The", " robot", " moved"}));
        QCOMPARE(roles.count(Role::Special), 1);
        QCOMPARE(roles.count(Role::Byte), 5); // the newline, and 𝄞 as F0 9D 84 9E
        TokenChips chips;
        chips.resize(520, 80);
        chips.setTokens(texts, roles);
        chips.setQuery(3);
        QCOMPARE(TokenChips::visibleLabel(texts[3]), QStringLiteral("␣moved"));
        if (const QString png = qEnvironmentVariable("ATTN_CHIPS_PNG"); !png.isEmpty())
            chips.grab().save(png);
    }

    void rolesChangeTheLayout()
    {
        // Setting roles for the same texts lays the chips out again.
        TokenChips chips;
        chips.resize(300, 60);
        chips.setTokens({"<0x0A>"});
        const QList<Role> none = chips.roles();
        chips.setTokens({"<0x0A>"}, {Role::Byte});
        QVERIFY(none.isEmpty());
        QCOMPARE(chips.roles(), (QList<Role>{Role::Byte}));
    }
};

QTEST_MAIN(TestTokenChips)
#include "tst_tokenchips.moc"
