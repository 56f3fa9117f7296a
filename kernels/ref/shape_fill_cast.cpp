// Shape (the input's dimensions as Signed32), Rank (the input's rank as a Signed32 scalar), Fill (every
// element set to the descriptor's value; the output shape is the declared one, see ir/ops/infer_movement.cpp)
// and Cast (decode to float, encode to the output type, exactly CpuRef's Decoder/Encoder pair: float to
// integer truncates toward zero, quantized types are (de)quantized, Boolean is value != 0).
#include <cstdint>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run_shape(const KernelArgs& a) {
    const Shape& s = in_info(a, 0).shape;
    int32_t* y = static_cast<int32_t*>(a.outputs[0]);
    for (uint32_t d = 0; d < s.rank; ++d) y[d] = int32_t(s[d]);
}

void run_rank(const KernelArgs& a) { *static_cast<int32_t*>(a.outputs[0]) = int32_t(in_info(a, 0).shape.rank); }

void run_fill(const KernelArgs& a) {
    const TensorInfo& yi = out_info(a, 0);
    const Writer y(yi, a.outputs[0]);
    const float v = a.node.attr<FillAttrs>().value;
    for (size_t i = 0, n = yi.shape.num_elements(); i < n; ++i) y.set(i, v);
}

void run_cast(const KernelArgs& a) {
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = out_info(a, 0);
    const size_t n = xi.shape.num_elements();
    auto plain_int = [](const TensorInfo& t) {
        return (t.dtype == DataType::Signed32 && t.quant.scale() == 0.0f) || t.dtype == DataType::Signed64 ||
               t.dtype == DataType::Boolean;
    };
    if (plain_int(xi) && plain_int(yi)) {  // integer to integer: exact, saturating (float would round at 2^24)
        for (size_t i = 0; i < n; ++i) {
            int64_t v = xi.dtype == DataType::Signed64 ? static_cast<const int64_t*>(a.inputs[0])[i]
                                                       : int64_t(load_int(a.inputs[0], xi.dtype, i));
            switch (yi.dtype) {
                case DataType::Signed64: static_cast<int64_t*>(a.outputs[0])[i] = v; break;
                case DataType::Signed32:
                    v = v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v;
                    static_cast<int32_t*>(a.outputs[0])[i] = int32_t(v);
                    break;
                default: static_cast<uint8_t*>(a.outputs[0])[i] = v != 0 ? 1 : 0; break;
            }
        }
        return;
    }
    if (xi.dtype == DataType::Signed64 || yi.dtype == DataType::Signed64) {
        // Through double so that 64-bit integers up to 2^53 survive (float would round them at 2^24).
        for (size_t i = 0; i < n; ++i) {
            double v;
            if (xi.dtype == DataType::Signed64) v = double(static_cast<const int64_t*>(a.inputs[0])[i]);
            else v = double(Reader(xi, a.inputs[0])[i]);
            if (yi.dtype == DataType::Signed64) {
                const double c = v != v ? 0.0 : std::fmax(-9.2233720368547758e18, std::fmin(9.2233720368547748e18, v));
                static_cast<int64_t*>(a.outputs[0])[i] = int64_t(c);
            } else {
                Writer(yi, a.outputs[0]).set(i, float(v));
            }
        }
        return;
    }
    const Reader x(xi, a.inputs[0]);
    const Writer y(yi, a.outputs[0]);
    for (size_t i = 0; i < n; ++i) y.set(i, x[i]);
}

std::string check_fill(const KernelNode& node) {
    const DataType t = node.out(0).dtype;
    if (t != DataType::Float32 && t != DataType::Float16 && t != DataType::Signed32)
        return std::string(to_string(t)) + " output not supported";
    return {};
}

}  // namespace

const Kernel kShape = {check_any, nullptr, run_shape};
const Kernel kRank = {check_any, nullptr, run_rank};
const Kernel kFill = {check_fill, nullptr, run_fill};
const Kernel kCast = {check_any, nullptr, run_cast};

}  // namespace npurun::kernels::ref
