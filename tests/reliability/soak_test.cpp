// Leaks and soak: 10,000 inferences on the simulator and 1,000 sessions created and destroyed, checking
// that open file descriptors (/proc/self/fd), mappings (/proc/self/maps and the fake kernel's live
// mmaps), buffer objects and resident memory do not grow, and that every run gives the same bytes.
// Sized to stay within about 30 s of CI time on one core (a 1-task 4x4x16 convolution).
#include <chrono>

#include "reliability_util.h"

namespace npurun::reliability_test {
namespace {

// Under AddressSanitizer the process's resident memory and its /proc/self/maps lines are no measure of a
// leak: its quarantine keeps freed blocks mapped (up to 256 MB by default) and its allocator maps new
// regions as the quarantine grows. There LeakSanitizer does the leak check at exit instead; the fd count
// and the fake kernel's own mapping/object counts are checked in every build.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kProcessMemoryIsMeaningful = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kProcessMemoryIsMeaningful = false;
#else
constexpr bool kProcessMemoryIsMeaningful = true;
#endif
#else
constexpr bool kProcessMemoryIsMeaningful = true;
#endif

std::shared_ptr<const Model> tiny_model() {
    npu_test::ConvSpec s;
    s.h = s.w = 4;
    s.c = s.k = 16;
    return npu_test::conv_model(s);
}

struct Probe {
    size_t fds, maps, rss_kb, kernel_mappings, kernel_objects, kernel_fds;
};

Probe probe(const SimHarness& h) {
    Probe p{open_fd_count(), mapping_count(), rss_kb(), 0, 0, 0};
    for (const auto& k : h.kernels) {
        const auto c = k->counts();
        p.kernel_mappings += c.mappings;
        p.kernel_objects += c.objects;
        p.kernel_fds += c.open_fds;
    }
    return p;
}

class Soak : public ::testing::TestWithParam<DriverKind> {};

TEST_P(Soak, TenThousandInferencesGrowNothing) {
    SimHarness h(GetParam());
    auto model = tiny_model();
    SessionOptions o;
    o.device = DeviceKind::Sim;
    Session s(model, o);
    npu_test::fill_input(s, 9);
    for (int i = 0; i < 100; ++i) s.run();  // warm-up: lazily grown containers reach their size
    const std::vector<uint8_t> expected = output_bytes(s);
    const Probe before = probe(h);
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int kRuns = 10000;
    size_t mismatches = 0;
    for (int i = 0; i < kRuns; ++i) {
        s.run();
        if (i % 100 == 0 && output_bytes(s) != expected) ++mismatches;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Probe after = probe(h);
    std::printf("%s: %d inferences in %.2f s; fds %zu -> %zu, maps %zu -> %zu, RSS %zu -> %zu kB, kernel mappings %zu -> %zu, objects %zu -> %zu\n",
                npudrv::driver_name(GetParam()), kRuns, secs, before.fds, after.fds, before.maps, after.maps, before.rss_kb,
                after.rss_kb, before.kernel_mappings, after.kernel_mappings, before.kernel_objects, after.kernel_objects);
    EXPECT_EQ(mismatches, 0u);
    EXPECT_EQ(after.fds, before.fds);
    if (kProcessMemoryIsMeaningful) {
        EXPECT_EQ(after.maps, before.maps);
    }
    EXPECT_EQ(after.kernel_mappings, before.kernel_mappings);
    EXPECT_EQ(after.kernel_objects, before.kernel_objects);
    EXPECT_EQ(after.kernel_fds, before.kernel_fds);
    // Allocator noise is allowed; a leak of even 100 bytes per run would be ~1 MB.
    if (kProcessMemoryIsMeaningful) {
        EXPECT_LT(after.rss_kb, before.rss_kb + 512) << "resident memory grew";
    }
}

TEST_P(Soak, ThousandSessionsCreatedAndDestroyedLeaveNothing) {
    SimHarness h(GetParam());
    h.keep_kernels = false;  // a session that leaks a buffer or job keeps its fake kernel alive: checked below
    auto model = tiny_model();
    SessionOptions o;
    o.device = DeviceKind::Sim;
    std::vector<uint8_t> expected;
    for (int i = 0; i < 20; ++i) expected = run_once(model, o, 4);  // warm-up
    const Probe before = probe(h);
    constexpr int kSessions = 1000;
    size_t mismatches = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kSessions; ++i)
        if (run_once(model, o, 4) != expected) ++mismatches;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Probe after = probe(h);
    size_t live_kernels = 0;
    for (auto& k : h.weak_kernels) live_kernels += k.expired() ? 0 : 1;
    std::printf("%s: %d sessions in %.2f s; fds %zu -> %zu, maps %zu -> %zu, RSS %zu -> %zu kB; fake kernels still alive (kept by a leaked buffer/job): %zu of %zu\n",
                npudrv::driver_name(GetParam()), kSessions, secs, before.fds, after.fds, before.maps, after.maps, before.rss_kb,
                after.rss_kb, live_kernels, h.weak_kernels.size());
    EXPECT_EQ(mismatches, 0u);
    EXPECT_EQ(live_kernels, 0u);
    EXPECT_EQ(after.fds, before.fds);
    if (kProcessMemoryIsMeaningful) {
        EXPECT_EQ(after.maps, before.maps);
    }
    EXPECT_EQ(h.weak_kernels.size(), size_t(kSessions + 20));
    if (kProcessMemoryIsMeaningful) {
        EXPECT_LT(after.rss_kb, before.rss_kb + 2048) << "resident memory grew";
    }
}

TEST(SoakCpu, ThousandCpuSessionsLeaveNothing) {
    auto model = tiny_model();
    SessionOptions o;
    o.device = DeviceKind::Cpu;
    for (int i = 0; i < 20; ++i) run_once(model, o, 4);
    const size_t fds = open_fd_count(), maps = mapping_count(), rss = rss_kb();
    for (int i = 0; i < 1000; ++i) run_once(model, o, 4);
    EXPECT_EQ(open_fd_count(), fds);
    if (kProcessMemoryIsMeaningful) {
        EXPECT_EQ(mapping_count(), maps);
    }
    if (kProcessMemoryIsMeaningful) {
        EXPECT_LT(rss_kb(), rss + 1024);
    }
}

INSTANTIATE_TEST_SUITE_P(BothDrivers, Soak, ::testing::Values(DriverKind::Rknpu, DriverKind::Rocket),
                         [](const ::testing::TestParamInfo<DriverKind>& i) { return std::string(npudrv::driver_name(i.param)); });

}  // namespace
}  // namespace npurun::reliability_test
