#include "kernels/neon/cpu_features.h"

#include <atomic>

#include "kernels/neon/neon.h"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace npurun::kernels::neon {
namespace {

bool detect_dotprod() {
#if defined(__aarch64__) && defined(__linux__)
    // HWCAP_ASIMDDP is bit 20 of AT_HWCAP on arm64 Linux (asm/hwcap.h); spelled out so the build does not
    // depend on the kernel headers' age.
    constexpr unsigned long kHwcapAsimdDp = 1ul << 20;
    return (getauxval(AT_HWCAP) & kHwcapAsimdDp) != 0;
#elif defined(__aarch64__)
    return false;
#else
    return true;  // SIMDe emulates vdotq_* exactly
#endif
}

bool detect_i8mm() {
#if defined(__aarch64__) && defined(__linux__)
    // HWCAP2_I8MM is bit 13 of AT_HWCAP2 on arm64 Linux (asm/hwcap.h, since Linux 5.10); spelled out for the
    // same reason as above. Older kernels report 0 in that bit, so the path stays off there.
    constexpr unsigned long kHwcap2I8mm = 1ul << 13;
    return (getauxval(AT_HWCAP2) & kHwcap2I8mm) != 0 && detect_dotprod();
#else
    return false;  // SIMDe has no vmmlaq_*; the i8mm kernel is compiled for aarch64 only
#endif
}

bool detect_fp16_arithmetic() {
#if defined(__aarch64__) && defined(__linux__)
    constexpr unsigned long kHwcapAsimdHp = 1ul << 10;  // HWCAP_ASIMDHP, bit 10 of AT_HWCAP (asm/hwcap.h)
    return (getauxval(AT_HWCAP) & kHwcapAsimdHp) != 0;
#else
    return false;  // SIMDe has no fp16 arithmetic; the engine is compiled for aarch64 only
#endif
}

// One optional instruction path: whether this CPU can run it (fixed) and whether the kernels take it (forced by
// tests and benchmarks; forcing on is honoured only when available).
class PathSwitch {
public:
    PathSwitch(bool available, bool on_by_default) : available_(available), on_(available && on_by_default) {}
    bool available() const { return available_; }
    bool on() const { return on_.load(std::memory_order_relaxed); }
    bool set(bool enabled) {
        const bool v = enabled && available_;
        on_.store(v, std::memory_order_relaxed);
        return v;
    }

private:
    const bool available_;
    std::atomic<bool> on_;
};

PathSwitch& dotprod() {
    // Through SIMDe the dot-product path is available (tests force it on) but not the default: SIMDe
    // emulates vdotq per lane, while the widening path maps onto SSE2 multiply-adds.
    static PathSwitch s(detect_dotprod(), NPURUN_NEON_NATIVE != 0);
    return s;
}

PathSwitch& i8mm() {
    static PathSwitch s(detect_i8mm(), true);
    return s;
}

}  // namespace

bool dotprod_available() { return dotprod().available(); }
bool use_dotprod() { return dotprod().on(); }
bool set_dotprod(bool enabled) { return dotprod().set(enabled); }

bool fp16_arithmetic_available() {
    static const bool available = detect_fp16_arithmetic();
    return available;
}

bool i8mm_available() { return i8mm().available(); }
bool use_i8mm() { return i8mm().on(); }
bool set_i8mm(bool enabled) { return i8mm().set(enabled); }

}  // namespace npurun::kernels::neon
