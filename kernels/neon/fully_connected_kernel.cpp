// The FullyConnected kernel: float32 with constant or run-time weights, 2-D weights, any input rank
// (flattened to [batch, in] as Arm NN does).
#include "kernels/neon/fully_connected.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"

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
    return refuse(std::string("input type ") + to_string(x.dtype) + " not covered");
}

void run(const KernelArgs& a) {
    const Node& n = a.node;
    const auto& at = n.attr<FullyConnectedAttrs>();
    const bool bias = at.bias_enabled && has_input(n, 2);
    const Dims d = dims(n, a.graph);
    fully_connected_f32(in_ptr<float>(a, 0), in_ptr<float>(a, 1), bias ? in_ptr<float>(a, 2) : nullptr, out_ptr<float>(a),
                        d.batch, d.in, d.out, at.transpose_weights);
}

}  // namespace

const Kernel kFullyConnected{check, nullptr, run};

}  // namespace npurun::kernels::neon
