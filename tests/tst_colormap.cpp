#include <QTest>

class TestColormap : public QObject
{
    Q_OBJECT
private slots:
    void placeholder() { QVERIFY(true); }
};

QTEST_MAIN(TestColormap)
#include "tst_colormap.moc"
