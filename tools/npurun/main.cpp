// npurun: run a model on input files. The contract (arguments, outputs, exit codes) is in README.md
// "Command line"; scripts rely on it, so change it only deliberately.
//
// Order of work: every check that can fail because of what the user gave (flags, output path, model,
// input count and sizes) happens before anything runs, and outputs are written only after a successful
// run, atomically. So an error never leaves a partial or stale-looking output behind.
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "include/npurun/npurun.hpp"
#include "runtime/npu/npu_backend.h"
#include "runtime/npurun_version.h"
#include "runtime/passes/lstm_lowering.h"
#include "runtime/passes/placement.h"
#include "runtime/plan/memory_plan.h"
#include "runtime/session/session_factory.h"
#include "runtime/util/npy.h"
#include "tools/common/image.h"
#include "tools/common/image_tensor.h"
#include "tools/npurun-selftest/selftest_cli.h"
#include "tools/npurun/compare.h"
#include "tools/npurun/files.h"
#include "tools/npurun/labels.h"
#include "tools/npurun/options.h"
#include "tools/npurun/report.h"
#include "tools/npurun/trace.h"

using namespace npurun;
using namespace npurun::cli;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Milliseconds for real models, microseconds for tiny ones (so the figure is never a bare 0.000).
std::string duration_text(double ms) {
    char buf[32];
    if (ms >= 1.0)
        std::snprintf(buf, sizeof buf, "%.3f ms", ms);
    else
        std::snprintf(buf, sizeof buf, "%.1f us", ms * 1000.0);
    return buf;
}

// Messages are one line by contract, whatever a lower layer put into them.
std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

std::string binding_list(const std::vector<Binding>& bindings) {
    std::string s;
    for (size_t i = 0; i < bindings.size(); ++i) s += (i ? ", '" : "'") + bindings[i].name + "'";
    return s;
}

void check_model_file(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        fail(ErrorKind::BadModel, "cannot open model '" + path + "': " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail(ErrorKind::BadModel, "model '" + path + "' is not a regular file");
}

int info_command(const std::shared_ptr<const Model>& model, const Options& o) {
    MemoryPlanStats stats;
    std::string note;
    try {
        SessionOptions so;
        so.device = o.device;
        so.threads = o.threads;
        so.max_memory_bytes = o.max_memory;
        stats = Session(model, so).memory_stats();
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::Unsupported && e.kind() != ErrorKind::Device) throw;
        // Still worth showing the plan of the tensors; only kernel scratch is unknown.
        const plan::MemoryPlan p = plan::plan_memory(model->graph(), {});
        stats.arena_bytes = p.arena_bytes;
        stats.naive_bytes = p.naive_bytes;
        stats.num_tensors = p.num_buffers;
        note = " (without kernel scratch; not runnable here: " + one_line(e.what()) + ")";
    }
    print_model_info(stdout, *model, stats, note);
    const Graph& g = model->graph();
    for (size_t i = 0; i < g.inputs.size(); ++i)
        std::printf("image for input %zu '%s': %s\n", i, g.inputs[i].name.c_str(),
                    image::plan_image_input(g, g.inputs[i], o.image).describe().c_str());
    return 0;
}

// INPUT i: an image (by file name) decoded and converted as its plan says, else raw bytes or .npy.
std::vector<uint8_t> load_input(const Graph& g, size_t i, const std::string& path, const image::Preprocess& pre) {
    const Binding& b = g.inputs[i];
    if (!image::is_image_file(path)) return read_input(path, i, b.name, g.info(b.tensor));
    const std::string what = "input " + std::to_string(i) + " '" + b.name + "'";
    try {
        const image::InputPlan plan = image::plan_image_input(g, b, pre);
        if (!plan.refusal.empty()) fail(ErrorKind::BadInput, "image '" + path + "' cannot feed it: " + plan.refusal);
        return image::image_to_tensor(image::read_image(path), plan, path);
    } catch (const Error& e) {
        fail(e.kind(), what + ": " + e.what());
    }
}

