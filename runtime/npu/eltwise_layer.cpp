#include "runtime/npu/eltwise_layer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/npu/feature_layout.h"
#include "runtime/util/quantization.h"

namespace npurun::npu {

namespace {

bool out_convert(double m, uint32_t* scale, uint32_t* shift) {
    if (!(m > 0.0) || !std::isfinite(m)) return false;
    int sh = 0;
    while (m * std::ldexp(1.0, sh) < 16384.0 && sh < 62) ++sh;
    const double s = std::round(m * std::ldexp(1.0, sh));
    if (s > 32768.0 || sh >= 62) return false;
    *scale = static_cast<uint32_t>(s);
    *shift = static_cast<uint32_t>(sh);
    return true;
}

}  // namespace

bool prepare_eltwise_layer(const Graph& g, const Node& node, const Node* act, NpuDomain d, EltwiseLayer* out,
                           std::string* why) {
    if (node.op != OpKind::ElementwiseBinary || node.inputs.size() != 2) {
        *why = "not a binary element-wise op";
        return false;
    }
    EltwiseLayer L;
    L.domain = d;
    L.op = node.attr<ElementwiseBinaryAttrs>().op;
    const TensorInfo& ai = g.info(node.inputs[0]);
    const TensorInfo& bi = g.info(node.inputs[1]);
    const TensorId out_id = act ? act->outputs[0] : node.outputs[0];
    const TensorInfo& yi = g.info(out_id);
    if (g.tensor(node.inputs[0]).is_constant() || g.tensor(node.inputs[1]).is_constant()) {
        *why = "constant operand (only two run-time tensors are lowered)";
        return false;
    }
    if (ai.shape != bi.shape || ai.shape != yi.shape) {
        *why = "broadcasting is not lowered (operands of shape " + ai.shape.str() + " and " + bi.shape.str() + ")";
        return false;
    }
    FeatureGeometry ga, gb, gy;
    if (!feature_geometry(ai, d, &ga, why) || !feature_geometry(bi, d, &gb, why) || !feature_geometry(yi, d, &gy, why))
        return false;
    L.c = ga.c, L.h = ga.h, L.w = ga.w;
    if (L.c > 8192 || L.h > 8192 || L.w > 8192) {
        *why = "cube above 8192 (13-bit fields)";
        return false;
    }
    double act_hi = INFINITY;
    if (act) {
        const auto& aa = act->attr<ActivationAttrs>();
        if (aa.function == ActivationFunction::BoundedReLu && aa.b == 0.0f) {
            act_hi = aa.a;
        } else if (aa.function != ActivationFunction::ReLu) {
            *why = "fused activation is not ReLu or BoundedReLu with lower bound 0";
            return false;
        }
        L.relu = true;
    }
    if (d == NpuDomain::Fp16) {
        if (act && std::isfinite(act_hi)) {
            L.relux = true;
            const float f = static_cast<float>(act_hi);
            std::memcpy(&L.relux_bits, &f, 4);
        }
        *out = L;
        return true;
    }
    if (L.op == BinaryOp::Mul || L.op == BinaryOp::Div) {
        *why = std::string("int8 ") + to_string(L.op) + " is not lowered (fp16 only)";
        return false;
    }
    auto signed_zp = [](const TensorInfo& t) { return t.dtype == DataType::QAsymmU8 ? t.quant.offset - 128 : t.quant.offset; };
    L.za = signed_zp(ai), L.zb = signed_zp(bi), L.out_offset = signed_zp(yi);
    const double sa = ai.quant.scale(), sb = bi.quant.scale(), so = yi.quant.scale();
    const double smax = std::max(sa, sb);
    L.ma = static_cast<uint32_t>(std::lround(sa / smax * 16384.0));
    L.mb = static_cast<uint32_t>(std::lround(sb / smax * 16384.0));
    if (!out_convert(smax / 16384.0 / so, &L.out_scale, &L.out_shift)) {
        *why = "requantization multiplier outside the OUT_CVT range";
        return false;
    }
    if (act) {
        // Clamp also to the intermediate tensor's range (the CPU stores it before the activation reads it).
        const TensorInfo& mid = g.info(node.outputs[0]);
        const double hi = (quant::type_max(mid.dtype) - mid.quant.offset) * static_cast<double>(mid.quant.scale());
        const double bound = std::min(act_hi, hi) / (smax / 16384.0);
        L.relux = true;
        L.relux_bits = static_cast<uint32_t>(static_cast<int32_t>(std::min(std::round(bound), 2147483647.0)));
    }
    *out = L;
    return true;
}

void emit_eltwise_task(npudrv::regcmd::RegcmdWriter& w, const EltwiseLayer& L, uint32_t a, uint32_t b, uint32_t out) {
    const bool i8 = L.domain == NpuDomain::Int8;
    const uint32_t prec = i8 ? 0 : 2;
    const uint32_t plane = L.w * L.h;
    uint32_t algo = 2, mul = 0;
    switch (L.op) {
        case BinaryOp::Add: algo = 2; break;
        case BinaryOp::Sub: algo = 4; break;
        case BinaryOp::Maximum: algo = 0; break;
        case BinaryOp::Minimum: algo = 1; break;
        case BinaryOp::Div: algo = 3; break;
        case BinaryOp::Mul: mul = 1; algo = 0; break;
    }
    w.begin_task(npudrv::regcmd::TaskKind::DpuFlying);
    w.write("DPU_S_POINTER", {{"POINTER_PP_MODE", 1}, {"EXECUTER_PP_EN", 1}, {"POINTER_PP_EN", 1}});
    w.write("DPU_RDMA_S_POINTER", {{"POINTER_PP_MODE", 1}, {"EXECUTER_PP_EN", 1}, {"POINTER_PP_EN", 1}});
    w.write("DPU_FEATURE_MODE_CFG", {{"BURST_LEN", 15}, {"OUTPUT_MODE", 2}, {"FLYING_MODE", 1}});
    w.write("DPU_DATA_FORMAT", {{"OUT_PRECISION", prec}, {"IN_PRECISION", prec}, {"PROC_PRECISION", prec}});
    w.write("DPU_DST_BASE_ADDR", {{"DST_BASE_ADDR", out}});
    w.write("DPU_DST_SURF_STRIDE", {{"DST_SURF_STRIDE", plane}});
    w.write("DPU_DATA_CUBE_WIDTH", {{"WIDTH", L.w - 1}});
    w.write("DPU_DATA_CUBE_HEIGHT", {{"HEIGHT", L.h - 1}});
    w.write("DPU_DATA_CUBE_NOTCH_ADDR", {});
    w.write("DPU_DATA_CUBE_CHANNEL", {{"ORIG_CHANNEL", L.c - 1}, {"CHANNEL", L.c - 1}});
    if (i8) {
        // Main operand into the common scale: (a - za) * MA.
        w.write("DPU_BS_CFG", {{"BS_ALU_ALGO", 2}, {"BS_RELU_BYPASS", 1}});
        w.write(npudrv::regcmd::reg("DPU_BS_ALU_CFG"), static_cast<uint32_t>(-L.za));
        w.write("DPU_BS_MUL_CFG", {{"BS_MUL_OPERAND", L.ma}});
    } else {
        w.write("DPU_BS_CFG", {{"BS_RELU_BYPASS", 1}, {"BS_MUL_BYPASS", 1}, {"BS_ALU_BYPASS", 1}, {"BS_BYPASS", 1}});
    }
    // Every DPU register a previous task of the chain may have left behind that this task's checks read:
    // the register file persists across tasks (vendor delta lists rely on it).
    w.write("DPU_BS_OW_CFG", {{"SIZE_E_2", 1}, {"SIZE_E_1", 1}, {"SIZE_E_0", 1}, {"OD_BYPASS", 1}});
    w.write("DPU_WDMA_SIZE_0", {{"CHANNEL_WDMA", L.c - 1}});
    w.write("DPU_WDMA_SIZE_1", {{"HEIGHT_WDMA", L.h - 1}, {"WIDTH_WDMA", L.w - 1}});
    w.write("DPU_SURFACE_ADD", {{"SURF_ADD", 2 * plane}});
    w.write("DPU_BN_CFG", {{"BN_RELU_BYPASS", 1}, {"BN_MUL_BYPASS", 1}, {"BN_ALU_BYPASS", 1}, {"BN_BYPASS", 1}});
    w.write("DPU_EW_CFG", {{"EW_CVT_TYPE", i8 ? 1u : 0u}, {"EW_DATA_MODE", 1}, {"EDATA_SIZE", i8 ? 1u : 2u},
                           {"EW_ALU_ALGO", algo}, {"EW_RELUX_EN", L.relux ? 1u : 0u}, {"EW_RELU_BYPASS", L.relu ? 0u : 1u},
                           {"EW_OP_CVT_BYPASS", i8 ? 0u : 1u}, {"EW_LUT_BYPASS", 1}, {"EW_OP_SRC", 1}, {"EW_OP_TYPE", mul}});
    w.write(npudrv::regcmd::reg("DPU_EW_CVT_OFFSET_VALUE"), i8 ? static_cast<uint32_t>(-L.zb) : 0u);
    w.write("DPU_EW_CVT_SCALE_VALUE", {{"EW_OP_CVT_SCALE", i8 ? L.mb : 1u}});
    w.write(npudrv::regcmd::reg("DPU_EW_RELUX_CMP_VALUE"), L.relux ? L.relux_bits : 0u);
    w.write(npudrv::regcmd::reg("DPU_OUT_CVT_OFFSET"), i8 ? static_cast<uint32_t>(L.out_offset) : 0u);
    w.write("DPU_OUT_CVT_SCALE", {{"FP32TOFP16_EN", i8 ? 0u : 1u}, {"OUT_CVT_SCALE", i8 ? L.out_scale : 1u}});
    w.write("DPU_OUT_CVT_SHIFT", {{"OUT_CVT_SHIFT", i8 ? L.out_shift : 0u}});
    w.write("DPU_RDMA_DATA_CUBE_WIDTH", {{"WIDTH", L.w - 1}});
    w.write("DPU_RDMA_DATA_CUBE_HEIGHT", {{"HEIGHT", L.h - 1}});
    w.write("DPU_RDMA_DATA_CUBE_CHANNEL", {{"CHANNEL", L.c - 1}});
    w.write("DPU_RDMA_SRC_BASE_ADDR", {{"SRC_BASE_ADDR", a}});
    w.write("DPU_RDMA_ERDMA_CFG", {{"ERDMA_DATA_MODE", 1}, {"ERDMA_DATA_SIZE", i8 ? 1u : 2u}});
    w.write("DPU_RDMA_EW_BASE_ADDR", {{"EW_BASE_ADDR", b}});
    w.write("DPU_RDMA_EW_SURF_STRIDE", {{"EW_SURF_STRIDE", plane}});
    w.write("DPU_RDMA_FEATURE_MODE_CFG", {{"IN_PRECISION", prec}, {"BURST_LEN", 15}, {"PROC_PRECISION", prec},
                                          {"MRDMA_FP16TOFP32_EN", i8 ? 0u : 1u}, {"FLYING_MODE", 1}});
    w.write("DPU_RDMA_SURF_NOTCH", {});
    w.write("DPU_RDMA_WEIGHT", {{"E_WEIGHT", 1}, {"N_WEIGHT", 1}, {"B_WEIGHT", 1}, {"M_WEIGHT", 1}});
}

}  // namespace npurun::npu
