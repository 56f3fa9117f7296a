#include "runtime/npu/pad_layer.h"

#include <cmath>
#include <cstring>

#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/util/quantization.h"

namespace npurun::npu {

namespace {

// The pad value as one NPU-domain element, as the CPU kernel stores it in type t: the float for float types
// (fp16 on the NPU); for quantized types Arm NN's raw value (truncated toward zero, saturated to the type's
// range, NaN -> 0), moved into the signed domain for uint8.
uint16_t npu_pad_element(DataType t, float v) {
    if (t == DataType::Float32 || t == DataType::Float16) return quant::fp32_to_fp16(v);
    double d = std::isnan(v) ? 0.0 : std::trunc(double(v));
    d = std::fmax(double(quant::type_min(t)), std::fmin(double(quant::type_max(t)), d));
    const auto raw = static_cast<uint8_t>(static_cast<int32_t>(d));
    return t == DataType::QAsymmU8 ? static_cast<uint8_t>(raw ^ 0x80u) : raw;
}

}  // namespace

bool prepare_pad_layer(const Graph& g, const Node& node, NpuDomain d, PadLayer* out, std::string* why) {
    if (node.op != OpKind::Pad || node.inputs.empty() || node.outputs.size() != 1) {
        *why = "not a Pad";
        return false;
    }
    const auto& a = node.attr<PadAttrs>();
    if (a.mode != PaddingMode::Constant) {
        *why = std::string("Pad mode ") + (a.mode == PaddingMode::Reflect ? "reflect" : "symmetric") +
               " is not lowered (constant only: the border is written once at load)";
        return false;
    }
    const TensorInfo& xi = g.info(node.inputs[0]);
    const TensorInfo& yi = g.info(node.outputs[0]);
    if (xi.shape.rank != 4 || yi.shape.rank != 4 || a.pads.size() != 4) {
        *why = "Pad of a tensor that is not 4-D NHWC";
        return false;
    }
    if (a.pads[0].first || a.pads[0].second) {
        *why = "Pad along the batch axis";
        return false;
    }
    if (a.pads[3].first || a.pads[3].second) {
        *why = "Pad along the channel axis is not lowered (the write DMA stores whole 16-byte channel atoms)";
        return false;
    }
    if (xi.dtype != yi.dtype) {
        *why = "Pad input and output types differ";
        return false;
    }
    FeatureGeometry gx, gy;
    if (!feature_geometry(xi, d, &gx, why) || !feature_geometry(yi, d, &gy, why)) return false;
    PadLayer L;
    L.domain = d;
    L.c = gx.c, L.h = gx.h, L.w = gx.w;
    L.ho = gy.h, L.wo = gy.w;
    L.top = a.pads[1].first, L.left = a.pads[2].first;
    if (gy.c != gx.c || uint64_t{L.h} + L.top + a.pads[1].second != L.ho ||
        uint64_t{L.w} + L.left + a.pads[2].second != L.wo) {
        *why = "Pad output shape " + yi.shape.str() + " does not match the input and the pads";
        return false;
    }
    if (L.c > 8192 || L.ho > 8192 || L.wo > 8192) {
        *why = "cube above 8192 (13-bit fields)";
        return false;
    }
    L.fill = npu_pad_element(yi.dtype, a.value);
    *out = std::move(L);
    return true;
}

void write_pad_border(const PadLayer& L, uint8_t* region) {
    const uint32_t eb = L.domain == NpuDomain::Int8 ? 1 : 2, c2 = 16 / eb;
    const uint8_t bytes[2] = {static_cast<uint8_t>(L.fill), static_cast<uint8_t>(L.fill >> 8)};
    const size_t pixels = size_t{L.ho} * L.wo;
    for (uint32_t c = 0; c < L.c; ++c) {
        uint8_t* plane = region + size_t{c / c2} * pixels * 16 + size_t{c % c2} * eb;
        for (size_t p = 0; p < pixels; ++p) std::memcpy(plane + p * 16, bytes, eb);
    }
}

uint32_t emit_pad_tasks(npudrv::regcmd::RegcmdWriter& w, const PadLayer& L, uint32_t input, uint32_t output) {
    DpuFlyingTask t;
    t.int8 = L.domain == NpuDomain::Int8;
    t.c = L.c, t.w = L.w;
    t.src_plane = L.h * L.w;
    t.dst_plane = L.ho * L.wo;
    if (L.wo == L.w) {
        // Rows only: the interior of each plane is one contiguous run of h*w atoms.
        t.h = L.h;
        t.src = input;
        t.dst = output + L.top * L.wo * 16;
        emit_dpu_flying_task(w, t);
        return 1;
    }
    t.h = 1;
    for (uint32_t y = 0; y < L.h; ++y) {
        t.src = input + y * L.w * 16;
        t.dst = output + ((y + L.top) * L.wo + L.left) * 16;
        emit_dpu_flying_task(w, t);
    }
    return L.h;
}

}  // namespace npurun::npu
