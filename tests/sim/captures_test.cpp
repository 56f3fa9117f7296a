// Real RK3588 captures (../shared/captures): every file decodes, and the convolution recovered from its
// registers is the one the file name states. Also: a real vendor stream runs on the simulator.
#include "drv/regcmd/capture_reader.h"
#include "drv/regcmd/conv_recovery.h"
#include "drv/sim/npu_simulator.h"
#include "core/fp16.h"
#include "tests/sim/npu_test_streams.h"
#include "tests/sim/reference_ops.h"
#include "tests/sim/test_memory.h"
#include "drv/regcmd/fields.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <dirent.h>
#include <random>
#include <regex>
#include <string>
#include <vector>

using namespace npudrv::regcmd;

namespace {

std::string shared_dir() {
    const char* s = std::getenv("NPURUN_SHARED");
    return s ? s : "";
}

std::vector<std::string> list(const std::string& dir, const std::string& suffix) {
    std::vector<std::string> out;
    DIR* d = opendir(dir.c_str());
    if (!d) return out;
    while (dirent* e = readdir(d)) {
        const std::string n = e->d_name;
        if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) out.push_back(n);
    }
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

// What a capture file name states: c<C>_h<H>[_oc<OC>], _s1pvalid (stride 1, no padding), dw (depthwise),
// pw (1x1). Other properties are not in the name.
struct NameFacts {
    uint32_t c = 0, h = 0, oc = 0;
    bool s1pvalid = false, dw = false, pw = false;
};
NameFacts parse_name(const std::string& name) {
    NameFacts n;
    std::smatch m;
    if (std::regex_search(name, m, std::regex(R"((?:^|_)c(\d+)_h(\d+))"))) {
        n.c = static_cast<uint32_t>(std::stoul(m[1]));
        n.h = static_cast<uint32_t>(std::stoul(m[2]));
    }
    if (std::regex_search(name, m, std::regex(R"(_oc(\d+))"))) n.oc = static_cast<uint32_t>(std::stoul(m[1]));
    n.s1pvalid = name.find("_s1pvalid") != std::string::npos;
    n.dw = std::regex_search(name, std::regex(R"((^|_)dw(_|\.))"));
    n.pw = std::regex_search(name, std::regex(R"((^|_)pw(_|\.))"));
    return n;
}

void expect_matches_name(const std::string& file, const RecoveredConv& r) {
    const NameFacts n = parse_name(file);
    ASSERT_GT(n.c, 0u) << file << ": name does not state c<C>_h<H>";
    ASSERT_TRUE(r.valid) << file << ": no convolution recovered";
    EXPECT_EQ(r.in_channels, n.c) << file << ": " << r.summary();
    EXPECT_EQ(r.in_height, n.h) << file << ": " << r.summary();
    EXPECT_EQ(r.in_width, n.h) << file << ": " << r.summary();
    if (n.oc) {
        EXPECT_EQ(r.out_channels, n.oc) << file << ": " << r.summary();
    }
    if (n.dw) {
        EXPECT_TRUE(r.depthwise) << file;
        EXPECT_EQ(r.out_channels, n.c) << file;
    }
    if (n.pw) {
        EXPECT_TRUE(r.kernel_w == 1 && r.kernel_h == 1) << file << ": " << r.summary();
    }
    if (n.s1pvalid) {
        EXPECT_EQ(r.stride_x, 1u) << file;
        EXPECT_EQ(r.stride_y, 1u) << file;
        EXPECT_EQ(r.pad_left + r.pad_right + r.pad_top + r.pad_bottom, 0) << file << ": " << r.summary();
    }
    EXPECT_EQ(r.precision, 2u) << file << ": all captures are fp16 models";
    // Whatever the name leaves open must at least be a consistent convolution.
    EXPECT_GE(r.pad_left, 0);
    EXPECT_GE(r.pad_right, 0);
    EXPECT_LT(r.pad_right, static_cast<int>(r.kernel_w));
    EXPECT_LT(r.pad_bottom, static_cast<int>(r.kernel_h));
    EXPECT_EQ((r.in_height + r.pad_top + r.pad_bottom - r.kernel_h) / r.stride_y + 1, r.out_height) << file;
}

}  // namespace

