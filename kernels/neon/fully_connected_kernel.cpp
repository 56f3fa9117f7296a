// The FullyConnected kernel: float32 or 8-bit quantized, constant or run-time weights, 2-D weights, any
// input rank (flattened to [batch, in] as Arm NN does).
//
// Quantized: a fully connected layer is a 1x1 convolution of a [batch, 1, 1, in] image with [out, 1, 1, in]
// weights, so it runs through conv2d_quant, which is bit-exact with kernels/ref's integer pipeline (same
// multiplier and accumulator bias helpers as ref FullyConnected, and a vector requantization that
// performs quant::requantize's operations, see requantize.h). Weights stored [in, out]
// (transpose_weights false) are transposed to [out, in] once by prepare when constant, per run into scratch
// when they are a run-time input; the requantization tables are prepared once. conv2d_quant splits work by output row, here one per batch item: batch 1 runs on one thread.
// Constant weights with a batch of 2 or more are also packed for the GEMM convolution (conv1x1_quant.h), which
// then runs the layer as a [batch, in] x [in, out] product, on i8mm where the CPU has it (its 2x8 blocks pair
// batch rows). Batch 1 stays on conv2d_quant: a single row would fill half of each i8mm block, no gain over SDOT.
#include <limits>

#include "kernels/neon/conv1x1_quant.h"
#include "kernels/neon/conv2d_quant.h"
#include "kernels/neon/conv_state.h"
#include "kernels/neon/fully_connected.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/quant_params.h"

