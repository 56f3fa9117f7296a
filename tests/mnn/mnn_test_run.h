// Loading and running in-memory .mnn files in the loader tests: load, the one-line error of a failed
// load, and a CPU run of a single-input model.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "include/npurun/npurun.hpp"

namespace npurun::mnn_testing {

inline std::shared_ptr<const Model> load(const std::vector<uint8_t>& bytes) {
    return Model::load_from_memory(bytes.data(), bytes.size(), "test.mnn");
}

// Loads; on failure returns the message (and checks it is one npurun::Error line).
inline std::string load_error(const std::vector<uint8_t>& bytes) {
    try {
        (void)load(bytes);
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_FALSE(m.empty());
        return m;
    }
    return "";
}

// Runs on `device` with float inputs (one vector per model input) and returns output `k`.
inline std::vector<float> run_on(DeviceKind device, const std::shared_ptr<const Model>& m,
                                 const std::vector<std::vector<float>>& xs, size_t k = 0) {
    SessionOptions o;
    o.device = device;
    Session s(m, o);
    for (size_t i = 0; i < xs.size(); ++i) {
        EXPECT_EQ(s.input(i).info.num_bytes(), xs[i].size() * 4);
        if (s.input(i).info.num_bytes() != xs[i].size() * 4) return {};
        std::memcpy(s.input(i).data, xs[i].data(), xs[i].size() * 4);
    }
    s.run();
    const float* y = static_cast<const float*>(s.output(k).data);
    return {y, y + s.output(k).info.shape.num_elements()};
}

inline std::vector<float> run_cpu(const std::shared_ptr<const Model>& m, const std::vector<std::vector<float>>& xs,
                                  size_t k = 0) {
    return run_on(DeviceKind::Cpu, m, xs, k);
}

inline std::vector<float> run_cpu(const std::shared_ptr<const Model>& m, const std::vector<float>& x) {
    return run_cpu(m, std::vector<std::vector<float>>{x});
}

}  // namespace npurun::mnn_testing
