// Overflow-checked size arithmetic. Every size computed from an untrusted model file goes through
// these: a file that declares a 2^40-element tensor must be rejected, not wrapped around.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurun {

template <class T> inline bool checked_mul(T a, T b, T* out) { return !__builtin_mul_overflow(a, b, out); }
template <class T> inline bool checked_add(T a, T b, T* out) { return !__builtin_add_overflow(a, b, out); }

// Rounds v up to a multiple of `align` (a power of two); false on overflow.
inline bool checked_align_up(size_t v, size_t align, size_t* out) {
    size_t t;
    if (!checked_add(v, align - 1, &t)) return false;
    *out = t & ~(align - 1);
    return true;
}

}  // namespace npurun
