// Lstm, QLstm and QuantizedLstm cases (one time step each, as Arm NN 20.08's layers are).
//
// Lstm: every combination that matters of CIFG, peephole, projection (with and without bias), layer
// normalization, cell and projection clipping, and the cell activation codes 0 (none), 1 (ReLU),
// 3 (ReLU6), 4 (tanh), 6 (sigmoid). All four outputs (scratch buffer, output state, cell state, output)
// are compared.
//
// Two combinations cannot be written by Arm NN 20.08 at all: its serializer (VisitLstmLayer) builds a
// const tensor from every optional weight of an enabled feature without checking for null, so CIFG off
// without peephole (the cell-to-input weights) and projection without a projection bias both crash it
// (SIGSEGV in CreateConstTensorInfo, found with gdb). One case of each stays in the list: the crash is
// recorded as the skip reason. (CpuRef's own quirk for projection without bias -- accumulating into an
// uncleared buffer -- therefore never reaches a 20.08 file; npurun starts from 0.)
#include <cstdio>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "tests/conformance/generator/case_spec.h"

namespace conformance {
namespace {

using armnn::DataType;
using armnn::TensorInfo;
using armnn::TensorShape;

struct LstmP {
    const char* tag;
    unsigned batch, in, cell, out;  // out == cell unless projection
    bool cifg, peephole, projection, projection_bias, layer_norm;
    uint32_t act;
    float clip_cell, clip_proj;
};

const LstmP kLstm[] = {
    {"cifg_tanh", 2, 3, 4, 4, true, false, false, false, false, 4, 0, 0},
    {"peephole_tanh", 1, 5, 3, 3, false, true, false, false, false, 4, 0, 0},
    {"cifg_peephole_sigmoid", 2, 2, 5, 5, true, true, false, false, false, 6, 0, 0},
    {"peephole_projection_clip", 2, 4, 5, 3, false, true, true, true, false, 4, 0.8f, 0.3f},
    // Projection without bias: 20.08's serializer cannot write it (see kNoProjectionBiasCrash).
    {"peephole_projection_nobias", 2, 3, 4, 2, false, true, true, false, false, 4, 0, 0},
    {"layer_norm_peephole", 2, 3, 4, 4, false, true, false, false, true, 4, 0, 0},
    {"cifg_layer_norm_projection_relu_clip", 3, 2, 4, 3, true, false, true, true, true, 1, 0.5f, 0},
    {"cifg_relu6_cell_clip", 1, 4, 3, 3, true, false, false, false, false, 3, 0.25f, 0},
    // activationFunc 0: CpuRef outputs o * g (the raw cell candidate); npurun keeps that quirk.
    {"peephole_act_none", 2, 3, 3, 3, false, true, false, false, false, 0, 0, 0},
    {"cifg_act_none", 2, 3, 3, 3, true, false, false, false, false, 0, 0, 0},
    // CIFG off without peephole: 20.08's serializer cannot write it (see kNoCellToInputCrash).
    {"full_no_peephole_tanh", 2, 3, 4, 4, false, false, false, false, false, 4, 0, 0},
};

// Printed before serializing, so that it becomes the skip reason if (and only if) Arm NN crashes.
constexpr const char* kNoCellToInputCrash =
    "Arm NN 20.08's serializer dereferences the absent cell-to-input weights of an Lstm with CIFG off and "
    "peephole off (VisitLstmLayer -> CreateConstTensorInfo(null)); no file can be written";
constexpr const char* kNoProjectionBiasCrash =
    "Arm NN 20.08's serializer dereferences the absent projection bias of an Lstm with projection "
    "(VisitLstmLayer -> CreateConstTensorInfo(null)); no file can be written";

// Tensor infos for a type variant: float types as they are, QSymmS16 with scales covering the ranges used.
struct LstmTypes {
    TypeVariant v;
    TensorInfo info(const TensorShape& s, float range) const { return v.info(s, range / 32767.0f, 0); }
};

// What Lstm and QLstm differ in when drawing their parameters: the tensor types, scales and ranges.
struct LstmConstantMakers {
    std::function<armnn::ConstTensor(unsigned rows, unsigned cols)> weights;
    std::function<armnn::ConstTensor()> gate_bias;
    std::function<armnn::ConstTensor(float lo, float hi)> cell_vector;  // peephole and layer-norm weights
    std::function<armnn::ConstTensor()> projection_bias;                 // empty: no projection bias
};

// The parameter set of an Lstm or QLstm layer, drawn in one fixed order (the order the cases have always
// drawn them in, so the files stay the same). `params` points into the tensors here: not copyable.
struct LstmConstants {
    armnn::ConstTensor i2f, i2c, i2o, r2f, r2c, r2o, fb, cb, ob;
    armnn::ConstTensor i2i, r2i, ib, c2i, c2f, c2o, pw, pb, lni, lnf, lnc, lno;
    armnn::LstmInputParams params;

