// libFuzzer target for the whole pipeline: load -> validate -> place/plan -> compile for the simulated
// NPU -> run on the CPU and on the simulator, with inputs derived from the fuzz data. Any input must
// either run or be refused with npurun::Error; crashes, sanitizer reports, hangs, other exceptions and
// a session that asks for more than the fuzzing memory budget without refusing are findings.
//
// Sessions get a small memory budget (kFuzzMemory): the budget check is part of what is fuzzed (a
// 544-byte model declaring a 23.7 GB tensor must be refused, not allocated), and it keeps every run
// fast. Built only with clang (libFuzzer); see tests/fuzz/meson.build and `make fuzz`.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "include/npurun/npurun.hpp"
#include "kernels/neon/thread_pool.h"
#include "core/error.h"

namespace {

constexpr uint64_t kFuzzMemory = 16u << 20;

// Deterministic input bytes from the fuzz data (FNV-1a of the data seeds a xorshift), so a finding
// reproduces from the file alone.
void fill_inputs(npurun::Session& s, const uint8_t* data, size_t size) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
    for (size_t i = 0; i < s.num_inputs(); ++i) {
        npurun::TensorBinding& b = s.input(i);
        uint8_t* p = static_cast<uint8_t*>(b.data);
        const size_t n = b.info.num_bytes();
        for (size_t k = 0; k < n; ++k) {
            h ^= h << 13, h ^= h >> 7, h ^= h << 17;
            p[k] = uint8_t(h);
        }
        // Floats: keep them finite and moderate (raw random bits are mostly NaN/huge, which exercises
        // nothing beyond the first layer).
        if (b.info.dtype == npurun::DataType::Float32)
            for (size_t k = 0; k + 4 <= n; k += 4) {
                const float v = float(int8_t(p[k])) / 16.0f;
                std::memcpy(p + k, &v, 4);
            }
    }
}

void run_on(const std::shared_ptr<const npurun::Model>& model, npurun::DeviceKind device, const uint8_t* data, size_t size) {
    npurun::SessionOptions o;
    o.device = device;
    o.max_memory_bytes = kFuzzMemory;
    try {
        npurun::Session s(model, o);
        fill_inputs(s, data, size);
        s.run();
        for (size_t i = 0; i < s.num_outputs(); ++i) (void)s.output(i).data;
    } catch (const npurun::Error&) {
        // Refused (unsupported layer, budget, device): a clean outcome.
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    npurun::kernels::neon::set_num_threads(1);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::shared_ptr<const npurun::Model> model;
    try {
        model = npurun::Model::load_from_memory(data, size, "fuzz-input");
    } catch (const npurun::Error&) {
        return 0;
    }
    run_on(model, npurun::DeviceKind::Cpu, data, size);
    run_on(model, npurun::DeviceKind::Sim, data, size);
    return 0;
}
