// Driver faults injected through the system-call seam (drv/sim/fake_kernel_faults.h) and the simulated
// hardware, for both kernel drivers, seen from a --device sim Session running a two-convolution model:
// each fault gives a clean one-line npurun::Error, or with the CPU fallback the CPU's exact output; the
// session either stays usable or says it is not; afterwards the fake kernel holds nothing of the driver
// (fds, mappings, handles, objects) and the process has no more fds than before.
#include <cerrno>
#include <climits>

#include "reliability_util.h"

namespace npurun::reliability_test {
namespace {

class Faults : public ::testing::TestWithParam<DriverKind> {
protected:
    void SetUp() override {
        model = two_conv_model();
        SessionOptions cpu;
        cpu.device = DeviceKind::Cpu;
        cpu_out = run_once(model, cpu, kSeed);
        SimHarness clean(GetParam());
        npu_out = run_once(model, sim_options(), kSeed);
        fds_before = open_fd_count();
    }
    void TearDown() override { EXPECT_EQ(open_fd_count(), fds_before) << "file descriptors leaked"; }

    static SessionOptions sim_options(bool fallback = false) {
        SessionOptions o;
        o.device = DeviceKind::Sim;
        o.cpu_fallback = fallback;
        return o;
    }
    // A simulator session's first run fails with `text` (a Runtime error); once `clear_fault` has run, the
    // same session runs again and gives the fault-free NPU output.
    template <class Clear> void expect_fails_then_recovers(const std::string& text, Clear clear_fault);
    static constexpr uint32_t kSeed = 5;
    std::shared_ptr<const Model> model;
    std::vector<uint8_t> cpu_out, npu_out;
    size_t fds_before = 0;
};

// `f` must throw npurun::Error of `kind` with `text` in a one-line message.
template <class F> void expect_error(F&& f, ErrorKind kind, const std::string& text) {
    try {
        f();
        ADD_FAILURE() << "no error (expected '" << text << "')";
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_EQ(int(e.kind()), int(kind)) << m;
        EXPECT_NE(m.find(text), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
}

template <class Clear> void Faults::expect_fails_then_recovers(const std::string& text, Clear clear_fault) {
    Session s(model, sim_options());
    npu_test::fill_input(s, kSeed);
    expect_error([&] { s.run(); }, ErrorKind::Runtime, text);
    clear_fault();
    s.run();
    EXPECT_EQ(output_bytes(s), npu_out);
}

TEST_P(Faults, EnomemAtEachAllocation) {
    size_t allocations = 0;
    {
        SimHarness h(GetParam());
        run_once(model, sim_options(), kSeed);
        allocations = h.injectors.at(0)->seen(sim::SysCall::Ioctl, h.create_request());
    }
    ASSERT_GE(allocations, 4u);  // features, constants, regcmd, task/job buffers
    std::printf("%s: ENOMEM injected at each of %zu buffer allocations\n", npudrv::driver_name(GetParam()), allocations);
    for (size_t k = 0; k < allocations; ++k) {
        SimHarness h(GetParam());
        h.rules.push_back({sim::SysCall::Ioctl, h.create_request(), ENOMEM, unsigned(k), 1, 1});
        expect_error([&] { Session s(model, sim_options()); }, ErrorKind::Device, "out of NPU memory");
        EXPECT_EQ(h.injectors.at(0)->injected(), 1u) << "allocation " << k;
        expect_kernel_empty(*h.kernels.at(0), "ENOMEM at allocation " + std::to_string(k));
    }
}

TEST_P(Faults, MmapFailureAtEachMapping) {
    size_t maps = 0;
    {
        SimHarness h(GetParam());
        run_once(model, sim_options(), kSeed);
        maps = h.injectors.at(0)->seen(sim::SysCall::Mmap);
    }
    ASSERT_GE(maps, 2u);
    std::printf("%s: mmap failure injected at each of %zu mappings\n", npudrv::driver_name(GetParam()), maps);
    for (size_t k = 0; k < maps; ++k) {
        SimHarness h(GetParam());
        h.rules.push_back({sim::SysCall::Mmap, 0, ENOMEM, unsigned(k), 1, 1});
        try {
            Session s(model, sim_options());
            npu_test::fill_input(s, kSeed);
            s.run();
            ADD_FAILURE() << "mmap " << k << " failed without an error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("mmap of buffer"), std::string::npos) << e.what();
        }
        expect_kernel_empty(*h.kernels.at(0), "mmap failure " + std::to_string(k));
    }
}

TEST_P(Faults, SubmitTimeoutIsARuntimeErrorAndTheSessionStaysUsable) {
    SimHarness h(GetParam());
    h.rules.push_back({sim::SysCall::Ioctl, h.wait_request(), ETIMEDOUT, 0, 1, 1});
    expect_fails_then_recovers("NPU job failed", [] {});  // the fault was one-off: the next run is normal
    expect_kernel_empty(*h.kernels.at(0), "submit timeout");
}

TEST_P(Faults, JobThatNeverCompletesTimesOutThenRecovers) {
    SimHarness h(GetParam());
    bool hang = true;
    *h.hook = [&](size_t) -> std::optional<sim::HwResult> {
        if (hang) return sim::HwResult{};  // completed = false: the interrupt never comes
        return std::nullopt;
    };
    expect_fails_then_recovers(GetParam() == DriverKind::Rknpu ? "timed out" : "500 ms job timeout",
                               [&] { hang = false; });
    expect_kernel_empty(*h.kernels.at(0), "never completes");
}

TEST_P(Faults, PartialCompletionIsReportedAndFallsBackToTheCpu) {
    SimHarness h(GetParam());
    const size_t failing_run = 1;  // task index at which the job stops (the first run: task 1 of 2)
    *h.hook = [&](size_t n) -> std::optional<sim::HwResult> {
        if (n == failing_run) return sim::HwResult{};
        return std::nullopt;
    };
    {
        Session s(model, sim_options());
        npu_test::fill_input(s, kSeed);
        // rknpu: the soft reset after the timeout clears the hardware task counter, so the kernel reports
        // "0 of 2 tasks done" although task 0 completed (modelled after the vendor driver).
        expect_error([&] { s.run(); }, ErrorKind::Runtime, GetParam() == DriverKind::Rknpu ? "of 2 tasks done" : "500 ms job timeout");
    }
    // The second session has a hardware of its own, counting tasks from 0 again.
    {
        Session s(model, sim_options(true));
        npu_test::fill_input(s, kSeed);
        s.run();
        EXPECT_TRUE(s.used_cpu_fallback());
        EXPECT_EQ(output_bytes(s), cpu_out);
        s.run();  // the NPU works again
        EXPECT_FALSE(s.used_cpu_fallback());
        EXPECT_EQ(output_bytes(s), npu_out);
    }
    for (auto& k : h.kernels) expect_kernel_empty(*k, "partial completion");
}

TEST_P(Faults, DeviceRemovedMidRun) {
    SimHarness h(GetParam());
    bool unplug = false;
    *h.hook = [&](size_t) -> std::optional<sim::HwResult> {
        if (unplug) h.kernels.back()->remove_device(h.node());
        return std::nullopt;
    };
    {
        Session s(model, sim_options());
        npu_test::fill_input(s, kSeed);
        s.run();
        unplug = true;
        expect_error([&] { s.run(); }, ErrorKind::Device, "the NPU device was removed");
        unplug = false;
        expect_error([&] { s.run(); }, ErrorKind::Device, "no longer usable");
    }
    {
        unplug = false;
        Session s(model, sim_options(true));
        npu_test::fill_input(s, kSeed);
        s.run();
        unplug = true;
        s.run();
        EXPECT_TRUE(s.used_cpu_fallback());
        EXPECT_EQ(output_bytes(s), cpu_out);
        unplug = false;
        s.run();  // the device is gone for good: every later run is on the CPU
        EXPECT_TRUE(s.used_cpu_fallback());
        EXPECT_EQ(output_bytes(s), cpu_out);
    }
    // After hot-unplug the fds are still closed and the objects freed when the session goes.
    for (auto& k : h.kernels) {
        EXPECT_EQ(k->counts().open_fds, 0u);
        EXPECT_EQ(k->counts().mappings, 0u);
    }
}

TEST_P(Faults, HardwareErrorIsARuntimeErrorAndTheSessionStaysUsable) {
    SimHarness h(GetParam());
    bool broken = true;
    *h.hook = [&](size_t) -> std::optional<sim::HwResult> {
        if (!broken) return std::nullopt;
        sim::HwResult r;
        r.error = "injected: bus error";
        return r;
    };
    expect_fails_then_recovers("injected: bus error", [&] { broken = false; });
    expect_kernel_empty(*h.kernels.at(0), "hardware error");
}

// Every other ioctl and poll is interrupted (EINTR), every third one asks to retry (EAGAIN): the driver
// restarts each, and the results are bit-identical.
TEST_P(Faults, EintrAndEagainAreRetried) {
    SimHarness h(GetParam());
    h.rules.push_back({sim::SysCall::Ioctl, 0, EINTR, 0, UINT_MAX, 2});
    h.rules.push_back({sim::SysCall::Poll, 0, EINTR, 0, UINT_MAX, 2});
    {
        Session s(model, sim_options());
        for (int i = 0; i < 3; ++i) {
            npu_test::fill_input(s, kSeed);
            s.run();
            EXPECT_EQ(output_bytes(s), npu_out);
        }
    }
    EXPECT_GT(h.injectors.at(0)->injected(), 10u);
    expect_kernel_empty(*h.kernels.at(0), "EINTR");
}

TEST_P(Faults, DeviceThatCannotBeOpenedIsADeviceError) {
    SimHarness h(GetParam());
    h.rules.push_back({sim::SysCall::Open, 0, EACCES, 0, UINT_MAX, 1});
    expect_error([&] { Session s(model, sim_options()); }, ErrorKind::Device, "simulated NPU");
}

INSTANTIATE_TEST_SUITE_P(BothDrivers, Faults, ::testing::Values(DriverKind::Rknpu, DriverKind::Rocket),
                         [](const ::testing::TestParamInfo<DriverKind>& i) { return std::string(npudrv::driver_name(i.param)); });

}  // namespace
}  // namespace npurun::reliability_test
