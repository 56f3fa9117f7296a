// QLstm and QuantizedLstm.
//
// QLstm follows CpuRef's RefQLstmWorkload exactly: float arithmetic on decoded values, with every gate held
// as QSymmS16 and re-quantized at EVERY write (each multiply-accumulate of a matrix product, as CpuRef's
// encoders do), the gate's scale changing along the way:
//   accumulate W_x*x and W_h*h into the gate at its intermediate scale (biases are NOT added here: CpuRef
//   uses gate biases only with layer norm -- kept, so results equal CpuRef's), peephole products likewise;
//   layer norm: normalize (written at inputScale * lnScale * 1024), multiply by the LN weights, add the
//   bias read as Signed32 with scale lnScale / 1024 (written at 1/4096);
//   activation (sigmoid; tanh for the cell gate) written at the cell state's scale;
//   c = f * c_prev + g * i (CIFG: 1 - f for i), clipped by cellClip; hidden = o * tanh(c) as QAsymmS8 with
//   hiddenStateScale/ZeroPoint; projection accumulates (from the bias or 0) into an int16 buffer with the
//   output's scale and offset, then the output is written and clipped by projectionClip; without projection
//   the output is the hidden state re-quantized; outputStateOut = output.
//
// QuantizedLstm (Android NN QUANTIZED_16BIT_LSTM; CpuRef has no implementation): npurun computes it the
// CpuRef way (decode to float, compute, encode once): gates W_x*x + W_h*h_prev + bias, i/f/o sigmoid, g tanh,
// c = f*c_prev + i*g (cellStateOut, QSymmS16), h = o*tanh(c) (output, QAsymmU8). Results may differ by one
// step of the output quantization from Android NN's integer pipeline. Node inputs: 0 input,
// 1 previousCellStateIn, 2 previousOutputIn (file order).
#include <algorithm>
#include <cmath>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

// A QSymmS16-style buffer whose scale may change (CpuRef rebuilds encoders/decoders with a new scale; the
// stored integers stay). get() decodes with the decoder scale, set() encodes with the encoder scale.
struct Q16 {
    int16_t* d;
    float dec, enc;
    int32_t offset = 0;
    float get(size_t i) const { return (float(d[i]) - float(offset)) * dec; }
    void set(size_t i, float v) const { d[i] = int16_t(quant::quantize(v, enc, offset, DataType::QSymmS16)); }
};

struct QSizes {
    uint32_t b, i, c, o;
};

QSizes qsizes(const KernelNode& node) {
    return {node.in(kLstmInput).shape[0], node.in(kLstmInput).shape[1],
            node.in(kLstmCellStateIn).shape[1], node.in(kLstmOutputStateIn).shape[1]};
}

size_t qlstm_scratch(const KernelNode& node) {
    const QSizes s = qsizes(node);
    return (4 * size_t(s.b) * s.c + size_t(s.b) * s.o) * sizeof(int16_t) + size_t(s.b) * s.c + 64;
}

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

