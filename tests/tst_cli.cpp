#include <QTest>

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestCli)
#include "tst_cli.moc"
