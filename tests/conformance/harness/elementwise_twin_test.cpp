// Issue 12: a file in the Arm NN 23.05+ form (every Addition .. Minimum written as ElementwiseBinary) gives
// the same output bytes as its 20.08 twin, on the CPU, on the simulator and on the simulator with --fp16.
//
// Twins: every generated conformance case whose file holds a binary layer (the real models mnist,
// mobilenet_v1_0.25_128_quant and hello_world_float, the tflite conversions, and the single-layer
// Addition .. Minimum cases), rewritten with tools/modelwriter/elementwise_rewriter (the 20.08 bytes with
// the binary layers replaced, nothing else). Byte equality, not a tolerance: the loader maps both forms to
// the same IR node, so anything else is a bug.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "tests/conformance/harness/manifest.h"
#include "tools/modelwriter/elementwise_rewriter.h"

using namespace conformance;

namespace {

struct Twin {
    ConformanceCase c;
    std::vector<uint8_t> old_form, new_form;
    unsigned rewritten = 0;
};

std::string g_error;

std::vector<Twin> load_twins() {
    const char* index = std::getenv("NPURUN_CONFORMANCE_INDEX");
    const char* dir = std::getenv("NPURUN_CONFORMANCE_CASES");
    if (!index || !dir) {
        g_error = "NPURUN_CONFORMANCE_INDEX / NPURUN_CONFORMANCE_CASES not set (run through meson test)";
        return {};
    }
    std::vector<Twin> out;
    try {
        for (ConformanceCase& c : read_cases(index, dir)) {
            if (c.skipped()) continue;
            Twin t;
            t.old_form = read_bytes(c.model);
            auto r = npurun::modelwriter::rewrite_binary_layers_as_elementwise(t.old_form.data(), t.old_form.size());
            if (r.rewritten == 0) continue;
            t.new_form = std::move(r.bytes);
            t.rewritten = r.rewritten;
            t.c = std::move(c);
            out.push_back(std::move(t));
        }
    } catch (const std::exception& e) {
        g_error = e.what();
    }
    return out;
}

const std::vector<Twin>& twins() {
    static const std::vector<Twin> t = load_twins();
    return t;
}

std::vector<std::vector<uint8_t>> run(const std::vector<uint8_t>& file, const ConformanceCase& c, npurun::DeviceKind d,
                                      bool fp16) {
    auto model = npurun::Model::load_from_memory(file.data(), file.size(), c.name + ".armnn");
    npurun::SessionOptions o;
    o.device = d;
    o.fp16 = fp16;
    npurun::Session s(model, o);
    if (s.num_inputs() != c.inputs.size()) throw std::runtime_error("input count differs from the manifest");
    for (size_t i = 0; i < c.inputs.size(); ++i) {
        // Inputs in manifest order are the session's in binding order (both sorted by binding id).
        const std::vector<uint8_t> bytes = read_bytes(c.dir + "/" + c.inputs[i].file);
        if (bytes.size() != s.input(i).info.num_bytes()) throw std::runtime_error("input size differs");
        std::memcpy(s.input(i).data, bytes.data(), bytes.size());
    }
    s.run();
    std::vector<std::vector<uint8_t>> out;
    for (size_t k = 0; k < s.num_outputs(); ++k) {
        const auto* p = static_cast<const uint8_t*>(s.output(k).data);
        out.emplace_back(p, p + s.output(k).info.num_bytes());
    }
    return out;
}

class ElementwiseTwin : public ::testing::TestWithParam<size_t> {};

TEST_P(ElementwiseTwin, SameBytesOnCpuAndSim) {
    const Twin& t = twins().at(GetParam());
    std::printf("  %s: %u binary layer(s) rewritten\n", t.c.name.c_str(), t.rewritten);
    const bool is_float32 = t.c.dtype == "Float32" || t.c.name.rfind("real_hello_world_float", 0) == 0;
    struct Path {
        npurun::DeviceKind device;
        bool fp16;
        const char* what;
    };
    std::vector<Path> paths = {{npurun::DeviceKind::Cpu, false, "cpu"}};
#ifdef NPURUN_TWIN_WITH_SIM
    paths.push_back({npurun::DeviceKind::Sim, false, "sim"});
    if (is_float32) paths.push_back({npurun::DeviceKind::Sim, true, "sim --fp16"});
#else
    (void)is_float32;
#endif
    for (const Path& p : paths) {
        const auto want = run(t.old_form, t.c, p.device, p.fp16);
        const auto got = run(t.new_form, t.c, p.device, p.fp16);
        ASSERT_EQ(want.size(), got.size()) << p.what;
        for (size_t k = 0; k < want.size(); ++k) EXPECT_EQ(want[k], got[k]) << p.what << ": output " << k << " differs";
    }
}

std::string twin_name(const ::testing::TestParamInfo<size_t>& info) { return twins().at(info.param).c.name; }

std::vector<size_t> twin_indices() {
    std::vector<size_t> v(twins().size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = i;
    return v;
}

INSTANTIATE_TEST_SUITE_P(ArmNN2305, ElementwiseTwin, ::testing::ValuesIn(twin_indices()), twin_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ElementwiseTwin);

TEST(ElementwiseTwinSetup, RealModelsAndBinaryCasesHaveTwins) {
    ASSERT_TRUE(g_error.empty()) << g_error;
    int real = 0, single = 0;
    for (const Twin& t : twins()) (t.c.layer == "Model" ? real : single)++;
    std::printf("elementwise-twin: %zu twins (%d real/tflite models, %d single-layer cases)\n", twins().size(), real, single);
    EXPECT_GT(single, 0);
    if (real == 0) GTEST_SKIP() << "no real model cases (../shared absent when the cases were generated)";
}

}  // namespace