namespace npurun::kernels::neon {
namespace {

constexpr size_t align64(size_t n) { return (n + 63) & ~size_t(63); }

std::string check(const KernelNode& n) {
    const auto& a = n.attr<FullyConnectedAttrs>();
    if (n.num_inputs() < 2 || n.num_outputs() != 1) return refuse("unexpected operand count");
    const TensorInfo &x = in_info(n, 0), &w = in_info(n, 1), &y = out_info(n);
    if (w.shape.rank != 2) return refuse("weights not 2-D");
    const FcDims d = fc_dims(n);
    if (d.in == 0 || d.batch * d.in != x.shape.num_elements() || y.shape.num_elements() != d.batch * d.out)
        return refuse("input/output sizes do not match the weights");
    const bool bias = a.bias_enabled && has_input(n, 2);
    if (x.dtype == DataType::Float32) {
        if (w.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("mixed float types");
        if (bias && (in_info(n, 2).dtype != DataType::Float32 || in_info(n, 2).shape.num_elements() != d.out))
            return refuse("bias type or size");
        return {};
    }
    const std::string why = check_quant_types(n, bias, a.transpose_weights ? 0 : 1, d.out);
    if (!why.empty()) return why;
    // 255*255*K must fit in int32 so conv2d_quant's vector accumulators are exact; sizes fit ptrdiff_t.
    if (d.in > 33025) return refuse("input length too large for 32-bit accumulation");
    if (d.batch > size_t(std::numeric_limits<int32_t>::max()) || d.out > size_t(std::numeric_limits<int32_t>::max()))
        return refuse("dimension too large");
    return {};
}

bool has_bias(const KernelNode& n) { return n.attr<FullyConnectedAttrs>().bias_enabled && has_input(n, 2); }
bool quantized(const KernelNode& n) { return in_info(n, 0).dtype != DataType::Float32; }
// Weights stored [in, out] that conv2d_quant needs as [out, in].
bool needs_transpose(const KernelNode& n) { return !n.attr<FullyConnectedAttrs>().transpose_weights; }
bool weights_constant(const KernelNode& n) { return n.is_constant(1); }

void transpose(const uint8_t* w, const FcDims& d, uint8_t* t) {  // [in, out] -> [out, in]
    for (size_t k = 0; k < d.in; ++k)
        for (size_t o = 0; o < d.out; ++o) t[o * d.in + k] = w[k * d.out + o];
}

// Prepared state, quantized only (conv_state.h): the header, the tables, constant [in, out] weights transposed to
// [out, in], and the GEMM's packed weights when it takes the layer. Float32 needs none: fully_connected_f32 reads
// either layout as stored.
struct StateLayout {
    size_t tables, weights, gemm, total;
};

bool packs_gemm(const KernelNode& n, const FcDims& d) {
    return weights_constant(n) && d.batch >= 2 && conv1x1_quant_fits(fc_geometry(d), quant_params(n, has_bias(n)));
}

StateLayout state_layout(const KernelNode& n) {
    const FcDims d = fc_dims(n);
    StateLayout l{};
    l.tables = conv_state_header_bytes();
    l.total = l.tables + quant_tables_bytes(d.out, d.in, true);
    if (needs_transpose(n) && weights_constant(n)) {
        l.weights = l.total;
        l.total += align64(d.in * d.out);
    }
    if (packs_gemm(n, d)) {
        l.gemm = l.total;
        l.total += align64(conv1x1_packed_bytes(fc_geometry(d)));
    }
    return l;
}

size_t state_bytes(const KernelNode& n) { return quantized(n) ? state_layout(n).total : 0; }

void prepare(const PrepareArgs& a) {
    const KernelNode& n = a.node;
    const FcDims d = fc_dims(n);
    const StateLayout l = state_layout(n);
    ConvState* s = new_conv_state(a.state);
    s->g = fc_geometry(d);
    s->quantized = true;
    s->oc = d.out;
    s->ic = d.in;
    s->with_conv_rows = true;
    s->tables_offset = l.tables;
    s->weights_offset = l.weights;
    s->gemm_offset = l.gemm;
    const bool bias = has_bias(n);
    const uint8_t* w = static_cast<const uint8_t*>(n.constant(1));
    if (w != nullptr && needs_transpose(n)) {
        transpose(w, d, s->packed_weights());
        w = s->packed_weights();
    }
    s->weights_ready = w != nullptr;
    s->bias_ready = !bias || n.constant(2) != nullptr;
    s->q = quant_params(n, bias);
    const QuantTables t = s->tables();
    fill_multipliers(s->q, d.out, t.multiplier);
    fill_zero_row(s->q, d.in, t.zero_row);
    if (s->bias_ready) fill_bias(s->q, bias ? static_cast<const int32_t*>(n.constant(2)) : nullptr, d.out, t.bias);
    if (s->weights_ready) fill_sum_w(s->q, w, d.out, d.in, t.sum_w);
    if (s->gemm_offset) {
        s->gemm_kernel = conv1x1_kernel_to_pack();
        conv1x1_pack(s->g, s->q, s->gemm_kernel, w, t.sum_w, s->gemm_weights());
    }
}

// Scratch: run-time [in, out] weights transposed per run (constant ones were transposed by prepare).
size_t scratch_bytes(const KernelNode& n) {
    if (!quantized(n) || !needs_transpose(n) || weights_constant(n)) return 0;
    const FcDims d = fc_dims(n);
    return d.in * d.out;
}

void run(const KernelArgs& a) {
    const KernelNode& n = a.node;
    const bool bias = has_bias(n);
    if (quantized(n)) {
        ConvState* s = conv_state(a.state);
        const uint8_t* w = s->weights_offset ? s->packed_weights() : in_ptr<uint8_t>(a, 1);
        const QuantTables t = s->tables();
        if (!s->weights_ready) {
            if (needs_transpose(n)) {
                uint8_t* packed = static_cast<uint8_t*>(a.scratch);
                transpose(w, FcDims{size_t(s->g.n), s->ic, s->oc}, packed);
                w = packed;
            }
            if (conv2d_quant_uses_dotprod(s->q)) fill_sum_w(s->q, w, s->oc, s->ic, t.sum_w);
        }
        if (!s->bias_ready) fill_bias(s->q, in_ptr<int32_t>(a, 2), s->oc, t.bias);
        if (s->gemm_offset && conv1x1_runs_now(s->gemm_kernel))
            conv1x1_quant(s->g, s->q, t, s->gemm_kernel, s->gemm_weights(), in_ptr<uint8_t>(a, 0), out_ptr<uint8_t>(a));
        else
            conv2d_quant(s->g, s->q, t, in_ptr<uint8_t>(a, 0), w, out_ptr<uint8_t>(a));
        return;
    }
    const FcDims d = fc_dims(n);
    fully_connected_f32(in_ptr<float>(a, 0), in_ptr<float>(a, 1), bias ? in_ptr<float>(a, 2) : nullptr, out_ptr<float>(a),
                        d.batch, d.in, d.out, n.attr<FullyConnectedAttrs>().transpose_weights);
}

}  // namespace

const Kernel kFullyConnected{check, scratch_bytes, run, state_bytes, prepare};

}  // namespace npurun::kernels::neon