    LstmConstants(const LstmConstantMakers& m, unsigned in, unsigned cell, unsigned out, bool cifg, bool peephole,
                  bool projection, bool layer_norm);
    LstmConstants(const LstmConstants&) = delete;
    LstmConstants& operator=(const LstmConstants&) = delete;
};

LstmConstants::LstmConstants(const LstmConstantMakers& m, unsigned in, unsigned cell, unsigned out, bool cifg,
                             bool peephole, bool projection, bool layer_norm) {
    i2f = m.weights(cell, in);
    i2c = m.weights(cell, in);
    i2o = m.weights(cell, in);
    r2f = m.weights(cell, out);
    r2c = m.weights(cell, out);
    r2o = m.weights(cell, out);
    fb = m.gate_bias();
    cb = m.gate_bias();
    ob = m.gate_bias();
    params.m_InputToForgetWeights = &i2f;
    params.m_InputToCellWeights = &i2c;
    params.m_InputToOutputWeights = &i2o;
    params.m_RecurrentToForgetWeights = &r2f;
    params.m_RecurrentToCellWeights = &r2c;
    params.m_RecurrentToOutputWeights = &r2o;
    params.m_ForgetGateBias = &fb;
    params.m_CellBias = &cb;
    params.m_OutputGateBias = &ob;
    if (!cifg) {
        i2i = m.weights(cell, in);
        r2i = m.weights(cell, out);
        ib = m.gate_bias();
        params.m_InputToInputWeights = &i2i;
        params.m_RecurrentToInputWeights = &r2i;
        params.m_InputGateBias = &ib;
    }
    if (peephole) {
        if (!cifg) {
            c2i = m.cell_vector(-0.5f, 0.5f);
            params.m_CellToInputWeights = &c2i;
        }
        c2f = m.cell_vector(-0.5f, 0.5f);
        c2o = m.cell_vector(-0.5f, 0.5f);
        params.m_CellToForgetWeights = &c2f;
        params.m_CellToOutputWeights = &c2o;
    }
    if (projection) {
        pw = m.weights(out, cell);
        params.m_ProjectionWeights = &pw;
        if (m.projection_bias) {
            pb = m.projection_bias();
            params.m_ProjectionBias = &pb;
        }
    }
    if (layer_norm) {
        if (!cifg) {
            lni = m.cell_vector(0.5f, 1.5f);
            params.m_InputLayerNormWeights = &lni;
        }
        lnf = m.cell_vector(0.5f, 1.5f);
        lnc = m.cell_vector(0.5f, 1.5f);
        lno = m.cell_vector(0.5f, 1.5f);
        params.m_ForgetLayerNormWeights = &lnf;
        params.m_CellLayerNormWeights = &lnc;
        params.m_OutputLayerNormWeights = &lno;
    }
}

// The optional parts both LstmDescriptor and QLstmDescriptor switch on, from a case's parameters.
template <class Desc, class Params>
void set_lstm_features(Desc& d, const Params& p) {
    std::tie(d.m_CifgEnabled, d.m_PeepholeEnabled, d.m_ProjectionEnabled, d.m_LayerNormEnabled) =
        std::tie(p.cifg, p.peephole, p.projection, p.layer_norm);
}

void build_lstm(Net& net, const TypeVariant& v, const LstmP& p) {
    const LstmTypes t{v};
    const unsigned gates = p.cifg ? 3 : 4;
    // QSymmS16: x, h and c share one quantization and the four outputs another, because CpuRef decodes h and
    // c with x's quantization and encodes every output with the scratch buffer's (npurun uses each tensor's
    // own; the two agree only when they are equal).
    auto& x = net.input(t.info({p.batch, p.in}, 4), {-1, 1});
    auto& h = net.input(t.info({p.batch, p.out}, 4), {-1, 1});
    auto& c = net.input(t.info({p.batch, p.cell}, 4), {-2, 2});

    auto weights = [&](unsigned rows, unsigned cols) { return net.random_const(t.info({rows, cols}, 1), -0.6f, 0.6f); };
    auto vec = [&](float lo, float hi) { return net.random_const(t.info({p.cell}, 2), lo, hi); };

    armnn::LstmDescriptor d;
    d.m_ActivationFunc = p.act;
    d.m_ClippingThresCell = p.clip_cell;
    d.m_ClippingThresProj = p.clip_proj;
    set_lstm_features(d, p);

    LstmConstantMakers makers{weights, [&] { return vec(-0.5f, 0.5f); }, vec, nullptr};
    if (p.projection_bias) makers.projection_bias = [&] { return net.random_const(t.info({p.out}, 2), -0.5f, 0.5f); };
    const LstmConstants k(makers, p.in, p.cell, p.out, p.cifg, p.peephole, p.projection, p.layer_norm);

    if (!p.cifg && !p.peephole) std::fprintf(stderr, "%s\n", kNoCellToInputCrash);
    if (p.projection && !p.projection_bias) std::fprintf(stderr, "%s\n", kNoProjectionBiasCrash);
    auto* layer = net.net().AddLstmLayer(d, k.params, "lstm");
    x.Connect(layer->GetInputSlot(0));
    h.Connect(layer->GetInputSlot(1));
    c.Connect(layer->GetInputSlot(2));
    // Ranges: the scratch buffer and states stay within a few units; ReLU cells can grow a little more.
    layer->GetOutputSlot(0).SetTensorInfo(t.info({p.batch, p.cell * gates}, 8));
    layer->GetOutputSlot(1).SetTensorInfo(t.info({p.batch, p.out}, 8));
    layer->GetOutputSlot(2).SetTensorInfo(t.info({p.batch, p.cell}, 8));
    layer->GetOutputSlot(3).SetTensorInfo(t.info({p.batch, p.out}, 8));
    for (unsigned i = 0; i < 4; ++i) net.output(layer->GetOutputSlot(i));
}

void add_lstm(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : {kF32, kF16, kS16})
        for (const LstmP& p : kLstm) {
            out.push_back(make_case(std::string("lstm_") + v.tag + "_" + p.tag, "Lstm", v,
                                    [v, p](Net& net) { build_lstm(net, v, p); }));
        }
}

// QLstm: QAsymmS8 input and output state, QSymmS16 cell state, QSymmS8 weights, Signed32 biases,
// QSymmS16 peephole and layer-norm weights.
struct QLstmP {
    const char* tag;
    unsigned batch, in, cell, out;
    bool cifg, peephole, projection, layer_norm;
    float cell_clip, projection_clip;
};

const QLstmP kQLstm[] = {
    {"basic_cifg", 2, 5, 4, 4, true, false, false, false, 0, 0},
    {"cifg_layer_norm", 2, 5, 4, 4, true, false, false, true, 0, 0},
    {"full_layer_norm_peephole", 2, 3, 4, 4, false, true, false, true, 0, 0},
    {"advanced_projection_clip", 2, 5, 4, 3, false, true, true, true, 0.5f, 0.3f},
    {"no_cifg_no_layer_norm", 1, 4, 3, 3, false, false, false, false, 0, 0},
    {"cifg_peephole_projection", 3, 2, 5, 2, true, true, true, false, 0, 0},
    {"layer_norm_projection_cell_clip", 2, 4, 3, 5, false, false, true, true, 0.25f, 0},
};

void add_qlstm(std::vector<CaseSpec>& out) {
    for (const QLstmP& p : kQLstm)
        out.push_back(make_case(std::string("qlstm_s8_") + p.tag, "QLstm", kS8, [p](Net& net) {
            const float in_scale = 1.0f / 128, cell_scale = 1.0f / 2048, w_scale = 0.005f, ln_scale = 1.0f / 4096;
            auto& x = net.input(TensorInfo({p.batch, p.in}, DataType::QAsymmS8, in_scale, 0));
            auto& h = net.input(TensorInfo({p.batch, p.out}, DataType::QAsymmS8, in_scale, 0));
            auto& c = net.input(TensorInfo({p.batch, p.cell}, DataType::QSymmS16, cell_scale, 0), {-2, 2});
            auto weights = [&](unsigned rows, unsigned cols) {
                return net.random_const(TensorInfo({rows, cols}, DataType::QSymmS8, w_scale, 0));
            };
            auto bias = [&](unsigned n) {
                return net.random_const(TensorInfo({n}, DataType::Signed32, in_scale * w_scale, 0), -0.5f, 0.5f);
            };
            auto s16 = [&](float lo, float hi) {
                return net.random_const(TensorInfo({p.cell}, DataType::QSymmS16, ln_scale, 0), lo, hi);
            };
            armnn::QLstmDescriptor d;
            d.m_CellClip = p.cell_clip;
            d.m_ProjectionClip = p.projection_clip;
            set_lstm_features(d, p);
            d.m_InputIntermediateScale = 1.0f / 4096;
            d.m_ForgetIntermediateScale = 1.0f / 4096;
            d.m_CellIntermediateScale = 1.0f / 4096;
            d.m_OutputIntermediateScale = 1.0f / 4096;
            d.m_HiddenStateScale = 1.0f / 128;
            d.m_HiddenStateZeroPoint = 0;

            const auto projection_bias = [&] {
                return net.random_const(TensorInfo({p.out}, DataType::Signed32, d.m_HiddenStateScale * w_scale, 0), -0.5f, 0.5f);
            };
            const LstmConstants k({weights, [&] { return bias(p.cell); }, s16, projection_bias}, p.in, p.cell, p.out, p.cifg,
                                  p.peephole, p.projection, p.layer_norm);
            auto* layer = net.net().AddQLstmLayer(d, k.params, "qlstm");
            x.Connect(layer->GetInputSlot(0));
            h.Connect(layer->GetInputSlot(1));
            c.Connect(layer->GetInputSlot(2));
            layer->GetOutputSlot(0).SetTensorInfo(TensorInfo({p.batch, p.out}, DataType::QAsymmS8, in_scale, 0));
            layer->GetOutputSlot(1).SetTensorInfo(TensorInfo({p.batch, p.cell}, DataType::QSymmS16, cell_scale, 0));
            layer->GetOutputSlot(2).SetTensorInfo(TensorInfo({p.batch, p.out}, DataType::QAsymmS8, in_scale, 0));
            for (unsigned i = 0; i < 3; ++i) net.output(layer->GetOutputSlot(i));
        }));
}

// QuantizedLstm (Android NN QUANTIZED_16BIT_LSTM): QAsymmU8 input/output, QSymmS16 cell state, QAsymmU8
// weights, Signed32 biases. Built so that the index records what CpuRef 20.08 says about it.
void add_quantized_lstm(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        unsigned batch, in, out;
    };
    for (const P& p : {P{"2x3to4", 2, 3, 4}, P{"1x5to2", 1, 5, 2}})
        out.push_back(make_case(std::string("quantized_lstm_u8_") + p.tag, "QuantizedLstm", kU8, [p](Net& net) {
            const float in_scale = 1.0f / 128, w_scale = 0.005f, cell_scale = 1.0f / 2048;
            auto& x = net.input(TensorInfo({p.batch, p.in}, DataType::QAsymmU8, in_scale, 128));
            auto& c = net.input(TensorInfo({p.batch, p.out}, DataType::QSymmS16, cell_scale, 0), {-2, 2});
            auto& h = net.input(TensorInfo({p.batch, p.out}, DataType::QAsymmU8, in_scale, 128));
            std::vector<armnn::ConstTensor> w;
            for (int i = 0; i < 4; ++i) w.push_back(net.random_const(TensorInfo({p.out, p.in}, DataType::QAsymmU8, w_scale, 128)));
            for (int i = 0; i < 4; ++i) w.push_back(net.random_const(TensorInfo({p.out, p.out}, DataType::QAsymmU8, w_scale, 128)));
            for (int i = 0; i < 4; ++i)
                w.push_back(net.random_const(TensorInfo({p.out}, DataType::Signed32, in_scale * w_scale, 0), -0.5f, 0.5f));
            armnn::QuantizedLstmInputParams params;
            params.m_InputToInputWeights = &w[0];
            params.m_InputToForgetWeights = &w[1];
            params.m_InputToCellWeights = &w[2];
            params.m_InputToOutputWeights = &w[3];
            params.m_RecurrentToInputWeights = &w[4];
            params.m_RecurrentToForgetWeights = &w[5];
            params.m_RecurrentToCellWeights = &w[6];
            params.m_RecurrentToOutputWeights = &w[7];
            params.m_InputGateBias = &w[8];
            params.m_ForgetGateBias = &w[9];
            params.m_CellBias = &w[10];
            params.m_OutputGateBias = &w[11];
            auto* layer = net.net().AddQuantizedLstmLayer(params, "quantized_lstm");
            x.Connect(layer->GetInputSlot(0));
            c.Connect(layer->GetInputSlot(1));
            h.Connect(layer->GetInputSlot(2));
            layer->GetOutputSlot(0).SetTensorInfo(TensorInfo({p.batch, p.out}, DataType::QSymmS16, cell_scale, 0));
            layer->GetOutputSlot(1).SetTensorInfo(TensorInfo({p.batch, p.out}, DataType::QAsymmU8, in_scale, 128));
            net.output(layer->GetOutputSlot(0));
            net.output(layer->GetOutputSlot(1));
        }));
}

}  // namespace

void add_recurrent_cases(std::vector<CaseSpec>& out) {
    add_lstm(out);
    add_qlstm(out);
    add_quantized_lstm(out);
}

}  // namespace conformance
