#pragma once
// A clock on the GUI thread for tst_modelmonkey: how long a stretch of work
// kept the thread busy, and an application that times every event it
// delivers from the event loop's top level, to name the slowest.

#include <QApplication>
#include <QElapsedTimer>
#include <QString>

// One stretch of GUI-thread work.
struct GuiCost
{
    double wallMs = 0, cpuMs = 0;
    long preempted = 0; // times the scheduler gave the CPU to another thread meanwhile
    long blocked = 0;   // times the thread waited (a lock, a file, a sleep)
    double systemMs = 0; // of cpuMs, the part spent in the kernel for the thread (page faults, system calls)
    long pageFaults = 0; // minor and major page faults of the thread
    QString what;

    // The time the thread was not free: all of the wall-clock time when nothing
    // else ran (a wait on a lock counts), only its CPU time when the machine
    // took the CPU away (on a loaded machine that is not the program's doing).
    double busyMs() const { return cpuMs; }
    GuiCost minus(const GuiCost &part) const
    {
        return {wallMs - part.wallMs, cpuMs - part.cpuMs, preempted - part.preempted, blocked - part.blocked,
                systemMs - part.systemMs, pageFaults - part.pageFaults, what};
    }
    GuiCost plus(const GuiCost &part) const
    {
        return {wallMs + part.wallMs, cpuMs + part.cpuMs, preempted + part.preempted, blocked + part.blocked,
                systemMs + part.systemMs, pageFaults + part.pageFaults, what};
    }
};

class GuiStopwatch
{
public:
    GuiStopwatch() { start(); }
    void start();
    GuiCost elapsed(const QString &what = QString()) const;

private:
    QElapsedTimer m_wall;
    double m_cpuMs = 0, m_systemMs = 0;
    long m_preempted = 0, m_blocked = 0, m_pageFaults = 0;
};

class TimedApplication : public QApplication
{
public:
    TimedApplication(int &argc, char **argv) : QApplication(argc, argv) {}
    bool notify(QObject *receiver, QEvent *event) override;

    // Forgets the slowest event so far; events are timed only while recording.
    void startRecording()
    {
        m_slowest = {};
        m_recording = true;
    }
    void stopRecording() { m_recording = false; }
    const GuiCost &slowest() const { return m_slowest; }

private:
    int m_depth = 0;
    bool m_recording = false;
    GuiCost m_slowest;
};
