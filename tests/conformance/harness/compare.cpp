#include "tests/conformance/harness/compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace conformance {
namespace {

template <typename T>
std::vector<double> as_doubles(const std::vector<uint8_t>& bytes) {
    if (bytes.size() % sizeof(T) != 0) throw std::runtime_error("byte count is not a whole number of elements");
    std::vector<double> out(bytes.size() / sizeof(T));
    for (size_t i = 0; i < out.size(); ++i) {
        T v;
        std::memcpy(&v, &bytes[i * sizeof(T)], sizeof(T));
        out[i] = static_cast<double>(v);
    }
    return out;
}

// IEEE binary16 to double (all cases: zero, subnormal, normal, inf, NaN).
double half_to_double(uint16_t h) {
    const int sign = (h >> 15) ? -1 : 1;
    const int exp = (h >> 10) & 0x1f;
    const int frac = h & 0x3ff;
    if (exp == 0) return sign * std::ldexp(frac, -24);
    if (exp == 31) return frac ? std::nan("") : sign * INFINITY;
    return sign * std::ldexp(1024 + frac, exp - 25);
}

}  // namespace

std::vector<double> decode_values(const std::string& dtype, const std::vector<uint8_t>& bytes) {
    if (dtype == "Float32") return as_doubles<float>(bytes);
    if (dtype == "QAsymmU8" || dtype == "Boolean") return as_doubles<uint8_t>(bytes);
    if (dtype == "QAsymmS8" || dtype == "QSymmS8") return as_doubles<int8_t>(bytes);
    if (dtype == "QSymmS16") return as_doubles<int16_t>(bytes);
    if (dtype == "Signed32") return as_doubles<int32_t>(bytes);
    if (dtype == "Float16") {
        std::vector<double> raw = as_doubles<uint16_t>(bytes);
        for (double& v : raw) v = half_to_double(static_cast<uint16_t>(v));
        return raw;
    }
    throw std::runtime_error("unknown data type '" + dtype + "'");
}

std::string compare_values(CompareMode mode, float tol, const std::vector<double>& got, const std::vector<double>& want) {
    std::ostringstream report;
    if (got.size() != want.size()) {
        report << "element count " << got.size() << ", expected " << want.size();
        return report.str();
    }
    size_t bad = 0;
    double max_diff = 0;
    std::ostringstream first;
    first.precision(9);
    for (size_t i = 0; i < got.size(); ++i) {
        const double g = got[i], w = want[i];
        bool ok;
        if (std::isnan(w) || std::isnan(g)) {
            ok = std::isnan(w) && std::isnan(g);
        } else {
            const double diff = std::fabs(g - w);
            max_diff = std::max(max_diff, diff);
            ok = mode == CompareMode::Float ? diff <= tol * std::max(1.0, std::fabs(w)) : diff <= tol;
        }
        if (!ok && bad++ < 5) first << "\n  [" << i << "] got " << g << ", CpuRef " << w;
    }
    if (mode == CompareMode::Top1 && !got.empty()) {
        const size_t top = static_cast<size_t>(std::max_element(got.begin(), got.end()) - got.begin());
        const double best = *std::max_element(want.begin(), want.end());
        if (want[top] != best) {
            const size_t ref_top = static_cast<size_t>(std::max_element(want.begin(), want.end()) - want.begin());
            report << "top-1 is " << top << " (CpuRef score " << want[top] << "), CpuRef's top-1 is " << ref_top
                   << " (score " << best << "); ";
        }
    }
    if (bad) report << bad << " of " << got.size() << " elements out of tolerance " << tol << ", max |diff| " << max_diff << first.str();
    return report.str();
}

}  // namespace conformance