TEST(VendorCaptures, EveryJsonDecodesToTheConvolutionItsNameStates) {
    const std::string dir = shared_dir() + "/captures/rk3588-vendor-conv";
    const auto files = list(dir, ".json");
    if (shared_dir().empty() || files.empty()) GTEST_SKIP() << "no captures at " << dir << " (set NPURUN_SHARED)";
    size_t matched = 0;
    for (const std::string& fn : files) {
        SCOPED_TRACE(fn);
        const Capture c = read_capture_json(dir + "/" + fn);
        const auto tasks = decode_capture(c);
        ASSERT_EQ(tasks.size(), c.tasks.size());
        for (const auto& t : tasks) EXPECT_FALSE(t.description.empty());
        const RecoveredConv r = recover_conv(tasks);
        const int failures_before = ::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
        expect_matches_name(fn, r);
        if (::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count() == failures_before) ++matched;
        std::printf("%-36s %s\n", fn.c_str(), r.summary().c_str());
    }
    std::printf("JSON captures: %zu files, %zu match their names\n", files.size(), matched);
    EXPECT_EQ(matched, files.size());
}

TEST(VendorCaptures, EveryRawLogDecodesToTheConvolutionItsNameStates) {
    const std::string dir = shared_dir() + "/captures/rk3588-vendor-raw";
    const auto files = list(dir, ".log");
    if (shared_dir().empty() || files.empty()) GTEST_SKIP() << "no raw captures at " << dir << " (set NPURUN_SHARED)";
    for (const std::string& fn : files) {
        SCOPED_TRACE(fn);
        const Capture c = read_capture_log(dir + "/" + fn);
        ASSERT_FALSE(c.tasks.empty());
        const auto tasks = decode_capture(c);
        const RecoveredConv r = recover_conv(tasks);
        expect_matches_name(fn, r);
        // The log's own tensor table (input NCHW, weight OIHW): kernel and channels must agree where
        // the stream was captured completely.
        const TensorShape* in = nullptr;
        const TensorShape* wt = nullptr;
        const TensorShape* out = nullptr;
        for (const auto& t : c.tensors) {
            if (t.name.find(":input") != std::string::npos) in = &t;
            if (t.name.find(".weight") != std::string::npos) wt = &t;
            if (t.name.find(":output") != std::string::npos) out = &t;
        }
        ASSERT_TRUE(in && wt && out) << "tensor table missing";
        EXPECT_EQ(r.in_channels, in->dims[1]);
        EXPECT_EQ(r.kernel_h, wt->dims[2]);
        EXPECT_EQ(r.kernel_w, wt->dims[3]);
        EXPECT_EQ(r.out_height, out->dims[2]);
        if (c.complete) {
            EXPECT_EQ(r.out_channels, out->dims[1]) << r.summary();
        }
        std::printf("%s: %s%s; tensor table out channels %u\n", fn.c_str(), r.summary().c_str(),
                    c.complete ? "" : " [partial capture]", out->dims[1]);
    }
}

