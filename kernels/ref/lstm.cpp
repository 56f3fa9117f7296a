// Lstm and UnidirectionalSequenceLstm (float), CpuRef's LstmImpl step for step (reference/armnn-format.md §2;
// a port of the Android NN LSTM). Computed in float32 (Float16 tensors are widened on load and rounded once
// on store). Per step, for gate buffers of [B, C]:
//   no layer norm: gate = bias; gate += W_x * x; gate += W_h * h_prev  (element by element, in column order)
//   layer norm:    gate = 0;    the same products; then gate = meanstddev(gate) * lnWeights + bias, where
//                  meanstddev uses var = E[x^2] - E[x]^2 and 1/sqrt(1e-8) only when var == 0
//   i = sigmoid(i + peephole_i * c_prev)   (CIFG: no input gate)
//   f = sigmoid(f + peephole_f * c_prev)
//   c = f * c_prev + act(g) * i            (CIFG: the forget buffer becomes 1 - f and replaces i)
//   c = clip(c, clipCell) when clipCell > 0
//   o = sigmoid(o + peephole_o * c)        (peephole on the NEW cell state)
//   h = o * act(c); out = projection ? clip(W_p * h + b_p, clipProj) : h
// Decisions on CpuRef's quirks:
//   - activationFunc 0 (none): CpuRef outputs o * g (the raw cell candidate) instead of o * c. KEPT, so that
//     results equal CpuRef (TfLite never writes 0; it uses 4 = tanh).
//   - projection without a bias: CpuRef accumulates into the output buffer without clearing it (garbage).
//     FIXED: the accumulation starts from 0 (the only deterministic reading).
//   - the scratch-buffer output holds what CpuRef leaves there: [i | g(=act(c) if act > 0) | f (1 - f with
//     CIFG) | o * act(c)] per region of B*C (CIFG: [g | f | o]).
// QSymmS16 Lstm (CpuRef 20.08 accepts it; found by the conformance suite): CpuRef keeps the gates, the cell state
// and the output in its QSymmS16 output buffers and re-quantizes at EVERY write (each multiply-accumulate, each
// peephole/layer-norm/activation step, f*c and then +i*g), so the step below rounds each such write to the
// buffer it lives in: gates to the scratch output, the cell state to cellStateOut, the projection to output.
// Rounding once instead differs by up to 2 in the integer (measured). Decision: each tensor is read and
// written with its OWN quantization; CpuRef decodes outputStateIn/cellStateIn with the input's and encodes
// every output with the scratch buffer's (a bug that only shows when those quantizations differ). Float16
// keeps the single rounding on store.
#include <algorithm>
#include <cmath>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

struct Sizes {
    uint32_t b, i, c, o, steps;
};

Sizes sizes(const KernelNode& node) {
    const Shape& x = node.in(kLstmInput).shape;
    Sizes s;
    s.c = node.in(kLstmCellStateIn).shape[1];
    s.o = node.in(kLstmOutputStateIn).shape[1];
    s.b = node.in(kLstmOutputStateIn).shape[0];
    s.i = x[x.rank - 1];
    s.steps = x.rank == 3 ? (node.attr<LstmAttrs>().time_major ? x[0] : x[1]) : 1;
    return s;
}

// Float scratch layout: gates[4][B*C], h[B*O], c[B*C], x_t[B*I], out[B*O].
size_t scratch_floats(const Sizes& s) {
    return 4 * size_t(s.b) * s.c + size_t(s.b) * s.o + size_t(s.b) * s.c + size_t(s.b) * s.i + size_t(s.b) * s.o;
}

size_t scratch_bytes(const KernelNode& node) { return scratch_floats(sizes(node)) * sizeof(float); }

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

float activate(uint32_t code, float v) {
    switch (code) {
        case 1: return std::max(0.0f, v);
        case 3: return std::min(6.0f, std::max(0.0f, v));
        case 4: return std::tanh(v);
        case 6: return sigmoid(v);
        default: return v;
    }
}

struct Params {
    const KernelArgs& a;
    bool present(uint32_t op) const { return a.node.has_input(op); }
    Reader r(uint32_t op) const { return Reader(a.node.in(op), a.inputs[op]); }
};

