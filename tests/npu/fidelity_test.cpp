// Fidelity to the real hardware: for every convolution shape the vendor runtime was captured compiling
// (../shared/captures/rk3588-vendor-conv/*.json, fp16), build the same layer with the NPU lowering and
// compare the register values of the shape-dependent fields (addresses excluded): task 0 of every shape,
// every task of the vendor's single-core task set when ours has as many, and the 2-/3-core sets. The
// convolution our stream computes (recovered from our registers by the same decoder) must be the vendor's;
// field matches are reported per shape and overall.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "drv/regcmd/capture_reader.h"
#include "drv/regcmd/conv_recovery.h"
#include "drv/regcmd/fields.h"
#include "drv/regcmd/regcmd_decoder.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_regcmd.h"

namespace rc = npudrv::regcmd;
using npurun::NpuDomain;
using npurun::npu::ConvLayer;

namespace {

std::string captures_dir() {
    const char* s = std::getenv("NPURUN_SHARED");
    return std::string(s ? s : "../shared") + "/captures/rk3588-vendor-conv";
}

std::vector<std::string> capture_files() {
    std::vector<std::string> out;
    DIR* d = opendir(captures_dir().c_str());
    if (!d) return out;
    while (dirent* e = readdir(d)) {
        const std::string n = e->d_name;
        if (n.size() > 5 && n.substr(n.size() - 5) == ".json") out.push_back(n);
    }
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

// The shape-dependent registers the captures hold (addresses left out).
const char* const kFields[] = {"CNA_CONV_CON1",     "CNA_CONV_CON2",       "CNA_DATA_SIZE0",      "CNA_DATA_SIZE1",
                               "CNA_DATA_SIZE3",    "CNA_FC_DATA_SIZE0",   "CNA_FC_DATA_SIZE1",   "CNA_DMA_CON2",
                               "CNA_WEIGHT_SIZE0",  "CNA_WEIGHT_SIZE1",    "CNA_WEIGHT_SIZE2",    "CNA_CBUF_CON0",
                               "CORE_DATAOUT_SIZE_0", "CORE_DATAOUT_SIZE_1", "DPU_DST_SURF_STRIDE", "DPU_DATA_CUBE_HEIGHT",
                               "DPU_DATA_CUBE_CHANNEL", "DPU_WDMA_SIZE_0",  "DPU_WDMA_SIZE_1",     "DPU_SURFACE_ADD"};

// The vendor's single-core alternative: its leading conv tasks until their outputs cover the layer once
// (output pixels x channels). A register a JSON row leaves out keeps its previous value, as on the
// hardware. 0 when a task before that point has no register rows (the set cannot be told apart).
size_t single_core_tasks(const std::vector<const rc::DecodedTask*>& vt, const rc::RecoveredConv& v) {
    namespace f = rc::f;
    const uint64_t total = uint64_t{v.out_width} * v.out_height * v.out_channels;
    uint64_t covered = 0;
    std::optional<uint32_t> atoms, channels;
    for (size_t i = 0; i < vt.size(); ++i) {
        if (const auto a = vt[i]->state.known(f::CNA_OUT_ATOMICS)) atoms = a;
        if (const auto c = vt[i]->state.known(f::DPU_ORIG_CHANNEL)) channels = *c + 1;
        if (!atoms || !channels) return 0;
        covered += uint64_t{*atoms} * *channels;
        if (covered >= total) return covered == total ? i + 1 : 0;
    }
    return 0;
}

// All tasks of the vendor's single-core set compared with ours when ours has as many (the same tiling):
// how the layer is cut (row tiles, depthwise channel slices) and each tile's CBUF split and reuse flags.
struct SingleCoreTally {
    size_t sets = 0, same_count = 0, match = 0, fields = 0;
    std::map<std::string, size_t> mismatch;

    void add(const std::string& file, const std::vector<const rc::DecodedTask*>& vt,
             const std::vector<const rc::DecodedTask*>& ot, const rc::RecoveredConv& v) {
        const size_t n1 = single_core_tasks(vt, v);
        if (n1 == 0) return;
        ++sets;
        std::printf("%-32s single core: vendor %zu tasks, ours %zu\n", file.c_str(), n1, ot.size());
        if (n1 != ot.size()) return;
        ++same_count;
        for (size_t i = 0; i < n1; ++i)
            for (const char* name : kFields) {
                const uint16_t off = rc::reg(name);
                if (!vt[i]->state.written(off)) continue;
                ++fields;
                if (vt[i]->state.get(off) == ot[i]->state.get(off)) {
                    ++match;
                } else {
                    ++mismatch[name];
                    std::printf("  %s task %zu: %s v=%X o=%X\n", file.c_str(), i, name, vt[i]->state.get(off), ot[i]->state.get(off));
                }
            }
    }
    double percent() const { return fields ? 100.0 * double(match) / double(fields) : 0.0; }
};

bool is_conv(const rc::DecodedTask& t) {
    const uint32_t en = t.op_en ? *t.op_en : t.descriptor_enable_mask;
    return (en & rc::kEnCna) != 0;
}

// Our fp16 layer for the recovered shape (weights zero: only the registers matter here).
ConvLayer layer_for(const rc::RecoveredConv& v) {
    ConvLayer L;
    L.domain = NpuDomain::Fp16;
    L.depthwise = v.depthwise;
    L.c = v.in_channels, L.h = v.in_height, L.w = v.in_width;
    L.k = v.out_channels, L.ho = v.out_height, L.wo = v.out_width;
    L.kh = v.kernel_h, L.kw = v.kernel_w, L.sx = v.stride_x, L.sy = v.stride_y;
    L.pad_left = uint32_t(std::max(0, v.pad_left)), L.pad_top = uint32_t(std::max(0, v.pad_top));
    L.ca = (L.c + 7) / 8 * 8;
    L.coa = ((L.depthwise ? L.ca : L.k) + 15) / 16 * 16;
    return L;
}

}  // namespace

TEST(Fidelity, VendorConvCaptures) {
    const std::vector<std::string> files = capture_files();
    if (files.empty()) GTEST_SKIP() << "no captures in " << captures_dir() << " (../shared absent)";
    size_t total_match = 0, total_fields = 0, shapes = 0, exact_shapes = 0;
    std::map<std::string, size_t> field_mismatch;
    size_t mc_sets = 0, mc_comparable = 0, mc_split_match = 0, mc_match = 0, mc_fields = 0;
    SingleCoreTally single;
    for (const std::string& f : files) {
        SCOPED_TRACE(f);
        const rc::Capture cap = rc::read_capture_json(captures_dir() + "/" + f);
        const std::vector<rc::DecodedTask> vendor_all = rc::decode_capture(cap);
        const rc::RecoveredConv v = rc::recover_conv(vendor_all);
        ASSERT_TRUE(v.valid) << "vendor capture not recoverable";
        ConvLayer L = layer_for(v);
        npurun::npu::ConvTiling tiling;
        std::string why;
        ASSERT_TRUE(npurun::npu::plan_conv_tiling(L, &tiling, &why)) << why;
        rc::RegcmdWriter w;
        npurun::npu::ConvAddresses a{0x10000000u, 0x20000000u, 0x30000000u, 0};
        npurun::npu::emit_conv_tasks(w, L, tiling, a);
        const rc::RegcmdBuffer buf = w.finish(0x40000000u);
        const std::vector<rc::DecodedTask> ours = rc::decode_stream(buf.qwords, buf.base_addr);
        const rc::RecoveredConv o = rc::recover_conv(ours);
        // Our stream computes the vendor's convolution.
        EXPECT_TRUE(o.valid);
        EXPECT_EQ(o.in_channels, v.in_channels);
        EXPECT_EQ(o.in_height, v.in_height);
        EXPECT_EQ(o.in_width, v.in_width);
        EXPECT_EQ(o.out_channels, v.out_channels);
        EXPECT_EQ(o.out_height, v.out_height);
        EXPECT_EQ(o.out_width, v.out_width);
        EXPECT_EQ(o.kernel_h, v.kernel_h);
        EXPECT_EQ(o.kernel_w, v.kernel_w);
        EXPECT_EQ(o.stride_x, v.stride_x);
        EXPECT_EQ(o.depthwise, v.depthwise);

        std::vector<const rc::DecodedTask*> vt, ot;
        for (const auto& t : vendor_all)
            if (is_conv(t)) vt.push_back(&t);
        for (const auto& t : ours)
            if (is_conv(t)) ot.push_back(&t);
        size_t match = 0, fields = 0;
        std::string diffs;
        // Task 0 of each: the vendor buffer holds alternative task sets (1/2/3 cores) side by side, so only
        // the first task of both streams is the same piece of work for sure.
        for (size_t i = 0; i < std::min<size_t>(1, std::min(vt.size(), ot.size())); ++i) {
            for (const char* name : kFields) {
                const uint16_t off = rc::reg(name);
                if (!vt[i]->state.written(off)) continue;
                ++fields;
                const uint32_t vv = vt[i]->state.get(off), ov = ot[i]->state.get(off);
                if (vv == ov) {
                    ++match;
                } else {
                    ++field_mismatch[name];
                    if (i == 0) {
                        char b[96];
                        std::snprintf(b, sizeof b, " %s v=%X o=%X", name, vv, ov);
                        diffs += b;
                    }
                }
            }
        }
        single.add(f, vt, ot, v);
        // Multi-core: when the vendor buffer holds exactly the 1-, 2- and 3-core alternatives of a one-task
        // layer (6 conv tasks: 1 | 2 | 3), compare our 2- and 3-lane plans task by task with them.
        if (vt.size() == 6 && ot.size() == 1) {
            for (uint32_t lanes : {2u, 3u}) {
                npurun::npu::TilingRequest req;
                req.lanes = lanes;
                npurun::npu::ConvTiling lt;
                ASSERT_TRUE(npurun::npu::plan_conv_tiling(L, &lt, &why, req)) << why;
                rc::RegcmdWriter mw;
                npurun::npu::emit_conv_tasks(mw, L, lt, a);
                const rc::RegcmdBuffer mb = mw.finish(0x40000000u);
                const std::vector<rc::DecodedTask> mt = rc::decode_stream(mb.qwords, mb.base_addr);
                ++mc_sets;
                if (mt.size() != lanes) continue;  // a lane needs more than one task: not comparable
                ++mc_comparable;
                const size_t first = lanes == 2 ? 1 : 3;
                size_t m = 0, n = 0;
                for (uint32_t i = 0; i < lanes; ++i) {
                    for (const char* name : kFields) {
                        const uint16_t off = rc::reg(name);
                        if (!vt[first + i]->state.written(off)) continue;
                        ++n;
                        m += vt[first + i]->state.get(off) == mt[i].state.get(off);
                    }
                }
                // The split the vendor chose: K when its lanes differ in WEIGHT_KERNELS.
                const bool vendor_k = vt[first]->state.get(rc::reg("CNA_WEIGHT_SIZE2")) != vt[0]->state.get(rc::reg("CNA_WEIGHT_SIZE2"));
                const bool ours_k = lt.split == npurun::npu::LaneSplit::Kernels;
                mc_split_match += vendor_k == ours_k;
                mc_match += m, mc_fields += n;
                std::printf("%-32s %u cores: vendor by %s, ours by %s: %3zu/%3zu fields match\n", f.c_str(), lanes,
                            vendor_k ? "K" : "rows", ours_k ? "K" : "rows", m, n);
            }
        }
        ++shapes;
        if (match == fields && vt.size() == ot.size()) ++exact_shapes;
        total_match += match;
        total_fields += fields;
        std::printf("%-32s %-36s vendor %2zu conv tasks, ours %2zu: %3zu/%3zu fields match (%5.1f%%)%s\n", f.c_str(),
                    v.summary().substr(0, 36).c_str(), vt.size(), ot.size(), match, fields,
                    fields ? 100.0 * double(match) / double(fields) : 0.0, diffs.c_str());
    }
    std::printf("OVERALL: %zu shapes, %zu with identical task count and fields; %zu/%zu field values match (%.1f%%)\n",
                shapes, exact_shapes, total_match, total_fields, 100.0 * double(total_match) / double(total_fields));
    // Regression guard at the level reached (91.2% when written, 94.0% with the vendor's depthwise channel
    // slices): the remaining differences are explained in runtime/npu/README.md (FEATURE_GRAINS rule
    // unknown, output plane alignment).
    EXPECT_GE(100.0 * double(total_match) / double(total_fields), 93.5);
    std::printf("MULTI-CORE: %zu 2/3-core vendor task sets, %zu comparable (one task per lane), split (K or rows) as the "
                "vendor's in %zu; %zu/%zu field values match (%.1f%%)\n",
                mc_sets, mc_comparable, mc_split_match, mc_match, mc_fields,
                mc_fields ? 100.0 * double(mc_match) / double(mc_fields) : 0.0);
    std::printf("SINGLE-CORE: %zu vendor single-core task sets identified, %zu with our task count; over all their tasks "
                "%zu/%zu field values match (%.1f%%); differing:",
                single.sets, single.same_count, single.match, single.fields, single.percent());
    for (const auto& [name, n] : single.mismatch) std::printf(" %s:%zu", name.c_str(), n);
    std::printf("\n");
    // Every single-core set is tiled into as many tasks as the vendor's (39 of 42 before the vendor's
    // depthwise channel slices); the field values of all their tasks at the level reached (90.8%).
    EXPECT_EQ(single.same_count, single.sets);
    EXPECT_GE(single.percent(), 90.5);
    std::printf("fields differing most often:");
    for (const auto& [name, n] : field_mismatch) std::printf(" %s:%zu", name.c_str(), n);
    std::printf("\n");
}
