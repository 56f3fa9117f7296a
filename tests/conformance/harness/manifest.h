// Reads what conformance-gen wrote (format: tests/conformance/generator/case_files.h). Plain parsing
// only: the harness never links Arm NN.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace conformance {

struct ManifestBinding {
    int32_t id = 0;
    std::string dtype;  // npurun spelling: "Float32", "QAsymmU8", ...
    std::vector<uint32_t> dims;
    float scale = 0;
    int32_t offset = 0;
    std::string file;  // path inside the case folder
    std::string name;  // binding (layer) name
};

enum class CompareMode { Float, Quantized, Top1 };

struct ConformanceCase {
    std::string name, status, layer, dtype, reason;  // from the index
    std::string dir;                                 // case folder
    CompareMode compare = CompareMode::Float;
    float tolerance = 0;
    bool cli = false;
    std::string model;  // path
    std::vector<ManifestBinding> inputs, outputs;
    std::string golden_npy;
    std::vector<std::string> notes;

    bool skipped() const { return status != "ok"; }
};

// gtest prints a parameter through this: the case name instead of a byte dump.
void PrintTo(const ConformanceCase& c, std::ostream* os);

// Index entries, with manifests read for the cases that were generated. Throws std::runtime_error
// when the index or a manifest is unreadable or malformed.
std::vector<ConformanceCase> read_cases(const std::string& index_path, const std::string& cases_dir);

std::vector<uint8_t> read_bytes(const std::string& path);  // throws std::runtime_error

}  // namespace conformance
