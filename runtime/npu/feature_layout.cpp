#include "runtime/npu/feature_layout.h"

#include <cstring>

#include "core/quantization.h"

namespace npurun::npu {

bool feature_geometry(const TensorInfo& t, NpuDomain d, FeatureGeometry* out, std::string* why) {
    FeatureGeometry g;
    g.elem_bytes = d == NpuDomain::Int8 ? 1 : 2;
    const Shape& s = t.shape;
    if (s.rank == 4 && s[0] == 1) {
        g.h = s[1], g.w = s[2], g.c = s[3];
    } else if (s.rank == 2 && s[0] == 1) {
        g.h = 1, g.w = 1, g.c = s[1];
    } else {
        *why = "tensor shape " + s.str() + " is neither [1,H,W,C] nor [1,C]";
        return false;
    }
    if (g.c == 0 || g.h == 0 || g.w == 0) {
        *why = "empty tensor " + s.str();
        return false;
    }
    const bool ok = (d == NpuDomain::Int8 && (t.dtype == DataType::QAsymmU8 || t.dtype == DataType::QAsymmS8)) ||
                    (d == NpuDomain::Fp16 && (t.dtype == DataType::Float16 || t.dtype == DataType::Float32));
    if (!ok) {
        *why = std::string("tensor type ") + to_string(t.dtype) + " has no NPU representation in this domain";
        return false;
    }
    *out = g;
    return true;
}

namespace {

// Offset of element (c, y, x) in the NPU layout.
inline size_t npu_offset(const FeatureGeometry& g, uint32_t c, uint32_t y, uint32_t x) {
    return size_t(c / g.c2()) * g.plane_bytes() + (size_t(y) * g.w + x) * 16 + size_t(c % g.c2()) * g.elem_bytes;
}

}  // namespace

void store_npu_elements(const TensorInfo& t, const void* src, size_t first, size_t n, uint8_t* o) {
    switch (t.dtype) {
        case DataType::QAsymmU8: {
            const uint8_t* s = static_cast<const uint8_t*>(src) + first;
            for (size_t i = 0; i < n; ++i) o[i] = static_cast<uint8_t>(s[i] ^ 0x80u);
            break;
        }
        case DataType::QAsymmS8: std::memcpy(o, static_cast<const uint8_t*>(src) + first, n); break;
        case DataType::Float16: std::memcpy(o, static_cast<const uint16_t*>(src) + first, 2 * n); break;
        case DataType::Float32: {
            const float* s = static_cast<const float*>(src) + first;
            for (size_t i = 0; i < n; ++i) {
                const uint16_t h = quant::fp32_to_fp16(s[i]);
                std::memcpy(o + 2 * i, &h, 2);
            }
            break;
        }
        default: break;  // feature_geometry() admits no other type
    }
}

// Per pixel, the channels of one atom are a run in both layouts (NHWC: consecutive; NC1HWC2: one atom).
void pack_feature(const TensorInfo& t, const void* src, const FeatureGeometry& g, uint8_t* dst) {
    const size_t pixels = size_t(g.h) * g.w;
    const uint32_t c2 = g.c2();
    for (size_t p = 0; p < pixels; ++p) {
        const uint32_t y = uint32_t(p / g.w), x = uint32_t(p % g.w);
        for (uint32_t c = 0; c < g.c; c += c2) {
            const uint32_t n = c + c2 <= g.c ? c2 : g.c - c;
            store_npu_elements(t, src, p * g.c + c, n, dst + npu_offset(g, c, y, x));  // NHWC index
        }
    }
}

// Like pack_feature, by (pixel, atom) runs with the type dispatched once per run.
void unpack_feature(const TensorInfo& t, const FeatureGeometry& g, const uint8_t* src, void* dst) {
    const size_t pixels = size_t(g.h) * g.w;
    const uint32_t c2 = g.c2();
    for (size_t p = 0; p < pixels; ++p) {
        const uint32_t y = uint32_t(p / g.w), x = uint32_t(p % g.w);
        for (uint32_t c = 0; c < g.c; c += c2) {
            const uint32_t n = c + c2 <= g.c ? c2 : g.c - c;
            const size_t first = p * g.c + c;  // NHWC index
            const uint8_t* q = src + npu_offset(g, c, y, x);
            switch (t.dtype) {
                case DataType::QAsymmU8: {
                    uint8_t* d = static_cast<uint8_t*>(dst) + first;
                    for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<uint8_t>(q[i] ^ 0x80u);
                    break;
                }
                case DataType::QAsymmS8: std::memcpy(static_cast<uint8_t*>(dst) + first, q, n); break;
                case DataType::Float16: std::memcpy(static_cast<uint16_t*>(dst) + first, q, 2 * size_t{n}); break;
                case DataType::Float32: {
                    float* d = static_cast<float*>(dst) + first;
                    for (uint32_t i = 0; i < n; ++i) {
                        uint16_t h;
                        std::memcpy(&h, q + 2 * i, 2);
                        d[i] = quant::fp16_to_fp32(h);
                    }
                    break;
                }
                default: break;  // feature_geometry() admits no other type
            }
        }
    }
}

}  // namespace npurun::npu
