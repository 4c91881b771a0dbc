#pragma once
// The QApplication of the bench commands: it times how long the GUI thread
// takes to handle each event (outermost only: an event handled while another
// is, is part of it), so a benchmark can report the longest a user would
// have waited for the window to answer.

#include <QApplication>
#include <QElapsedTimer>
#include <QString>
#include <algorithm>

class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;

    // The longest event since the last reset, in milliseconds.
    static double longestEventMs() { return s_longestMs; }
    // What it was: the receiver's class and the event's type, e.g. "HeatmapView 12".
    static QString longestEvent() { return s_longest; }
    static void resetLongestEvent()
    {
        s_longestMs = 0;
        s_longest.clear();
    }

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_depth > 0)
            return QApplication::notify(receiver, event);
        QElapsedTimer timer;
        timer.start();
        ++m_depth;
        const bool handled = QApplication::notify(receiver, event);
        --m_depth;
        const double ms = timer.nsecsElapsed() / 1e6;
        if (ms > s_longestMs) {
            s_longestMs = ms;
            s_longest = QStringLiteral("%1 %2").arg(QLatin1String(receiver->metaObject()->className())).arg(int(event->type()));
        }
        return handled;
    }

private:
    int m_depth = 0;
    static inline double s_longestMs = 0;
    static inline QString s_longest;
};
