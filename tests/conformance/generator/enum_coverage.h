// Every value of the operation enums Arm NN 20.08 defines must have at least one generated (not
// skipped) case: a value whose only case is skipped is untested, which is how SoftReLu went unnoticed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tests/conformance/generator/case_files.h"
#include "tests/conformance/generator/case_spec.h"

namespace conformance {

// "Activation/Sigmoid", ..., "Unary/Neg", "Binary/Addition", ..., "Comparison/NotEqual": every value Arm
// NN 20.08 names (found by asking its own *AsCString functions, so a value added to the headers is
// required without editing this list), and the six binary layers it can build.
std::vector<std::string> required_enum_values();

struct EnumCoverage {
    std::map<std::string, int> ok_cases_per_family;  // "Activation" -> generated cases
    std::map<std::string, int> values_per_family;    // "Activation" -> required values
    std::vector<std::string> missing;                // required values without a generated case
};

EnumCoverage enum_coverage(const std::vector<CaseSpec>& specs, const std::vector<IndexEntry>& index);

}  // namespace conformance
