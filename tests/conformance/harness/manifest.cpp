#include "tests/conformance/harness/manifest.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace conformance {
namespace {

ManifestBinding parse_binding(const std::string& rest, const std::string& where) {
    std::istringstream s(rest);
    ManifestBinding b;
    std::string dims;
    if (!(s >> b.id >> b.dtype >> dims >> b.scale >> b.offset >> b.file))
        throw std::runtime_error(where + ": malformed binding line '" + rest + "'");
    std::getline(s >> std::ws, b.name);
    std::istringstream d(dims == "scalar" ? "" : dims);  // a scalar has no dimensions
    for (std::string part; std::getline(d, part, ',');) b.dims.push_back(static_cast<uint32_t>(std::stoul(part)));
    return b;
}

void read_manifest(ConformanceCase& c) {
    const std::string path = c.dir + "/manifest.txt";
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot read " + path);
    for (std::string line; std::getline(f, line);) {
        const size_t sp = line.find(' ');
        const std::string key = line.substr(0, sp);
        const std::string rest = sp == std::string::npos ? "" : line.substr(sp + 1);
        if (key == "compare") {
            std::istringstream s(rest);
            std::string mode;
            s >> mode >> c.tolerance;
            if (mode == "float") c.compare = CompareMode::Float;
            else if (mode == "quantized") c.compare = CompareMode::Quantized;
            else if (mode == "top1") c.compare = CompareMode::Top1;
            else throw std::runtime_error(path + ": unknown compare mode '" + mode + "'");
        } else if (key == "cli") {
            c.cli = rest == "1";
        } else if (key == "model") {
            c.model = c.dir + "/" + rest;
        } else if (key == "input") {
            c.inputs.push_back(parse_binding(rest, path));
        } else if (key == "output") {
            c.outputs.push_back(parse_binding(rest, path));
        } else if (key == "golden_npy") {
            c.golden_npy = rest;
        } else if (key == "note") {
            c.notes.push_back(rest);
        }
    }
    if (c.model.empty() || c.outputs.empty()) throw std::runtime_error(path + ": no model or no outputs");
}

}  // namespace

std::vector<ConformanceCase> read_cases(const std::string& index_path, const std::string& cases_dir) {
    std::ifstream f(index_path);
    if (!f) throw std::runtime_error("cannot read conformance index " + index_path);
    std::vector<ConformanceCase> cases;
    for (std::string line; std::getline(f, line);) {
        if (line.empty()) continue;
        std::istringstream s(line);
        ConformanceCase c;
        if (!(s >> c.name >> c.status >> c.layer >> c.dtype)) throw std::runtime_error(index_path + ": malformed line '" + line + "'");
        std::getline(s >> std::ws, c.reason);
        c.dir = cases_dir + "/" + c.name;
        if (!c.skipped()) read_manifest(c);
        cases.push_back(std::move(c));
    }
    return cases;
}

void PrintTo(const ConformanceCase& c, std::ostream* os) { *os << c.name; }

std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace conformance
