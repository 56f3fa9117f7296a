#include "runtime/npu/pool_layer.h"

#include "runtime/npu/feature_layout.h"
#include "runtime/passes/npu_limits.h"

namespace npurun::npu {

// Register types and field handles generated from the register table: CNA_CONV_CON1::CONV_MODE(3).
using namespace npudrv::regcmd::regs;

Refusal prepare_pool_layer(const Graph& g, const Node& node, NpuDomain d, PoolLayer* out) {
    std::string why_text;  // what the helpers below report
    std::string* why = &why_text;
    if (node.op != OpKind::Pooling2d) {
        return Refusal::because("not a Pooling2d");
    }
    const auto& a = node.attr<Pooling2dAttrs>();
    if (a.layout != DataLayout::NHWC) {
        return Refusal::because("NCHW pooling is not lowered (NHWC only)");
    }
    if (a.algorithm != PoolingAlgorithm::Max && a.algorithm != PoolingAlgorithm::Average) {
        return Refusal::because("only Max and Average pooling are lowered");
    }
    const TensorInfo& xi = g.info(node.inputs[0]);
    const TensorInfo& yi = g.info(node.outputs[0]);
    FeatureGeometry gi, go;
    if (!feature_geometry(xi, d, &gi, why) || !feature_geometry(yi, d, &go, why)) return Refusal::because(why_text);
    if (gi.c != go.c) {
        return Refusal::because("pooling changes the channel count");
    }
    if (d == NpuDomain::Int8 && (xi.quant.scale() != yi.quant.scale() || xi.quant.offset != yi.quant.offset ||
                                 xi.dtype != yi.dtype)) {
        return Refusal::because("input and output quantization differ (the PPU does not requantize)");
    }
    PoolLayer L;
    L.domain = d;
    L.max = a.algorithm == PoolingAlgorithm::Max;
    L.c = gi.c, L.h = gi.h, L.w = gi.w, L.ho = go.h, L.wo = go.w;
    const bool global = a.stride_x == 0 && a.stride_y == 0;
    L.kw = a.pool_width;
    L.kh = a.pool_height;
    if (global && (L.kw != gi.w || L.kh != gi.h)) {
        return Refusal::because("global pooling with a kernel other than the input plane");
    }
    L.sx = global ? 1 : a.stride_x;
    L.sy = global ? 1 : a.stride_y;
    L.pad_left = a.pad_left, L.pad_right = a.pad_right, L.pad_top = a.pad_top, L.pad_bottom = a.pad_bottom;
    // A whole-plane pool above 16 runs as passes of smaller windows (global_pool_passes).
    const bool whole_plane = L.kw == gi.w && L.kh == gi.h && L.ho == 1 && L.wo == 1;
    const bool splits =
        whole_plane && npu_limits::global_pool_passes(L.h).possible && npu_limits::global_pool_passes(L.w).possible;
    if (!splits && (L.kw < 1 || L.kh < 1 || L.kw > 16 || L.kh > 16 || L.sx > 16 || L.sy > 16 || L.sx < 1 || L.sy < 1)) {
        return Refusal::because("kernel or stride outside the PPU's 4-bit fields");
    }
    if (L.pad_left >= L.kw || L.pad_right >= L.kw || L.pad_top >= L.kh || L.pad_bottom >= L.kh || L.pad_left > 7 ||
        L.pad_right > 7 || L.pad_top > 7 || L.pad_bottom > 7) {
        return Refusal::because("padding not below the kernel or above 7");
    }
    if (L.w + L.pad_left + L.pad_right < L.kw || L.h + L.pad_top + L.pad_bottom < L.kh ||
        (L.w + L.pad_left + L.pad_right - L.kw) / L.sx + 1 != L.wo ||
        (L.h + L.pad_top + L.pad_bottom - L.kh) / L.sy + 1 != L.ho) {
        return Refusal::because("output size is not the floor-rounded pooling size");
    }
    if (!L.max && a.padding_method == PaddingMethod::Exclude &&
        (L.pad_left || L.pad_right || L.pad_top || L.pad_bottom)) {
        return Refusal::because("average pooling excluding padding from the divisor (the PPU counts padding)");
    }
    if (L.c > npu_limits::kCubeMaxDim || L.h > npu_limits::kCubeMaxDim || L.w > npu_limits::kCubeMaxDim) {
        return Refusal::because("cube above " + std::to_string(npu_limits::kCubeMaxDim) + " (13-bit fields)");
    }
    if (d == NpuDomain::Int8) {
        const int32_t zs = xi.dtype == DataType::QAsymmU8 ? xi.quant.offset - 128 : xi.quant.offset;
        const int64_t pv = L.max ? -128 : zs;
        // The pad value spans PAD_VALUE_0 (32 bits) and PAD_VALUE_1 (3 bits): two's complement in 35 bits.
        constexpr unsigned kPadBits = PPU_PADDING_VALUE_1_CFG::PAD_VALUE_0.width() + PPU_PADDING_VALUE_2_CFG::PAD_VALUE_1.width();
        L.pad_value = static_cast<uint64_t>(pv) & ((uint64_t{1} << kPadBits) - 1);
    } else {
        L.pad_value = L.max ? 0xFC00u : 0u;  // -inf / +0 in fp16
    }
    *out = L;
    return {};
}

std::vector<PoolLayer> global_pool_passes(const PoolLayer& L) {
    const bool global = L.ho == 1 && L.wo == 1 && L.kh == L.h && L.kw == L.w && L.pad_left + L.pad_right + L.pad_top + L.pad_bottom == 0;
    const npu_limits::GlobalPoolPasses ph = npu_limits::global_pool_passes(L.h),
                                       pw = npu_limits::global_pool_passes(L.w);
    if (!global || !ph.possible || !pw.possible || (ph.count == 0 && pw.count == 0)) return {L};
    std::vector<PoolLayer> passes;
    PoolLayer p = L;  // p.h x p.w: what the next pass reads
    for (uint32_t i = 0; i < std::max(ph.count, pw.count); ++i) {
        const uint32_t kh = i < ph.count ? ph.window[i] : 1, kw = i < pw.count ? pw.window[i] : 1;
        p.kh = p.sy = kh, p.kw = p.sx = kw;
        p.ho = p.h / kh, p.wo = p.w / kw;
        passes.push_back(p);
        p.h = p.ho, p.w = p.wo;
    }
    p.kh = p.h, p.kw = p.w, p.sx = p.sy = 1, p.ho = p.wo = 1;
    passes.push_back(p);
    return passes;
}

void emit_pool_task(npudrv::regcmd::RegcmdWriter& w, const PoolLayer& L, uint32_t input, uint32_t output) {
    const uint32_t prec = L.domain == NpuDomain::Int8 ? 0 : 2;
    w.begin_task(npudrv::regcmd::TaskKind::PpuFlying);
    w.write({PPU_S_POINTER::POINTER_PP_MODE(1), PPU_S_POINTER::EXECUTER_PP_EN(1), PPU_S_POINTER::POINTER_PP_EN(1)});
    w.write({PPU_RDMA_S_POINTER::POINTER_PP_MODE(1), PPU_RDMA_S_POINTER::EXECUTER_PP_EN(1),
             PPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
    w.write({PPU_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH(L.w - 1)});
    w.write({PPU_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT(L.h - 1)});
    w.write({PPU_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL(L.c - 1)});
    w.write({PPU_DATA_CUBE_OUT_WIDTH::CUBE_OUT_WIDTH(L.wo - 1)});
    w.write({PPU_DATA_CUBE_OUT_HEIGHT::CUBE_OUT_HEIGHT(L.ho - 1)});
    w.write({PPU_DATA_CUBE_OUT_CHANNEL::CUBE_OUT_CHANNEL(L.c - 1)});
    w.write({PPU_OPERATION_MODE_CFG::FLYING_MODE(1), PPU_OPERATION_MODE_CFG::POOLING_METHOD(L.max ? 1u : 0u)});
    w.write({PPU_POOLING_KERNEL_CFG::KERNEL_STRIDE_HEIGHT(L.sy - 1),
             PPU_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH(L.sx - 1), PPU_POOLING_KERNEL_CFG::KERNEL_HEIGHT(L.kh - 1),
             PPU_POOLING_KERNEL_CFG::KERNEL_WIDTH(L.kw - 1)});
    // Average: 65536/k per axis (the RK3568 vendor encoding, reference §8.2), rounded.
    w.write({PPU_RECIP_KERNEL_WIDTH::RECIP_KERNEL_WIDTH(L.max ? 0u : (65536u + L.kw / 2) / L.kw)});
    w.write({PPU_RECIP_KERNEL_HEIGHT::RECIP_KERNEL_HEIGHT(L.max ? 0u : (65536u + L.kh / 2) / L.kh)});
    // All four paddings are written together (the RK3568 port found the PPU stalls otherwise).
    w.write({PPU_POOLING_PADDING_CFG::PAD_BOTTOM(L.pad_bottom), PPU_POOLING_PADDING_CFG::PAD_RIGHT(L.pad_right),
             PPU_POOLING_PADDING_CFG::PAD_TOP(L.pad_top), PPU_POOLING_PADDING_CFG::PAD_LEFT(L.pad_left)});
    w.write({PPU_PADDING_VALUE_1_CFG::PAD_VALUE_0(static_cast<uint32_t>(L.pad_value))});
    w.write({PPU_PADDING_VALUE_2_CFG::PAD_VALUE_1(static_cast<uint32_t>(L.pad_value >> 32) & PPU_PADDING_VALUE_2_CFG::PAD_VALUE_1.max_value())});
    w.write({PPU_DST_BASE_ADDR::DST_BASE_ADDR(output >> 4)});
    w.write({PPU_DST_SURF_STRIDE::DST_SURF_STRIDE(L.wo * L.ho)});
    w.write({PPU_DATA_FORMAT::PROC_PRECISION(prec)});
    w.write({PPU_MISC_CTRL::BURST_LEN(3)});
    w.write({PPU_RDMA_CUBE_IN_WIDTH::CUBE_IN_WIDTH(L.w - 1)});
    w.write({PPU_RDMA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT(L.h - 1)});
    w.write({PPU_RDMA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL(L.c - 1)});
    w.write({PPU_RDMA_SRC_BASE_ADDR::SRC_BASE_ADDR(input)});
    w.write({PPU_RDMA_SRC_LINE_STRIDE::SRC_LINE_STRIDE(L.w)});
    w.write({PPU_RDMA_SRC_SURF_STRIDE::SRC_SURF_STRIDE(L.w * L.h)});
    w.write({PPU_RDMA_DATA_FORMAT::IN_PRECISION(prec == 0 ? 1u : 2u)});
}

}  // namespace npurun::npu
