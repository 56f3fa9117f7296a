// The npurun command line: `npurun [options] MODEL INPUT... [-o OUT]`. Parsing only; no file is touched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "kernels/neon/thread_pool.h"
#include "tools/common/image_tensor.h"

namespace npurun::cli {

struct Options {
    std::string model;
    std::vector<std::string> inputs;
    std::string output;  // empty: print a summary instead of writing files
    bool npy = false;
    DeviceKind device = DeviceKind::Auto;
    unsigned iterations = 1;
    bool iterations_given = false;
    // Default: the number of big cores (RK3588: the four Cortex-A76), see kernels/neon/cpu_topology.h.
    unsigned threads = kernels::neon::default_num_threads();
    bool profile = false;
    bool info = false;
    bool explain = false;      // print the placement table (device per layer, why not NPU) and exit
    std::vector<std::pair<std::string, std::vector<uint32_t>>> input_shapes;  // --input-shape NAME=1x3x224x224
    bool fp16 = false;         // Float32 layers may run on the NPU as float16 (lossy)
    bool cpu_fp16 = false;     // CPU convolutions / fully connected layers in fp16 arithmetic (lossy)
    unsigned npu_cores = 0;    // --npu-cores: 0 = auto, 1..3
    uint64_t max_memory = 0;   // --max-memory: bytes the session may allocate for the model; 0 = default
    std::string dump_regcmd;   // directory to write each NPU segment's regcmd buffer into
    image::Preprocess image;   // --channel-order, --resize, --mean, --std, --layout: how image inputs are fed
    std::string labels;        // --labels FILE: class names for the top-5
    std::string trace;         // --trace FILE.json: Chrome/Perfetto trace of one inference
    bool compare_cpu = false;  // --compare cpu: also run on the CPU and report the largest difference per output
    bool help = false;
    bool version = false;
    bool list_layers = false;  // npurun --list-layers: the support table, no model
};

// Throws Error(BadInput) with a one-line message for an unknown flag, a missing or malformed value,
// or a missing MODEL.
Options parse_options(int argc, const char* const* argv);

const char* usage();

}  // namespace npurun::cli
