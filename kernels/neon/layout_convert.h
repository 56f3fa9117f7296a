// Layout conversions between NHWC (the runtime's CPU layout) and the RK3588 NPU's NC1HWC2 feature layout.
//
// NC1HWC2 (reference/rk3588-npu-registers.md §6.1): channels are cut into C1 = ceil(C / C2) groups; each
// group is a "plane" of H*W atoms, an atom being the C2 channels of one pixel in 16 bytes, so
// C2 = 16 for int8, 8 for fp16/int16, 4 for fp32/int32. Element (n, c, y, x) lives at
//   n*C1*plane_stride + (c / C2)*plane_stride + (y*W + x)*C2 + (c % C2)     (in elements)
// where plane_stride >= H*W*C2 (the vendor runtime pads planes, e.g. to align4(H*W) atoms).
// Channels c >= C of the last group and the padding after each plane are written as zero (in the
// destination's domain), so the NPU's reads of a whole atom see defined data and results are deterministic.
//
// These run at every CPU<->NPU segment edge; they are memory-bound and parallelised over (n, c1, row).
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurun::kernels::neon {

struct Nc1hwc2Shape {
    uint32_t n = 1, h = 1, w = 1, c = 1;
    uint32_t c2 = 16;          // elements per atom: 16 (8-bit), 8 (16-bit), 4 (32-bit)
    size_t plane_stride = 0;   // elements from one channel group to the next; 0 means h*w*c2 (dense)

    uint32_t c1() const { return (c + c2 - 1) / c2; }
    size_t plane() const { return plane_stride ? plane_stride : size_t(h) * w * c2; }
    size_t nc1hwc2_elements() const { return size_t(n) * c1() * plane(); }
    size_t nhwc_elements() const { return size_t(n) * h * w * c; }
};

// 8-bit (int8/uint8, C2 = 16). xor_mask is applied to every copied byte: 0x80 converts uint8 data to the
// NPU's signed domain and back (reference §4.5); 0 copies as is. Padding channels are written as 0.
void nhwc_to_nc1hwc2_8bit(const uint8_t* src, uint8_t* dst, const Nc1hwc2Shape& s, uint8_t xor_mask);
void nc1hwc2_to_nhwc_8bit(const uint8_t* src, uint8_t* dst, const Nc1hwc2Shape& s, uint8_t xor_mask);

// 16-bit raw elements (fp16, int16; C2 = 8).
void nhwc_to_nc1hwc2_16bit(const uint16_t* src, uint16_t* dst, const Nc1hwc2Shape& s);
void nc1hwc2_to_nhwc_16bit(const uint16_t* src, uint16_t* dst, const Nc1hwc2Shape& s);

// 32-bit raw elements (fp32, int32; C2 = 4): the NPU's fp32/int32 output read back.
void nc1hwc2_to_nhwc_32bit(const uint32_t* src, uint32_t* dst, const Nc1hwc2Shape& s);

// fp32 NHWC -> fp16 NC1HWC2 (C2 = 8), IEEE round-to-nearest-even (FCVTN), and back (exact widening).
// fp16 values are passed as their IEEE binary16 bit patterns.
void nhwc_f32_to_nc1hwc2_f16(const float* src, uint16_t* dst, const Nc1hwc2Shape& s);
void nc1hwc2_f16_to_nhwc_f32(const uint16_t* src, float* dst, const Nc1hwc2Shape& s);

}  // namespace npurun::kernels::neon
