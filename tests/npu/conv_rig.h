// The driver-level rig the chain and multi-core tests share (no session): a simulated device, and the one
// small int8 convolution they emit by hand with its fixed weight pattern.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "drv/device_factory.h"
#include "drv/sim/npu_simulator.h"
#include "runtime/npu/conv_layer.h"

namespace npurun::npu_test {

struct Rig {
    npudrv::sim::NpuSimulator* sim = nullptr;
    npudrv::Device dev;
    static Rig make(npudrv::DriverKind kind = npudrv::DriverKind::Rknpu) {
        auto s = std::make_unique<npudrv::sim::NpuSimulator>();
        auto* raw = s.get();
        return Rig{raw, npudrv::open_sim_device(kind, std::move(s))};
    }
};

// int8 3x3 pad-1 conv 16 channels 12x16 -> k channels (output scale 2^-6), with a bias stream.
inline npu::ConvLayer small_int8_conv(uint32_t k) {
    npu::ConvLayer L;
    L.domain = NpuDomain::Int8;
    L.c = 16, L.h = 12, L.w = 16, L.k = k, L.ho = 12, L.wo = 16;
    L.kh = L.kw = 3, L.pad_left = L.pad_top = 1;
    L.ca = 16, L.coa = (k + 15) / 16 * 16;
    L.out_scale = 16384, L.out_shift = 20;
    L.use_bs = true;
    L.bs_data_use = 1;
    return L;
}

// The layer's weights: a fixed pattern, as the lowering would pack them.
inline std::vector<uint8_t> pattern_weights(const npu::ConvLayer& L) {
    std::vector<uint8_t> w(L.weight_bytes());
    for (size_t i = 0; i < w.size(); ++i) w[i] = uint8_t(int8_t(int(i * 7 % 255) - 127));
    return w;
}

}  // namespace npurun::npu_test
