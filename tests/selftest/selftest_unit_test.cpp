// npurun-selftest internals: the comparison that decides PASS/FAIL, the option parser, the case table's
// coverage of the NPU backend's ops, the determinism of the generated models, a corrupted result turning a
// case into a failure, the expectation lists and the judgement they give, and the HTML/CSV reports.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "core/error.h"
#include "tools/npurun-selftest/selftest_cli.h"
#include "tools/npurun-selftest/selftest_compare.h"
#include "tools/npurun-selftest/selftest_expectations.h"
#include "tools/npurun-selftest/selftest_html.h"
#include "tools/npurun-selftest/selftest_model.h"
#include "tools/npurun-selftest/selftest_report.h"
#include "tools/npurun-selftest/selftest_runner.h"

using namespace npurun;
using namespace npurun::selftest;

namespace {

TensorInfo info(DataType dt, uint32_t n) {
    TensorInfo t;
    t.dtype = dt;
    t.shape = Shape{1, n};
    return t;
}

std::string parse_error(std::vector<std::string> args) {
    try {
        parse_options(args);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::BadInput);
        return e.what();
    }
    return "(accepted)";
}

const Case* find_case(const std::string& name) {
    for (const Case& c : all_cases())
        if (c.name == name) return &c;
    return nullptr;
}

}  // namespace

TEST(SelftestCompare, Uint8WithinOneCodeAndNotTwo) {
    const uint8_t ref[4] = {0, 100, 200, 255};
    const uint8_t one[4] = {1, 99, 200, 254};
    const uint8_t two[4] = {0, 100, 202, 255};
    Comparison a = compare_to_reference(info(DataType::QAsymmU8, 4), ref, one, 1.0);
    EXPECT_TRUE(a.within);
    EXPECT_EQ(a.max_diff, 1.0);
    Comparison b = compare_to_reference(info(DataType::QAsymmU8, 4), ref, two, 1.0);
    EXPECT_FALSE(b.within);
    EXPECT_EQ(b.max_diff, 2.0);
    EXPECT_EQ(b.worst, 2u);
}

TEST(SelftestCompare, Int8IsSigned) {
    // -128 vs 127 is 255 codes apart, not 1 (bytes 0x80 and 0x7f).
    const int8_t ref[2] = {-128, 5};
    const int8_t got[2] = {127, 5};
    Comparison c = compare_to_reference(info(DataType::QAsymmS8, 2), ref, got, 1.0);
    EXPECT_FALSE(c.within);
    EXPECT_EQ(c.max_diff, 255.0);
}

TEST(SelftestCompare, FloatNanAndInfinityFail) {
    const float ref[3] = {1.0f, 2.0f, -3.0f};
    const float nan[3] = {1.0f, std::nanf(""), -3.0f};
    const float inf[3] = {1.0f, 2.0f, -INFINITY};
    EXPECT_FALSE(compare_to_reference(info(DataType::Float32, 3), ref, nan, 1e9).within);
    EXPECT_FALSE(compare_to_reference(info(DataType::Float32, 3), ref, inf, 1e9).within);
    const float close[3] = {1.001f, 2.0f, -3.0f};
    Comparison c = compare_to_reference(info(DataType::Float32, 3), ref, close, 0.002);
    EXPECT_TRUE(c.within);
    EXPECT_NEAR(c.max_diff, 0.001, 1e-6);
    EXPECT_EQ(c.max_ref, 3.0);
}

TEST(SelftestCompare, UncomparableTypeIsAnError) {
    const int32_t a[1] = {1};
    Comparison c = compare_to_reference(info(DataType::Signed32, 1), a, a, 1.0);
    EXPECT_FALSE(c.within);
    EXPECT_NE(c.error.find("Signed32"), std::string::npos);
}

TEST(SelftestCompare, Fp16Tolerance) {
    EXPECT_DOUBLE_EQ(fp16_tolerance(0.5, 1), 1.0 / 256);       // at least relative to 1
    EXPECT_DOUBLE_EQ(fp16_tolerance(8.0, 1), 8.0 / 256);
    EXPECT_DOUBLE_EQ(fp16_tolerance(2.0, 3), 3 * 2.0 / 256);   // per rounding layer
}