// Layer norm of each batch row of v (n values), CpuRef's MeanStddevNormalization.
void mean_stddev(float* v, uint32_t n, uint32_t batches) {
    for (uint32_t b = 0; b < batches; ++b) {
        float* row = v + size_t(b) * n;
        float sum = 0.0f, sum_sq = 0.0f;
        for (uint32_t k = 0; k < n; ++k) {
            sum += row[k];
            sum_sq += row[k] * row[k];
        }
        const float mean = sum / float(n);
        const float var = sum_sq / float(n) - mean * mean;
        const float inv = var == 0.0f ? 1.0f / std::sqrt(1e-8f) : 1.0f / std::sqrt(var);
        for (uint32_t k = 0; k < n; ++k) row[k] = (row[k] - mean) * inv;
    }
}

// Rounding of intermediate writes to the buffer a value lives in (QSymmS16 Lstm, see the top of the file);
// a null info means "keep float" (Float32, Float16).
struct Rounding {
    const TensorInfo* gates = nullptr;  // the scratch output
    const TensorInfo* cell = nullptr;   // cellStateOut
    const TensorInfo* out = nullptr;    // output
    static float apply(const TensorInfo* t, float v) {
        if (!t) return v;
        const float scale = t->quant.scales[0];
        const int32_t offset = t->quant.offset;
        return quant::dequantize(quant::quantize(v, scale, offset, t->dtype), scale, offset);
    }
    float g(float v) const { return apply(gates, v); }
    float c(float v) const { return apply(cell, v); }
    float o(float v) const { return apply(out, v); }
};