// --labels: the names per output that gets a top-5 (empty vector: none for that output).
std::vector<std::vector<std::string>> labels_per_output(const Graph& g, const std::string& path) {
    const std::vector<std::string> file = read_labels(path);
    std::vector<std::vector<std::string>> per(g.outputs.size());
    bool any = false;
    for (size_t i = 0; i < g.outputs.size(); ++i) {
        size_t classes = 0;
        if (!is_scores_output(g.info(g.outputs[i].tensor), &classes)) continue;
        per[i] = labels_for(file, classes, path);
        any = true;
    }
    if (!any) fail(ErrorKind::BadInput, "--labels: no output of the model is a list of scores ([N] or [1,N])");
    return per;
}

int run_command(const Options& o) {
    // Flags and destination first: cheap, and nothing must run if the result could not be saved.
    OutputTarget target;
    if (!o.output.empty()) target = resolve_output(o.output);
    OutputTarget trace_target;
    if (!o.trace.empty()) {
        trace_target = resolve_output(o.trace);
        if (trace_target.directory) fail(ErrorKind::BadInput, "--trace needs a file name, '" + o.trace + "' is a directory");
    }

    check_model_file(o.model);
    const auto load_start = Clock::now();
    const std::shared_ptr<const Model> model = Model::load(o.model, LoadOptions{o.input_shapes});
    const double load_ms = ms_since(load_start);
    if (o.info) return info_command(model, o);
    if (o.explain) {
        // The NPU placement for npu/sim/auto (what --device sim or a board would run), CPU for cpu.
        // A session on the NPU runs its graph with Lstm layers decomposed (runtime/passes/lstm_lowering.h): so does this.
        PlacementOptions po = o.device == DeviceKind::Cpu ? PlacementOptions{} : npu::npu_placement_options(o.fp16);
        const std::unique_ptr<Graph> lowered = lower_lstm_layers(model->graph(), po);
        const Graph& placed = lowered ? *lowered : model->graph();
        std::fputs(explain(placed, place(placed, po)).c_str(), stdout);
        return 0;
    }

    const Graph& g = model->graph();
    if (o.inputs.size() != g.inputs.size())
        fail(ErrorKind::BadInput, "model '" + o.model + "' has " + std::to_string(g.inputs.size()) + " input" +
                                      (g.inputs.size() == 1 ? "" : "s") +
                                      (g.inputs.empty() ? "" : " (" + binding_list(g.inputs) + ")") + " but " +
                                      std::to_string(o.inputs.size()) + " input file" +
                                      (o.inputs.size() == 1 ? " was" : "s were") + " given");
    if (!o.output.empty() && !target.directory && o.npy && g.outputs.size() != 1)
        fail(ErrorKind::BadInput, "--npy with -o FILE needs a model with exactly one output (this one has " +
                                      std::to_string(g.outputs.size()) + "); use -o DIR/");

    std::vector<std::vector<std::string>> labels;
    if (!o.labels.empty()) labels = labels_per_output(g, o.labels);
    if (!o.labels.empty() && !o.output.empty()) fail(ErrorKind::BadInput, "--labels names the printed top-5; it cannot be used with -o");

    std::vector<std::vector<uint8_t>> input_data;
    for (size_t i = 0; i < o.inputs.size(); ++i) input_data.push_back(load_input(g, i, o.inputs[i], o.image));

    SessionOptions so;
    so.device = o.device;
    so.threads = o.threads;
    so.profile = o.profile || !o.trace.empty();
    so.fp16 = o.fp16;
    so.cpu_fp16 = o.cpu_fp16;
    so.npu_cores = o.npu_cores;
    so.max_memory_bytes = o.max_memory;
    Session session(model, so);
    if (!o.dump_regcmd.empty()) {
        const npu::NpuBackend* npu = SessionFactory::npu_backend(session);
        if (npu == nullptr) fail(ErrorKind::BadInput, "--dump-regcmd needs --device npu or sim");
        npu::dump_regcmd(*npu, o.dump_regcmd);
    }
    for (size_t i = 0; i < input_data.size(); ++i)
        std::memcpy(session.input(i).data, input_data[i].data(), input_data[i].size());

    std::vector<double> run_ms;
    run_ms.reserve(o.iterations);
    for (unsigned it = 0; it < o.iterations; ++it) {
        const auto t0 = Clock::now();
        session.run();
        run_ms.push_back(ms_since(t0));
    }

    if (o.output.empty()) {
        for (size_t i = 0; i < session.num_outputs(); ++i)
            print_output_summary(stdout, i, session.output(i), labels.empty() || labels[i].empty() ? nullptr : &labels[i]);
    } else {
        // Headers must outlive the write: keep them here.
        std::vector<std::vector<uint8_t>> headers(session.num_outputs());
        std::vector<PendingFile> files;
        if (target.directory) {
            std::vector<std::string> used;
            for (size_t i = 0; i < session.num_outputs(); ++i) {
                const TensorBinding& b = session.output(i);
                std::string base = sanitize_file_name(b.name);
                if (base.empty()) base = "output" + std::to_string(i);
                for (const std::string& u : used)
                    if (u == base) base += "_" + std::to_string(i);
                used.push_back(base);
                PendingFile f;
                f.path = target.path + "/" + base + (o.npy ? ".npy" : ".bin");
                if (o.npy) {
                    headers[i] = npy::make_header(b.info);
                    f.chunks.push_back({headers[i].data(), headers[i].size()});
                }
                f.chunks.push_back({b.data, b.info.num_bytes()});
                files.push_back(std::move(f));
            }
        } else {
            PendingFile f;
            f.path = target.path;
            for (size_t i = 0; i < session.num_outputs(); ++i) {
                const TensorBinding& b = session.output(i);
                if (o.npy) {
                    headers[i] = npy::make_header(b.info);
                    f.chunks.push_back({headers[i].data(), headers[i].size()});
                }
                f.chunks.push_back({b.data, b.info.num_bytes()});
            }
            files.push_back(std::move(f));
        }
        write_files_atomically(files);
        size_t total = 0;
        for (const auto& f : files)
            for (const auto& c : f.chunks) total += c.second;
        std::printf("wrote %zu output%s (%zu bytes) to %s\n", session.num_outputs(),
                    session.num_outputs() == 1 ? "" : "s", total, o.output.c_str());
    }

    if (!o.trace.empty()) {
        const std::string json = chrome_trace_json(session.trace(), "npurun " + o.model + " (" + to_string(session.device()) + ")");
        write_files_atomically({PendingFile{trace_target.path, {{json.data(), json.size()}}}});
    }
    if (o.compare_cpu) {
        SessionOptions cpu = so;
        cpu.device = DeviceKind::Cpu;
        cpu.profile = false;
        cpu.cpu_fp16 = false;  // the reference is the Float32 CPU path, so --cpu-fp16 --compare cpu shows its error
        Session reference(model, cpu);
        for (size_t i = 0; i < input_data.size(); ++i)
            std::memcpy(reference.input(i).data, input_data[i].data(), input_data[i].size());
        reference.run();
        print_comparison(stdout, session, reference);
    }
    if (o.profile) print_profile(stdout, session.profile());
    if (o.iterations_given) {
        const Latency l = latency_of(run_ms);
        std::printf("model load %s; %u iteration%s: median %s, p90 %s\n", duration_text(load_ms).c_str(), o.iterations,
                    o.iterations == 1 ? "" : "s", duration_text(l.median_ms).c_str(), duration_text(l.p90_ms).c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    // `npurun --selftest [options]` is npurun-selftest (the bring-up self-test), for images that ship
    // only npurun; everything after the flag is the self-test's own command line.
    if (argc >= 2 && std::strcmp(argv[1], "--selftest") == 0)
        return selftest::selftest_main(std::vector<std::string>(argv + 2, argv + argc), "npurun --selftest");
    try {
        const Options o = parse_options(argc, argv);
        if (o.help) {
            std::fputs(usage(), stdout);
            return 0;
        }
        if (o.version) {
            std::printf("npurun %s\n", NPURUN_VERSION);
            return 0;
        }
        if (o.list_layers) {
            print_layer_support(stdout);
            if (std::fflush(stdout) != 0) fail(ErrorKind::Runtime, "cannot write to standard output");
            return 0;
        }
        const int rc = run_command(o);
        if (std::fflush(stdout) != 0) fail(ErrorKind::Runtime, "cannot write to standard output");
        return rc;
    } catch (const Error& e) {
        std::fprintf(stderr, "npurun: error: %s\n", one_line(e.what()).c_str());
        return exit_code(e.kind());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "npurun: error: out of memory\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "npurun: error: internal error: %s\n", one_line(e.what()).c_str());
        return 1;
    }
}
