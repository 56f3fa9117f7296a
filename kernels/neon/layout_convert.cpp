#include "kernels/neon/layout_convert.h"

#include <cstring>

#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::kernels::neon {
namespace {

// Every conversion walks the same (n, c1, y) rows; each row is owned by one thread.
template <class RowFn> void for_each_row(const Nc1hwc2Shape& s, RowFn&& row) {
    const size_t rows = size_t(s.n) * s.c1() * s.h;
    parallel_for(rows, work_grain(size_t(s.w) * s.c2), [&](size_t b, size_t e) {
        for (size_t r = b; r < e; ++r) {
            const uint32_t y = static_cast<uint32_t>(r % s.h);
            const size_t nc = r / s.h;
            const uint32_t c1 = static_cast<uint32_t>(nc % s.c1());
            const uint32_t n = static_cast<uint32_t>(nc / s.c1());
            row(n, c1, y);
        }
    });
}

// Zeroes the padding after each plane (only present when plane_stride > h*w*c2).
template <class T> void zero_plane_tails(T* dst, const Nc1hwc2Shape& s) {
    const size_t used = size_t(s.h) * s.w * s.c2, plane = s.plane();
    if (plane == used) return;
    for (size_t p = 0; p < size_t(s.n) * s.c1(); ++p) std::memset(dst + p * plane + used, 0, (plane - used) * sizeof(T));
}

// One 16-byte atom from `valid` channels (bytes) of src; the rest zero. Returns it as a vector.
inline uint8x16_t load_partial(const uint8_t* src, size_t valid_bytes) {
    uint8_t tmp[16] = {};
    std::memcpy(tmp, src, valid_bytes);
    return vld1q_u8(tmp);
}

// Byte-level packing shared by the 8/16-bit raw conversions: every atom is 16 bytes whatever the type.
void pack_bytes(const uint8_t* src, uint8_t* dst, const Nc1hwc2Shape& s, size_t esize, uint8_t xor_mask) {
    const size_t pixel_bytes = size_t(s.c) * esize, plane_bytes = s.plane() * esize;
    const uint8x16_t mask = vdupq_n_u8(xor_mask);
    for_each_row(s, [&](uint32_t n, uint32_t c1, uint32_t y) {
        const size_t c_begin = size_t(c1) * 16;  // byte offset of this group within a pixel
        const size_t valid = pixel_bytes - c_begin < 16 ? pixel_bytes - c_begin : 16;
        const uint8_t* in = src + (size_t(n) * s.h + y) * s.w * pixel_bytes + c_begin;
        uint8_t* out = dst + (size_t(n) * s.c1() + c1) * plane_bytes + size_t(y) * s.w * 16;
        if (valid == 16) {
            for (uint32_t x = 0; x < s.w; ++x) vst1q_u8(out + x * 16, veorq_u8(vld1q_u8(in + x * pixel_bytes), mask));
        } else {
            // Last group: XOR only the real channels so padding stays exactly zero.
            uint8_t lane_mask_bytes[16] = {};
            std::memset(lane_mask_bytes, xor_mask, valid);
            const uint8x16_t m = vld1q_u8(lane_mask_bytes);
            for (uint32_t x = 0; x < s.w; ++x) vst1q_u8(out + x * 16, veorq_u8(load_partial(in + x * pixel_bytes, valid), m));
        }
    });
    zero_plane_tails(dst, Nc1hwc2Shape{s.n, s.h, s.w, uint32_t(s.c * esize), 16, s.plane_stride ? s.plane() * esize : 0});
}

void unpack_bytes(const uint8_t* src, uint8_t* dst, const Nc1hwc2Shape& s, size_t esize, uint8_t xor_mask) {
    const size_t pixel_bytes = size_t(s.c) * esize, plane_bytes = s.plane() * esize;
    const uint8x16_t mask = vdupq_n_u8(xor_mask);
    for_each_row(s, [&](uint32_t n, uint32_t c1, uint32_t y) {
        const size_t c_begin = size_t(c1) * 16;
        const size_t valid = pixel_bytes - c_begin < 16 ? pixel_bytes - c_begin : 16;
        const uint8_t* in = src + (size_t(n) * s.c1() + c1) * plane_bytes + size_t(y) * s.w * 16;
        uint8_t* out = dst + (size_t(n) * s.h + y) * s.w * pixel_bytes + c_begin;
        if (valid == 16) {
            for (uint32_t x = 0; x < s.w; ++x) vst1q_u8(out + x * pixel_bytes, veorq_u8(vld1q_u8(in + x * 16), mask));
        } else {
            for (uint32_t x = 0; x < s.w; ++x) {
                uint8_t tmp[16];
                vst1q_u8(tmp, veorq_u8(vld1q_u8(in + x * 16), mask));
                std::memcpy(out + x * pixel_bytes, tmp, valid);
            }
        }
    });
}

}  // namespace

