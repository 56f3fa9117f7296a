#include "kernels/ref/ref_common.h"

namespace npurun::kernels::ref {

std::string accept_numeric_or(DataType t, std::initializer_list<DataType> also, const char* what) {
    if (is_numeric(t)) return {};
    for (DataType o : also)
        if (t == o) return {};
    return std::string(to_string(t)) + what;
}

std::string check_numeric_io(const KernelNode& node) {
    for (size_t i = 0; i < node.num_inputs(); ++i) {
        if (!node.has_input(i)) continue;
        const DataType t = node.in(i).dtype;
        if (!is_numeric(t)) return std::string(to_string(t)) + " input " + std::to_string(i) + " not supported";
    }
    for (size_t i = 0; i < node.num_outputs(); ++i) {
        const DataType t = node.out(i).dtype;
        if (!is_numeric(t)) return std::string(to_string(t)) + " output " + std::to_string(i) + " not supported";
    }
    return {};
}

std::string check_same_type(const KernelNode& node) {
    if (node.in(0).dtype != node.out(0).dtype) return "input and output types differ";
    return {};
}

std::string check_numeric_same_type(const KernelNode& node) {
    std::string r = check_numeric_io(node);
    return r.empty() ? check_same_type(node) : r;
}

std::string check_weighted_operands(const KernelNode& node) {
    const DataType x = node.in(0).dtype;
    const DataType w = node.in(1).dtype;
    const DataType y = node.out(0).dtype;
    if (!is_numeric(x) || !is_numeric(w) || !is_numeric(y)) return "unsupported data type";
    if (is_float(x) != is_float(w) || x != y) return "mixed float and quantized operands not supported";
    if (node.out(0).quant.per_axis()) return "per-axis quantized output not supported";
    if (node.num_inputs() > 2 && node.has_input(2)) {
        const DataType b = node.in(2).dtype;
        if (is_float(x) ? b != x : b != DataType::Signed32) return std::string(to_string(b)) + " bias not supported";
    }
    return {};
}

}  // namespace npurun::kernels::ref
