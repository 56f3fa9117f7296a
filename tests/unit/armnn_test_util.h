// Helpers shared by the Arm NN loader tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "ir/graph.h"
#include "runtime/loaders/load_model.h"
#include "tools/modelwriter/model_writer.h"

namespace npurun::testing {

namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

inline Graph load_bytes(const std::vector<uint8_t>& bytes) {
    return load_model_memory(bytes.data(), bytes.size(), "test.armnn");
}

// Loads `bytes` expecting Error(BadModel) whose message contains every one of `parts`.
inline void expect_bad_model(const std::vector<uint8_t>& bytes, const std::vector<std::string>& parts) {
    try {
        (void)load_bytes(bytes);
        ADD_FAILURE() << "expected Error(BadModel) containing '" << parts.front() << "'";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::BadModel) << e.what();
        for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << "message: " << e.what() << "\nmissing: " << p;
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line: " << e.what();
    }
}

inline const Node& node_named(const Graph& g, const std::string& name) {
    for (const Node& n : g.nodes)
        if (n.name == name) return n;
    throw std::runtime_error("no node named " + name);
}

template <class T>
std::vector<T> values(const Graph& g, TensorId id) {
    const Tensor& t = g.tensor(id);
    EXPECT_NE(t.data, nullptr) << t.name;
    std::vector<T> v(t.info.shape.num_elements());
    if (t.data) std::memcpy(v.data(), t.data, v.size() * sizeof(T));
    return v;
}

// Root of the shared real files, or "" (the test then skips).
inline std::string shared_dir() {
    const char* s = std::getenv("NPURUN_SHARED");
    return s ? std::string(s) : std::string();
}

// A 1x2x2x2 float tensor description, the default shape of the small test graphs.
inline mw::TensorDesc f32(std::vector<uint32_t> dims = {1, 2, 2, 2}) { return mw::tensor(std::move(dims)); }

}  // namespace npurun::testing
