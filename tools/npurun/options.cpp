#include "tools/npurun/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "runtime/plan/memory_budget.h"
#include "tools/common/switch_flags.h"

namespace npurun::cli {
namespace {

[[noreturn]] void bad_flag(const std::string& msg) { fail(ErrorKind::BadInput, msg + " (see 'npurun --help')"); }

unsigned parse_count(const std::string& flag, const std::string& value, unsigned max) {
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
        bad_flag(flag + " expects a whole number, got '" + value + "'");
    errno = 0;
    const unsigned long v = std::strtoul(value.c_str(), nullptr, 10);
    if (errno != 0 || v < 1 || v > max)
        bad_flag(flag + " must be between 1 and " + std::to_string(max) + ", got '" + value + "'");
    return unsigned(v);
}

// NAME=1x3x224x224 (the name may itself contain '='; the shape follows the last one).
std::pair<std::string, std::vector<uint32_t>> parse_input_shape(const std::string& value) {
    const size_t eq = value.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
        bad_flag("--input-shape needs NAME=DIMS, e.g. input=1x3x224x224, got '" + value + "'");
    std::vector<uint32_t> dims;
    size_t pos = eq + 1;
    while (pos <= value.size()) {
        const size_t x = std::min(value.find('x', pos), value.size());
        const std::string d = value.substr(pos, x - pos);
        if (d.empty() || d.size() > 9 || d.find_first_not_of("0123456789") != std::string::npos || std::stoul(d) == 0)
            bad_flag("--input-shape " + value + ": '" + d + "' is not a positive dimension");
        dims.push_back(static_cast<uint32_t>(std::stoul(d)));
        pos = x + 1;
    }
    if (dims.size() > kMaxRank) bad_flag("--input-shape " + value + ": more than " + std::to_string(kMaxRank) + " dimensions");
    return {value.substr(0, eq), dims};
}

DeviceKind parse_device(const std::string& value) {
    if (value == "auto") return DeviceKind::Auto;
    if (value == "cpu") return DeviceKind::Cpu;
    if (value == "npu") return DeviceKind::Npu;
    if (value == "sim") return DeviceKind::Sim;
    bad_flag("unknown device '" + value + "' (expected auto, cpu, npu or sim)");
}

// "127.5" or "123.7,116.3,103.5": finite numbers separated by commas.
std::vector<float> parse_floats(const std::string& flag, const std::string& value) {
    std::vector<float> out;
    size_t start = 0;
    while (true) {
        const size_t comma = value.find(',', start);
        const std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        char* end = nullptr;
        errno = 0;
        const float v = std::strtof(item.c_str(), &end);
        if (item.empty() || end != item.c_str() + item.size() || errno != 0 || !std::isfinite(v))
            bad_flag(flag + " expects numbers separated by commas (one, or one per channel), got '" + value + "'");
        out.push_back(v);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (out.size() > 4) bad_flag(flag + " takes one value or one per channel, got " + std::to_string(out.size()));
    return out;
}

// The flags that take no value and only switch an option on.
const tools::SwitchFlag<Options> kSwitchFlags[] = {
    {"--npy", &Options::npy},           {"--profile", &Options::profile},
    {"--explain", &Options::explain},   {"--fp16", &Options::fp16},
    {"--info", &Options::info},         {"-h", &Options::help},
    {"--cpu-fp16", &Options::cpu_fp16}, {"--help", &Options::help},
    {"--version", &Options::version},   {"--list-layers", &Options::list_layers},
};

// A flag whose value is one of two words: the matching value, or "FLAG expects A or B, got 'V'".
template <class E> E pick(const std::string& flag, const std::string& v, const char* a, E va, const char* b, E vb) {
    if (v == a) return va;
    if (v == b) return vb;
    bad_flag(flag + " expects " + a + " or " + b + ", got '" + v + "'");
}

}  // namespace

const char* usage() {
    return "usage: npurun [options] MODEL INPUT... [-o OUT]\n"
           "\n"
           "Runs MODEL (an Arm NN .armnn file) on the given inputs.\n"
           "Each INPUT holds the raw little-endian bytes of one model input, in input binding order, in the\n"
           "dtype and dimension order the model declares; a .npy file is accepted too (dtype and shape\n"
           "must match), and an image (.jpg, .jpeg, .png, .ppm, .pgm, .bmp) is decoded, resized and\n"
           "converted to the input (npurun --info MODEL says how).\n"
           "\n"
           "options:\n"
           "  -o, --output OUT   write the raw bytes of every output, concatenated in output binding order;\n"
           "                     if OUT is an existing directory (or ends in '/'), write one file per\n"
           "                     output, named after its binding\n"
           "      --npy          write outputs as .npy files instead of raw bytes\n"
           "      --device DEV   auto (default: the board's NPU when its device node is present and\n"
           "                     opens, else the CPU; never the simulator), cpu, npu or sim\n"
           "      --iterations N run N times and print the median and p90 latency\n"
           "      --profile      print a per-layer table: name, type, device, time, output shape;\n"
           "                     CPU-only runs also show the threads each layer was split over;\n"
           "                     NPU layers also show MACs, DMA bytes (simulator counters) and tasks\n"
           "      --explain      print where each layer runs (for --device npu/sim/auto: the NPU\n"
           "                     placement) and why a layer is not on the NPU, then exit\n"
           "      --fp16         let Float32 layers run on the NPU as float16 (lossy)\n"
           "      --cpu-fp16     run Float32 convolutions and fully connected layers on the CPU with\n"
           "                     float16 arithmetic (lossy, about twice as fast; aarch64 CPUs with FEAT_FP16)\n"
           "      --input-shape NAME=1x3x224x224\n"
           "                     shape of an input the model leaves open (MNN -1/0 dimensions; repeatable)\n"
           "      --npu-cores N  NPU cores each convolution is split over (a job per split layer):\n"
           "                     1, 2, 3 or auto (default: all 3 above 32 M MACs in a segment of one\n"
           "                     layer, above 96 M MACs in a longer one)\n"
           "      --dump-regcmd DIR  write each NPU segment's register command buffer to DIR\n"
           "      --max-memory SIZE  most memory the session may allocate for the model (arena, NPU\n"
           "                     buffers), e.g. 512M, 2G (K/M/G/T = 1024^n); default: half of physical\n"
           "                     memory. A model needing more is refused (exit 2)\n"
           "      --info         print a model summary without running it, with how an image would be fed\n"
           "      --threads N    CPU threads (default: the number of big cores, e.g. 4 on RK3588)\n"
           "      --labels FILE  class names, one per line (with or without a first 'background' line):\n"
           "                     the top-5 of score outputs are printed with their names\n"
           "      --trace FILE.json  write a Chrome/Perfetto trace (traceEvents) of one inference: CPU layers,\n"
           "                     NPU segments with their conversions, tasks, submit and wait\n"
           "      --compare cpu  also run on the CPU (Float32 kernels, even with --cpu-fp16) and print the\n"
           "                     largest difference per output\n"
           "\n"
           "image inputs:\n"
           "      --channel-order rgb|bgr  channel order the model expects (default rgb)\n"
           "      --resize stretch|crop    to the input's height and width, bilinear: the whole image\n"
           "                     (default) or its largest centred region of the right aspect ratio\n"
           "      --mean M[,M,M] --std S[,S,S]  float inputs get (pixel - M) / S per channel (default\n"
           "                     127.5 and 127.5: values in [-1, 1]); quantized inputs get the pixel as\n"
           "                     the quantized level (q = p, or p - 128 for int8) unless these are given,\n"
           "                     then (pixel - M) / S is quantized with the input's scale and zero point\n"
           "      --layout nhwc|nchw  override the input layout (default: from the layer reading the input)\n"
           "\n"
           "  -h, --help         print this help\n"
           "      --version      print the version\n"
           "      --list-layers  print, per layer type and data type, whether the CPU and the NPU run it\n"
           "                     (and why not); needs no model\n"
           "      --selftest [OPTIONS]  run the bring-up self-test (npurun-selftest; must be the first\n"
           "                     argument, the rest are its options: npurun --selftest --help)\n"
           "\n"
           "Without -o, a short summary of every output is printed.\n"
           "Exit status: 0 success; 2 bad model, input or option; 1 device or runtime failure.\n";
}

Options parse_options(int argc, const char* const* argv) {
    Options o;
    std::vector<std::string> positional;
    bool only_positional = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (only_positional || arg.empty() || arg[0] != '-' || arg == "-") {
            positional.push_back(arg);
            continue;
        }
        if (arg == "--") {
            only_positional = true;
            continue;
        }
        // "--flag=value" and "--flag value" are both accepted for flags with a value.
        std::string name = arg, value;
        bool inline_value = false;
        const size_t eq = arg.find('=');
        if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            inline_value = true;
        }
        auto take_value = [&]() -> std::string {
            if (inline_value) return value;
            if (i + 1 >= argc) bad_flag("option " + name + " needs a value");
            return argv[++i];
        };
        auto no_value = [&]() {
            if (inline_value) bad_flag("option " + name + " takes no value");
        };
        // A value that names a file or directory must not be empty (`what` it names, for the message).
        auto take_path = [&](const char* what) {
            std::string v = take_value();
            if (v.empty()) bad_flag("option " + name + " needs a non-empty " + what);
            return v;
        };
        if (bool Options::*field = tools::switched_field(kSwitchFlags, name)) {
            no_value();
            o.*field = true;
            continue;
        }
        if (name == "-o" || name == "--output") {
            o.output = take_path("path");
        } else if (name == "--device") {
            o.device = parse_device(take_value());
        } else if (name == "--iterations") {
            o.iterations = parse_count(name, take_value(), 1000000);
            o.iterations_given = true;
        } else if (name == "--threads") {
            o.threads = parse_count(name, take_value(), 1024);
        } else if (name == "--input-shape") {
            o.input_shapes.push_back(parse_input_shape(take_value()));
        } else if (name == "--npu-cores") {
            const std::string v = take_value();
            o.npu_cores = v == "auto" ? 0u : parse_count(name, v, 3);
        } else if (name == "--dump-regcmd") {
            o.dump_regcmd = take_path("directory");
        } else if (name == "--max-memory") {
            const std::string v = take_value();
            if (!plan::parse_memory_size(v, &o.max_memory))
                bad_flag("--max-memory expects a positive size in bytes with an optional K, M, G or T suffix, got '" + v + "'");
        } else if (name == "--labels") {
            o.labels = take_path("file name");
        } else if (name == "--trace") {
            o.trace = take_path("file name");
        } else if (name == "--compare") {
            const std::string v = take_value();
            if (v != "cpu") bad_flag("--compare expects 'cpu' (the device to compare with), got '" + v + "'");
            o.compare_cpu = true;
        } else if (name == "--channel-order") {
            o.image.order = pick(name, take_value(), "rgb", image::ChannelOrder::Rgb, "bgr", image::ChannelOrder::Bgr);
        } else if (name == "--resize") {
            o.image.resize = pick(name, take_value(), "stretch", image::ResizeMode::Stretch, "crop", image::ResizeMode::Crop);
        } else if (name == "--layout") {
            o.image.layout = pick(name, take_value(), "nhwc", image::LayoutChoice::Nhwc, "nchw", image::LayoutChoice::Nchw);
        } else if (name == "--mean") {
            o.image.mean = parse_floats(name, take_value());
        } else if (name == "--std") {
            o.image.stddev = parse_floats(name, take_value());
            for (float v : o.image.stddev)
                if (v == 0.0f) bad_flag("--std must not be 0");
        } else if (name == "--selftest") {
            bad_flag("--selftest must be the first argument (npurun --selftest [self-test options])");
        } else {
            bad_flag("unknown option '" + name + "'");
        }
    }
    if (o.help || o.version) return o;
    if (o.list_layers) {
        if (!positional.empty()) bad_flag("--list-layers takes no model or input");
        return o;
    }
    if (positional.empty()) bad_flag("no model given");
    o.model = positional[0];
    o.inputs.assign(positional.begin() + 1, positional.end());
    return o;
}

}  // namespace npurun::cli
