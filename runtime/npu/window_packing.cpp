#include "runtime/npu/window_packing.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "drv/sim/cost_model.h"

namespace npurun::npu {

namespace cost = npudrv::sim::cost;

FeatureGeometry WindowPacking::packed() const {
    FeatureGeometry g;
    g.c = kh * kw * c, g.h = ho, g.w = wo, g.elem_bytes = elem_bytes;
    return g;
}

Refusal window_packing_refusal(const ConvLayer& L, ConvTiling* packed_tiling) {
    const uint32_t atom = 16 / L.elem_bytes();
    if (L.depthwise) return Refusal::because("depthwise: each channel has its own window");
    if (L.kh == 1 && L.kw == 1 && L.sx == 1 && L.sy == 1) return Refusal::because("a 1x1 stride-1 convolution has no window to pack");
    if (L.c >= atom)
        return Refusal::because(std::to_string(L.c) + " input channels fill the " + std::to_string(atom) + "-channel feature atom");
    const uint32_t packed = L.kh * L.kw * L.c;
    if (packed > kMaxPackedChannels)
        return Refusal::because("kh*kw*C = " + std::to_string(packed) + " exceeds " + std::to_string(kMaxPackedChannels) + " packed channels");
    ConvTiling t;
    std::string why;
    if (!plan_conv_tiling(packed_conv_layer(L), &t, &why)) return Refusal::because("the packed layer does not tile: " + why);
    if (packed_tiling) *packed_tiling = t;
    return {};
}

WindowPacking window_packing(const ConvLayer& L) {
    WindowPacking p;
    p.c = L.c, p.h = L.h, p.w = L.w;
    p.kh = L.kh, p.kw = L.kw, p.sx = L.sx, p.sy = L.sy, p.pad_left = L.pad_left, p.pad_top = L.pad_top;
    p.dx = L.dil_x, p.dy = L.dil_y;
    p.ho = L.ho, p.wo = L.wo;
    p.elem_bytes = L.elem_bytes();
    p.pad_byte = L.domain == NpuDomain::Int8 ? static_cast<uint8_t>(L.pad_value) : 0;
    return p;
}

ConvLayer packed_conv_layer(const ConvLayer& L) {
    ConvLayer P = L;
    P.c = L.kh * L.kw * L.c;
    P.h = L.ho, P.w = L.wo;
    P.kh = P.kw = P.sx = P.sy = P.dil_x = P.dil_y = 1;
    P.pad_left = P.pad_top = 0;
    const uint32_t atom = 16 / L.elem_bytes();
    P.ca = (P.c + atom - 1) / atom * atom;
    return P;  // coa, zero points, requantization and the BS stream are the same layer's
}

Refusal choose_window_packing(const ConvLayer& L, const ConvTiling& t, ConvLayer* packed, ConvTiling* packed_tiling) {
    ConvTiling pt;
    if (Refusal r = window_packing_refusal(L, &pt); r.refused()) return r;
    const ConvLayer P = packed_conv_layer(L);
    const uint64_t with = estimated_conv_cycles(P, pt), without = estimated_conv_cycles(L, t);
    if (with >= without)
        return Refusal::because("the cost model gives the packed layer " + std::to_string(with) + " cycles, the unpacked " +
                                std::to_string(without));
    *packed = P;
    *packed_tiling = pt;
    return {};
}

std::string window_packing_note(const Graph& g, const Node& node, NpuDomain d) {
    if (node.op != OpKind::Convolution2d) return "";
    ConvLayer L, P;
    ConvTiling t, pt;
    std::string why;
    if (check_conv_layer(g, node, nullptr, d, &L).refused() || !plan_conv_tiling(L, &t, &why)) return "";
    const Refusal r = choose_window_packing(L, t, &P, &pt);
    if (r.refused()) return "input windows not packed: " + r.reason();
    return "input windows packed on the host: " + std::to_string(L.kh) + "x" + std::to_string(L.kw) + "x" + std::to_string(L.c) +
           " -> " + std::to_string(P.ca) + " channels of a 1x1 conv";
}

namespace {

// Per lane, the cost model's cycles of its tiles: per tile max(issued MAC slots, DMA bytes) plus the task overhead.
std::vector<uint64_t> estimated_lane_cycles(const ConvLayer& L, const ConvTiling& t) {
    const bool fp16 = L.domain == NpuDomain::Fp16;
    const uint64_t bpe = L.elem_bytes(), taps = uint64_t{L.kh} * L.kw;
    std::vector<uint64_t> cycles(std::max(1u, t.lanes), 0);
    for (const ConvTile& x : conv_tiles(L, t)) {
        const uint64_t pixels = uint64_t{x.rows} * L.wo;
        const cost::ConvIssue issue = cost::conv_issue(pixels, taps, x.ca, x.kt, fp16, L.depthwise);
        const InputWindow win = input_window(L, x.oy0, x.rows);
        uint64_t dma = 0;
        if (!x.data_reuse) dma += uint64_t{win.iy1 - win.iy0} * L.w * x.ca * bpe;
        if (!x.weight_reuse) dma += (L.depthwise ? 1 : x.kt) * taps * x.ca * bpe;
        dma += L.coa == 0 ? 0 : L.bs_stream_bytes() * x.kt / L.coa;
        dma += pixels * ((x.kt + 15) / 16 * 16) * bpe;
        const uint64_t memory = (dma + cost::kDmaBytesPerCycle - 1) / cost::kDmaBytesPerCycle;
        cycles[std::min<size_t>(x.lane, cycles.size() - 1)] +=
            std::max(issue.compute_cycles, memory) + cost::task_overhead_cycles(0);
    }
    return cycles;
}

}  // namespace

uint64_t estimated_conv_cycles(const ConvLayer& L, const ConvTiling& t) {
    uint64_t sum = 0;
    for (uint64_t c : estimated_lane_cycles(L, t)) sum += c;
    return sum;
}

uint64_t estimated_slowest_lane_cycles(const ConvLayer& L, const ConvTiling& t) {
    uint64_t most = 0;
    for (uint64_t c : estimated_lane_cycles(L, t)) most = std::max(most, c);
    return most;
}

void pack_windows(const TensorInfo& t, const void* src, const WindowPacking& p, uint8_t* dst) {
    const FeatureGeometry g = p.packed();
    const uint32_t bpe = p.elem_bytes, atom = g.c2();
    // One output pixel's channel vector (aligned to whole atoms), then scattered to its planes.
    std::vector<uint8_t> vec(size_t(g.aligned_c()) * bpe);
    for (uint32_t oy = 0; oy < p.ho; ++oy)
        for (uint32_t ox = 0; ox < p.wo; ++ox) {
            std::fill(vec.begin(), vec.end(), uint8_t{0});
            uint8_t* v = vec.data();
            for (uint32_t ky = 0; ky < p.kh; ++ky)
                for (uint32_t kx = 0; kx < p.kw; ++kx) {
                    const int64_t iy = int64_t(oy) * p.sy - p.pad_top + int64_t(ky) * p.dy;
                    const int64_t ix = int64_t(ox) * p.sx - p.pad_left + int64_t(kx) * p.dx;
                    const bool inside = iy >= 0 && ix >= 0 && iy < int64_t(p.h) && ix < int64_t(p.w);
                    if (inside)
                        store_npu_elements(t, src, (size_t(iy) * p.w + size_t(ix)) * p.c, p.c, v);
                    else if (bpe == 1)
                        std::memset(v, p.pad_byte, p.c);  // fp16 padding stays +0.0
                    v += size_t(p.c) * bpe;
                }
            const size_t pixel = size_t(oy) * p.wo + ox;
            for (uint32_t plane = 0; plane < g.planes(); ++plane)
                std::memcpy(dst + plane * g.plane_bytes() + pixel * 16, vec.data() + size_t(plane) * atom * bpe, 16);
        }
}

}  // namespace npurun::npu