void nhwc_to_nc1hwc2_8bit(const uint8_t* src, uint8_t* dst, const Nc1hwc2Shape& s, uint8_t xor_mask) {
    pack_bytes(src, dst, s, 1, xor_mask);
}
void nc1hwc2_to_nhwc_8bit(const uint8_t* src, uint8_t* dst, const Nc1hwc2Shape& s, uint8_t xor_mask) {
    unpack_bytes(src, dst, s, 1, xor_mask);
}
void nhwc_to_nc1hwc2_16bit(const uint16_t* src, uint16_t* dst, const Nc1hwc2Shape& s) {
    pack_bytes(reinterpret_cast<const uint8_t*>(src), reinterpret_cast<uint8_t*>(dst), s, 2, 0);
}
void nc1hwc2_to_nhwc_16bit(const uint16_t* src, uint16_t* dst, const Nc1hwc2Shape& s) {
    unpack_bytes(reinterpret_cast<const uint8_t*>(src), reinterpret_cast<uint8_t*>(dst), s, 2, 0);
}
void nc1hwc2_to_nhwc_32bit(const uint32_t* src, uint32_t* dst, const Nc1hwc2Shape& s) {
    unpack_bytes(reinterpret_cast<const uint8_t*>(src), reinterpret_cast<uint8_t*>(dst), s, 4, 0);
}

void nhwc_f32_to_nc1hwc2_f16(const float* src, uint16_t* dst, const Nc1hwc2Shape& s) {
    for_each_row(s, [&](uint32_t n, uint32_t c1, uint32_t y) {
        const size_t c_begin = size_t(c1) * 8;
        const size_t valid = s.c - c_begin < 8 ? s.c - c_begin : 8;
        const float* in = src + (size_t(n) * s.h + y) * s.w * s.c + c_begin;
        uint16_t* out = dst + (size_t(n) * s.c1() + c1) * s.plane() + size_t(y) * s.w * 8;
        for (uint32_t x = 0; x < s.w; ++x) {
            const float* p = in + size_t(x) * s.c;
            float32x4_t lo, hi;
            if (valid == 8) {
                lo = vld1q_f32(p);
                hi = vld1q_f32(p + 4);
            } else {
                float tmp[8] = {};
                std::memcpy(tmp, p, valid * sizeof(float));
                lo = vld1q_f32(tmp);
                hi = vld1q_f32(tmp + 4);
            }
            // FCVTN rounds to nearest even (the FPCR default): the same as the NPU's own fp32->fp16.
            const float16x4_t h0 = vcvt_f16_f32(lo), h1 = vcvt_f16_f32(hi);
            vst1q_u16(out + size_t(x) * 8, vcombine_u16(vreinterpret_u16_f16(h0), vreinterpret_u16_f16(h1)));
        }
    });
    zero_plane_tails(dst, s);
}

void nc1hwc2_f16_to_nhwc_f32(const uint16_t* src, float* dst, const Nc1hwc2Shape& s) {
    for_each_row(s, [&](uint32_t n, uint32_t c1, uint32_t y) {
        const size_t c_begin = size_t(c1) * 8;
        const size_t valid = s.c - c_begin < 8 ? s.c - c_begin : 8;
        const uint16_t* in = src + (size_t(n) * s.c1() + c1) * s.plane() + size_t(y) * s.w * 8;
        float* out = dst + (size_t(n) * s.h + y) * s.w * s.c + c_begin;
        for (uint32_t x = 0; x < s.w; ++x) {
            const uint16x8_t v = vld1q_u16(in + size_t(x) * 8);
            const float32x4_t lo = vcvt_f32_f16(vreinterpret_f16_u16(vget_low_u16(v)));
            const float32x4_t hi = vcvt_f32_f16(vreinterpret_f16_u16(vget_high_u16(v)));
            float* p = out + size_t(x) * s.c;
            if (valid == 8) {
                vst1q_f32(p, lo);
                vst1q_f32(p + 4, hi);
            } else {
                float tmp[8];
                vst1q_f32(tmp, lo);
                vst1q_f32(tmp + 4, hi);
                std::memcpy(p, tmp, valid * sizeof(float));
            }
        }
    });
}

}  // namespace npurun::kernels::neon
