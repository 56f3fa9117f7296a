// The simulator as a guard, through the whole driver stack (Device -> fake kernel -> NpuSimulator), both
// drivers: a regcmd stream that addresses memory outside the job's buffers, that writes a buffer the job
// did not declare as an output (rocket: its fences would not cover the write), or that relies on NPU state
// nothing established (WEIGHT_REUSE on a core whose CBUF holds no weights) is a fault the simulator
// reports by name, and the job fails instead of producing bytes.
#include <gtest/gtest.h>

#include <cstring>

#include "drv/discovery.h"
#include "drv/sim/fake_kernel.h"
#include "drv/sim/npu_simulator.h"
#include "tests/sim/npu_test_streams.h"

namespace npudrv::sim {
namespace {

class SimGuard : public ::testing::TestWithParam<DriverKind> {
protected:
    void SetUp() override {
        kernel = std::make_shared<FakeKernel>(std::make_unique<NpuSimulator>());
        FakeDeviceConfig c;
        c.driver = GetParam();
        kernel->add_device(c);
    }
    // Runs one 1x1 int8 conv task (16 channels, 4x4) with `edit` applied to its spec; `outputs` are the
    // job's declared output buffers (default: the real output). Returns "" or the error message.
    std::string run_conv(void (*edit)(test::ConvTaskSpec&, const Buffer& stranger), bool declare_stranger_only = false) {
        Device dev = open_npu(kernel);
        Buffer regcmd = dev.create_buffer(4096, kBufferCacheable);
        Buffer in = dev.create_buffer(4096, kBufferCacheable), weights = dev.create_buffer(4096, kBufferCacheable);
        Buffer out = dev.create_buffer(4096, kBufferCacheable), stranger = dev.create_buffer(4096, kBufferCacheable);
        std::memset(in.map(), 3, in.size());
        std::memset(weights.map(), 1, weights.size());
        test::ConvTaskSpec s;
        s.in_addr = uint32_t(in.dma_addr());
        s.weight_addr = uint32_t(weights.dma_addr());
        s.out_addr = uint32_t(out.dma_addr());
        if (edit) edit(s, stranger);
        regcmd::RegcmdWriter w;
        test::write_conv_task(w, s);
        const regcmd::RegcmdBuffer b = w.finish(regcmd.dma_addr());
        std::memcpy(regcmd.map(), b.qwords.data(), b.size_bytes());
        JobSpec spec;
        spec.lanes.resize(1);
        for (const auto& t : b.tasks) spec.lanes[0].tasks.push_back({&regcmd, t.offset, t.total_qwords, t.enable_mask, t.int_mask});
        spec.inputs = {&regcmd, &in, &weights};
        spec.outputs = {declare_stranger_only ? &stranger : &out};
        Job job = dev.create_job(spec);
        try {
            job.run();
        } catch (const DriverError& e) {
            return e.what();
        }
        return "";
    }
    std::shared_ptr<FakeKernel> kernel;
};

TEST_P(SimGuard, AWellFormedJobRuns) {
    EXPECT_EQ(run_conv(nullptr), "");
    EXPECT_EQ(kernel->stats().undeclared_writes, 0u);
    EXPECT_TRUE(kernel->oopses().empty());
}

TEST_P(SimGuard, OutputPastTheEndOfItsBufferIsRefused) {
    const std::string m = run_conv([](test::ConvTaskSpec& s, const Buffer& stranger) {
        s.out_addr = uint32_t(stranger.dma_addr() + stranger.size() - 64);  // 256 output bytes from 64 before the end
    });
    EXPECT_NE(m.find("dma-out-of-bounds"), std::string::npos) << m;
}

TEST_P(SimGuard, InputFromUnmappedMemoryIsRefused) {
    const std::string m = run_conv([](test::ConvTaskSpec& s, const Buffer&) { s.in_addr = 0xF0000000u; });  // no BO there in either address space
    EXPECT_NE(m.find("dma-out-of-bounds"), std::string::npos) << m;
}

TEST_P(SimGuard, WeightReuseWithNothingResidentIsRefused) {
    const std::string m = run_conv([](test::ConvTaskSpec& s, const Buffer&) { s.weight_reuse = true; });
    EXPECT_NE(m.find("cbuf-uninitialised"), std::string::npos) << m;
}

// rocket only: the job lists its output BOs; writing another BO is refused (rknpu's UAPI lists none).
TEST_P(SimGuard, WriteToAnUndeclaredBufferIsRefused) {
    if (GetParam() != DriverKind::Rocket) GTEST_SKIP() << "rknpu jobs do not declare their buffers";
    const std::string m = run_conv(nullptr, /*declare_stranger_only=*/true);
    EXPECT_NE(m.find("undeclared-write: NPU write of"), std::string::npos) << m;
    EXPECT_EQ(kernel->stats().undeclared_writes, 1u);
}

INSTANTIATE_TEST_SUITE_P(BothDrivers, SimGuard, ::testing::Values(DriverKind::Rknpu, DriverKind::Rocket),
                         [](const ::testing::TestParamInfo<DriverKind>& i) { return std::string(driver_name(i.param)); });

}  // namespace
}  // namespace npudrv::sim
