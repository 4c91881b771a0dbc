#pragma once
// The "start here" strip shown on a first start: what to click first. It
// stays hidden for good once closed (remembered in QSettings).

#include <QFrame>

class QLabel;
class QToolButton;

class StartHint : public QFrame
{
    Q_OBJECT
public:
    explicit StartHint(QWidget *parent = nullptr);

    // True until the user has closed the hint once.
    static bool wanted();
    // The word the hint names as the query (the session's, as it changes).
    void setQueryToken(const QString &token);
    QString text() const;
    QToolButton *closeButton() const { return m_close; }

signals:
    void dismissed();

private:
    QLabel *m_text;
    QToolButton *m_close;
};
