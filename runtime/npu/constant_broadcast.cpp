#include "runtime/npu/constant_broadcast.h"

#include <cstring>

namespace npurun::npu {

namespace {

// The operand's dims aligned to the output's 4 (leading 1s), or false when its rank is above 4.
bool aligned_dims(const Shape& s, uint32_t d[4]) {
    if (s.rank > 4) return false;
    for (uint32_t i = 0; i < 4; ++i) d[i] = 1;
    for (uint32_t i = 0; i < s.rank; ++i) d[4 - s.rank + i] = s[i];
    return true;
}

}  // namespace

bool constant_needs_expansion(const TensorInfo& t, const Shape& out) {
    if (out.rank != 4 || out[0] != 1 || t.shape == out) return false;
    uint32_t d[4];
    if (!aligned_dims(t.shape, d)) return false;
    // Rank 4 with equal channels: a pattern the DPU reads itself (per channel, rows, columns).
    return t.shape.rank != 4 || d[3] != out[3];
}

bool expanded_constant_info(const Tensor& t, const Shape& out, TensorInfo* info, std::string* why) {
    uint32_t d[4];
    if (!t.is_constant() || !aligned_dims(t.info.shape, d)) {
        *why = "operand " + t.info.shape.str() + " is not a constant of rank <= 4";
        return false;
    }
    for (uint32_t i = 0; i < 4; ++i) {
        if (d[i] != 1 && d[i] != out[i]) {
            *why = "shapes " + t.info.shape.str() + " and " + out.str() + " do not broadcast";
            return false;
        }
    }
    const bool single = d[0] * d[1] * d[2] * d[3] == 1;
    *info = t.info;
    info->shape = single ? Shape{1, 1, 1, out[3]} : Shape{1, out[1], out[2], out[3]};
    return true;
}

std::vector<uint8_t> expand_constant(const Tensor& t, const TensorInfo& expanded) {
    uint32_t d[4];
    aligned_dims(t.info.shape, d);  // rank <= 4: checked by expanded_constant_info
    const size_t es = element_size(t.info.dtype);
    const uint32_t h = expanded.shape[1], w = expanded.shape[2], c = expanded.shape[3];
    std::vector<uint8_t> bytes(size_t{h} * w * c * es, 0);  // at most the output map's elements
    const auto* src = static_cast<const uint8_t*>(t.data);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            for (uint32_t ch = 0; ch < c; ++ch) {
                const size_t si = ((d[1] == 1 ? 0 : size_t{y}) * d[2] + (d[2] == 1 ? 0 : x)) * d[3] + (d[3] == 1 ? 0 : ch);
                std::memcpy(bytes.data() + ((size_t{y} * w + x) * c + ch) * es, src + si * es, es);
            }
    return bytes;
}

}  // namespace npurun::npu