void run_qlstm(const KernelArgs& a) {
    const auto& at = a.node.attr<QLstmAttrs>();
    const QSizes s = qsizes(a.node);
    const size_t bc = size_t(s.b) * s.c, bo = size_t(s.b) * s.o;
    auto R = [&](uint32_t op) { return Reader(a.node.in(op), a.inputs[op]); };
    auto scale_of = [&](uint32_t op) { return a.node.in(op).quant.scale(); };
    const TensorInfo& xi = in_info(a, kLstmInput);
    const TensorInfo& cell_out_i = out_info(a, 1);
    const TensorInfo& out_i = out_info(a, 2);
    const float cell_scale = cell_out_i.quant.scale();
    const Reader x = R(kLstmInput), h_in = R(kLstmOutputStateIn), c_in = R(kLstmCellStateIn);
    const Writer c_out_w(cell_out_i, a.outputs[1]), out_w(out_i, a.outputs[2]), hs_w(out_info(a, 0), a.outputs[0]);
    const Reader c_out_r(cell_out_i, a.outputs[1]), out_r(out_i, a.outputs[2]);

    int16_t* base = static_cast<int16_t*>(a.scratch);
    Q16 gi{base, at.input_intermediate_scale, at.input_intermediate_scale};
    Q16 gf{base + bc, at.forget_intermediate_scale, at.forget_intermediate_scale};
    Q16 gc{base + 2 * bc, at.cell_intermediate_scale, at.cell_intermediate_scale};
    Q16 go{base + 3 * bc, at.output_intermediate_scale, at.output_intermediate_scale};
    Q16 out16{base + 4 * bc, out_i.quant.scale(), out_i.quant.scale(), out_i.quant.offset};
    int8_t* hidden = reinterpret_cast<int8_t*>(base + 4 * bc + bo);
    const float hs_scale = at.hidden_state_scale;
    const int32_t hs_zp = at.hidden_state_zero_point;
    auto hidden_get = [&](size_t i) { return quant::dequantize(hidden[i], hs_scale, hs_zp); };

    for (size_t e = 0; e < bc; ++e) {
        gi.d[e] = gf.d[e] = gc.d[e] = go.d[e] = 0;
        hidden[e] = int8_t(quant::quantize(0.0f, hs_scale, hs_zp, DataType::QAsymmS8));
    }
    for (size_t e = 0; e < bo; ++e) out16.d[e] = 0;

    struct GateOps {
        Q16* g;
        uint32_t in_w, rec_w, bias, peep, ln;
    };
    GateOps gates[4] = {{&gi, kInputToInputWeights, kRecurrentToInputWeights, kInputGateBias, kCellToInputWeights, kInputLayerNormWeights},
                        {&gf, kInputToForgetWeights, kRecurrentToForgetWeights, kForgetGateBias, kCellToForgetWeights, kForgetLayerNormWeights},
                        {&gc, kInputToCellWeights, kRecurrentToCellWeights, kCellBias, 0, kCellLayerNormWeights},
                        {&go, kInputToOutputWeights, kRecurrentToOutputWeights, kOutputGateBias, kCellToOutputWeights, kOutputLayerNormWeights}};
    auto matmul_acc = [&](const Q16& g, const Reader& w, const Reader& v, uint32_t cols) {
        for (uint32_t b = 0; b < s.b; ++b)
            for (uint32_t r = 0; r < s.c; ++r)
                for (uint32_t k = 0; k < cols; ++k) {
                    const size_t o = size_t(b) * s.c + r;
                    g.set(o, g.get(o) + w[size_t(r) * cols + k] * v[size_t(b) * cols + k]);
                }
    };
    for (GateOps& op : gates)
        if (op.g != &gi || !at.cifg) matmul_acc(*op.g, R(op.in_w), x, s.i);
    for (GateOps& op : gates)
        if (op.g != &gi || !at.cifg) matmul_acc(*op.g, R(op.rec_w), h_in, s.o);

    // Peephole (optional), layer norm (optional) and the activation of one gate; `cell` feeds the peephole.
    auto finish = [&](GateOps& op, bool peephole, const Reader& cell, bool tanh_act) {
        Q16& g = *op.g;
        if (peephole) {
            const Reader w = R(op.peep);
            for (size_t e = 0; e < bc; ++e) g.set(e, g.get(e) + w[e % s.c] * cell[e]);
        }
        if (at.layer_norm) {
            const float ln_scale = scale_of(op.ln);
            g.enc = xi.quant.scale() * ln_scale * 1024.0f;  // the decoder keeps the old scale for the read
            for (uint32_t b = 0; b < s.b; ++b) {
                float sum = 0.0f, sum_sq = 0.0f;
                for (uint32_t k = 0; k < s.c; ++k) {
                    const float v = g.get(size_t(b) * s.c + k);
                    sum += v;
                    sum_sq += v * v;
                }
                const float mean = sum / float(s.c);
                const float var = sum_sq / float(s.c) - mean * mean;
                const float inv = var == 0.0f ? 1.0f / std::sqrt(1e-8f) : 1.0f / std::sqrt(var);
                for (uint32_t k = 0; k < s.c; ++k) {
                    const size_t e = size_t(b) * s.c + k;
                    g.set(e, (g.get(e) - mean) * inv);
                }
            }
            g.dec = g.enc;
            const Reader w = R(op.ln);
            for (size_t e = 0; e < bc; ++e) g.set(e, w[e % s.c] * g.get(e));
            g.enc = 1.0f / 4096.0f;
            const int32_t* bias = static_cast<const int32_t*>(a.inputs[op.bias]);
            const float bias_scale = ln_scale / 1024.0f;
            for (size_t e = 0; e < bc; ++e) g.set(e, g.get(e) + float(bias[e % s.c]) * bias_scale);
            g.dec = g.enc;
        }
        g.enc = cell_scale;
        for (size_t e = 0; e < bc; ++e) g.set(e, tanh_act ? std::tanh(g.get(e)) : sigmoid(g.get(e)));
        g.dec = g.enc;
    };
    if (!at.cifg) finish(gates[0], at.peephole, c_in, false);
    finish(gates[1], at.peephole, c_in, false);
    finish(gates[2], false, c_in, true);

    for (size_t e = 0; e < bc; ++e) c_out_w.set(e, gf.get(e) * c_in[e]);
    if (at.cifg) {
        for (size_t e = 0; e < bc; ++e) gf.set(e, 1.0f - gf.get(e));
        for (size_t e = 0; e < bc; ++e) c_out_w.set(e, c_out_r[e] + gc.get(e) * gf.get(e));
    } else {
        for (size_t e = 0; e < bc; ++e) c_out_w.set(e, c_out_r[e] + gc.get(e) * gi.get(e));
    }
    if (at.cell_clip > 0.0f)
        for (size_t e = 0; e < bc; ++e) c_out_w.set(e, std::min(at.cell_clip, std::max(-at.cell_clip, c_out_r[e])));
    finish(gates[3], at.peephole, c_out_r, false);
    for (size_t e = 0; e < bc; ++e) gc.set(e, std::tanh(c_out_r[e]));  // gc's scale is the cell scale now
    for (size_t e = 0; e < bc; ++e)
        hidden[e] = int8_t(quant::quantize(go.get(e) * gc.get(e), hs_scale, hs_zp, DataType::QAsymmS8));

    if (at.projection) {
        if (a.node.has_input(kProjectionBias)) {
            const Reader pb = R(kProjectionBias);
            for (size_t e = 0; e < bo; ++e) out16.set(e, pb[e % s.o]);
        }
        const Reader w = R(kProjectionWeights);
        for (uint32_t b = 0; b < s.b; ++b)
            for (uint32_t r = 0; r < s.o; ++r)
                for (uint32_t k = 0; k < s.c; ++k) {
                    const size_t o = size_t(b) * s.o + r;
                    out16.set(o, out16.get(o) + w[size_t(r) * s.c + k] * hidden_get(size_t(b) * s.c + k));
                }
        for (size_t e = 0; e < bo; ++e) out_w.set(e, out16.get(e));
        if (at.projection_clip > 0.0f)
            for (size_t e = 0; e < bo; ++e)
                out_w.set(e, std::min(at.projection_clip, std::max(-at.projection_clip, out_r[e])));
    } else {
        for (size_t e = 0; e < bo; ++e) out_w.set(e, hidden_get(e));
    }
    for (size_t e = 0; e < bo; ++e) hs_w.set(e, out_r[e]);
}