TEST(SelftestCompare, BytesNpuAgainstSim) {
    const uint8_t a[5] = {1, 2, 3, 4, 5};
    const uint8_t b[5] = {1, 2, 9, 4, 0};
    EXPECT_TRUE(compare_bytes(a, a, 5).identical);
    const ByteComparison d = compare_bytes(a, b, 5);
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.differing, 2u);
    EXPECT_EQ(d.first, 2u);
}

TEST(SelftestOptions, DefaultsAndValues) {
    Options o = parse_options({});
    EXPECT_EQ(o.device, DeviceSelection::All);
    o = parse_options({"--device", "sim", "--filter", "conv-*", "--filter=fc", "--json=-"});
    EXPECT_EQ(o.device, DeviceSelection::Sim);
    EXPECT_EQ(o.filters, (std::vector<std::string>{"conv-*", "fc"}));
    EXPECT_EQ(o.json, "-");
}

TEST(SelftestOptions, BadFlagsAreOneLineErrors) {
    EXPECT_NE(parse_error({"--device", "gpu"}).find("unknown device 'gpu'"), std::string::npos);
    EXPECT_NE(parse_error({"--device"}).find("--device needs a value"), std::string::npos);
    EXPECT_NE(parse_error({"--json"}).find("--json needs a value"), std::string::npos);
    EXPECT_NE(parse_error({"--frobnicate"}).find("unknown option '--frobnicate'"), std::string::npos);
    EXPECT_NE(parse_error({"model.armnn"}).find("unexpected argument"), std::string::npos);
    EXPECT_NE(parse_error({"--list=yes"}).find("--list takes no value"), std::string::npos);
    EXPECT_NE(parse_error({"--filter", ""}).find("non-empty"), std::string::npos);
    EXPECT_NE(parse_error({"--device", "sim", "--require-npu"}).find("--require-npu"), std::string::npos);
    EXPECT_NE(parse_error({"--test-corrupt", "gpu"}).find("--test-corrupt"), std::string::npos);
    for (const char* bad : {"--device=gpu", "--bogus", "x"}) {
        const std::string m = parse_error({bad});
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
}

TEST(SelftestOptions, FilterIsGlobOrSubstring) {
    EXPECT_TRUE(matches("conv-u8-k3-p1", {}));
    EXPECT_TRUE(matches("conv-u8-k3-p1", {"u8-k3"}));
    EXPECT_TRUE(matches("conv-u8-k3-p1", {"conv-*"}));
    EXPECT_FALSE(matches("conv-u8-k3-p1", {"u8*"}));  // a glob matches the whole name
    EXPECT_TRUE(matches("fc-u8", {"nothing", "fc-?8"}));
}

TEST(SelftestCases, NamesUniqueAndDuplicatesRejected) {
    std::set<std::string> names;
    for (const Case& c : all_cases()) EXPECT_TRUE(names.insert(c.name).second) << c.name;
    std::vector<Case> dup = {all_cases()[0], all_cases()[0]};
    EXPECT_THROW(validate_cases(dup), Error);
    for (const char* bad : {"conv u8", "conv,u8", "conv:u8", "conv-*"}) {
        std::vector<Case> odd = {all_cases()[0]};
        odd[0].name = bad;
        EXPECT_THROW(validate_cases(odd), Error) << bad;
    }
}

// Every op the NPU backend lowers (runtime/npu lowering_refusal) in every precision it supports, tiling
// (rows, depthwise channels, K), multi-core splits, per-channel weights, fused activations, broadcast and
// constant operands, Pad (and its folding), buffer views and multi-layer networks: removing a case that is
// the only one of its kind fails here.
TEST(SelftestCases, CoverEveryLoweredOp) {
    std::set<std::pair<int, int>> kind_precision;
    std::set<std::pair<int, int>> broadcast_precision;  // (Broadcast, int8 0 / fp16 1)
    std::set<std::pair<int, int>> pad_mode_precision;   // (PadMode, int8 0 / fp16 1)
    std::set<std::pair<int, int>> multicore;            // (LayerKind, cores)
    std::set<int> multicore_precision;
    bool per_channel_conv = false, per_channel_dw = false, tiled_conv = false, tiled_dw = false, multi = false;
    bool relu = false, relu6 = false, same_padding = false, residual = false, k_tiled = false, tiled_multicore = false;
    bool mul_relu_int8 = false, const_int8 = false, const_fp16 = false, pad_fold = false, concat_net = false;
    for (const Case& c : all_cases()) {
        multi = multi || c.layers.size() > 1;
        const int fp = c.precision == Precision::Fp16 ? 1 : 0;
        for (size_t i = 0; i < c.layers.size(); ++i) {
            const LayerSpec& l = c.layers[i];
            kind_precision.insert({int(l.kind), int(c.precision)});
            per_channel_conv = per_channel_conv || (l.per_channel && l.kind == LayerKind::Conv);
            per_channel_dw = per_channel_dw || (l.per_channel && l.kind == LayerKind::Depthwise);
            tiled_conv = tiled_conv || (l.tiled && l.kind == LayerKind::Conv);
            tiled_dw = tiled_dw || (l.tiled && l.kind == LayerKind::Depthwise);
            k_tiled = k_tiled || (l.tiled && l.out_c > 8192 && c.cores == 0);
            tiled_multicore = tiled_multicore || (l.tiled && c.cores > 1);
            relu = relu || l.act == Act::Relu;
            relu6 = relu6 || l.act == Act::Relu6;
            same_padding = same_padding || l.pad_top != l.pad_bottom;
            residual = residual || (is_binary(l.kind) && l.operand >= 0);
            if (is_binary(l.kind) && l.broadcast != Broadcast::None) broadcast_precision.insert({int(l.broadcast), fp});
            mul_relu_int8 = mul_relu_int8 || (l.kind == LayerKind::Mul && l.act == Act::Relu && !fp);
            const_int8 = const_int8 || (l.const_operand && !fp);
            const_fp16 = const_fp16 || (l.const_operand && fp);
            if (l.kind == LayerKind::Pad) pad_mode_precision.insert({int(l.pad_mode), fp});
            pad_fold = pad_fold || (l.kind == LayerKind::Pad && l.pad_zero_point && i + 1 < c.layers.size() &&
                                    (c.layers[i + 1].kind == LayerKind::Conv || c.layers[i + 1].kind == LayerKind::Depthwise));
            concat_net = concat_net || (l.kind == LayerKind::Concat && i + 1 < c.layers.size());
            if (c.cores > 1) multicore.insert({int(l.kind), int(c.cores)}), multicore_precision.insert(int(c.precision));
        }
    }
    const LayerKind all_precisions[] = {LayerKind::Conv, LayerKind::Depthwise, LayerKind::FullyConnected,
                                        LayerKind::MaxPool, LayerKind::AvgPool, LayerKind::GlobalAvgPool};
    for (LayerKind k : all_precisions)
        for (Precision p : {Precision::U8, Precision::S8, Precision::Fp16})
            EXPECT_TRUE(kind_precision.count({int(k), int(p)})) << layer_name(k) << " " << to_string(p);
    for (LayerKind k : {LayerKind::Add, LayerKind::Sub, LayerKind::Mul, LayerKind::Max, LayerKind::Min, LayerKind::Pad,
                        LayerKind::Reshape, LayerKind::Concat, LayerKind::Slice}) {
        EXPECT_TRUE(kind_precision.count({int(k), int(Precision::Fp16)}) || k == LayerKind::Reshape) << layer_name(k);
        EXPECT_TRUE(kind_precision.count({int(k), int(Precision::U8)}) || kind_precision.count({int(k), int(Precision::S8)}))
            << layer_name(k);
    }
    EXPECT_TRUE(kind_precision.count({int(LayerKind::Div), int(Precision::Fp16)}));
    for (Broadcast b : {Broadcast::C, Broadcast::WC, Broadcast::HC})
        for (int fp : {0, 1}) EXPECT_TRUE(broadcast_precision.count({int(b), fp})) << to_string(b) << " fp16 " << fp;
    for (PadMode m : {PadMode::Constant, PadMode::Reflect})
        for (int fp : {0, 1}) EXPECT_TRUE(pad_mode_precision.count({int(m), fp})) << int(m) << " fp16 " << fp;
    // Multi-core: convolution on 2 and 3 cores, depthwise and fully connected split, in every precision.
    EXPECT_TRUE(multicore.count({int(LayerKind::Conv), 2}) && multicore.count({int(LayerKind::Conv), 3}));
    EXPECT_TRUE(multicore.count({int(LayerKind::Depthwise), 2}) || multicore.count({int(LayerKind::Depthwise), 3}));
    EXPECT_TRUE(multicore.count({int(LayerKind::FullyConnected), 2}) || multicore.count({int(LayerKind::FullyConnected), 3}));
    EXPECT_EQ(multicore_precision.size(), 3u);
    EXPECT_TRUE(per_channel_conv && per_channel_dw && tiled_conv && tiled_dw && multi && relu && relu6 && same_padding && residual);
    EXPECT_TRUE(k_tiled && tiled_multicore && mul_relu_int8 && const_int8 && const_fp16 && pad_fold && concat_net);
}

TEST(SelftestModels, SameCaseSameBytes) {
    for (const char* name : {"conv-s8-perch", "net-u8-classifier", "div-f16"}) {
        const Case* c = find_case(name);
        ASSERT_NE(c, nullptr) << name;
        EXPECT_EQ(build_case(*c).armnn, build_case(*c).armnn) << name;
    }
    EXPECT_EQ(case_seed("abc"), 0x1a47e90bu);  // FNV-1a: the data of a case never depends on the table
}

TEST(SelftestModels, ImpossibleCasesAreErrors) {
    Case c{"bad-int8-div", Precision::U8, {4, 4, 16, false}, {eltwise(LayerKind::Div)}, "", 0};
    EXPECT_THROW(build_case(c), Error);
    Case r{"bad-reshape", Precision::S8, {4, 4, 16, false}, {reshape(3, 5)}, "", 0};
    EXPECT_THROW(build_case(r), Error);
    // A broadcast operand from an earlier layer has the full shape: not what the case claims.
    LayerSpec add = eltwise(LayerKind::Add);
    add.with(0).bcast(Broadcast::C);
    Case b{"bad-broadcast", Precision::S8, {4, 4, 16, false}, {conv(16, 1), add}, "", 0};
    EXPECT_THROW(build_case(b), Error);
    Case q{"bad-concat", Precision::S8, {4, 4, 16, false}, {conv(16, 1), conv(16, 3).pad(1), concat_with(0)}, "", 0};
    EXPECT_THROW(build_case(q), Error);  // the two convolutions' outputs are quantized differently
    Case k{"bad-kernel", Precision::U8, {2, 2, 16, false}, {conv(8, 5)}, "", 0};
    EXPECT_THROW(build_case(k), Error);
}

TEST(SelftestRun, CorruptedResultFailsTheCase) {
    const Environment env = probe_environment(DeviceSelection::Sim);
    if (!env.sim.available) GTEST_SKIP() << "built without the simulator: " << env.sim.message;
    const Case* c = find_case("conv-u8-k3-p1");
    ASSERT_NE(c, nullptr);
    CaseResult good = run_case(*c, env, {});
    EXPECT_TRUE(good.pass) << good.error;
    ASSERT_EQ(good.runs.size(), 1u);
    EXPECT_LE(good.runs[0].max_diff, 1.0);
    for (const char* device : {"sim", "cpu"}) {
        RunOptions o;
        o.corrupt_device = device;
        CaseResult bad = run_case(*c, env, o);
        EXPECT_FALSE(bad.pass) << device;
        ASSERT_EQ(bad.runs.size(), 1u);
        EXPECT_NE(bad.runs[0].error.find("differs from the CPU reference"), std::string::npos) << bad.runs[0].error;
    }
}

TEST(SelftestRun, CaseThatCannotBeBuiltFails) {
    const Environment env = probe_environment(DeviceSelection::Sim);
    Case c{"bad-int8-div", Precision::S8, {4, 4, 16, false}, {eltwise(LayerKind::Div)}, "", 0};
    CaseResult r = run_case(c, env, {});
    EXPECT_FALSE(r.pass);
    EXPECT_NE(r.error.find("bad-int8-div"), std::string::npos) << r.error;
}

TEST(SelftestRun, ForcedCoresSplitTheJobAndAgreeAcrossCoreCounts) {
    const Environment env = probe_environment(DeviceSelection::Sim);
    if (!env.sim.available) GTEST_SKIP() << "built without the simulator: " << env.sim.message;
    const Case* c = find_case("mc-dw-u8-2cores");
    ASSERT_NE(c, nullptr);
    CaseResult r = run_case(*c, env, {});
    EXPECT_TRUE(r.pass) << r.error << (r.runs.empty() ? "" : r.runs[0].error) << r.core_sweep_detail;
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_EQ(r.runs[0].cores_requested, 2u);
    EXPECT_EQ(r.runs[0].cores_used, 2u);
    EXPECT_TRUE(r.core_sweep && r.core_sweep_identical);
    EXPECT_EQ(r.core_sweep_lanes, (std::vector<uint32_t>{1, 2, 3}));
}

TEST(SelftestRun, ForcedCoresOnALayerThatDoesNotSplitFail) {
    // A pooling segment is never spread over cores: asking for 2 must fail, not pass on one core.
    const Environment env = probe_environment(DeviceSelection::Sim);
    if (!env.sim.available) GTEST_SKIP() << "built without the simulator: " << env.sim.message;
    Case c = *find_case("maxpool-s8-k2-s2");
    c.cores = 2;
    CaseResult r = run_case(c, env, {});
    EXPECT_FALSE(r.pass);
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_EQ(r.runs[0].cores_used, 1u);
    EXPECT_NE(r.runs[0].error.find("1 lane(s), not 2"), std::string::npos) << r.runs[0].error;
}

TEST(SelftestCompare, FirstElementBeyondTheTolerance) {
    const uint8_t ref[5] = {10, 20, 30, 40, 50};
    const uint8_t got[5] = {11, 20, 33, 40, 90};  // element 0 is within 1, element 2 is the first beyond it
    const ElementDiff d = first_element_beyond(info(DataType::QAsymmU8, 5), ref, got, 1.0);
    ASSERT_TRUE(d.found);
    EXPECT_EQ(d.index, 2u);
    EXPECT_EQ(d.expected, 30.0);
    EXPECT_EQ(d.got, 33.0);
    EXPECT_FALSE(first_element_beyond(info(DataType::QAsymmU8, 5), ref, ref, 0.0).found);
    const float fr[2] = {1.0f, 2.0f}, fn[2] = {1.0f, std::nanf("")};
    EXPECT_EQ(first_element_beyond(info(DataType::Float32, 2), fr, fn, 1e9).index, 1u);  // NaN is beyond any tolerance
}

TEST(SelftestCompare, FirstDifferingElementOfTwoDevices) {
    const int8_t sim[4] = {1, -2, 3, -4};
    const int8_t npu[4] = {1, -2, 3, 4};
    const ElementDiff d = first_differing_element(info(DataType::QAsymmS8, 4), sim, npu);
    ASSERT_TRUE(d.found);
    EXPECT_EQ(d.index, 3u);
    EXPECT_EQ(d.expected, -4.0);
    EXPECT_EQ(d.got, 4.0);
    const float a[3] = {1.0f, 2.0f, 3.0f}, b[3] = {1.0f, 2.0f, 3.5f};
    const ElementDiff f = first_differing_element(info(DataType::Float32, 3), a, b);
    EXPECT_TRUE(f.found && f.index == 2u && f.got == 3.5);  // the element, not the byte offset (8)
    EXPECT_FALSE(first_differing_element(info(DataType::Float32, 3), a, a).found);
}

TEST(SelftestOptions, ReportAndExpectationFlags) {
    Options o = parse_options({"--html", "r.html", "--csv=r.csv", "--expectations", "board/ci/rk3588",
                               "--test-corrupt", "sim:fc-u8", "--test-corrupt", "npu"});
    EXPECT_EQ(o.html, "r.html");
    EXPECT_EQ(o.csv, "r.csv");
    EXPECT_EQ(o.expectations, "board/ci/rk3588");
    ASSERT_EQ(o.corrupt.size(), 2u);
    EXPECT_EQ(o.corrupt[0].device, "sim");
    EXPECT_EQ(o.corrupt[0].case_name, "fc-u8");
    EXPECT_EQ(o.corrupt[1].device, "npu");
    EXPECT_EQ(o.corrupt[1].case_name, "");
    EXPECT_NE(parse_error({"--html", "-"}).find("--html needs a file name"), std::string::npos);
    EXPECT_NE(parse_error({"--csv"}).find("--csv needs a value"), std::string::npos);
    EXPECT_NE(parse_error({"--expectations="}).find("--expectations needs a prefix"), std::string::npos);
    EXPECT_NE(parse_error({"--test-corrupt", "sim:"}).find("no case name"), std::string::npos);
}

TEST(SelftestExpectations, NamesReasonsGlobsAndComments) {
    const std::string text =
        "# known failures on the board\n"
        "\n"
        "conv-u8-k1\n"
        "fc-u8:   rounding of the bias  # trailing comment\n"
        "  mc-*: three cores only on some kernels\n";
    const std::vector<ExpectationEntry> e = parse_expectation_list(text, Expected::Fail, "x-fails.txt");
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e[0].pattern, "conv-u8-k1");
    EXPECT_EQ(e[0].reason, "");
    EXPECT_EQ(e[0].where, "x-fails.txt:3");
    EXPECT_EQ(e[1].pattern, "fc-u8");
    EXPECT_EQ(e[1].reason, "rounding of the bias");
    EXPECT_EQ(e[2].pattern, "mc-*");
    EXPECT_EQ(e[2].where, "x-fails.txt:5");

    ExpectationLists lists;
    lists.entries = e;
    EXPECT_EQ(lookup(lists, "fc-u8").kind, Expected::Fail);
    EXPECT_EQ(lookup(lists, "fc-u8").reason, "rounding of the bias");
    EXPECT_EQ(lookup(lists, "mc-conv-u8-3cores").where, "x-fails.txt:5");
    EXPECT_EQ(lookup(lists, "fc-u8-relu6").kind, Expected::None);  // exact names, no substring match
    EXPECT_EQ(lookup(lists, "conv-u8-k1x").kind, Expected::None);
}

