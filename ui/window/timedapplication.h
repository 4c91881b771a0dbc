#pragma once
// A QApplication that times how long the GUI thread takes to handle each
// event (outermost only: an event handled while another is, is part of it),
// so a benchmark or a test can tell the longest a user would have waited for
// the window to answer. Both clocks: wall time, which a busy machine
// stretches, and the GUI thread's own processor time, which it does not.

#include <QApplication>
#include <QElapsedTimer>
#include <QString>
#include <algorithm>
#include <ctime>

// The longest event handled since the last reset.
struct LongestGuiEvent
{
    double wallMs = 0; // by the wall clock
    double cpuMs = 0;  // by the GUI thread's processor time
    QString what;      // the receiver's class and event type of the longest by cpuMs, e.g. "MainWindow 77"
};

class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;

    static LongestGuiEvent longest() { return s_longest; }
    static void resetLongest() { s_longest = {}; }

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_depth > 0)
            return QApplication::notify(receiver, event);
        QElapsedTimer wall;
        wall.start();
        const double cpu0 = threadCpuMs();
        const int type = int(event->type()); // the event may not outlive its handling
        const QString name = QLatin1String(receiver->metaObject()->className());
        ++m_depth;
        const bool handled = QApplication::notify(receiver, event);
        --m_depth;
        const double cpu = threadCpuMs() - cpu0;
        s_longest.wallMs = std::max(s_longest.wallMs, wall.nsecsElapsed() / 1e6);
        if (cpu > s_longest.cpuMs) {
            s_longest.cpuMs = cpu;
            s_longest.what = QStringLiteral("%1 %2").arg(name).arg(type);
        }
        return handled;
    }

private:
    static double threadCpuMs()
    {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    }

    int m_depth = 0;
    static inline LongestGuiEvent s_longest;
};