// One LSTM step. x [B*I], h [B*O] and c [B*C] are the previous state; c and out are written, h is not.
void step(const Params& p, const LstmAttrs& at, const Sizes& s, const Rounding& r, const float* x, const float* h,
          float* c, float* gates, float* out) {
    const size_t bc = size_t(s.b) * s.c;
    float* gi = at.cifg ? nullptr : gates;
    float* gg = at.cifg ? gates : gates + bc;
    float* gf = at.cifg ? gates + bc : gates + 2 * bc;
    float* go = at.cifg ? gates + 2 * bc : gates + 3 * bc;
    struct Gate {
        float* buf;
        uint32_t in_w, rec_w, bias, peep, ln;
    };
    const Gate all[4] = {{gi, kInputToInputWeights, kRecurrentToInputWeights, kInputGateBias, kCellToInputWeights, kInputLayerNormWeights},
                         {gf, kInputToForgetWeights, kRecurrentToForgetWeights, kForgetGateBias, kCellToForgetWeights, kForgetLayerNormWeights},
                         {gg, kInputToCellWeights, kRecurrentToCellWeights, kCellBias, 0, kCellLayerNormWeights},
                         {go, kInputToOutputWeights, kRecurrentToOutputWeights, kOutputGateBias, kCellToOutputWeights, kOutputLayerNormWeights}};
    for (const Gate& g : all) {
        if (!g.buf) continue;
        const Reader bias = p.r(g.bias), wx = p.r(g.in_w), wh = p.r(g.rec_w);
        for (uint32_t b = 0; b < s.b; ++b)
            for (uint32_t k = 0; k < s.c; ++k) {
                float acc = at.layer_norm ? 0.0f : r.g(bias[k]);
                for (uint32_t j = 0; j < s.i; ++j) acc = r.g(acc + wx[size_t(k) * s.i + j] * x[size_t(b) * s.i + j]);
                g.buf[size_t(b) * s.c + k] = acc;
            }
        for (uint32_t b = 0; b < s.b; ++b)
            for (uint32_t k = 0; k < s.c; ++k) {
                float acc = g.buf[size_t(b) * s.c + k];
                for (uint32_t j = 0; j < s.o; ++j) acc = r.g(acc + wh[size_t(k) * s.o + j] * h[size_t(b) * s.o + j]);
                g.buf[size_t(b) * s.c + k] = acc;
            }
    }
    auto finish_gate = [&](const Gate& g, const float* cell, bool peephole) {
        if (peephole) {
            const Reader w = p.r(g.peep);
            for (size_t e = 0; e < bc; ++e) g.buf[e] = r.g(g.buf[e] + w[e % s.c] * cell[e]);
        }
        if (at.layer_norm) {
            mean_stddev(g.buf, s.c, s.b);
            const Reader w = p.r(g.ln), bias = p.r(g.bias);
            for (size_t e = 0; e < bc; ++e) g.buf[e] = r.g(r.g(r.g(g.buf[e]) * w[e % s.c]) + bias[e % s.c]);
        }
    };
    // c holds c_prev on entry.
    if (gi) {
        finish_gate(all[0], c, at.peephole);
        for (size_t e = 0; e < bc; ++e) gi[e] = r.g(sigmoid(gi[e]));
    }
    finish_gate(all[1], c, at.peephole);
    for (size_t e = 0; e < bc; ++e) gf[e] = r.g(sigmoid(gf[e]));
    finish_gate(all[2], c, false);
    for (size_t e = 0; e < bc; ++e) c[e] = r.c(gf[e] * c[e]);
    if (at.activation > 0)
        for (size_t e = 0; e < bc; ++e) gg[e] = r.g(activate(at.activation, gg[e]));
    if (at.cifg) {
        for (size_t e = 0; e < bc; ++e) gf[e] = r.g(1.0f - gf[e]);
        for (size_t e = 0; e < bc; ++e) c[e] = r.c(c[e] + gg[e] * gf[e]);
    } else {
        for (size_t e = 0; e < bc; ++e) c[e] = r.c(c[e] + gg[e] * gi[e]);
    }
    if (at.clip_cell > 0.0f)
        for (size_t e = 0; e < bc; ++e) c[e] = r.c(std::min(at.clip_cell, std::max(-at.clip_cell, c[e])));
    finish_gate(all[3], c, at.peephole);
    for (size_t e = 0; e < bc; ++e) go[e] = r.g(sigmoid(go[e]));
    if (at.activation > 0)
        for (size_t e = 0; e < bc; ++e) gg[e] = r.g(activate(at.activation, c[e]));
    for (size_t e = 0; e < bc; ++e) go[e] = r.g(go[e] * gg[e]);
    const size_t bo = size_t(s.b) * s.o;
    if (at.projection) {
        const Reader w = p.r(kProjectionWeights);
        const bool has_bias = p.present(kProjectionBias);
        for (uint32_t b = 0; b < s.b; ++b)
            for (uint32_t k = 0; k < s.o; ++k) {
                float acc = has_bias ? r.o(p.r(kProjectionBias)[k]) : 0.0f;
                for (uint32_t j = 0; j < s.c; ++j) acc = r.o(acc + w[size_t(k) * s.c + j] * go[size_t(b) * s.c + j]);
                out[size_t(b) * s.o + k] = acc;
            }
        if (at.clip_proj > 0.0f)
            for (size_t e = 0; e < bo; ++e) out[e] = r.o(std::min(at.clip_proj, std::max(-at.clip_proj, out[e])));
    } else {
        for (size_t e = 0; e < bo; ++e) out[e] = r.o(go[e]);
    }
}

struct Buffers {
    float *gates, *h, *c, *x, *out;
    Buffers(void* scratch, const Sizes& s) {
        gates = static_cast<float*>(scratch);
        h = gates + 4 * size_t(s.b) * s.c;
        c = h + size_t(s.b) * s.o;
        x = c + size_t(s.b) * s.c;
        out = x + size_t(s.b) * s.i;
    }
};

// What both entry points start from: the sizes, the scratch buffers with h and c loaded from the state
// inputs, and a reader of the input sequence or step.
struct Start {
    Sizes s;
    Buffers buf;
    Reader x;
    explicit Start(const KernelArgs& a)
        : s(sizes(a.node)), buf(a.scratch, s), x(in_info(a, kLstmInput), a.inputs[kLstmInput]) {
        const Reader h(in_info(a, kLstmOutputStateIn), a.inputs[kLstmOutputStateIn]);
        const Reader c(in_info(a, kLstmCellStateIn), a.inputs[kLstmCellStateIn]);
        for (size_t e = 0; e < size_t(s.b) * s.o; ++e) buf.h[e] = h[e];
        for (size_t e = 0; e < size_t(s.b) * s.c; ++e) buf.c[e] = c[e];
    }
};

