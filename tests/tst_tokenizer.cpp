#include <QTest>

class TestTokenizer : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"
