// conformance-gen: builds every conformance case with Arm NN 20.08 and records CpuRef's outputs.
//
//   conformance-gen --out DIR --index FILE [--shared DIR] [--backend-path DIR]
//
// --backend-path: folder holding Arm NN dynamic backends (Debian: <libdir>/armnn22, CpuRef).
//
// Links only Arm NN (never the npurun library: both carry FlatBuffers code for namespace
// armnnSerializer from different schema versions). Cases Arm NN cannot build or run are listed in the
// index as skipped with the reason.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/conformance/generator/armnn_runner.h"
#include "tests/conformance/generator/case_files.h"
#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/enum_coverage.h"
#include "tests/conformance/generator/random_tensor.h"
#include "tests/conformance/generator/real_models.h"

using namespace conformance;

namespace {

// Runs a case's network builder; Arm NN refusing the network makes the case a skip (`refusal` + Arm NN's message).
void build_or_skip(const std::function<void(Net&)>& build, Net& net, const char* refusal) {
    try {
        build(net);
    } catch (const armnn::Exception& e) {
        throw CaseSkipped(refusal + std::string(e.what()));
    }
}

CaseRecord run_spec(const CaseSpec& spec, CpuRefRunner& runner) {
    Prng prng = Prng::for_case(spec.name);
    Net net(prng);
    build_or_skip(spec.build, net, "INetwork rejects it: ");
    const std::vector<ValueRange> ranges = net.input_ranges();
    std::vector<std::vector<float>> presets;
    for (size_t i = 0; i < ranges.size(); ++i) presets.push_back(net.preset(i));
    armnn::INetworkPtr built = net.take();

    CaseRecord rec;
    rec.name = spec.name;
    rec.layer = spec.layer;
    rec.dtype = spec.dtype;
    rec.compare = spec.compare;
    rec.tolerance = spec.tolerance;
    rec.cli = spec.cli;
    rec.model = serialize(*built);
    if (spec.patch_file) spec.patch_file(rec.model);
    armnn::INetworkPtr read_back(nullptr, nullptr);
    if (!spec.oracle_from_built) read_back = deserialize(rec.model);
    const armnn::INetwork& file_net = spec.oracle_from_built ? *built : *read_back;
    if (!spec.note.empty()) rec.notes.push_back(spec.note);
    rec.bindings = bindings_of(file_net);
    if (rec.bindings.inputs.size() != ranges.size()) throw CaseSkipped("internal: inputs lost in serialization");
    for (size_t i = 0; i < rec.bindings.inputs.size(); ++i) {
        const size_t id = static_cast<size_t>(rec.bindings.inputs[i].id);
        if (!presets.at(id).empty()) rec.inputs.push_back(encode_tensor(rec.bindings.inputs[i].info, presets[id]));
        else rec.inputs.push_back(random_tensor(rec.bindings.inputs[i].info, ranges.at(id), prng));
    }
    if (spec.oracle_build) {
        // CpuRef runs a different network computing the corrected semantics (see CaseSpec). It draws its
        // constants from the same seed, in the same order as `build`; the inputs above are shared.
        Prng oracle_prng = Prng::for_case(spec.name);
        Net alt(oracle_prng);
        build_or_skip(spec.oracle_build, alt, "INetwork rejects the substitute oracle: ");
        armnn::INetworkPtr alt_net = alt.take();
        const Bindings alt_bindings = bindings_of(*alt_net);
        if (alt_bindings.inputs.size() != rec.bindings.inputs.size() ||
            alt_bindings.outputs.size() != rec.bindings.outputs.size())
            throw std::runtime_error(spec.name + ": oracle network has other bindings than the model");
        rec.expected = runner.run(*alt_net, alt_bindings, rec.inputs);
        if (spec.skip_file_run_on_cpuref) {
            rec.notes.push_back("CpuRef 20.08 not run on the file itself (it would crash, see note)");
        } else {
            try {
                const std::vector<Bytes> direct = runner.run(file_net, rec.bindings, rec.inputs);
                rec.notes.push_back(direct == rec.expected ? "CpuRef 20.08 on the file itself gives the same values"
                                                           : "CpuRef 20.08 on the file itself differs (its documented bug)");
            } catch (const std::exception& e) {  // CaseSkipped or armnn::Exception: CpuRef refuses it
                rec.notes.push_back(std::string("CpuRef 20.08 refuses the file itself: ") + e.what());
            }
        }
    } else {
        rec.expected = runner.run(file_net, rec.bindings, rec.inputs);
    }
    if (spec.hand_expected) {
        const std::vector<Bytes> hand = spec.hand_expected(rec.inputs);
        if (hand.size() != rec.expected.size()) throw std::runtime_error(spec.name + ": wrong number of hand-computed outputs");
        for (size_t i = 0; i < hand.size(); ++i)
            if (hand[i].size() != rec.expected[i].size()) throw std::runtime_error(spec.name + ": hand-computed output size");
        rec.notes.push_back(hand == rec.expected ? "CpuRef 20.08 gives the same values"
                                                 : "CpuRef 20.08 differs here (its documented bug); expected values are hand-computed");
        rec.expected = hand;
    }
    return rec;
}

// Runs `make` in a child process and writes its case there. Arm NN 20.08 reports several unsupported
// combinations with assert() (abort) rather than an exception; isolating each case turns such an
// abort into a skipped case with Arm NN's message instead of killing the whole generation.
IndexEntry run_isolated(IndexEntry entry, const std::string& out_dir, const std::function<CaseRecord()>& make) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);  // Arm NN's assertion text lands in the pipe
        int code = 0;
        try {
            write_case(out_dir, make());
        } catch (const CaseSkipped& s) {
            std::fprintf(stderr, "%s\n", s.what());
            code = 3;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "generator error: %s\n", e.what());
            code = 4;
        }
        std::fflush(stderr);
        _exit(code);
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    // Whatever the child printed, on one line (Arm NN's messages span several).
    std::string last;
    for (char c : text) {
        if (c == '\n' || c == '\r') c = ' ';
        if (c == ' ' && (last.empty() || last.back() == ' ')) continue;
        last += c;
    }
    while (!last.empty() && last.back() == ' ') last.pop_back();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return entry;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 4) throw std::runtime_error(entry.name + ": " + last);
    entry.status = "skipped";
    entry.reason = WIFSIGNALED(status) ? "Arm NN aborted (signal " + std::to_string(WTERMSIG(status)) + "): " + last : last;
    return entry;
}

}  // namespace