void run_lstm(const KernelArgs& a) {
    const auto& at = a.node.attr<LstmAttrs>();
    const Start st(a);
    const Sizes& s = st.s;
    const Buffers& buf = st.buf;
    for (size_t e = 0; e < size_t(s.b) * s.i; ++e) buf.x[e] = st.x[e];
    Rounding r;
    if (is_quantized(out_info(a, 0).dtype)) {
        r.gates = &out_info(a, 0);
        r.cell = &out_info(a, 2);
        r.out = &out_info(a, 3);
    }
    step(Params{a}, at, s, r, buf.x, buf.h, buf.c, buf.gates, buf.out);
    const size_t bc = size_t(s.b) * s.c, bo = size_t(s.b) * s.o;
    const Writer scratch(out_info(a, 0), a.outputs[0]), hs(out_info(a, 1), a.outputs[1]),
        cs(out_info(a, 2), a.outputs[2]), out(out_info(a, 3), a.outputs[3]);
    for (size_t e = 0; e < (at.cifg ? 3 : 4) * bc; ++e) scratch.set(e, buf.gates[e]);
    for (size_t e = 0; e < bo; ++e) hs.set(e, buf.out[e]);
    for (size_t e = 0; e < bc; ++e) cs.set(e, buf.c[e]);
    for (size_t e = 0; e < bo; ++e) out.set(e, buf.out[e]);
}

// The sequence runs the step T times, feeding each step's output back as h; time-major input [T, B, I],
// batch-major [B, T, I] (CpuRef permutes to time-major and back: the same values).
void run_sequence(const KernelArgs& a) {
    const auto& at = a.node.attr<LstmAttrs>();
    const Start st(a);
    const Sizes& s = st.s;
    const Buffers& buf = st.buf;
    const size_t out_slot = a.node.num_outputs() == 3 ? 2 : 0;
    const Writer y(out_info(a, out_slot), a.outputs[out_slot]);
    for (uint32_t t = 0; t < s.steps; ++t) {
        for (uint32_t b = 0; b < s.b; ++b)
            for (uint32_t j = 0; j < s.i; ++j) {
                const size_t src = at.time_major ? (size_t(t) * s.b + b) * s.i + j : (size_t(b) * s.steps + t) * s.i + j;
                buf.x[size_t(b) * s.i + j] = st.x[src];
            }
        step(Params{a}, at, s, Rounding{}, buf.x, buf.h, buf.c, buf.gates, buf.out);
        for (uint32_t b = 0; b < s.b; ++b)
            for (uint32_t k = 0; k < s.o; ++k) {
                const size_t dst = at.time_major ? (size_t(t) * s.b + b) * s.o + k : (size_t(b) * s.steps + t) * s.o + k;
                y.set(dst, buf.out[size_t(b) * s.o + k]);
                buf.h[size_t(b) * s.o + k] = buf.out[size_t(b) * s.o + k];
            }
    }
    if (a.node.num_outputs() == 3) {
        const Writer hs(out_info(a, 0), a.outputs[0]), cs(out_info(a, 1), a.outputs[1]);
        for (size_t e = 0; e < size_t(s.b) * s.o; ++e) hs.set(e, buf.h[e]);
        for (size_t e = 0; e < size_t(s.b) * s.c; ++e) cs.set(e, buf.c[e]);
    }
}

std::string check(const KernelNode& node) {
    const DataType t = node.in(kLstmInput).dtype;
    if (!is_float(t) && !(t == DataType::QSymmS16 && node.op == OpKind::Lstm))
        return std::string(to_string(t)) + " input not supported (QLstm is the quantized LSTM)";
    return {};
}

}  // namespace

const Kernel kLstm = {check, scratch_bytes, run_lstm};
const Kernel kUnidirectionalSequenceLstm = {check, scratch_bytes, run_sequence};

}  // namespace npurun::kernels::ref
