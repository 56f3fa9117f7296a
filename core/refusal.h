// The answer to every "can X run Y" question (can the NPU lower this node, can this tensor be bound to a
// dma-buf, does this tiling fit the CBUF, ...): accepted, or refused with the reason a user reads in
// `npurun --explain`. A refusal is an answer, not a failure: callers that cannot go on turn it into an
// Error (core/error.h) themselves.
#pragma once

#include <string>
#include <utility>

namespace npurun {

class [[nodiscard]] Refusal {
public:
    Refusal() = default;  // accepted
    static Refusal because(std::string reason) {
        Refusal r;
        r.reason_ = reason.empty() ? std::string("refused") : std::move(reason);
        return r;
    }

    bool accepted() const { return reason_.empty(); }
    bool refused() const { return !reason_.empty(); }
    // Why (empty when accepted).
    const std::string& reason() const { return reason_; }
    // The same refusal with context in front ("NPU lowering: " + reason); an acceptance stays one.
    Refusal prefixed(const std::string& context) const { return refused() ? because(context + reason_) : Refusal(); }

private:
    std::string reason_;
};

}  // namespace npurun
