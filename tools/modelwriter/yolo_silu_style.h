// A float YOLOv5-style detector (the network family most RK3588 users deploy) written as Arm NN 20.08's TfLite
// parser writes its TfLite export: every SiLU is a Sigmoid Activation and a Multiplication by its input (TfLite
// has LOGISTIC and MUL), C3 blocks (two 1x1 branches, a residual bottleneck, a channel Concat), an SPPF block
// (three chained 5x5 max pools and a channel Concat) and three 1x1 detection heads with Sigmoid outputs kept as
// NHWC maps (the box decoding is post-processing). Fixed pseudo-random weights of variance 2 / fan_in. Used by
// tests/npu (NPU placement and --fp16 accuracy against the CPU).
#pragma once

#include <cstdint>
#include <vector>

namespace npurun::modelwriter {

// Input [1, size, size, 3] float (size a multiple of 32); outputs "p3", "p4", "p5": [1, size/s, size/s, 3 * (5 +
// classes)] for s = 8, 16, 32.
std::vector<uint8_t> yolo_silu_style(uint32_t size, uint32_t classes);

}  // namespace npurun::modelwriter
