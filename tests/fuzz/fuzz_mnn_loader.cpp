// libFuzzer target for the .mnn loader: any input must either load (and pass validation) or throw
// npurun::Error. Crashes, sanitizer reports, hangs and any other exception are findings.
//
// Built only when the compiler supports -fsanitize=fuzzer (clang); see tests/fuzz/meson.build. Run:
//   build-fuzz/tests/fuzz/fuzz-mnn-loader -max_total_time=60 ../shared/models/mnn
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "ir/ops/op_semantics.h"
#include "runtime/loaders/mnn/mnn_loader.h"
#include "tests/fuzz/touch_graph.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        // The MNN loader directly (format detection would send most mutants to the Arm NN loader).
        const npurun::Graph g = npurun::load_mnn(data, size, nullptr, npurun::LoadOptions{});
        npurun::validate_graph(g);
        npurun::fuzz::touch_every_tensor(g);
    } catch (const npurun::Error&) {
        // A clean rejection is the expected outcome for most inputs.
    }
    return 0;
}
