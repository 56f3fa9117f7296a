#include "tools/npurun/compare.h"

#include <cmath>
#include <cstring>

#include "tools/npurun/report.h"

namespace npurun::cli {

OutputDifference difference(const TensorBinding& device, const TensorBinding& cpu) {
    OutputDifference d;
    const size_t n = device.info.shape.num_elements();
    const size_t esize = element_size(device.info.dtype);
    const auto* a = static_cast<const uint8_t*>(device.data);
    const auto* b = static_cast<const uint8_t*>(cpu.data);
    for (size_t i = 0; i < n; ++i) {
        if (std::memcmp(a + i * esize, b + i * esize, esize) != 0) ++d.differing;
        const double x = element_value(device.info, device.data, i), y = element_value(cpu.info, cpu.data, i);
        if (std::isnan(x) || std::isnan(y)) {
            if (std::isnan(x) != std::isnan(y)) ++d.nan_mismatch;
            continue;
        }
        const double diff = std::fabs(x - y);
        if (diff > d.max_abs) {
            d.max_abs = diff;
            d.at = i;
            d.device_value = x;
            d.cpu_value = y;
        }
    }
    return d;
}

void print_comparison(std::FILE* out, const Session& device, const Session& cpu) {
    const char* dev = to_string(device.device());
    for (size_t i = 0; i < device.num_outputs(); ++i) {
        const TensorBinding& a = device.output(i);
        const TensorBinding& b = cpu.output(i);
        const OutputDifference d = difference(a, b);
        const size_t n = a.info.shape.num_elements();
        std::fprintf(out, "compare %s vs cpu: output %zu '%s': max |difference| %.6g", dev, i, a.name.c_str(), d.max_abs);
        if (d.max_abs > 0) std::fprintf(out, " at element %zu (%s %.6g, cpu %.6g)", d.at, dev, d.device_value, d.cpu_value);
        if (d.max_abs > 0 && is_quantized(a.info.dtype) && !a.info.quant.per_axis() && a.info.quant.scale() > 0)
            std::fprintf(out, " = %.3g quantization steps", d.max_abs / double(a.info.quant.scale()));
        std::fprintf(out, "; %zu of %zu elements differ", d.differing, n);
        if (d.nan_mismatch) std::fprintf(out, ", %zu NaN on one side only", d.nan_mismatch);
        std::fprintf(out, "\n");
    }
}

}  // namespace npurun::cli
