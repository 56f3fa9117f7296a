// libFuzzer target for the .armnn loader: any input must either load or throw npurun::Error. Crashes,
// sanitizer reports, hangs and any other exception are findings.
//
// Built only when the compiler supports -fsanitize=fuzzer (clang); see tests/fuzz/meson.build. Run:
//   build/tests/fuzz/fuzz-armnn-loader -max_total_time=60 ../shared/models/armnn
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "runtime/loaders/load_model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const npurun::Graph g = npurun::load_model_memory(data, size, "fuzz-input");
        // Touch every tensor a later stage would: ids in range, sizes computable.
        for (const npurun::Node& n : g.nodes) {
            for (npurun::TensorId t : n.inputs)
                if (t != npurun::kNoTensor) (void)g.info(t).num_bytes();
            for (npurun::TensorId t : n.outputs) (void)g.info(t).num_bytes();
        }
    } catch (const npurun::Error&) {
        // A clean rejection is the expected outcome for most inputs.
    }
    return 0;
}