TEST(SelftestExpectations, BadEntriesAreErrorsWithTheirLine) {
    auto error = [](const std::string& text) {
        try {
            parse_expectation_list(text, Expected::Skip, "s.txt");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_NE(error("ok\nconv u8: spaces\n").find("s.txt:2:"), std::string::npos);
    EXPECT_NE(error(": no name\n").find("s.txt:1: an entry needs a case name"), std::string::npos);
}

TEST(SelftestExpectations, StaleAndConflictingEntriesAreErrors) {
    std::vector<std::string> names;
    for (const Case& c : all_cases()) names.push_back(c.name);
    ExpectationLists lists;
    lists.entries = parse_expectation_list("conv-u8-k1\n", Expected::Fail, "f.txt");
    EXPECT_NO_THROW(validate_expectations(lists, names));
    lists.entries.push_back(parse_expectation_list("no-such-case: renamed\n", Expected::Fail, "f.txt")[0]);
    try {
        validate_expectations(lists, names);
        ADD_FAILURE() << "a stale entry was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("f.txt:1: 'no-such-case' matches no case"), std::string::npos) << e.what();
    }
    lists.entries.pop_back();
    lists.entries.push_back(parse_expectation_list("conv-u8-k*\n", Expected::Flake, "fl.txt")[0]);
    try {
        validate_expectations(lists, names);
        ADD_FAILURE() << "a case in two lists was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("'conv-u8-k1' is listed both as fail (f.txt:1) and as flake (fl.txt:1)"),
                  std::string::npos) << e.what();
    }
}

TEST(SelftestExpectations, JudgeEveryCombination) {
    EXPECT_EQ(judge(true, false, Expected::None), Outcome::Pass);
    EXPECT_EQ(judge(false, false, Expected::None), Outcome::Fail);
    EXPECT_EQ(judge(false, false, Expected::Fail), Outcome::ExpectedFail);
    EXPECT_EQ(judge(true, false, Expected::Fail), Outcome::UnexpectedPass);
    EXPECT_EQ(judge(true, false, Expected::Flake), Outcome::Pass);
    EXPECT_EQ(judge(false, false, Expected::Flake), Outcome::Flake);
    EXPECT_EQ(judge(true, true, Expected::Skip), Outcome::Skip);
    EXPECT_EQ(judge(true, true, Expected::Fail), Outcome::Skip);  // no NPU: nothing ran, nothing to judge
    for (Outcome o : {Outcome::Pass, Outcome::Skip, Outcome::ExpectedFail, Outcome::Flake}) EXPECT_TRUE(acceptable(o));
    for (Outcome o : {Outcome::Fail, Outcome::UnexpectedPass}) EXPECT_FALSE(acceptable(o));
}

TEST(SelftestExpectations, PrefixNotDirectory) {
    const std::string dir = ::testing::TempDir() + "selftest-expectations-" + std::to_string(::getpid());
    std::remove((dir + "/b-fails.txt").c_str());
    ::rmdir(dir.c_str());
    ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
    auto error = [](const std::string& prefix) {
        try {
            load_expectations(prefix);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_NE(error(dir).find("takes a prefix"), std::string::npos);
    EXPECT_NE(error(dir + "/b").find("none of"), std::string::npos);
    {
        std::FILE* f = std::fopen((dir + "/b-fails.txt").c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs("fc-u8: known\n", f);
        std::fclose(f);
    }
    const ExpectationLists l = load_expectations(dir + "/b");
    EXPECT_EQ(l.files_read, (std::vector<std::string>{dir + "/b-fails.txt"}));  // missing flakes/skips: empty lists
    EXPECT_EQ(l.count(Expected::Fail), 1u);
    EXPECT_EQ(l.count(Expected::Skip), 0u);
    std::remove((dir + "/b-fails.txt").c_str());
    ::rmdir(dir.c_str());
}

TEST(SelftestReport, HtmlIsSelfContainedAndShowsTheFirstDifference) {
    EXPECT_EQ(html_escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    const Environment env = probe_environment(DeviceSelection::Sim);
    if (!env.sim.available) GTEST_SKIP() << "built without the simulator: " << env.sim.message;
    RunOptions o;
    o.corrupt_device = "sim";
    std::vector<CaseResult> results = {run_case(*find_case("conv-u8-k1"), env, o), run_case(*find_case("fc-u8"), env, {})};
    ASSERT_FALSE(results[0].pass);
    const ElementDiff& d = results[0].runs[0].first_diff;
    ASSERT_TRUE(d.found);
    EXPECT_EQ(d.index, 0u);  // --test-corrupt changes element 0 by 64 codes
    EXPECT_EQ(std::fabs(d.got - d.expected), 64.0);
    results[1].expectation = {Expected::Fail, "planted", "x-fails.txt:1"};
    const Summary s = summarize(results, env, 1.0, "x");
    EXPECT_EQ(s.failed, 1u);
    EXPECT_EQ(s.unexpected_passes, 1u);
    const std::string html = html_report(results, env, s);
    char expect[128];
    std::snprintf(expect, sizeof expect, "sim vs cpu: output 0 element 0: expected %.0f, got %.0f", d.expected, d.got);
    EXPECT_NE(html.find(expect), std::string::npos);
    EXPECT_NE(html.find("PASS (unexpected)"), std::string::npos);
    for (const char* external : {"<script", "<link", "src=", "http:", "https:", "url("})
        EXPECT_EQ(html.find(external), std::string::npos) << external;
    EXPECT_EQ(csv_report(results).substr(0, 23), "name,result,outcome,ms\n");
    EXPECT_NE(csv_report(results).find("\nfc-u8,pass,unexpected-pass,"), std::string::npos);
}
