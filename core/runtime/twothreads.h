#pragma once
// Two pieces of work at once: the machines this runs on have two cores.

#include <exception>
#include <system_error>
#include <thread>
#include <type_traits>

namespace attn {

namespace detail {

// The thread that runs the second piece. Kept for the program's life: a new
// thread for every call cost a clone and its stack's pages again each time
// (glibc hands a finished thread's stack back to the kernel), about a
// thousand page faults per slider step at 2000 tokens.
using HelperWork = void (*)(void *);
// Starts work(context) on the helper; false when it is busy with another
// caller's work (or could not be started): the caller runs it otherwise.
bool tryStartOnHelper(HelperWork work, void *context);
// Waits for the work started; rethrows what it threw.
void waitForHelper();

} // namespace detail

// Runs `first` on this thread and `second` on the helper thread, and returns
// when both are done. When the helper is busy (two callers at once, or a
// call from within `second`) `second` runs on a thread of its own; when no
// thread can be started, the two run one after the other.
template<typename First, typename Second>
void runBoth(First &&first, Second &&second)
{
    const auto call = [](void *f) { (*static_cast<std::remove_reference_t<Second> *>(f))(); };
    if (detail::tryStartOnHelper(call, const_cast<void *>(static_cast<const void *>(&second)))) {
        std::exception_ptr failed;
        try {
            first();
        } catch (...) {
            failed = std::current_exception();
        }
        detail::waitForHelper(); // `second` may not outlive this frame, whatever `first` did
        if (failed)
            std::rethrow_exception(failed);
        return;
    }
    std::thread own;
    try {
        own = std::thread(std::ref(second));
    } catch (const std::system_error &) {
        first();
        second();
        return;
    }
    first();
    own.join();
}

} // namespace attn
