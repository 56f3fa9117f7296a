#include "tests/conformance/generator/enum_coverage.h"

#include <armnn/TypesUtils.hpp>

#include <cstring>
#include <set>

namespace conformance {
namespace {

// Values 0..63 of an Arm NN enum whose name function knows them (each enum here is dense from 0 and
// far smaller than 64).
template <typename Enum, typename NameFn>
void add_named_values(std::vector<std::string>& out, const char* family, NameFn name_of) {
    for (int i = 0; i < 64; ++i) {
        const char* name = name_of(static_cast<Enum>(i));
        if (std::strcmp(name, "Unknown") != 0) out.push_back(std::string(family) + "/" + name);
    }
}

}  // namespace

std::vector<std::string> required_enum_values() {
    std::vector<std::string> out;
    add_named_values<armnn::ActivationFunction>(out, "Activation", armnn::GetActivationFunctionAsCString);
    add_named_values<armnn::UnaryOperation>(out, "Unary", armnn::GetUnaryOperationAsCString);
    add_named_values<armnn::ComparisonOperation>(out, "Comparison", armnn::GetComparisonOperationAsCString);
    for (const char* layer : {"Addition", "Subtraction", "Multiplication", "Division", "Maximum", "Minimum"})
        out.push_back(std::string("Binary/") + layer);
    return out;
}

EnumCoverage enum_coverage(const std::vector<CaseSpec>& specs, const std::vector<IndexEntry>& index) {
    std::set<std::string> ok_names;
    for (const IndexEntry& e : index)
        if (e.status == "ok") ok_names.insert(e.name);
    EnumCoverage c;
    std::set<std::string> covered;
    for (const CaseSpec& s : specs) {
        if (s.covers.empty() || ok_names.count(s.name) == 0) continue;
        covered.insert(s.covers);
        ++c.ok_cases_per_family[s.covers.substr(0, s.covers.find('/'))];
    }
    for (const std::string& v : required_enum_values()) {
        ++c.values_per_family[v.substr(0, v.find('/'))];
        if (covered.count(v) == 0) c.missing.push_back(v);
    }
    return c;
}

}  // namespace conformance
