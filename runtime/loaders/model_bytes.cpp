#include "runtime/loaders/model_bytes.h"

#include <cstring>

namespace npurun {

void hold_model_bytes(Graph& g, const uint8_t*& data, size_t size, std::shared_ptr<ConstantStorage> keepalive) {
    if (reinterpret_cast<uintptr_t>(data) % 8 != 0 || !keepalive) {
        uint8_t* copy = g.allocate_owned(size);
        std::memcpy(copy, data, size);
        data = copy;
    } else {
        g.file = std::move(keepalive);
    }
}

flatbuffers::Verifier::Options model_verifier_options() {
    flatbuffers::Verifier::Options opts;
    opts.max_depth = 64;
    opts.max_tables = 1u << 24;
    opts.check_alignment = true;
    return opts;
}

}  // namespace npurun
