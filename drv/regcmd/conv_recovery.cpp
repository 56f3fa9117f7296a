#include "drv/regcmd/conv_recovery.h"

#include "drv/regcmd/fields.h"

#include <algorithm>
#include <optional>
#include <sstream>

namespace npudrv::regcmd {

namespace {

uint32_t c2_of(uint32_t precision) {
    switch (precision) {
        case 0: return 16;  // int8
        case 1:
        case 2:
        case 3: return 8;   // 16-bit types
        default: return 4;  // 32-bit types
    }
}

template <typename T>
std::optional<T> first_known(std::initializer_list<std::optional<T>> l) {
    for (const auto& v : l) {
        if (v) return v;
    }
    return std::nullopt;
}

}  // namespace

std::string RecoveredConv::summary() const {
    std::ostringstream os;
    os << (depthwise ? "dw conv " : "conv ") << kernel_w << "x" << kernel_h << " s" << stride_x << " pad l" << pad_left
       << " t" << pad_top << " r" << pad_right << " b" << pad_bottom << ", in " << in_channels << "x" << in_height << "x"
       << in_width << " " << precision_name(precision) << ", out " << out_channels << "x" << out_height << "x" << out_width
       << ", " << conv_tasks << " conv tasks";
    if (!inferred.empty()) {
        os << " (inferred:";
        for (const auto& s : inferred) os << " " << s << ";";
        os << ")";
    }
    return os.str();
}

namespace {

// One conv task's shape as captured.
struct TaskShape {
    uint32_t w, h, c, wo, ho, co;
    std::optional<uint32_t> feat, dst;
};

// What the capture shows: the tasks with a complete shape, the facts pooled over all conv tasks (for partial
// captures where no task has a complete set), and the first value seen of every other field.
struct CapturedFacts {
    std::vector<TaskShape> ts;
    std::optional<uint32_t> any_w, any_h, any_c, any_wo, any_ho, any_co;
    std::optional<uint32_t> kw, kh, sx, sy, pl, pt, prec, dw, line, surf, dst_stride, out_prec;
};

CapturedFacts gather_facts(const std::vector<DecodedTask>& tasks) {
    CapturedFacts cf;
    using T = TaskShape;
    auto& ts = cf.ts;
    auto& any_w = cf.any_w; auto& any_h = cf.any_h; auto& any_c = cf.any_c;
    auto& any_wo = cf.any_wo; auto& any_ho = cf.any_ho; auto& any_co = cf.any_co;
    auto& kw = cf.kw; auto& kh = cf.kh; auto& sx = cf.sx; auto& sy = cf.sy; auto& pl = cf.pl; auto& pt = cf.pt;
    auto& prec = cf.prec; auto& dw = cf.dw; auto& line = cf.line; auto& surf = cf.surf;
    auto& dst_stride = cf.dst_stride; auto& out_prec = cf.out_prec;
    auto pool = [](std::optional<uint32_t>& acc, std::optional<uint32_t> v) {
        if (v) acc = std::max(acc.value_or(0), *v);
    };
    for (const DecodedTask& d : tasks) {
        const uint32_t en = d.op_en ? *d.op_en : d.descriptor_enable_mask;
        if (!(en & kEnCna)) continue;
        const RegisterState& s = d.state;
        T t{};
        const auto w = first_known({s.known(f::CNA_IN_WIDTH), s.known(f::CNA_DMA_WIDTH)});
        const auto h = first_known({s.known(f::CNA_IN_HEIGHT), s.known(f::CNA_DMA_HEIGHT)});
        const auto c = first_known({s.known(f::CNA_IN_CHANNEL), s.known(f::CNA_DMA_CHANNEL)});
        auto inc = [](std::optional<uint32_t> v) { return v ? std::optional<uint32_t>(*v + 1) : std::nullopt; };
        const auto wo = first_known({inc(s.known(f::CORE_OUT_WIDTH)), inc(s.known(f::DPU_WIDTH_WDMA))});
        const auto ho = first_known({inc(s.known(f::CORE_OUT_HEIGHT)), inc(s.known(f::DPU_HEIGHT_WDMA)), inc(s.known(f::DPU_HEIGHT))});
        const auto co = first_known({inc(s.known(f::DPU_ORIG_CHANNEL)), inc(s.known(f::CORE_OUT_CHANNEL)), inc(s.known(f::DPU_CHANNEL_WDMA))});
        pool(any_w, w);
        pool(any_h, h);
        pool(any_c, c);
        pool(any_wo, wo);
        pool(any_ho, ho);
        pool(any_co, co);
        if (!kw) kw = s.known(f::CNA_WEIGHT_WIDTH);
        if (!kh) kh = s.known(f::CNA_WEIGHT_HEIGHT);
        if (!sx) sx = s.known(f::CNA_STRIDE_X);
        if (!sy) sy = s.known(f::CNA_STRIDE_Y);
        if (s.known(f::CNA_PAD_LEFT)) pl = std::max(pl.value_or(0), s.get(f::CNA_PAD_LEFT));
        if (s.known(f::CNA_PAD_TOP)) pt = std::max(pt.value_or(0), s.get(f::CNA_PAD_TOP));
        if (!prec) prec = first_known({s.known(f::CNA_PROC_PRECISION), s.known(f::CORE_PROC_PRECISION)});
        if (!out_prec) out_prec = s.known(f::DPU_OUT_PRECISION);
        if (!dw) {
            if (auto m = s.known(f::CNA_CONV_MODE)) {
                dw = (*m == 3) ? 1u : 0u;
            } else if (auto e = s.known(f::CORE_DW_EN)) {
                dw = *e;
            }
        }
        if (!line) line = s.known(f::CNA_LINE_STRIDE);
        if (!surf) surf = s.known(f::CNA_SURF_STRIDE);
        if (!dst_stride) dst_stride = s.known(regs::DPU_DST_SURF_STRIDE::offset);
        if (!w || !h || !c || !wo || !ho || !co) continue;  // too little of this task was captured
        t.w = *w;
        t.h = *h;
        t.c = *c;
        t.wo = *wo;
        t.ho = *ho;
        t.co = *co;
        t.feat = s.known(f::CNA_FEATURE_ADDR);
        t.dst = s.known(f::DPU_DST_BASE);
        ts.push_back(t);
    }
    return cf;
}

}  // namespace

RecoveredConv recover_conv(const std::vector<DecodedTask>& tasks) {
    RecoveredConv r;
    using T = TaskShape;
    CapturedFacts cf = gather_facts(tasks);
    auto& ts = cf.ts;
    const auto &any_w = cf.any_w, &any_h = cf.any_h, &any_c = cf.any_c, &any_wo = cf.any_wo, &any_ho = cf.any_ho,
               &any_co = cf.any_co;
    const auto &kw = cf.kw, &kh = cf.kh, &sx = cf.sx, &sy = cf.sy, &pl = cf.pl, &pt = cf.pt, &prec = cf.prec, &dw = cf.dw,
               &line = cf.line, &surf = cf.surf, &dst_stride = cf.dst_stride, &out_prec = cf.out_prec;
    bool pooled = false;
    if (ts.empty()) {
        // Partial capture: no single task shows a complete shape. Combine what the tasks show.
        if (!any_w || !any_h || !any_c || !any_wo || !any_ho || !any_co) return r;
        ts.push_back(T{*any_w, *any_h, *any_c, *any_wo, *any_ho, *any_co, std::nullopt, std::nullopt});
        r.inferred.push_back("shape pooled from the registers captured in different tasks");
        pooled = true;
    }
    r.conv_tasks = pooled ? 0 : ts.size();
    r.depthwise = dw.value_or(0) != 0;
    if (!dw) r.inferred.push_back("direct (conv mode not captured)");
    r.precision = prec.value_or(2);
    if (!prec) r.inferred.push_back("precision");
    const uint32_t c2_in = c2_of(r.precision);
    const uint32_t c2_out = c2_of(out_prec.value_or(r.precision));
    r.in_width = ts[0].w;
    r.out_width = ts[0].wo;

    // Input plane pitch: (SURF_STRIDE + LINE_STRIDE) * 16 bytes, mod 2^28 units (reference §6.1).
    std::optional<uint64_t> in_pitch;
    if (surf) {
        uint32_t l = 0;
        if (line) {
            l = *line;
        } else {
            l = 4 * r.in_width;  // vendor/Mesa/MTX convention LINE_STRIDE = 4*W
            r.inferred.push_back("input line stride 4*W (DMA_CON1 not captured)");
        }
        in_pitch = uint64_t{(*surf + l) & 0x0FFFFFFFu} * 16;
    }
    std::optional<uint32_t> in_base, out_base;
    for (const T& t : ts) {
        if (t.feat) in_base = std::min(in_base.value_or(*t.feat), *t.feat);
        if (t.dst) out_base = std::min(out_base.value_or(*t.dst), *t.dst);
    }
    const uint64_t in_row = uint64_t{r.in_width} * 16;
    const uint64_t out_row = uint64_t{r.out_width} * 16;
    for (const T& t : ts) {
        uint64_t plane = 0, row = 0;
        if (in_pitch && *in_pitch && t.feat && in_base) {
            const uint64_t off = *t.feat - *in_base;
            plane = off / *in_pitch;
            row = (off % *in_pitch) / in_row;
        }
        r.in_channels = std::max<uint32_t>(r.in_channels, r.depthwise ? static_cast<uint32_t>(plane * c2_in + t.c) : t.c);
        r.in_height = std::max<uint32_t>(r.in_height, static_cast<uint32_t>(row + t.h));
        uint64_t oplane = 0, orow = 0;
        if (dst_stride && *dst_stride && t.dst && out_base) {
            const uint64_t off = *t.dst - *out_base;
            oplane = off / *dst_stride;
            orow = (off % *dst_stride) / out_row;
        }
        r.out_channels = std::max<uint32_t>(r.out_channels, static_cast<uint32_t>(oplane * c2_out + t.co));
        r.out_height = std::max<uint32_t>(r.out_height, static_cast<uint32_t>(orow + t.ho));
    }
    if (in_pitch && *in_pitch) {
        r.in_height = std::max<uint32_t>(r.in_height, static_cast<uint32_t>(*in_pitch / in_row));
    } else {
        r.inferred.push_back("input height from the tasks' rows (no surface stride)");
    }
    r.pad_left = static_cast<int>(pl.value_or(0));
    r.pad_top = static_cast<int>(pt.value_or(0));
    if (!pl || !pt) r.inferred.push_back("left/top padding 0 (PAD_CON0 not captured)");
    // Kernel, then stride, then right/bottom padding (implied by the sizes on the hardware).
    if (kw && kh) {
        r.kernel_w = *kw;
        r.kernel_h = *kh;
    } else {
        // From the x dimension (width, output width and left pad are registers), symmetric padding,
        // stride 1 unless captured, square kernel.
        const uint32_t s = sx.value_or(1);
        const long k = static_cast<long>(r.in_width) + 2 * r.pad_left - static_cast<long>(r.out_width - 1) * s;
        if (k < 1) return r;
        r.kernel_w = r.kernel_h = static_cast<uint32_t>(k);
        r.inferred.push_back("kernel from the widths, symmetric padding, square (WEIGHT_SIZE2 not captured)");
        if (!(in_pitch && *in_pitch)) {
            const uint32_t from_out = (r.out_height - 1) * sy.value_or(s) + r.kernel_h - 2 * static_cast<uint32_t>(r.pad_top);
            if (from_out > r.in_height) {
                r.in_height = from_out;
                r.inferred.push_back("input height from the output height");
            }
        }
    }
    auto infer_stride = [&](uint32_t in, uint32_t out, uint32_t k, int plo) -> uint32_t {
        if (out <= 1) return 1;
        for (uint32_t s = 1; s <= 7; ++s) {
            const long phi = static_cast<long>(out - 1) * s + k - in - plo;
            if (phi >= 0 && phi < static_cast<long>(k)) return s;
        }
        return 0;
    };
    if (sx && sy) {
        r.stride_x = *sx;
        r.stride_y = *sy;
    } else {
        r.stride_x = infer_stride(r.in_width, r.out_width, r.kernel_w, r.pad_left);
        r.stride_y = infer_stride(r.in_height, r.out_height, r.kernel_h, r.pad_top);
        r.inferred.push_back("stride from sizes (CONV_CON3 not captured)");
    }
    r.pad_right = static_cast<int>((r.out_width - 1) * r.stride_x + r.kernel_w) - static_cast<int>(r.in_width) - r.pad_left;
    r.pad_bottom = static_cast<int>((r.out_height - 1) * r.stride_y + r.kernel_h) - static_cast<int>(r.in_height) - r.pad_top;
    r.valid = r.stride_x > 0 && r.stride_y > 0;
    return r;
}

}  // namespace npudrv::regcmd