int main(int argc, char** argv) {
    std::string out_dir, index_path, shared_dir, backend_path;
    bool verbose = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--out" && i + 1 < argc) out_dir = argv[++i];
        else if (a == "--index" && i + 1 < argc) index_path = argv[++i];
        else if (a == "--shared" && i + 1 < argc) shared_dir = argv[++i];
        else if (a == "--verbose") verbose = true;
        else if (a == "--backend-path" && i + 1 < argc) backend_path = argv[++i];
        else {
            std::fprintf(stderr, "conformance-gen: unknown argument '%s'\n", a.c_str());
            return 2;
        }
    }
    if (out_dir.empty() || index_path.empty()) {
        std::fprintf(stderr, "usage: conformance-gen --out DIR --index FILE [--shared DIR] [--backend-path DIR]\n");
        return 2;
    }
    armnn::ConfigureLogging(false, false, armnn::LogSeverity::Fatal);

    std::vector<CaseSpec> specs;
    add_conv_cases(specs);
    add_pooling_cases(specs);
    add_activation_cases(specs);
    add_elementwise_cases(specs);
    add_shape_cases(specs);
    add_norm_quant_cases(specs);
    add_normalization_cases(specs);
    add_prelu_logsoftmax_cases(specs);
    add_transpose_conv_cases(specs);
    add_detection_cases(specs);
    add_recurrent_cases(specs);
    add_indexing_cases(specs);
    add_logic_cases(specs);
    add_deprecated_api_cases(specs);
    // The first case of each (layer, data type) also runs through the npurun binary.
    std::set<std::string> cli_chosen;
    for (CaseSpec& spec : specs)
        if (cli_chosen.insert(spec.layer + "/" + spec.dtype).second) spec.cli = true;

    try {
        CpuRefRunner runner(backend_path);
        std::vector<IndexEntry> index;
        std::set<std::string> names;
        std::map<std::string, int> per_status;
        auto record = [&](const std::string& name, const std::string& layer, const std::string& dtype,
                          const std::function<CaseRecord()>& make) {
            if (!names.insert(name).second) throw std::runtime_error("duplicate case name " + name);
            if (verbose) std::fprintf(stderr, "case %s\n", name.c_str());
            const IndexEntry e = run_isolated(IndexEntry{name, "ok", layer, dtype, ""}, out_dir, make);
            ++per_status[e.status];
            index.push_back(e);
        };
        make_directory(out_dir);
        for (const CaseSpec& spec : specs)
            record(spec.name, spec.layer, spec.dtype, [&] { return run_spec(spec, runner); });
        for (const RealCase& real : real_model_cases(shared_dir))
            record(real.name, real.layer, real.dtype, [&] { return real.make(runner); });
        for (const RealCase& real : legacy_compute_model_cases(shared_dir))
            record(real.name, real.layer, real.dtype, [&] { return real.make(runner); });
        write_index(index_path, index);
        const EnumCoverage coverage = enum_coverage(specs, index);
        for (const auto& [family, values] : coverage.values_per_family)
            std::printf("conformance-gen: %s: %d values, %d generated cases\n", family.c_str(), values,
                        coverage.ok_cases_per_family.count(family) ? coverage.ok_cases_per_family.at(family) : 0);
        if (!coverage.missing.empty()) {
            std::string list;
            for (const std::string& m : coverage.missing) list += (list.empty() ? "" : ", ") + m;
            throw std::runtime_error("no generated case for " + list + " (every value Arm NN 20.08 defines needs one)");
        }
        std::printf("conformance-gen: %zu cases, %d generated, %d skipped\n", index.size(), per_status["ok"],
                    per_status["skipped"]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "conformance-gen: %s\n", e.what());
        return 1;
    }
    return 0;
}
