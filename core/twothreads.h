#pragma once
// Two pieces of work at once: the machines this runs on have two cores.

#include <functional>
#include <system_error>
#include <thread>

namespace attn {

// Runs `first` on this thread and `second` on a new one, and returns when both
// are done; one after the other when no thread can be started.
template<typename First, typename Second>
void runBoth(First &&first, Second &&second)
{
    std::thread helper;
    try {
        helper = std::thread(std::ref(second));
    } catch (const std::system_error &) {
        first();
        second();
        return;
    }
    first();
    helper.join();
}

} // namespace attn
