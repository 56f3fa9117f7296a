#include "kernels/neon/nchw.h"

#include <cstdint>
#include <cstring>

namespace npurun::kernels::neon {
namespace {

// One generic byte mover for both directions: element (n, c, h, w) sits at nchw_index in the NCHW
// tensor and at nhwc_index in the NHWC one.
template <bool kToNhwc> void move(const void* src, void* dst, const Shape& s, size_t elem) {
    const size_t N = s[0], C = s[1], H = s[2], W = s[3];
    const auto* from = static_cast<const uint8_t*>(src);
    auto* to = static_cast<uint8_t*>(dst);
    for (size_t n = 0; n < N; ++n)
        for (size_t c = 0; c < C; ++c)
            for (size_t h = 0; h < H; ++h)
                for (size_t w = 0; w < W; ++w) {
                    const size_t nchw = ((n * C + c) * H + h) * W + w, nhwc = ((n * H + h) * W + w) * C + c;
                    if (kToNhwc) std::memcpy(to + nhwc * elem, from + nchw * elem, elem);
                    else std::memcpy(to + nchw * elem, from + nhwc * elem, elem);
                }
}

}  // namespace

void nchw_to_nhwc(const void* src, void* dst, const Shape& nchw, size_t elem) { move<true>(src, dst, nchw, elem); }
void nhwc_to_nchw(const void* src, void* dst, const Shape& nchw, size_t elem) { move<false>(src, dst, nchw, elem); }

}  // namespace npurun::kernels::neon
