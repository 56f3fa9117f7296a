// Concurrency: N sessions in N threads on ONE simulated device (one fake kernel, one simulator, both
// drivers) give the same bytes as one session; and one device with several jobs submitted before any is
// waited for (the fake kernel's job queue with overlapping submits), waited in reverse order.
#include <atomic>
#include <thread>

#include "drv/discovery.h"
#include "drv/sim/npu_simulator.h"
#include "drv/sim/recording_hardware.h"
#include "reliability_util.h"

namespace npurun::reliability_test {
namespace {

class Concurrency : public ::testing::TestWithParam<DriverKind> {};

TEST_P(Concurrency, SessionsInThreadsOnOneDeviceGiveTheBytesOfOneSession) {
    auto shared = std::make_shared<sim::FakeKernel>(std::make_unique<sim::NpuSimulator>());
    sim::FakeDeviceConfig config;
    config.driver = GetParam();
    shared->add_device(config);
    sim::SimDeviceOverride o;
    o.driver = GetParam();
    // Every session's device is the shared kernel's (its own kernel is kept alive only because the
    // runtime still refers to that kernel's simulator for its counters).
    o.seam = [shared](const std::shared_ptr<sim::FakeKernel>& own) -> std::shared_ptr<npudrv::Syscalls> {
        return std::make_shared<sim::FaultInjector>(shared, own);
    };
    sim::ScopedSimDeviceOverride scope(o);

    auto model = two_conv_model();
    SessionOptions so;
    so.device = DeviceKind::Sim;
    constexpr uint32_t kSeeds = 8;
    std::vector<std::vector<uint8_t>> reference(kSeeds);
    {
        Session one(model, so);
        for (uint32_t seed = 0; seed < kSeeds; ++seed) {
            npu_test::fill_input(one, seed);
            one.run();
            reference[seed] = output_bytes(one);
        }
    }
    const size_t submits_before = shared->stats().submits;
    constexpr int kThreads = 4, kRuns = 50;
    std::atomic<int> mismatches{0}, errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            try {
                Session s(model, so);
                for (int r = 0; r < kRuns; ++r) {
                    const uint32_t seed = uint32_t(t + r) % kSeeds;
                    npu_test::fill_input(s, seed);
                    s.run();
                    if (output_bytes(s) != reference[seed]) ++mismatches;
                }
            } catch (const std::exception& e) {
                std::fprintf(stderr, "thread %d: %s\n", t, e.what());
                ++errors;
            }
        });
    }
    for (auto& th : threads) th.join();
    const auto st = shared->stats();
    std::printf("%s: %d threads x %d runs on one fake kernel: %d mismatches, %d errors, %zu submits, %zu lane races\n",
                npudrv::driver_name(GetParam()), kThreads, kRuns, mismatches.load(), errors.load(), st.submits - submits_before,
                st.lane_races);
    EXPECT_EQ(mismatches.load(), 0);
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(st.submits - submits_before, size_t(kThreads * kRuns));
    EXPECT_EQ(st.lane_races, 0u);
    EXPECT_EQ(st.undeclared_writes, 0u);
    EXPECT_TRUE(shared->oopses().empty());
    expect_kernel_empty(*shared, "after every session is gone");
}

// Several jobs queued before any is waited for: each completes, in any wait order, with its own records.
TEST_P(Concurrency, OverlappingSubmitsOnOneDevice) {
    auto hw = std::make_unique<sim::RecordingHardware>();
    sim::RecordingHardware* rec = hw.get();
    auto kernel = std::make_shared<sim::FakeKernel>(std::move(hw));
    sim::FakeDeviceConfig config;
    config.driver = GetParam();
    kernel->add_device(config);
    {
        npudrv::Device dev = npudrv::open_npu(kernel);
        constexpr unsigned kJobs = 4, kEntries = 20;
        const uint64_t stride = (kEntries * 8 + 63) / 64 * 64;
        npudrv::Buffer regcmd = dev.create_buffer(kJobs * 2 * stride, npudrv::kBufferCacheable);
        uint8_t* p = regcmd.map();
        for (uint64_t i = 0; i + 8 <= regcmd.size(); i += 8) {
            const uint64_t q = 0x0101000000000000ull | i;
            std::memcpy(p + i, &q, 8);
        }
        std::vector<npudrv::Buffer> outs;
        for (unsigned j = 0; j < kJobs; ++j) outs.push_back(dev.create_buffer(4096, npudrv::kBufferCacheable));
        std::vector<npudrv::Job> jobs;
        for (unsigned j = 0; j < kJobs; ++j) {
            npudrv::JobSpec spec;
            spec.lanes.resize(1);
            for (unsigned t = 0; t < 2; ++t) spec.lanes[0].tasks.push_back({&regcmd, (j * 2 + t) * stride, kEntries, 0xd, 0x300});
            spec.outputs = {&outs[j]};
            spec.use_fence = GetParam() == DriverKind::Rknpu;  // rknpu: non-blocking submit with a fence
            jobs.push_back(dev.create_job(spec));
        }
        for (int round = 0; round < 3; ++round) {
            rec->clear();
            for (auto& j : jobs) j.submit();  // all queued before any wait
            for (size_t j = jobs.size(); j-- > 0;) jobs[j].wait();
            EXPECT_EQ(rec->records().size(), size_t(kJobs) * 2);
            for (const auto& r : rec->records()) EXPECT_TRUE(r.regcmd_readable);
        }
        EXPECT_EQ(kernel->stats().submits, size_t(kJobs) * 3);
        EXPECT_TRUE(kernel->oopses().empty());
    }
    expect_kernel_empty(*kernel, "overlapping submits");
}

INSTANTIATE_TEST_SUITE_P(BothDrivers, Concurrency, ::testing::Values(DriverKind::Rknpu, DriverKind::Rocket),
                         [](const ::testing::TestParamInfo<DriverKind>& i) { return std::string(npudrv::driver_name(i.param)); });

}  // namespace
}  // namespace npurun::reliability_test
