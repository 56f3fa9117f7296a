// The FullyConnected kernel: float32 or 8-bit quantized, constant or run-time weights, 2-D weights, any
// input rank (flattened to [batch, in] as Arm NN does).
//
// Quantized: a fully connected layer is a 1x1 convolution of a [batch, 1, 1, in] image with [out, 1, 1, in]
// weights, so it runs through conv2d_quant, which is bit-exact with kernels/ref's integer pipeline (same
// multiplier and accumulator bias helpers as ref FullyConnected, and a vector requantization that
// performs quant::requantize's operations, see requantize.h). Weights stored [in, out]
// (transpose_weights false) are transposed into scratch first, on every run, since they may be a run-time
// input. conv2d_quant splits work by output row, here one per batch item: batch 1 runs on one thread.
#include <limits>

#include "kernels/neon/conv2d_quant.h"
#include "kernels/neon/fully_connected.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/quant_params.h"

namespace npurun::kernels::neon {
namespace {

struct Dims {
    size_t batch, in, out;
};

Dims dims(const Node& n, const Graph& g) {
    const auto& a = n.attr<FullyConnectedAttrs>();
    const Shape& w = in_info(n, g, 1).shape;
    const size_t in = a.transpose_weights ? w[1] : w[0], out = a.transpose_weights ? w[0] : w[1];
    return {in ? in_info(n, g, 0).shape.num_elements() / in : 0, in, out};
}

ConvGeometry geometry(const Dims& d) {
    ConvGeometry g{};
    g.n = ptrdiff_t(d.batch);
    g.ih = g.iw = g.oh = g.ow = 1;
    g.ic = ptrdiff_t(d.in);
    g.oc = ptrdiff_t(d.out);
    g.kh = g.kw = g.sy = g.sx = g.dy = g.dx = 1;
    return g;
}

constexpr size_t align64(size_t n) { return (n + 63) & ~size_t(63); }

std::string check(const Node& n, const Graph& g) {
    const auto& a = n.attr<FullyConnectedAttrs>();
    if (n.inputs.size() < 2 || n.outputs.size() != 1) return refuse("unexpected operand count");
    const TensorInfo &x = in_info(n, g, 0), &w = in_info(n, g, 1), &y = out_info(n, g);
    if (w.shape.rank != 2) return refuse("weights not 2-D");
    const Dims d = dims(n, g);
    if (d.in == 0 || d.batch * d.in != x.shape.num_elements() || y.shape.num_elements() != d.batch * d.out)
        return refuse("input/output sizes do not match the weights");
    const bool bias = a.bias_enabled && has_input(n, 2);
    if (x.dtype == DataType::Float32) {
        if (w.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("mixed float types");
        if (bias && (in_info(n, g, 2).dtype != DataType::Float32 || in_info(n, g, 2).shape.num_elements() != d.out))
            return refuse("bias type or size");
        return {};
    }
    const std::string why = check_quant_types(n, g, bias, a.transpose_weights ? 0 : 1, d.out);
    if (!why.empty()) return why;
    // 255*255*K must fit in int32 so conv2d_quant's vector accumulators are exact; sizes fit ptrdiff_t.
    if (d.in > 33025) return refuse("input length too large for 32-bit accumulation");
    if (d.batch > size_t(std::numeric_limits<int32_t>::max()) || d.out > size_t(std::numeric_limits<int32_t>::max()))
        return refuse("dimension too large");
    return {};
}

size_t scratch_bytes(const Node& n, const Graph& g) {
    if (in_info(n, g, 0).dtype == DataType::Float32) return 0;
    const Dims d = dims(n, g);
    const size_t transposed = n.attr<FullyConnectedAttrs>().transpose_weights ? 0 : d.in * d.out;
    return align64(conv2d_quant_scratch(geometry(d))) + transposed;
}

void run(const KernelArgs& a) {
    const Node& n = a.node;
    const auto& at = n.attr<FullyConnectedAttrs>();
    const bool bias = at.bias_enabled && has_input(n, 2);
    const Dims d = dims(n, a.graph);
    if (in_info(n, a.graph, 0).dtype != DataType::Float32) {
        const ConvGeometry geo = geometry(d);
        const uint8_t* w = in_ptr<uint8_t>(a, 1);
        if (!at.transpose_weights) {  // [in, out] -> [out, in]
            uint8_t* t = static_cast<uint8_t*>(a.scratch) + align64(conv2d_quant_scratch(geo));
            for (size_t k = 0; k < d.in; ++k)
                for (size_t o = 0; o < d.out; ++o) t[o * d.in + k] = w[k * d.out + o];
            w = t;
        }
        conv2d_quant(geo, quant_params(n, a.graph, bias), in_ptr<uint8_t>(a, 0), w, bias ? in_ptr<int32_t>(a, 2) : nullptr,
                     out_ptr<uint8_t>(a), a.scratch);
        return;
    }
    fully_connected_f32(in_ptr<float>(a, 0), in_ptr<float>(a, 1), bias ? in_ptr<float>(a, 2) : nullptr, out_ptr<float>(a),
                        d.batch, d.in, d.out, at.transpose_weights);
}

}  // namespace

const Kernel kFullyConnected{check, scratch_bytes, run};

}  // namespace npurun::kernels::neon
