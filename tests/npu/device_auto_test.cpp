// --device auto: the board's NPU when its device node is present and opens, else the CPU; never the
// simulator. The expectation follows what this machine has: where open_npu_context() succeeds (a board)
// auto must pick npu, elsewhere (CI) cpu.
#include <gtest/gtest.h>

#include "include/npurun/npurun.hpp"
#include "runtime/session/session_factory.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/npu/npu_context.h"
#include "tests/npu/npu_graphs.h"

namespace {

using namespace npurun;

bool board_npu_opens() {
    try {
        npu::open_npu_context();
        return true;
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Device) << e.what();
        return false;
    }
}

std::shared_ptr<const Model> quantized_conv_model() { return npu_test::conv_model(npu_test::ConvSpec{}); }

TEST(DeviceAuto, PicksTheBoardNpuWhenItOpensElseTheCpuNeverTheSimulator) {
    const bool npu = board_npu_opens();
    SessionOptions o;
    o.device = DeviceKind::Auto;
    Session s(quantized_conv_model(), o);
    EXPECT_NE(s.device(), DeviceKind::Sim);
    EXPECT_NE(s.device(), DeviceKind::Auto) << "auto must be resolved";
    EXPECT_EQ(s.device(), npu ? DeviceKind::Npu : DeviceKind::Cpu);
    const npu::NpuBackend* backend = SessionFactory::npu_backend(s);
    EXPECT_EQ(backend != nullptr, npu);
    if (backend != nullptr) {
        EXPECT_EQ(backend->context().simulator, nullptr) << "auto opened the simulator";
    }
}

TEST(DeviceAuto, ExplicitNpuStillFailsWithoutADevice) {
    if (board_npu_opens()) GTEST_SKIP() << "this machine has an NPU";
    SessionOptions o;
    o.device = DeviceKind::Npu;
    try {
        Session s(quantized_conv_model(), o);
        FAIL() << "--device npu without an NPU must fail, not fall back";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Device) << e.what();
    }
}

}  // namespace
