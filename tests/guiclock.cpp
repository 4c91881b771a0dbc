#include "guiclock.h"

#include <QMetaEnum>
#include <ctime>
#include <sys/resource.h>

namespace {

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct ThreadUsage
{
    long preempted, blocked, pageFaults;
    double systemMs;
};

// Of the calling thread: context switches, involuntary (preempted) and
// voluntary (it waited); page faults; time in the kernel.
ThreadUsage threadUsage()
{
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return {usage.ru_nivcsw, usage.ru_nvcsw, usage.ru_minflt + usage.ru_majflt,
            usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3};
}

} // namespace

void GuiStopwatch::start()
{
    m_cpuMs = threadCpuMs();
    const ThreadUsage u = threadUsage();
    m_preempted = u.preempted, m_blocked = u.blocked, m_pageFaults = u.pageFaults, m_systemMs = u.systemMs;
    m_wall.start();
}

GuiCost GuiStopwatch::elapsed(const QString &what) const
{
    const ThreadUsage u = threadUsage();
    return {m_wall.nsecsElapsed() / 1e6, threadCpuMs() - m_cpuMs, u.preempted - m_preempted, u.blocked - m_blocked,
            u.systemMs - m_systemMs, u.pageFaults - m_pageFaults, what};
}

bool TimedApplication::notify(QObject *receiver, QEvent *event)
{
    if (!m_recording || m_depth > 0) {
        ++m_depth;
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        return result;
    }
    // The event and even the receiver (a deferred delete) may be gone afterwards.
    const QEvent::Type type = event->type();
    const char *className = receiver->metaObject()->className();
    const QString objectName = receiver->objectName();
    const GuiStopwatch watch;
    ++m_depth;
    const bool result = QApplication::notify(receiver, event);
    --m_depth;
    const GuiCost cost = watch.elapsed();
    if (cost.busyMs() > m_slowest.busyMs()) {
        m_slowest = cost;
        m_slowest.what = QStringLiteral("%1 to %2%3")
                             .arg(QString::fromLatin1(QMetaEnum::fromType<QEvent::Type>().valueToKey(type)),
                                  QString::fromLatin1(className),
                                  objectName.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(objectName));
    }
    return result;
}
