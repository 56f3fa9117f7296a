// Conformance of npurun against Arm NN 20.08 CpuRef: one gtest per generated case (named after it).
//
// Environment (set by meson): NPURUN_CONFORMANCE_INDEX, NPURUN_CONFORMANCE_CASES (what conformance-gen
// wrote), NPURUN_BIN (the npurun binary; the Cli tests skip without it).
// Links the npurun library only, never Arm NN (see tests/conformance/meson.build).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "tests/conformance/harness/compare.h"
#include "tests/conformance/harness/manifest.h"

using namespace conformance;

namespace {

std::string env_or_empty(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::string g_load_error;  // why the case list could not be read (reported by IndexIsReadable)
std::map<std::string, std::string> g_skip_reasons;  // test name -> reason category, for the summary

std::vector<ConformanceCase> load_cases() {
    const std::string index = env_or_empty("NPURUN_CONFORMANCE_INDEX");
    const std::string dir = env_or_empty("NPURUN_CONFORMANCE_CASES");
    if (index.empty() || dir.empty()) {
        g_load_error = "NPURUN_CONFORMANCE_INDEX / NPURUN_CONFORMANCE_CASES not set (run through meson test)";
        return {};
    }
    try {
        return read_cases(index, dir);
    } catch (const std::exception& e) {
        g_load_error = e.what();
        return {};
    }
}

const std::vector<ConformanceCase>& all_cases() {
    static const std::vector<ConformanceCase> cases = load_cases();
    return cases;
}

std::vector<ConformanceCase> cli_cases() {
    std::vector<ConformanceCase> out;
    for (const auto& c : all_cases())
        if (!c.skipped() && c.cli) out.push_back(c);
    return out;
}

// A short category for the summary: the reason up to its first ':' or '|'.
std::string category(const std::string& reason) {
    std::string c = reason.substr(0, reason.find_first_of(":|"));
    while (!c.empty() && c.back() == ' ') c.pop_back();
    return c.size() > 70 ? c.substr(0, 70) : c;
}

void record_skip(const std::string& reason) {
    g_skip_reasons[::testing::UnitTest::GetInstance()->current_test_info()->name()] = category(reason);
}

std::string shape_str(const std::vector<uint32_t>& dims) {
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? "x" : "") + std::to_string(dims[i]);
    return s.empty() ? "scalar" : s;
}

// Checks that npurun's view of a binding matches what Arm NN wrote; empty string when it does.
std::string binding_mismatch(const npurun::TensorBinding& b, const ManifestBinding& m) {
    std::string why;
    if (npurun::to_string(b.info.dtype) != m.dtype) why += " dtype " + std::string(npurun::to_string(b.info.dtype)) + " vs " + m.dtype;
    if (b.info.shape.to_vector() != m.dims) why += " shape " + b.info.shape.str() + " vs " + shape_str(m.dims);
    if (npurun::is_quantized(b.info.dtype)) {
        const float s = b.info.quant.scale(0);
        if (std::fabs(s - m.scale) > 1e-6f * std::fabs(m.scale)) why += " scale " + std::to_string(s) + " vs " + std::to_string(m.scale);
        if (b.info.quant.offset != m.offset) why += " offset " + std::to_string(b.info.quant.offset) + " vs " + std::to_string(m.offset);
    }
    return why;
}

// Session slot of a manifest binding: by name (what Arm NN's own reader matches on) when the name is
// non-empty and unique among `all`, else by binding id (2019 files have unnamed inputs).
template <typename GetSlot>
size_t find_slot(size_t count, GetSlot slot, const ManifestBinding& m, const std::vector<ManifestBinding>& all) {
    size_t same_name = 0;
    for (const auto& other : all) same_name += other.name == m.name;
    if (!m.name.empty() && same_name == 1)
        for (size_t i = 0; i < count; ++i)
            if (slot(i).name == m.name) return i;
    for (size_t i = 0; i < count; ++i)
        if (slot(i).binding_id == m.id) return i;
    return count;
}

// Runs a case through the library. Returns the output bytes in the session's output order and the
// index of each manifest output in that order; records failures through gtest.
struct LibraryRun {
    std::vector<std::vector<uint8_t>> outputs;  // session order
    std::vector<size_t> manifest_to_session;    // manifest output i -> session output
    std::vector<std::string> input_files;       // session input order (for the CLI)
};

LibraryRun run_library(const ConformanceCase& c) {
    LibraryRun r;
    auto model = npurun::Model::load(c.model);
    npurun::SessionOptions options;
    options.device = npurun::DeviceKind::Cpu;
    npurun::Session session(model, options);
    EXPECT_EQ(session.num_inputs(), c.inputs.size()) << "number of inputs";
    EXPECT_EQ(session.num_outputs(), c.outputs.size()) << "number of outputs";
    r.input_files.resize(session.num_inputs());
    for (const ManifestBinding& m : c.inputs) {
        const size_t i = find_slot(session.num_inputs(), [&](size_t k) -> const npurun::TensorBinding& { return session.input(k); }, m, c.inputs);
        if (i == session.num_inputs()) {
            ADD_FAILURE() << "npurun has no input named '" << m.name << "' (id " << m.id << ")";
            return r;
        }
        npurun::TensorBinding& b = session.input(i);
        const std::string why = binding_mismatch(b, m);
        if (!why.empty()) {
            ADD_FAILURE() << "input '" << m.name << "' differs from Arm NN's:" << why;
            return r;
        }
        const std::vector<uint8_t> bytes = read_bytes(c.dir + "/" + m.file);
        if (bytes.size() != b.info.num_bytes()) {
            ADD_FAILURE() << "input '" << m.name << "': " << bytes.size() << " bytes on disk, npurun wants " << b.info.num_bytes();
            return r;
        }
        std::memcpy(b.data, bytes.data(), bytes.size());
        r.input_files[i] = c.dir + "/" + m.file;
    }
    session.run();
    for (size_t i = 0; i < session.num_outputs(); ++i) {
        const npurun::TensorBinding& b = session.output(i);
        const auto* p = static_cast<const uint8_t*>(b.data);
        r.outputs.emplace_back(p, p + b.info.num_bytes());
    }
    for (const ManifestBinding& m : c.outputs) {
        const size_t i = find_slot(session.num_outputs(), [&](size_t k) -> const npurun::TensorBinding& { return session.output(k); }, m, c.outputs);
        r.manifest_to_session.push_back(i);
        if (i == session.num_outputs()) {
            ADD_FAILURE() << "npurun has no output named '" << m.name << "' (id " << m.id << ")";
            continue;
        }
        const std::string why = binding_mismatch(session.output(i), m);
        if (!why.empty()) ADD_FAILURE() << "output '" << m.name << "' differs from Arm NN's:" << why;
    }
    return r;
}

// run_library, with an npurun error recorded as this test's failure (`what` prefixes the message).
LibraryRun run_library_or_fail(const ConformanceCase& c, const char* what) {
    try {
        return run_library(c);
    } catch (const npurun::Error& e) {
        ADD_FAILURE() << what << e.what();
        return {};
    }
}

class Conformance : public ::testing::TestWithParam<ConformanceCase> {};

TEST_P(Conformance, MatchesCpuRef) {
    const ConformanceCase& c = GetParam();
    if (c.skipped()) {
        record_skip(c.reason);
        GTEST_SKIP() << "Arm NN 20.08 gives no reference: " << c.reason;
    }
    for (const auto& n : c.notes) RecordProperty("note", n);
    const LibraryRun r = run_library_or_fail(c, "npurun error: ");
    if (HasFailure()) return;
    for (size_t k = 0; k < c.outputs.size(); ++k) {
        const ManifestBinding& m = c.outputs[k];
        const std::vector<double> got = decode_values(m.dtype, r.outputs[r.manifest_to_session[k]]);
        const std::vector<double> want = decode_values(m.dtype, read_bytes(c.dir + "/" + m.file));
        const std::string diff = compare_values(c.compare, c.tolerance, got, want);
        EXPECT_TRUE(diff.empty()) << "output '" << m.name << "' (" << m.dtype << " " << shape_str(m.dims) << "): " << diff;
    }
    if (!c.golden_npy.empty()) {
        // The published golden output (pyarmnn), independent of our generator.
        const std::vector<uint8_t> npy = read_bytes(c.golden_npy);
        const std::vector<uint8_t>& out = r.outputs.at(r.manifest_to_session.at(0));
        ASSERT_GE(npy.size(), out.size());
        const std::vector<uint8_t> golden(npy.end() - static_cast<long>(out.size()), npy.end());
        EXPECT_EQ(out, golden) << "output differs from " << c.golden_npy;
    }
}

// Runs `argv` with stdout/stderr to `log`; returns the exit status (-1 if it did not exit normally).
int run_process(const std::vector<std::string>& argv, const std::string& log) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
        }
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_text(const std::string& path) {
    try {
        const std::vector<uint8_t> b = read_bytes(path);
        return std::string(b.begin(), b.end());
    } catch (const std::exception&) {
        return "";
    }
}

