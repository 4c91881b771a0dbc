#include "runtime/twothreads.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace attn::detail {

namespace {

struct Helper
{
    std::atomic<bool> busy{false}; // a caller's work is on the helper
    std::mutex lock;
    std::condition_variable changed;
    HelperWork work = nullptr;
    void *context = nullptr;
    bool done = true;
    std::exception_ptr failed;
    bool started = false;

    void loop()
    {
        std::unique_lock<std::mutex> guard(lock);
        for (;;) {
            changed.wait(guard, [this] { return work != nullptr; });
            const HelperWork w = work;
            void *c = context;
            guard.unlock();
            std::exception_ptr thrown;
            try {
                w(c);
            } catch (...) {
                thrown = std::current_exception();
            }
            guard.lock();
            work = nullptr;
            failed = thrown;
            done = true;
            changed.notify_all();
        }
    }
};

Helper &helper()
{
    // Never destroyed: the thread waits on it until the process ends.
    static Helper *h = [] {
        auto *made = new Helper;
        try {
            std::thread(&Helper::loop, made).detach();
            made->started = true;
        } catch (const std::system_error &) {
        }
        return made;
    }();
    return *h;
}

} // namespace

bool tryStartOnHelper(HelperWork work, void *context)
{
    Helper &h = helper();
    bool idle = false;
    if (!h.started || !h.busy.compare_exchange_strong(idle, true))
        return false;
    std::lock_guard<std::mutex> guard(h.lock);
    h.work = work;
    h.context = context;
    h.done = false;
    h.failed = nullptr;
    h.changed.notify_all();
    return true;
}

void waitForHelper()
{
    Helper &h = helper();
    std::exception_ptr failed;
    {
        std::unique_lock<std::mutex> guard(h.lock);
        h.changed.wait(guard, [&h] { return h.done; });
        failed = h.failed;
        h.failed = nullptr;
    }
    h.busy.store(false);
    if (failed)
        std::rethrow_exception(failed);
}

} // namespace attn::detail
