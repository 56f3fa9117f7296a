// Pad: raw element copies (CpuRef's Pad is templated on the element type; no requantization).
// Constant mode fills with `value` stored as the output type: the float itself for Float32/Float16, and
// for quantized types the raw integer (Arm NN casts padValue without quantizing it; we truncate toward
// zero like its static_cast and saturate to the type range so out-of-range values stay defined).
// Reflect mirrors around the edge element, Symmetric includes it.
#include <cmath>
#include <cstring>

#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void encode_fill(DataType t, float v, uint8_t* out) {
    switch (t) {
        case DataType::Float32: std::memcpy(out, &v, 4); return;
        case DataType::Float16: {
            const uint16_t h = quant::fp32_to_fp16(v);
            std::memcpy(out, &h, 2);
            return;
        }
        default: break;
    }
    double d = std::isnan(v) ? 0.0 : std::trunc(double(v));
    d = std::fmax(double(quant::type_min(t)), std::fmin(double(quant::type_max(t)), d));
    const int32_t q = int32_t(d);
    switch (element_size(t)) {
        case 1: { const uint8_t b = uint8_t(q); std::memcpy(out, &b, 1); return; }
        case 2: { const int16_t s = int16_t(q); std::memcpy(out, &s, 2); return; }
        default: std::memcpy(out, &q, 4); return;
    }
}

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<PadAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = out_info(a, 0);
    const size_t es = element_size(xi.dtype);
    uint8_t fill[8] = {};
    encode_fill(yi.dtype, at.value, fill);
    const Strides ist(xi.shape);
    const Shape& os = yi.shape;
    const size_t count = os.num_elements();
    const auto* src = static_cast<const uint8_t*>(a.inputs[0]);
    auto* dst = static_cast<uint8_t*>(a.outputs[0]);
    uint32_t idx[kMaxRank] = {};
    for (size_t o = 0; o < count; ++o) {
        bool inside = true;
        size_t i = 0;
        for (uint32_t d = 0; d < os.rank; ++d) {
            const int64_t n = xi.shape[d];
            int64_t c = int64_t(idx[d]) - at.pads[d].first;
            if (c < 0 || c >= n) {
                if (at.mode == PaddingMode::Constant) { inside = false; break; }
                const bool reflect = at.mode == PaddingMode::Reflect;
                if (c < 0) c = reflect ? -c : -c - 1;
                else c = reflect ? 2 * (n - 1) - c : 2 * n - 1 - c;
            }
            i += size_t(c) * ist[d];
        }
        std::memcpy(dst + o * es, inside ? src + i * es : fill, es);
        for (uint32_t d = os.rank; d-- > 0;) {
            if (++idx[d] < os[d]) break;
            idx[d] = 0;
        }
    }
}

}  // namespace

const Kernel kPad = {check_numeric_same_type, nullptr, run};

}  // namespace npurun::kernels::ref
