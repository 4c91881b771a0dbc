#include "runtime/passthread.h"

#include <QCoreApplication>
#include <QThread>

#include <atomic>

namespace attn {

namespace {
// Written by the main thread only.
std::atomic<long> g_passes{0};
std::atomic<double> g_largest{0};
} // namespace

void notePassThread(double work)
{
    const QCoreApplication *app = QCoreApplication::instance();
    if (!app || QThread::currentThread() != app->thread())
        return;
    g_passes.fetch_add(1, std::memory_order_relaxed);
    if (!(work <= g_largest.load(std::memory_order_relaxed)))
        g_largest.store(work, std::memory_order_relaxed);
}

long passesOnMainThread()
{
    return g_passes.load(std::memory_order_relaxed);
}

double largestPassOnMainThread()
{
    return g_largest.load(std::memory_order_relaxed);
}

} // namespace attn
