// Real model files (../shared/models) as conformance cases: Arm NN's own .armnn files run on CpuRef,
// and .tflite files converted by Arm NN 20.08's TfLite parser.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tests/conformance/generator/armnn_runner.h"
#include "tests/conformance/generator/case_files.h"

namespace conformance {

struct RealCase {
    std::string name, layer, dtype;
    std::function<CaseRecord(CpuRefRunner&)> make;  // throws CaseSkipped (e.g. shared folder absent)
};

// `shared_dir` is the project's ../shared; an empty or missing folder turns every case into a skip.
std::vector<RealCase> real_model_cases(const std::string& shared_dir);
// The 2019-format L2Normalization and Lstm files (legacy_compute_models.cpp).
std::vector<RealCase> legacy_compute_model_cases(const std::string& shared_dir);

}  // namespace conformance
