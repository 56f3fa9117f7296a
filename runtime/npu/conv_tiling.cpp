#include "runtime/npu/conv_tiling.h"

#include <algorithm>

#include "runtime/passes/npu_limits.h"

namespace npurun::npu {

namespace {
constexpr uint64_t kBankBytes = npu_limits::kCbufBankBytes;
constexpr uint32_t kBanks = npu_limits::kCbufBanks;
uint32_t ceil_div(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }
}  // namespace

namespace {

// Most output channels one task can produce: the DPU/WDMA/DPU_RDMA cube channel fields hold 13 bits
// (value - 1, reference §9.1), so K tiles are at most 8192 channels (a multiple of both weight groups).
constexpr uint32_t kMaxChannelsPerTask = npu_limits::kCubeMaxDim;

uint32_t kernel_group(const ConvLayer& L) { return L.elem_bytes() == 1 ? 32 : 16; }

// The CBUF split and row tiling of one slice: `ca` input channels, `kernels` output kernels per task and
// `rows` output rows to cover (the whole layer or a lane's range).
bool plan_slice(const ConvLayer& L, uint32_t ca, uint32_t kernels, uint32_t rows, ConvTiling* out, std::string* why) {
    const uint64_t bpe = L.elem_bytes();
    const uint64_t per_kernel = uint64_t{L.kw} * L.kh * ca * bpe;
    const uint64_t row_bytes = uint64_t{L.w} * ca * bpe;
    const uint32_t wb_min = std::max(1u, ceil_div(per_kernel, kBankBytes));
    if (wb_min > kBanks - 1) {
        *why = "one kernel (" + std::to_string(per_kernel) + " bytes) exceeds 11 CBUF banks";
        return false;
    }
    ConvTiling t = *out;
    const uint64_t slice_weights = L.depthwise ? per_kernel : per_kernel * kernels;
    // The whole input resident: as many data banks as it needs, every other bank for weights (the
    // vendor's rule: it reproduces CBUF_CON0 of every untiled vendor capture, e.g. 384x10x10 fp16 ->
    // 3 data / 9 weight banks). Weights larger than their banks are streamed through them (the vendor
    // does it too: 1x1 1024->1024 fp16 on 7x7, 2 MiB of weights in one task with 8 weight banks).
    const uint32_t db_all = std::max(1u, ceil_div(row_bytes * L.h, kBankBytes));
    if (db_all + wb_min <= kBanks) {
        t.data_banks = db_all, t.weight_banks = kBanks - db_all, t.rows_per_task = rows, t.tasks = 1;
        t.weight_reuse = slice_weights <= uint64_t{t.weight_banks} * kBankBytes;
        *out = t;
        return true;
    }
    // Rows must be split. Keep all of the slice's weights resident when that still leaves room for a
    // kernel's height of input rows (then later tiles reuse them), else give the data the most banks.
    const uint32_t wb_all = std::max(1u, ceil_div(slice_weights, kBankBytes));
    const bool resident = wb_all <= kBanks - 1 && (kBanks - wb_all) * kBankBytes / row_bytes >= L.span_h();
    t.weight_banks = resident ? wb_all : wb_min;
    t.data_banks = kBanks - t.weight_banks;
    t.weight_reuse = resident;
    const uint64_t max_in_rows = t.data_banks * kBankBytes / row_bytes;
    if (max_in_rows < L.span_h()) {
        *why = "one output row needs " + std::to_string(uint64_t{L.span_h()} * row_bytes) +
               " bytes of input, more than " + std::to_string(t.data_banks) + " CBUF data banks";
        return false;
    }
    t.rows_per_task = std::min<uint32_t>(rows, static_cast<uint32_t>((max_in_rows - L.span_h()) / L.sy + 1));
    t.tasks = ceil_div(rows, t.rows_per_task);
    *out = t;
    return true;
}

// Channels per task of a depthwise layer whose whole input does not fit the CBUF: the most whole weight
// groups (64 bytes of channels: 32 fp16, 64 int8) whose full-height input planes and weights fit the 12
// banks together. This is the vendor's rule, read off its depthwise captures (tests/npu/fidelity_test.cpp):
// 576x20x20 fp16 -> 448 + 128 channels (448 planes of 800 bytes = 11 banks), 576x19x19 -> 480 + 96,
// 256x28x28 -> 224 + 32, and 32 when not even two groups fit (128x56x56, 144x75x75, 96x112x112: then
// also split by rows). One task per slice instead of row tiles also fetches no halo rows twice.
uint32_t depthwise_channels_per_task(const ConvLayer& L) {
    const uint64_t bpe = L.elem_bytes();
    const uint32_t group = static_cast<uint32_t>(64 / bpe);
    const uint64_t plane = uint64_t{L.w} * L.h * bpe, taps = uint64_t{L.kw} * L.kh;
    for (uint32_t per = L.ca / group * group; per > group; per -= group) {
        const uint32_t db = std::max(1u, ceil_div(plane * per, kBankBytes));
        const uint32_t wb = std::max(1u, ceil_div(taps * per * bpe, kBankBytes));
        if (db + wb <= kBanks) return per;
    }
    return std::min(group, L.ca);
}

}  // namespace

InputWindow input_window(const ConvLayer& L, uint32_t oy0, uint32_t rows) {
    const int64_t iy_start = int64_t(oy0) * L.sy - L.pad_top;
    const int64_t iy_end = int64_t(oy0 + rows - 1) * L.sy - L.pad_top + L.span_h();
    InputWindow w;
    w.pad_top = iy_start < 0 ? static_cast<uint32_t>(-iy_start) : 0;
    w.iy0 = static_cast<uint32_t>(std::max<int64_t>(iy_start, 0));
    w.iy1 = static_cast<uint32_t>(std::min<int64_t>(iy_end, L.h));
    return w;
}

std::pair<uint32_t, uint32_t> lane_range(const ConvLayer& L, const ConvTiling& t, uint32_t lane) {
    const uint32_t lanes = std::max(1u, t.lanes);
    const uint32_t unit = t.split == LaneSplit::Kernels ? kernel_group(L) : 1;
    const uint32_t total = t.split == LaneSplit::Kernels ? L.k : L.ho;
    const uint32_t units = ceil_div(total, unit);
    const uint32_t base = units / lanes, extra = units % lanes;
    const uint32_t u0 = lane * base + std::min(lane, extra), n = base + (lane < extra ? 1 : 0);
    const uint32_t begin = std::min(total, u0 * unit);
    return {begin, std::min(total, (u0 + n) * unit) - begin};
}

bool plan_conv_tiling(const ConvLayer& L, ConvTiling* out, std::string* why, const TilingRequest& req) {
    ConvTiling t;
    const uint32_t KG = kernel_group(L);
    // K tile: all kernels unless the cube channel field or the caller asks for fewer.
    uint32_t kcap = L.depthwise ? 0 : std::min(L.k, kMaxChannelsPerTask);
    if (!L.depthwise && req.max_kernels_per_task != 0)
        kcap = std::min(kcap, std::max(KG, req.max_kernels_per_task / KG * KG));
    // Lanes: every lane reads the weights it needs and the input rows it needs, so a split by K fetches the
    // input once per lane and the weights once, a split by rows the weights once per lane and the input
    // (nearly) once: by K when the weights are the larger operand and there is a weight group per lane,
    // else by rows; never more lanes than there is work for. Units (weight groups or rows) are dealt out
    // evenly, the first lanes taking one more (the vendor's 1024 -> 352+336+336 fp16, 10 rows -> 4+3+3).
    // Measured against the vendor's 2- and 3-core task sets in tests/npu/fidelity_test.cpp.
    uint32_t rows = L.ho;
    const uint32_t want = std::min(3u, std::max(1u, req.lanes));
    if (want > 1) {
        const uint64_t in_bytes = uint64_t{L.w} * L.h * L.ca * L.elem_bytes();
        const uint64_t w_bytes = uint64_t{L.kw} * L.kh * L.ca * L.elem_bytes() * L.k;
        const bool k_possible = !L.depthwise && ceil_div(L.k, KG) >= want;
        if (k_possible && (L.ho < want || (!req.rows_only && w_bytes >= in_bytes))) {
            t.split = LaneSplit::Kernels, t.lanes = want;
            kcap = std::min(kcap, lane_range(L, t, 0).second);  // lane 0 is the largest
        } else if (L.ho >= want) {
            t.split = LaneSplit::Rows, t.lanes = want;
            rows = lane_range(L, t, 0).second;
        }
        if (t.lanes < 2) t.split = LaneSplit::None, t.lanes = 1;
    }
    if (!L.depthwise) t.kernels_per_task = kcap < L.k ? kcap : 0;

    if (!plan_slice(L, L.ca, L.depthwise ? 1 : kcap, rows, &t, why)) return false;
    if (L.depthwise && t.tasks > 1) {
        const uint32_t per = depthwise_channels_per_task(L);
        if (per < L.ca) {
            if (!plan_slice(L, per, 1, rows, &t, why)) return false;
            t.channels_per_task = per;
        }
    }
    // Both K and row tiles: keep resident whichever costs fewer fetched bytes.
    if (!L.depthwise && t.kernels_per_task != 0 && t.rows_per_task < rows) {
        const uint64_t in_bytes = uint64_t{L.w} * L.h * L.ca * L.elem_bytes();
        const uint64_t w_bytes = uint64_t{L.kw} * L.kh * L.ca * L.elem_bytes() * L.k;
        const uint64_t nk = ceil_div(L.k, t.kernels_per_task), nr = ceil_div(rows, t.rows_per_task);
        const uint64_t k_outer = nk * in_bytes + (t.weight_reuse ? w_bytes : nr * w_bytes);
        const uint64_t r_outer = in_bytes + nr * w_bytes;
        t.rows_outer = r_outer < k_outer;
    }
    t.tasks = static_cast<uint32_t>(conv_tiles(L, t).size());
    *out = t;
    return true;
}

std::vector<ConvTile> conv_tiles(const ConvLayer& L, const ConvTiling& t) {
    std::vector<ConvTile> tiles;
    const uint32_t lanes = std::max(1u, t.lanes);
    const uint32_t rstep = std::max(1u, t.rows_per_task);
    const uint32_t cstep = (L.depthwise && t.channels_per_task) ? t.channels_per_task : L.ca;
    for (uint32_t lane = 0; lane < lanes; ++lane) {
        uint32_t r0 = 0, r1 = L.ho, kl0 = 0, kl1 = L.depthwise ? 0 : L.k;
        const std::pair<uint32_t, uint32_t> range = lane_range(L, t, lane);
        if (t.split == LaneSplit::Rows) {
            r0 = range.first, r1 = range.first + range.second;
        } else if (t.split == LaneSplit::Kernels) {
            kl0 = range.first, kl1 = range.first + range.second;
        }
        const uint32_t kstep = t.kernels_per_task ? t.kernels_per_task : std::max(1u, kl1 - kl0);
        const size_t first = tiles.size();
        auto add = [&](uint32_t c0, uint32_t k0, uint32_t kt, uint32_t oy0) {
            ConvTile x;
            x.lane = lane;
            x.c0 = c0, x.ca = std::min(cstep, L.ca - c0);
            x.k0 = k0, x.kt = kt;
            x.oy0 = oy0, x.rows = std::min(rstep, r1 - oy0);
            if (tiles.size() > first) {
                const ConvTile& p = tiles.back();
                const InputWindow a = input_window(L, p.oy0, p.rows), b = input_window(L, x.oy0, x.rows);
                const bool same_input = p.c0 == x.c0 && a.iy0 == b.iy0 && a.iy1 == b.iy1;
                x.weight_reuse = t.weight_reuse && p.c0 == x.c0 && p.k0 == x.k0 && p.kt == x.kt;
                x.data_reuse = same_input && !x.weight_reuse;
            }
            tiles.push_back(x);
        };
        if (r0 >= r1) continue;
        for (uint32_t c0 = 0; c0 < L.ca; c0 += cstep) {
            if (L.depthwise) {
                for (uint32_t oy0 = r0; oy0 < r1; oy0 += rstep) add(c0, c0, std::min(cstep, L.ca - c0), oy0);
            } else if (t.rows_outer) {
                for (uint32_t oy0 = r0; oy0 < r1; oy0 += rstep)
                    for (uint32_t k0 = kl0; k0 < kl1; k0 += kstep) add(c0, k0, std::min(kstep, kl1 - k0), oy0);
            } else {
                for (uint32_t k0 = kl0; k0 < kl1; k0 += kstep)
                    for (uint32_t oy0 = r0; oy0 < r1; oy0 += rstep) add(c0, k0, std::min(kstep, kl1 - k0), oy0);
            }
        }
    }
    return tiles;
}

}  // namespace npurun::npu
