#include "runtime/npu/pad_layer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "core/quantization.h"
#include "runtime/passes/npu_limits.h"

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

Refusal prepare_pad_layer(const Graph& g, const Node& node, NpuDomain d, PadLayer* out) {
    std::string why_text;  // what the helpers below report
    std::string* why = &why_text;
    if (node.op != OpKind::Pad || node.inputs.empty() || node.outputs.size() != 1) {
        return Refusal::because("not a Pad");
    }
    const auto& a = node.attr<PadAttrs>();
    if (a.mode == PaddingMode::Symmetric) {
        return Refusal::because("Pad mode symmetric is not lowered (seed 003: constant or reflect)");
    }
    const TensorInfo& xi = g.info(node.inputs[0]);
    const TensorInfo& yi = g.info(node.outputs[0]);
    if (xi.shape.rank != 4 || yi.shape.rank != 4 || a.pads.size() != 4) {
        return Refusal::because("Pad of a tensor that is not 4-D NHWC");
    }
    if (a.pads[0].first || a.pads[0].second) {
        return Refusal::because("Pad along the batch axis");
    }
    if (a.pads[3].first || a.pads[3].second) {
        return Refusal::because("Pad along the channel axis is not lowered (the write DMA stores whole 16-byte channel atoms)");
    }
    if (xi.dtype != yi.dtype) {
        return Refusal::because("Pad input and output types differ");
    }
    FeatureGeometry gx, gy;
    if (!feature_geometry(xi, d, &gx, why) || !feature_geometry(yi, d, &gy, why)) return Refusal::because(why_text);
    PadLayer L;
    L.domain = d;
    L.c = gx.c, L.h = gx.h, L.w = gx.w;
    L.ho = gy.h, L.wo = gy.w;
    L.reflect = a.mode == PaddingMode::Reflect;
    L.top = a.pads[1].first, L.left = a.pads[2].first, L.bottom = a.pads[1].second, L.right = a.pads[2].second;
    if (gy.c != gx.c || uint64_t{L.h} + L.top + a.pads[1].second != L.ho ||
        uint64_t{L.w} + L.left + a.pads[2].second != L.wo) {
        return Refusal::because("Pad output shape " + yi.shape.str() + " does not match the input and the pads");
    }
    if (L.c > npu_limits::kCubeMaxDim || L.ho > npu_limits::kCubeMaxDim || L.wo > npu_limits::kCubeMaxDim) {
        return Refusal::because("cube above " + std::to_string(npu_limits::kCubeMaxDim) + " (13-bit fields)");
    }
    if (L.reflect) {
        // Mirror images exclude the edge, so a side can take at most dimension - 1 elements.
        if (L.top >= L.h || L.bottom >= L.h || L.left >= L.w || L.right >= L.w) {
            return Refusal::because("Pad reflect of " + std::to_string(std::max({L.top, L.bottom, L.left, L.right})) +
                   " elements on a side of a " + std::to_string(L.h) + "x" + std::to_string(L.w) + " map (at most size - 1)");
        }
        if (pad_task_count(L) > kMaxFlyingTasksPerLayer) {
            return Refusal::because("Pad reflect needs " + std::to_string(pad_task_count(L)) + " tasks (one per row and mirrored pixel), above " +
                   std::to_string(kMaxFlyingTasksPerLayer));
        }
    }
    L.fill = npu_pad_element(yi.dtype, a.value);
    *out = std::move(L);
    return {};
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

uint64_t pad_task_count(const PadLayer& L) {
    const uint64_t interior = L.wo == L.w ? 1 : L.h;
    if (!L.reflect) return interior;
    return interior + uint64_t{L.h} * (L.left + L.right) + L.top + L.bottom;
}

uint32_t emit_pad_tasks(npudrv::regcmd::RegcmdWriter& w, const PadLayer& L, uint32_t input, uint32_t output) {
    DpuFlyingTask t = flying_copy_task(L.domain == NpuDomain::Int8, L.c, L.h * L.w, L.ho * L.wo);
    auto in_px = [&](uint32_t y, uint32_t x) { return input + (y * L.w + x) * 16; };
    auto out_px = [&](uint32_t y, uint32_t x) { return output + (y * L.wo + x) * 16; };
    uint32_t tasks = 0;
    // 1. The interior.
    t.w = L.w;
    if (L.wo == L.w) {
        // Rows only: the interior of each plane is one contiguous run of h*w atoms.
        t.h = L.h;
        t.src = input;
        t.dst = out_px(L.top, 0);
        emit_dpu_flying_task(w, t);
        ++tasks;
    } else {
        t.h = 1;
        for (uint32_t y = 0; y < L.h; ++y) {
            t.src = in_px(y, 0);
            t.dst = out_px(y + L.top, L.left);
            emit_dpu_flying_task(w, t);
            ++tasks;
        }
    }
    if (!L.reflect) return tasks;
    // 2. Reflect: the mirrored columns of every row, one pixel (all channel planes) per task. Output column
    // left - k mirrors input column k; output column left + w - 1 + k mirrors input column w - 1 - k.
    t.w = t.h = 1;
    for (uint32_t y = 0; y < L.h; ++y) {
        for (uint32_t k = 1; k <= L.left; ++k) {
            t.src = in_px(y, k);
            t.dst = out_px(y + L.top, L.left - k);
            emit_dpu_flying_task(w, t);
            ++tasks;
        }
        for (uint32_t k = 1; k <= L.right; ++k) {
            t.src = in_px(y, L.w - 1 - k);
            t.dst = out_px(y + L.top, L.left + L.w - 1 + k);
            emit_dpu_flying_task(w, t);
            ++tasks;
        }
    }
    // 3. The mirrored rows, copied whole from the output rows the earlier tasks of the chain completed
    // (corners included): output row top - k mirrors row top + k, row top + h - 1 + k mirrors top + h - 1 - k.
    t.w = L.wo;
    t.src_plane = L.ho * L.wo;
    for (uint32_t k = 1; k <= L.top; ++k) {
        t.src = out_px(L.top + k, 0);
        t.dst = out_px(L.top - k, 0);
        emit_dpu_flying_task(w, t);
        ++tasks;
    }
    for (uint32_t k = 1; k <= L.bottom; ++k) {
        t.src = out_px(L.top + L.h - 1 - k, 0);
        t.dst = out_px(L.top + L.h - 1 + k, 0);
        emit_dpu_flying_task(w, t);
        ++tasks;
    }
    return tasks;
}

}  // namespace npurun::npu
