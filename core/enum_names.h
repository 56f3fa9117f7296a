// Names of the enumerators of an enum without explicit values, kept as a table in declaration order next
// to the enum's to_string. Each table is tied to its enum by a static_assert on the last enumerator, so
// adding an enumerator without its name fails to compile.
#pragma once

#include <cstddef>

namespace npurun {

// names[v], or "?" for a value outside the table (a corrupt value cast to the enum).
template <class E, size_t N> const char* enum_name(E v, const char* const (&names)[N]) {
    const size_t i = static_cast<size_t>(v);
    return i < N ? names[i] : "?";
}

}  // namespace npurun
