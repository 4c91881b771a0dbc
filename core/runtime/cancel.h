#pragma once
// Stopping a computation nobody waits for any more (a newer edit replaced it).

#include <atomic>
#include <exception>

namespace attn {

// Raised flag of a computation nobody waits for any more: the forward pass
// looks at it between heads and stops by throwing Cancelled.
using CancelFlag = std::atomic<bool>;
class Cancelled : public std::exception
{
public:
    const char *what() const noexcept override { return "the computation was cancelled"; }
};

// Throws Cancelled once `cancel` (may be null) is raised.
inline void stopIfCancelled(const CancelFlag *cancel)
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

} // namespace attn
