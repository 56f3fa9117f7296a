// libFuzzer target for the .armnn loader: any input must either load or throw npurun::Error. Crashes,
// sanitizer reports, hangs and any other exception are findings.
//
// Built only when the compiler supports -fsanitize=fuzzer (clang); see tests/fuzz/meson.build. Run:
//   build/tests/fuzz/fuzz-armnn-loader -max_total_time=60 ../shared/models/armnn
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "runtime/loaders/load_model.h"
#include "tests/fuzz/touch_graph.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const npurun::Graph g = npurun::load_model_memory(data, size, "fuzz-input");
        npurun::fuzz::touch_every_tensor(g);
    } catch (const npurun::Error&) {
        // A clean rejection is the expected outcome for most inputs.
    }
    return 0;
}
