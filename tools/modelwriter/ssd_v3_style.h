// A float MobileNet-v3-style SSD detector written as Arm NN 20.08's TfLite parser writes one (Addition /
// Multiplication layers, HardSwish activations, squeeze-excite with a global average pool, a [1,1,1,C]
// per-channel Multiplication and a hard-sigmoid made of x + 3 / ReLU6 / * 1/6 with [1,1,1,1] constants, SSD
// box and class heads reshaped to [1, anchors, 4] and concatenated, Sigmoid scores). Fixed pseudo-random
// weights of variance 2 / fan_in. Used by tests/npu (size 96, NPU placement against the CPU) and by make bench
// (tools/bench/make_ssd_v3.cpp: the float SSD-style network of the threads table).
#pragma once

#include <cstdint>
#include <vector>

namespace npurun::modelwriter {

// Input [1, size, size, 3] float (size a multiple of 16); outputs "boxes" [1, A, 4] and "scores" [1, A, 4] with
// A = 3 * ((size/8)^2 + (size/16)^2) anchors.
std::vector<uint8_t> ssd_mobilenet_v3_style(uint32_t size);

}  // namespace npurun::modelwriter
