// On-disk form of a conformance case, read by the harness (tests/conformance/harness/manifest.h).
//
//   <out>/<case>/model.armnn      the file Arm NN 20.08 wrote (or a real model)
//   <out>/<case>/input_<i>.bin    raw little-endian input i (sorted by binding id)
//   <out>/<case>/expected_<i>.bin CpuRef's output i
//   <out>/<case>/manifest.txt     one "key value..." per line:
//       name, layer, dtype, compare (float|quantized|top1) <tolerance>, cli 0|1, model <file>,
//       input|output <binding id> <dtype> <dims a,b,c | scalar> <scale> <offset> <file> <binding name...>,
//       golden_npy <path> (optional), note <text> (optional, repeatable)
//   <index>: one line per case: "<name> ok|skipped <layer> <dtype> [reason...]"
#pragma once

#include <string>
#include <vector>

#include "tests/conformance/generator/armnn_runner.h"
#include "tests/conformance/generator/case_spec.h"

namespace conformance {

struct CaseRecord {
    std::string name, layer, dtype;
    Compare compare = Compare::Float;
    float tolerance = 1e-4f;
    bool cli = false;
    Bytes model;
    Bindings bindings;
    std::vector<Bytes> inputs, expected;
    std::string golden_npy;
    std::vector<std::string> notes;
};

struct IndexEntry {
    std::string name, status, layer, dtype, reason;
};

void make_directory(const std::string& path);  // ok if it exists
void write_case(const std::string& out_dir, const CaseRecord& c);
void write_index(const std::string& path, const std::vector<IndexEntry>& entries);
Bytes read_file(const std::string& path);  // throws CaseSkipped when unreadable

}  // namespace conformance
