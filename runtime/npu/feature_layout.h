// Feature maps inside an NPU segment: NC1HWC2 with 16-byte atoms (reference §6.1) in the NPU's arithmetic
// domain, and the conversions at the segment edges (layout NHWC <-> NC1HWC2, uint8 <-> signed int8,
// float32 <-> float16). Inside a segment nothing is converted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/types.h"
#include "runtime/passes/npu_support.h"

namespace npurun::npu {

// One tensor as the NPU stores it: C1 planes of H*W atoms, C2 = 16 / element bytes channels per atom.
// Plane pitch = H*W*16 bytes (no extra alignment); channels past the real count stay zero.
struct FeatureGeometry {
    uint32_t c = 0, h = 0, w = 0;  // real channels, height, width
    uint32_t elem_bytes = 1;       // 1 int8, 2 fp16
    uint32_t c2() const { return 16 / elem_bytes; }
    uint32_t aligned_c() const { return (c + c2() - 1) / c2() * c2(); }
    uint32_t planes() const { return (c + c2() - 1) / c2(); }
    uint64_t plane_bytes() const { return uint64_t{h} * w * 16; }
    uint64_t bytes() const { return plane_bytes() * planes(); }
    // What a region holds: planes for align16(c) channels, because a convolution writes its output
    // channels in groups of 16 (conv_layer.h coa), i.e. one extra fp16 plane when c % 16 is in 1..8.
    uint64_t alloc_bytes() const { return plane_bytes() * (((c + 15) / 16 * 16) / c2()); }
};

// The NPU view of a tensor: 4-D NHWC [1,H,W,C], or 2-D [1,C] (a fully connected operand: one pixel of C
// channels). Returns false (with a reason) for anything else.
bool feature_geometry(const TensorInfo& t, NpuDomain d, FeatureGeometry* out, std::string* why);

// Model tensor (NHWC, model dtype) -> NPU layout in the segment buffer. uint8 moves into the signed domain
// (q - 128), float32 rounds to float16. Padding channels are not touched.
void pack_feature(const TensorInfo& t, const void* src, const FeatureGeometry& g, uint8_t* dst);
// Elements first..first+n-1 of the model tensor `src` (type t.dtype) as the NPU stores them, one after the
// other at `dst` (1 or 2 bytes each): the one conversion pack_feature and the window packing
// (window_packing.h) share. A run, not an element, so the type is dispatched once per run.
void store_npu_elements(const TensorInfo& t, const void* src, size_t first, size_t n, uint8_t* dst);
// The inverse: NPU layout -> model tensor.
void unpack_feature(const TensorInfo& t, const FeatureGeometry& g, const uint8_t* src, void* dst);

}  // namespace npurun::npu
