// Results independent of the core count (docs/multicore.md): every shared model on --device sim with
// --npu-cores 1, 2 and 3 gives byte-identical outputs. Prints the lanes each core count ends up using.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "runtime/npu/npu_backend.h"
#include "runtime/session/session_factory.h"

using namespace npurun;

namespace {

std::string shared_model(const std::string& rel) {
    const char* s = std::getenv("NPURUN_SHARED");
    return std::string(s ? s : "../shared") + "/models/" + rel;
}

struct CoreRun {
    std::vector<std::vector<uint8_t>> outputs;
    uint32_t lanes = 0;
};

CoreRun run_with_cores(const std::shared_ptr<const Model>& m, unsigned cores) {
    SessionOptions so;
    so.device = DeviceKind::Sim;
    so.npu_cores = cores;
    Session s(m, so);
    for (size_t i = 0; i < s.num_inputs(); ++i) {
        const TensorBinding& in = s.input(i);
        auto* p = static_cast<uint8_t*>(in.data);
        const size_t n = in.info.num_bytes();
        for (size_t k = 0; k < n; ++k) p[k] = uint8_t(k * 37 + 11);
        // Float inputs: small finite values, not the bit patterns above.
        if (in.info.dtype == DataType::Float32)
            for (size_t k = 0; k < n / 4; ++k) reinterpret_cast<float*>(p)[k] = float(int(k % 17) - 8) / 8.0f;
    }
    s.run();
    CoreRun r;
    for (size_t i = 0; i < s.num_outputs(); ++i) {
        const auto* p = static_cast<const uint8_t*>(s.output(i).data);
        r.outputs.emplace_back(p, p + s.output(i).info.num_bytes());
    }
    if (const npu::NpuBackend* be = SessionFactory::npu_backend(s))
        for (const auto& seg : be->segments()) r.lanes = std::max(r.lanes, seg->lane_count());
    return r;
}

class CoreCountIndependence : public ::testing::TestWithParam<const char*> {};

TEST_P(CoreCountIndependence, OneTwoThreeCoresByteIdentical) {
    const std::string path = shared_model(GetParam());
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) GTEST_SKIP() << path << " absent (../shared not available)";
    const auto model = Model::load(path);
    const CoreRun one = run_with_cores(model, 1);
    ASSERT_FALSE(one.outputs.empty());
    for (unsigned cores : {2u, 3u}) {
        const CoreRun r = run_with_cores(model, cores);
        ASSERT_EQ(r.outputs.size(), one.outputs.size());
        for (size_t i = 0; i < r.outputs.size(); ++i)
            EXPECT_TRUE(r.outputs[i] == one.outputs[i]) << GetParam() << ": output " << i << " differs with " << cores << " cores";
        std::printf("%s: --npu-cores %u uses %u lane(s)\n", GetParam(), cores, r.lanes);
        // One segment of 30 layers: its convolutions spread over the cores, a job each (docs/multicore.md).
        if (std::strstr(GetParam(), "mobilenet") != nullptr) {
            EXPECT_EQ(r.lanes, cores);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(SharedModels, CoreCountIndependence,
                         ::testing::Values("armnn/mobilenet_v1_0.25_128_quant.armnn", "armnn/mnist_uint8.armnn",
                                           "armnn/hello_world_float.armnn", "mnn/slim-320.mnn", "mnn/slim-320-quant-ADMM-50.mnn"));

}  // namespace
