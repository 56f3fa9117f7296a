// Command-line flags that take no value and only switch a bool option on: one table per tool instead of
// one branch per flag.
#pragma once

#include <cstddef>
#include <string>

namespace npurun::tools {

template <class Options> struct SwitchFlag {
    const char* name;
    bool Options::*field;
};

// The option that flag `name` switches on, or nullptr when `name` is not in `flags`.
template <class Options, size_t N>
bool Options::*switched_field(const SwitchFlag<Options> (&flags)[N], const std::string& name) {
    for (const SwitchFlag<Options>& f : flags)
        if (name == f.name) return f.field;
    return nullptr;
}

}  // namespace npurun::tools