class ConformanceCli : public ::testing::TestWithParam<ConformanceCase> {};

// The `npurun` binary on the same case must write exactly the library's bytes (outputs concatenated
// in output binding order), which the library test above has compared with CpuRef.
TEST_P(ConformanceCli, BinaryWritesTheLibraryBytes) {
    const ConformanceCase& c = GetParam();
    const std::string bin = env_or_empty("NPURUN_BIN");
    if (bin.empty()) {
        record_skip("npurun binary not built");
        GTEST_SKIP() << "NPURUN_BIN not set: the npurun binary is not built in this tree";
    }
    const LibraryRun r = run_library_or_fail(c, "npurun library error: ");
    if (HasFailure()) return;
    char tmpl[] = "/tmp/npurun-conformance-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl, out = dir + "/out.bin", log = dir + "/log.txt";
    std::vector<std::string> argv = {bin, c.model};
    for (const auto& f : r.input_files) argv.push_back(f);
    argv.push_back("-o");
    argv.push_back(out);
    const int code = run_process(argv, log);
    std::vector<uint8_t> want;
    for (const auto& o : r.outputs) want.insert(want.end(), o.begin(), o.end());
    EXPECT_EQ(code, 0) << "npurun exited with " << code << ": " << read_text(log);
    if (code == 0) {
        std::vector<uint8_t> got;
        try {
            got = read_bytes(out);
        } catch (const std::exception& e) {
            ADD_FAILURE() << e.what();
        }
        EXPECT_EQ(got.size(), want.size()) << "output file size";
        EXPECT_TRUE(got == want) << "npurun -o bytes differ from the library's outputs";
    }
    std::remove(out.c_str());
    std::remove(log.c_str());
    rmdir(dir.c_str());
}