void run_quantized_lstm(const KernelArgs& a) {
    const QSizes s = qsizes(a.node);  // c and o both read the state width
    const uint32_t n = s.o;
    auto R = [&](uint32_t op) { return Reader(a.node.in(op), a.inputs[op]); };
    const Reader x = R(kLstmInput), c_prev = R(1), h_prev = R(2);
    const Writer c_out(out_info(a, 0), a.outputs[0]), h_out(out_info(a, 1), a.outputs[1]);
    const uint32_t in_w[4] = {kInputToInputWeights, kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights};
    const uint32_t rec_w[4] = {kRecurrentToInputWeights, kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights};
    const uint32_t bias[4] = {kInputGateBias, kForgetGateBias, kCellBias, kOutputGateBias};
    for (uint32_t b = 0; b < s.b; ++b)
        for (uint32_t k = 0; k < n; ++k) {
            float g[4];
            for (int q = 0; q < 4; ++q) {
                const Reader wx = R(in_w[q]), wh = R(rec_w[q]);
                float acc = R(bias[q])[k];
                for (uint32_t j = 0; j < s.i; ++j) acc += wx[size_t(k) * s.i + j] * x[size_t(b) * s.i + j];
                for (uint32_t j = 0; j < n; ++j) acc += wh[size_t(k) * n + j] * h_prev[size_t(b) * n + j];
                g[q] = acc;
            }
            const size_t e = size_t(b) * n + k;
            const float c = sigmoid(g[1]) * c_prev[e] + sigmoid(g[0]) * std::tanh(g[2]);
            c_out.set(e, c);
            h_out.set(e, sigmoid(g[3]) * std::tanh(c));
        }
}

std::string check_any_quantized(const KernelNode&) { return {}; }

}  // namespace

const Kernel kQLstm = {check_any_quantized, qlstm_scratch, run_qlstm};
const Kernel kQuantizedLstm = {check_any_quantized, nullptr, run_quantized_lstm};

}  // namespace npurun::kernels::ref
