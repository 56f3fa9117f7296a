#include "ir/graph.h"

#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "core/checked_math.h"

namespace npurun {

std::string Node::describe() const {
    std::string s = "layer " + std::to_string(source_index);
    if (!name.empty()) s += " '" + name + "'";
    s += " (";
    s += to_string(op);
    s += ")";
    return s;
}

TensorId Graph::add_tensor(Tensor t) {
    tensors.push_back(std::move(t));
    return TensorId(tensors.size() - 1);
}

uint8_t* Graph::allocate_owned(size_t bytes) {
    // Over-allocate so the returned pointer can be 64-byte aligned (SIMD loads, DMA-friendly copies).
    size_t padded = 0;
    if (!checked_add(bytes, size_t(64), &padded)) fail(ErrorKind::BadModel, "constant too large");
    owned.emplace_back(new uint8_t[padded]());
    uintptr_t p = reinterpret_cast<uintptr_t>(owned.back().get());
    return reinterpret_cast<uint8_t*>((p + 63) & ~uintptr_t(63));
}

}  // namespace npurun