std::string test_name(const ::testing::TestParamInfo<ConformanceCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(ArmNN, Conformance, ::testing::ValuesIn(all_cases()), test_name);
INSTANTIATE_TEST_SUITE_P(ArmNN, ConformanceCli, ::testing::ValuesIn(cli_cases()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ConformanceCli);

TEST(ConformanceSetup, IndexIsReadableAndNonEmpty) {
    EXPECT_TRUE(g_load_error.empty()) << g_load_error;
    EXPECT_FALSE(all_cases().empty()) << "no conformance cases";
}

// Prints "conformance: N cases, P passed, F failed, S skipped (reason: count, ...)" per suite.
class Summary : public ::testing::EmptyTestEventListener {
    void OnTestProgramEnd(const ::testing::UnitTest& unit) override {
        for (int s = 0; s < unit.total_test_suite_count(); ++s) {
            const ::testing::TestSuite* suite = unit.GetTestSuite(s);
            const std::string name = suite->name();
            if (name.rfind("ArmNN/", 0) != 0) continue;
            int passed = 0, failed = 0, skipped = 0;
            std::map<std::string, int> reasons;
            for (int t = 0; t < suite->total_test_count(); ++t) {
                const ::testing::TestInfo* info = suite->GetTestInfo(t);
                if (!info->should_run()) continue;
                const ::testing::TestResult* r = info->result();
                if (r->Skipped()) {
                    ++skipped;
                    ++reasons[g_skip_reasons[info->name()]];
                } else if (r->Failed()) {
                    ++failed;
                } else {
                    ++passed;
                }
            }
            std::printf("%s: %d cases, %d passed, %d failed, %d skipped", name == "ArmNN/Conformance" ? "conformance" : "conformance-cli",
                        passed + failed + skipped, passed, failed, skipped);
            if (!reasons.empty()) {
                std::printf(" (");
                bool first = true;
                for (const auto& [why, n] : reasons) {
                    std::printf("%s%s: %d", first ? "" : "; ", why.c_str(), n);
                    first = false;
                }
                std::printf(")");
            }
            std::printf("\n");
        }
    }
};

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::UnitTest::GetInstance()->listeners().Append(new Summary);
    return RUN_ALL_TESTS();
}
