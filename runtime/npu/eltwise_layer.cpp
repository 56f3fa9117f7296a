#include "runtime/npu/eltwise_layer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/npu/constant_broadcast.h"
#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/passes/npu_limits.h"
#include "core/error.h"
#include "core/quantization.h"

namespace npurun::npu {

namespace {

using Broadcast = EltwiseLayer::Broadcast;

// How operand shape s reaches output shape o (both NHWC), or a reason it cannot on the DPU.
bool classify_broadcast(const Shape& s, const Shape& o, Broadcast* b, std::string* why) {
    if (s == o) {
        *b = Broadcast::None;
        return true;
    }
    if (s.rank != 4 || o.rank != 4 || s[0] != 1 || o[0] != 1) {
        *why = "broadcast " + s.str() + " -> " + o.str() + " is not between [1,H,W,C] maps";
        return false;
    }
    if (s[3] != o[3]) {
        // A one-channel operand was expanded across the channels before this point (prepare_eltwise_layer).
        *why = "broadcast " + s.str() + " -> " + o.str() + " changes the channel count from " + std::to_string(s[3]) +
               " (DPU_RDMA reads an EW operand per pixel or per channel, never one value for all channels)";
        return false;
    }
    if (s[1] == 1 && s[2] == 1) {
        *b = Broadcast::PerChannel;
    } else if (s[1] == 1 && s[2] == o[2]) {
        *b = Broadcast::Rows;
    } else if (s[1] == o[1] && s[2] == 1) {
        *b = Broadcast::Columns;
    } else {
        *why = "shapes " + s.str() + " and " + o.str() + " do not broadcast";
        return false;
    }
    return true;
}

int32_t signed_zero_point(const TensorInfo& t) {
    return t.dtype == DataType::QAsymmU8 ? t.quant.offset - 128 : t.quant.offset;
}

}  // namespace

Refusal prepare_eltwise_layer(const Graph& g, const Node& node, const Node* act, NpuDomain d, EltwiseConstants constants,
                              EltwiseLayer* out) {
    std::string why_text;  // what the helpers below report
    std::string* why = &why_text;
    if (node.op != OpKind::ElementwiseBinary || node.inputs.size() != 2 || node.outputs.size() != 1) {
        return Refusal::because("not a binary element-wise op");
    }
    EltwiseLayer L;
    L.domain = d;
    L.op = node.attr<ElementwiseBinaryAttrs>().op;
    const TensorId out_id = act ? act->outputs[0] : node.outputs[0];
    const TensorInfo& yi = g.info(out_id);
    const Shape& os = g.info(node.outputs[0]).shape;
    const TensorInfo* in[2] = {&g.info(node.inputs[0]), &g.info(node.inputs[1])};
    const bool constant[2] = {g.tensor(node.inputs[0]).is_constant(), g.tensor(node.inputs[1]).is_constant()};
    if (constant[0] && constant[1]) {
        return Refusal::because("both operands are constant");
    }

    // The full-size operand is the main input; the other is the EW operand (possibly broadcast).
    const bool full0 = in[0]->shape == os, full1 = in[1]->shape == os;
    if (!full0 && !full1) {
        return Refusal::because("both operands are broadcast (" + in[0]->shape.str() + " and " + in[1]->shape.str() + " -> " + os.str() +
               "); the DPU broadcasts only its EW operand");
    }
    L.main_input = full0 ? 0 : 1;
    // With both full, a constant goes to the EW operand side (MRDMA reads the segment's run-time tensor).
    if (full0 && full1 && constant[0]) L.main_input = 1;
    const uint32_t mi = L.main_input, oi = L.operand_input();
    if (constant[mi]) {
        return Refusal::because("the full-size operand is constant and the other broadcast (MRDMA reads the main input from the "
               "segment's feature maps)");
    }
    if (mi == 1) {
        if (L.op == BinaryOp::Div) {
            return Refusal::because("Div whose dividend is broadcast or constant (the EW ALU divides the main input by the operand)");
        }
        L.negate_main = L.op == BinaryOp::Sub;
    }
    // A constant operand broadcast in a way the DPU cannot read is expanded (constant_broadcast.h): its shape
    // for every check, its elements only when the constants are packed.
    TensorInfo expanded_info;
    std::vector<uint8_t> expanded;
    const void* operand_data = g.tensor(node.inputs[oi]).data;
    if (constant[oi] && constant_needs_expansion(*in[oi], os)) {
        if (!expanded_constant_info(g.tensor(node.inputs[oi]), os, &expanded_info, why)) return Refusal::because(why_text);
        in[oi] = &expanded_info;
        if (constants == EltwiseConstants::Pack) {
            expanded = expand_constant(g.tensor(node.inputs[oi]), expanded_info);
            operand_data = expanded.data();
        }
    }
    // A run-time operand broadcast across the channels (seed 003's [b,1,1,w] and [b,1,h,1]; the checker admits no
    // other channel broadcast of a run-time tensor) is first repeated across the output's channels by the NPU
    // (channel_expansion.h) into the op's own region; the DPU then broadcasts that map along H or W.
    if (!constant[oi] && in[oi]->shape.rank == 4 && os.rank == 4 && in[oi]->shape[3] == 1 && os[3] > 1) {
        ChannelExpansion e;
        if (Refusal r = ChannelExpansion::make(*in[oi], os[3], d, &e); r.refused()) return r;
        L.expand_operand = std::move(e);
        in[oi] = &L.expand_operand->expanded();  // owned by the expansion's graph, which L keeps
    }
    if (!classify_broadcast(in[oi]->shape, os, &L.broadcast, why)) return Refusal::because(why_text);

    FeatureGeometry gy, gm, ge;
    if (!feature_geometry(yi, d, &gy, why) || !feature_geometry(*in[mi], d, &gm, why) || !feature_geometry(*in[oi], d, &ge, why))
        return Refusal::because(why_text);
    L.c = gy.c, L.h = gy.h, L.w = gy.w;
    if (L.c > npu_limits::kCubeMaxDim || L.h > npu_limits::kCubeMaxDim || L.w > npu_limits::kCubeMaxDim) {
        return Refusal::because("cube above " + std::to_string(npu_limits::kCubeMaxDim) + " (13-bit fields)");
    }
    uint64_t tasks = 1;
    if (L.broadcast == Broadcast::Rows) tasks = L.h;
    if (L.broadcast == Broadcast::Columns) tasks = uint64_t{L.h} * ((L.c + gy.c2() - 1) / gy.c2());
    if (L.expand_operand) tasks += L.expand_operand->task_count();
    if (tasks > kMaxFlyingTasksPerLayer) {
        return Refusal::because("broadcast " + in[oi]->shape.str() + " -> " + os.str() + " needs " +
                                std::to_string(tasks) +
                                " tasks (one per output row and channel group, and a channel expansion's), above " +
                                std::to_string(kMaxFlyingTasksPerLayer));
    }
    if (constant[oi]) {
        const Tensor& t = g.tensor(node.inputs[oi]);
        if (d == NpuDomain::Int8 && t.info.quant.per_axis()) {
            return Refusal::because("constant operand has per-axis quantization");
        }
        if (constants == EltwiseConstants::Pack) {
            L.operand_constant.assign(ge.alloc_bytes(), 0);
            pack_feature(*in[oi], operand_data, ge, L.operand_constant.data());
        }
    }

    double act_hi = INFINITY;
    if (act) {
        const auto& aa = act->attr<ActivationAttrs>();
        if (aa.function == ActivationFunction::BoundedReLu && aa.b == 0.0f) {
            act_hi = aa.a;
        } else if (aa.function != ActivationFunction::ReLu) {
            return Refusal::because("fused activation is not ReLu or BoundedReLu with lower bound 0");
        }
        L.relu = true;
    }
    if (d == NpuDomain::Fp16) {
        if (act && std::isfinite(act_hi)) {
            L.relux = true;
            const float f = static_cast<float>(act_hi);
            std::memcpy(&L.relux_bits, &f, 4);
        }
        *out = std::move(L);
        return {};
    }
    if (L.op == BinaryOp::Div) {
        return Refusal::because("int8 Div is not lowered (fp16 only, seed 003)");
    }
    L.zm = signed_zero_point(*in[mi]), L.ze = signed_zero_point(*in[oi]), L.out_offset = signed_zero_point(yi);
    const double sm = in[mi]->quant.scale(), se = in[oi]->quant.scale(), so = yi.quant.scale();
    if (!(sm > 0.0) || !(se > 0.0) || !(so > 0.0) || !std::isfinite(sm * se / so)) {
        return Refusal::because("quantization scales must be positive and finite");
    }
    double unit;  // real value of one integer unit after the EW stage
    if (L.op == BinaryOp::Mul) {
        L.mm = L.me = 1;
        unit = sm * se;
    } else {
        const double smax = std::max(sm, se);
        L.mm = static_cast<uint32_t>(std::lround(sm / smax * 16384.0));
        L.me = static_cast<uint32_t>(std::lround(se / smax * 16384.0));
        unit = smax / 16384.0;
    }
    if (!cvt_scale_shift(unit / so, &L.out_scale, &L.out_shift)) {
        return Refusal::because("requantization multiplier outside the OUT_CVT range");
    }
    if (act) {
        // Clamp also to the intermediate tensor's range (the CPU stores it before the activation reads it).
        const TensorInfo& mid = g.info(node.outputs[0]);
        const double hi = (quant::type_max(mid.dtype) - mid.quant.offset) * static_cast<double>(mid.quant.scale());
        const double bound = std::min(act_hi, hi) / unit;
        L.relux = true;
        L.relux_bits = static_cast<uint32_t>(static_cast<int32_t>(std::min(std::round(bound), 2147483647.0)));
    }
    *out = std::move(L);
    return {};
}

uint32_t emit_eltwise_tasks(npudrv::regcmd::RegcmdWriter& w, const EltwiseLayer& L, uint32_t main, uint32_t operand,
                            uint32_t out) {
    const bool i8 = L.domain == NpuDomain::Int8;
    DpuFlyingTask t;
    t.int8 = i8;
    t.c = L.c, t.h = L.h, t.w = L.w;
    t.src = main, t.dst = out;
    t.src_plane = t.dst_plane = L.h * L.w;
    if (i8) {
        t.bs_add_en = L.zm != 0;
        t.bs_add = static_cast<uint32_t>(-L.zm);
        const int32_t m = L.negate_main ? -static_cast<int32_t>(L.mm) : static_cast<int32_t>(L.mm);
        t.bs_mul_en = m != 1;
        t.bs_mul = static_cast<uint32_t>(m) & npudrv::regcmd::regs::DPU_BS_MUL_CFG::BS_MUL_OPERAND.max_value();
        t.ew_cvt_offset = -L.ze;
        t.ew_cvt_scale = L.me;
        t.out_scale = L.out_scale, t.out_shift = L.out_shift, t.out_offset = L.out_offset;
    } else if (L.negate_main) {
        t.bs_mul_en = true;
        t.bs_mul = 0xBC00u;  // fp16 -1.0
    }
    switch (L.op) {
        case BinaryOp::Add: t.ew_algo = 2; break;
        case BinaryOp::Sub: t.ew_algo = L.negate_main ? 2 : 4; break;  // swapped: -main + operand
        case BinaryOp::Maximum: t.ew_algo = 0; break;
        case BinaryOp::Minimum: t.ew_algo = 1; break;
        case BinaryOp::Div: t.ew_algo = 3; break;
        case BinaryOp::Mul: t.ew_mul = true; break;
        // Refused by check_elementwise (runtime/passes/npu_support.cpp): no DPU algorithm computes them.
        case BinaryOp::SquaredDifference: case BinaryOp::Power:
            fail(ErrorKind::Internal, "eltwise lowering reached " + std::string(to_string(L.op)));
    }
    t.relu = L.relu, t.relux = L.relux, t.relux_bits = L.relux_bits;
    t.ew_addr = operand;

    const uint32_t row_bytes = L.w * 16, plane = L.h * L.w;
    switch (L.broadcast) {
        case Broadcast::None:
            t.operand = DpuFlyingTask::Operand::PerPixel;
            t.ew_plane = plane;
            emit_dpu_flying_task(w, t);
            return 1;
        case Broadcast::PerChannel:
            t.operand = DpuFlyingTask::Operand::PerChannel;
            emit_dpu_flying_task(w, t);
            return 1;
        case Broadcast::Rows:
            // Output row y = op(main row y, the operand's one row): the operand's plane pitch is its own W atoms.
            t.operand = DpuFlyingTask::Operand::PerPixel;
            t.ew_plane = L.w;
            t.h = 1;
            for (uint32_t y = 0; y < L.h; ++y) {
                t.src = main + y * row_bytes;
                t.dst = out + y * row_bytes;
                emit_dpu_flying_task(w, t);
            }
            return L.h;
        case Broadcast::Columns: {
            // Output row y, channel group p = op(main row y of group p, the operand's pixel y of group p): one
            // atom of per-channel values, so the per-channel read never crosses a plane.
            const uint32_t c2 = i8 ? 16 : 8, groups = (L.c + c2 - 1) / c2;
            t.operand = DpuFlyingTask::Operand::PerChannel;
            t.h = 1;
            for (uint32_t p = 0; p < groups; ++p) {
                t.c = std::min(c2, L.c - p * c2);
                for (uint32_t y = 0; y < L.h; ++y) {
                    t.src = main + p * plane * 16 + y * row_bytes;
                    t.dst = out + p * plane * 16 + y * row_bytes;
                    t.ew_addr = operand + p * L.h * 16 + y * 16;
                    emit_dpu_flying_task(w, t);
                }
            }
            return groups * L.h;
        }
    }
    return 0;
}

}  // namespace npurun::npu
