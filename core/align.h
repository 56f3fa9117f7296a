// Rounding up to a multiple, for sizes npurun computes itself from already checked values (channel
// counts, buffer offsets). Sizes read from a model file go through checked_align_up (core/checked_math.h).
#pragma once

#include <type_traits>

namespace npurun {

// The smallest multiple of `multiple` (> 0, not necessarily a power of two) that is >= v.
// T comes from v alone, so align_up(channels, 16) needs no cast.
template <class T>
constexpr T align_up(T v, std::common_type_t<T> multiple) {
    static_assert(std::is_unsigned_v<T>, "align_up is for unsigned sizes");
    return (v + multiple - 1) / multiple * multiple;
}

}  // namespace npurun