// The complete vendor stream (c64_h56, 1x1 conv 64->128, 56x56 fp16) replayed on the simulator: the
// single-core task pair (50 rows, then 6 rows reusing the weights left in CBUF) must be accepted as is
// and compute the convolution.
TEST(VendorCaptures, VendorStreamRunsOnTheSimulator) {
    const std::string dir = shared_dir() + "/captures/rk3588-vendor-raw";
    std::string file;
    for (const auto& fn : list(dir, ".log")) {
        if (fn.find("_c64_h56_") != std::string::npos) file = dir + "/" + fn;
    }
    if (shared_dir().empty() || file.empty()) GTEST_SKIP() << "c64_h56 raw capture not found under " << dir;
    const Capture c = read_capture_log(file);
    ASSERT_TRUE(c.complete);
    const auto tasks = decode_capture(c);
    const RegisterState& s0 = tasks[0].state;
    const uint32_t in_addr = s0.get(f::CNA_FEATURE_ADDR), w_addr = s0.get(f::CNA_DCOMP_ADDR), out_addr = s0.get(f::DPU_DST_BASE);
    const int C = 64, H = 56, W = 56, K = 128;
    npudrv::sim::test::TestMemory mem;
    // The weight GEM (28672 bytes in the log) also holds the regcmd lists, as the vendor runtime lays it out.
    auto& gem = mem.add(w_addr, 28672);
    auto& input = mem.add(in_addr, size_t(C / 8) * H * W * 16);
    auto& output = mem.add(out_addr, size_t(K / 8) * H * W * 16);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> x(size_t(C) * H * W), wt(size_t(K) * C);
    for (auto& v : x) v = npudrv::fp16_to_fp32(npudrv::fp32_to_fp16(dist(rng)));
    for (auto& v : wt) v = npudrv::fp16_to_fp32(npudrv::fp32_to_fp16(dist(rng)));
    const auto xin = npudrv::sim::test::pack_feature(npudrv::sim::test::fp16_bits(x), C, H, W, 2);
    std::copy(xin.begin(), xin.end(), input.begin());
    const auto wpk = npudrv::sim::test::pack_weights(npudrv::sim::test::fp16_bits(wt), K, C, 1, 1, 2);
    std::copy(wpk.begin(), wpk.end(), gem.begin());
    for (size_t t = 0; t < 2; ++t) {
        std::vector<uint64_t> q;
        for (const auto& e : c.tasks[t].entries) q.push_back(*e);
        mem.put_qwords(c.tasks[t].regcmd_addr, q);
    }
    npudrv::sim::NpuSimulator sim;
    for (size_t t = 0; t < 2; ++t) {
        npudrv::sim::HwTask task;
        task.regcmd_addr = c.tasks[t].regcmd_addr;
        task.regcfg_amount = c.tasks[t].regcfg_amount + 4;  // descriptor body + the PC tail
        task.enable_mask = c.tasks[t].enable_mask;
        task.int_mask = c.tasks[t].int_mask;
        const npudrv::sim::HwResult r = sim.run(task, mem);
        ASSERT_TRUE(r.error.empty()) << "task " << t << ": " << r.error;
        EXPECT_TRUE(r.completed);
        EXPECT_NE(r.int_status & task.int_mask, 0u);
    }
    // The vendor's PPU "separator" list (1x1x32 int8 max pool inside the weight buffer) runs as well.
    {
        std::vector<uint64_t> q;
        for (const auto& e : c.tasks[4].entries) q.push_back(*e);
        mem.put_qwords(c.tasks[4].regcmd_addr, q);
        npudrv::sim::HwTask task;
        task.regcmd_addr = c.tasks[4].regcmd_addr;
        task.regcfg_amount = c.tasks[4].regcfg_amount + 4;  // descriptor body + the PC tail
        task.int_mask = c.tasks[4].int_mask;
        const npudrv::sim::HwResult r = sim.run(task, mem);
        EXPECT_EQ(r.error, "");
        EXPECT_EQ(r.int_status, npudrv::regcmd::kIntPpu0);
        EXPECT_EQ(c.tasks[4].enable_mask, 0x60u);
    }
    EXPECT_EQ(sim.records()[1].counters.dma_read_bytes, size_t(C / 8) * 6 * W * 16) << "task 1 reuses the weights from CBUF";
    npudrv::sim::test::ref::ConvShape shape{C, H, W, K, 1, 1, 1, 1, 0, 0, 0, 0};
    const auto expect = npudrv::sim::test::ref::conv_acc<float, float>(shape, x, wt);
    const auto got = npudrv::sim::test::unpack_feature(output.data(), K, H, W, 2, size_t(H) * W * 16);
    size_t bad = 0;
    for (size_t i = 0; i < expect.size(); ++i) {
        const float g = npudrv::fp16_to_fp32(static_cast<uint16_t>(got[i]));
        if (std::fabs(g - expect[i]) > 1e-3f + 1e-3f * std::fabs(expect[i])) ++bad;
    }
    EXPECT_EQ(bad, 0u);
    std::printf("vendor c64_h56 stream: %llu MACs in 2 tasks, %llu bytes read, %llu written\n",
                static_cast<unsigned long long>(sim.total_counters().macs),
                static_cast<unsigned long long>(sim.total_counters().dma_read_bytes),
                static_cast<unsigned long long>(sim.total_counters().dma_write_bytes));
}
