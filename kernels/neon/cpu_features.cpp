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

std::atomic<int>& i8mm_state() {
    static std::atomic<int> s{detect_i8mm() ? 1 : 0};
    return s;
}

std::atomic<int>& state() {
    // Through SIMDe the dot-product path is available (tests force it on) but not the default: SIMDe
    // emulates vdotq per lane, while the widening path maps onto SSE2 multiply-adds.
    static std::atomic<int> s{detect_dotprod() && NPURUN_NEON_NATIVE ? 1 : 0};
    return s;
}

}  // namespace

bool dotprod_available() {
    static const bool available = detect_dotprod();
    return available;
}

bool use_dotprod() { return state().load(std::memory_order_relaxed) != 0; }

bool set_dotprod(bool enabled) {
    const bool v = enabled && dotprod_available();
    state().store(v ? 1 : 0, std::memory_order_relaxed);
    return v;
}

bool i8mm_available() {
    static const bool available = detect_i8mm();
    return available;
}

bool use_i8mm() { return i8mm_state().load(std::memory_order_relaxed) != 0; }

bool set_i8mm(bool enabled) {
    const bool v = enabled && i8mm_available();
    i8mm_state().store(v ? 1 : 0, std::memory_order_relaxed);
    return v;
}

}  // namespace npurun::kernels::neon
