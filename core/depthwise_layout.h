// The one correspondence between Arm NN's two depthwise weight layouts: the legacy [M, I, H, W] (files
// before 21.05) and the current [1, H, W, I*M], where output channel i*M + m reads input channel i with
// multiplier m. The loader converts legacy files to the current layout and the test model writer the
// other way; both walk this correspondence.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurun {

// f(legacy_index, current_index) for every weight element, in legacy row-major order.
template <class F> void for_each_depthwise_weight(uint32_t M, uint32_t I, uint32_t H, uint32_t W, F&& f) {
    const size_t IM = size_t(I) * M;
    for (uint32_t m = 0; m < M; ++m)
        for (uint32_t i = 0; i < I; ++i)
            for (uint32_t h = 0; h < H; ++h)
                for (uint32_t w = 0; w < W; ++w)
                    f(((size_t(m) * I + i) * H + h) * W + w, (size_t(h) * W + w) * IM + size_t(i) * M + m);
}

}  // namespace npurun
