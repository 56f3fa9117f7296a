#include "runtime/exec/cpu_support.h"

#include "kernels/ref/registry.h"
#include "core/error.h"
#include "ir/graph.h"
#include "ir/ops/op_semantics.h"
#include "runtime/exec/kernel_node_view.h"

namespace npurun::exec {
namespace {

TensorInfo ti(DataType t, Shape s) {
    TensorInfo i;
    i.dtype = t;
    i.shape = s;
    if (is_quantized(t)) {
        i.quant.scales = {0.1f};
        i.quant.offset = t == DataType::QAsymmU8 ? 128 : 0;
    }
    return i;
}

// Weight type for a convolution-like layer whose input is t (8-bit quantized weights for quantized inputs).
DataType weight_type(DataType t) {
    if (t == DataType::QAsymmU8 || t == DataType::QAsymmS8) return t;
    return is_quantized(t) ? DataType::QSymmS8 : t;
}
TensorInfo bias_info(DataType t, uint32_t n) {
    TensorInfo b = ti(is_float(t) ? t : DataType::Signed32, Shape{n});
    if (!is_float(t)) b.quant.scales = {0.01f};
    return b;
}

struct Sample {
    Graph g;
    Node n;
    TensorId in(const TensorInfo& i) {
        Tensor t;
        t.name = "t" + std::to_string(g.tensors.size());
        t.info = i;
        const TensorId id = g.add_tensor(t);
        n.inputs.push_back(id);
        return id;
    }
    void none() { n.inputs.push_back(kNoTensor); }
    void out(const TensorInfo& i) {
        Tensor t;
        t.name = "o" + std::to_string(g.tensors.size());
        t.info = i;
        n.outputs.push_back(g.add_tensor(t));
    }
};

void lstm_operands(Sample& s, DataType x, DataType state_h, DataType state_c, DataType w, DataType b, uint32_t seq) {
    s.n.inputs.clear();
    s.in(ti(x, seq ? Shape{1, seq, 2} : Shape{1, 2}));
    s.in(ti(state_h, Shape{1, 2}));
    s.in(ti(state_c, Shape{1, 2}));
    for (uint32_t i = kInputToInputWeights; i < kLstmOperandCount; ++i) {
        const bool cifg_skip = i == kInputToInputWeights || i == kRecurrentToInputWeights || i == kInputGateBias;
        if (i <= kRecurrentToOutputWeights && !cifg_skip) s.in(ti(w, Shape{2, 2}));
        else if (i >= kForgetGateBias && i <= kOutputGateBias) s.in(bias_info(b == DataType::Signed32 ? DataType::QAsymmS8 : b, 2));
        else s.none();
    }
}

// The attributes of a 2-D convolution kind with a bias, NHWC, everything else default (1x1 window).
template <class Attrs> Attrs biased_nhwc() {
    Attrs a;
    a.bias_enabled = true;
    a.layout = DataLayout::NHWC;
    return a;
}

// Convolution-like layers: input x, weights of the matching 8-bit type, a bias (Convolution3d and
// FullyConnected without one).
void sample_conv(OpKind op, DataType t, const TensorInfo& x, Sample& s) {
    switch (op) {
        case OpKind::Convolution2d: case OpKind::TransposeConvolution2d: case OpKind::DepthwiseConvolution2d: {
            s.in(x);
            s.in(ti(weight_type(t), op == OpKind::DepthwiseConvolution2d ? Shape{1, 1, 1, 2} : Shape{2, 1, 1, 2}));
            s.in(bias_info(t, 2));
            if (op == OpKind::Convolution2d) s.n.attrs = biased_nhwc<Convolution2dAttrs>();
            else if (op == OpKind::DepthwiseConvolution2d) s.n.attrs = biased_nhwc<DepthwiseConvolution2dAttrs>();
            else s.n.attrs = biased_nhwc<TransposeConvolution2dAttrs>();
            break;
        }
        case OpKind::Convolution3d:
            s.n.attrs = Convolution3dAttrs{};
            s.in(ti(t, {1, 2, 2, 2, 2}));
            s.in(ti(weight_type(t), {1, 1, 1, 2, 2}));
            break;
        case OpKind::FullyConnected:
            s.n.attrs = FullyConnectedAttrs{};
            s.in(ti(t, {1, 4}));
            s.in(ti(weight_type(t), {4, 2}));
            break;
        default: break;
    }
}

// Recurrent layers; true when the outputs are added too (the quantized ones have their own types).
bool sample_recurrent(OpKind op, DataType t, Sample& s, size_t* outputs) {
    switch (op) {
        case OpKind::Lstm: case OpKind::UnidirectionalSequenceLstm: {
            LstmAttrs a;
            a.activation = 4;
            s.n.attrs = a;
            lstm_operands(s, t, t, t, t, t, op == OpKind::Lstm ? 0 : 1);
            *outputs = op == OpKind::Lstm ? 4 : 3;
            break;
        }
        case OpKind::QLstm: {
            QLstmAttrs a;
            a.input_intermediate_scale = a.forget_intermediate_scale = a.cell_intermediate_scale = 0.1f;
            a.output_intermediate_scale = a.hidden_state_scale = 0.1f;
            s.n.attrs = a;
            lstm_operands(s, t, DataType::QAsymmS8, DataType::QSymmS16, DataType::QSymmS8, DataType::Signed32, 0);
            s.out(ti(DataType::QAsymmS8, {1, 2}));
            s.out(ti(DataType::QSymmS16, {1, 2}));
            s.out(ti(DataType::QAsymmS8, {1, 2}));
            return true;
        }
        case OpKind::QuantizedLstm: {
            s.n.attrs = std::monostate{};
            s.in(ti(t, {1, 2}));
            s.in(ti(DataType::QSymmS16, {1, 2}));
            s.in(ti(DataType::QAsymmU8, {1, 2}));
            for (uint32_t i = kInputToInputWeights; i < kLstmOperandCount; ++i) {
                if (i <= kRecurrentToOutputWeights) s.in(ti(DataType::QAsymmU8, {2, 2}));
                else if (i >= kInputGateBias && i <= kOutputGateBias) s.in(bias_info(DataType::QAsymmU8, 2));
                else s.none();
            }
            s.out(ti(DataType::QSymmS16, {1, 2}));
            s.out(ti(DataType::QAsymmU8, {1, 2}));
            return true;
        }
        default: break;
    }
    return false;
}

// Layers over image windows or blocks: the input and the attributes only.
void sample_spatial(OpKind op, DataType t, const TensorInfo& x, Sample& s) {
    TensorInfo in = x;  // the input, unless the layer needs another shape
    switch (op) {
        case OpKind::BatchToSpaceNd: {
            BatchToSpaceNdAttrs a;
            a.block_shape = {2, 2};
            a.crops = {{0, 0}, {0, 0}};
            s.n.attrs = a;
            in = ti(t, {4, 1, 1, 2});
            break;
        }
        case OpKind::Normalization: {
            NormalizationAttrs a;
            a.norm_size = 3;
            a.alpha = a.beta = a.k = 1;
            a.layout = DataLayout::NHWC;
            s.n.attrs = a;
            break;
        }
        case OpKind::Pad: {
            PadAttrs a;
            a.pads = {{0, 0}, {1, 1}, {1, 1}, {0, 0}};
            s.n.attrs = a;
            break;
        }
        case OpKind::Pooling2d: {
            Pooling2dAttrs a;
            a.pool_width = a.pool_height = a.stride_x = a.stride_y = 2;
            s.n.attrs = a;
            break;
        }
        case OpKind::Pooling3d: {
            Pooling3dAttrs a;
            a.pool_width = a.pool_height = a.pool_depth = a.stride_x = a.stride_y = a.stride_z = 2;
            s.n.attrs = a;
            in = ti(t, {1, 2, 2, 2, 2});
            break;
        }
        case OpKind::Resize: {
            ResizeAttrs a;
            a.target_height = a.target_width = 4;
            a.method = ResizeMethod::Bilinear;
            s.n.attrs = a;
            break;
        }
        case OpKind::SpaceToBatchNd: {
            SpaceToBatchNdAttrs a;
            a.block_shape = {2, 2};
            a.pads = {{0, 0}, {0, 0}};
            s.n.attrs = a;
            break;
        }
        default: return;
    }
    s.in(in);
}

// Builds the representative node for `op` with main element type t.
Sample sample(OpKind op, DataType t) {
    Sample s;
    s.n.op = op;
    s.n.name = "sample";
    const TensorInfo x = ti(t, Shape{1, 2, 2, 2});
    TensorInfo y = x;
    size_t outputs = 1;
    switch (op) {
        case OpKind::Input: case OpKind::Output: case OpKind::Constant: case OpKind::Count_: break;
        case OpKind::Activation: s.n.attrs = ActivationAttrs{ActivationFunction::ReLu, 0, 0}; s.in(x); break;
        case OpKind::ArgMinMax: s.n.attrs = ArgMinMaxAttrs{true, 1}; s.in(x); y = ti(DataType::Signed32, {}); break;
        case OpKind::BatchMatMul: s.n.attrs = BatchMatMulAttrs{}; s.in(ti(t, {2, 2})); s.in(ti(t, {2, 2})); break;
        case OpKind::BatchNormalization:
            s.n.attrs = BatchNormalizationAttrs{0.001f, DataLayout::NHWC};
            s.in(x);
            for (int i = 0; i < 4; ++i) s.in(ti(t, {2}));
            break;
        case OpKind::BatchToSpaceNd: case OpKind::Normalization: case OpKind::Pad: case OpKind::Pooling2d:
        case OpKind::Pooling3d: case OpKind::Resize: case OpKind::SpaceToBatchNd: sample_spatial(op, t, x, s); break;
        case OpKind::Cast: s.n.attrs = std::monostate{}; s.in(x); y = ti(DataType::Float32, {}); break;
        case OpKind::ChannelShuffle: s.n.attrs = ChannelShuffleAttrs{3, 2}; s.in(x); break;
        case OpKind::Comparison: s.n.attrs = ComparisonAttrs{}; s.in(x); s.in(x); break;
        case OpKind::Concat: s.n.attrs = ConcatAttrs{3, {{0, 0, 0, 0}, {0, 0, 0, 2}}}; s.in(x); s.in(x); break;
        case OpKind::Convolution2d: case OpKind::TransposeConvolution2d: case OpKind::DepthwiseConvolution2d:
        case OpKind::Convolution3d: sample_conv(op, t, x, s); break;
        case OpKind::DepthToSpace: s.n.attrs = DepthToSpaceAttrs{2, DataLayout::NHWC}; s.in(ti(t, {1, 1, 1, 4})); break;
        case OpKind::SpaceToDepth: s.n.attrs = DepthToSpaceAttrs{2, DataLayout::NHWC}; s.in(x); break;
        case OpKind::Dequantize: s.n.attrs = std::monostate{}; s.in(x); y = ti(DataType::Float32, {}); break;
        case OpKind::Quantize: s.n.attrs = std::monostate{}; s.in(x); y = ti(DataType::QAsymmU8, {}); break;
        case OpKind::RoiPooling:
            s.n.attrs = RoiPoolingAttrs{1, 1, 1.0f};
            s.in(x);
            s.in(ti(t, {1, 5}));
            break;
        case OpKind::DetectionOutput: {
            DetectionOutputAttrs a;
            a.num_classes = 2;
            a.keep_top_k = 1;
            a.nms_threshold = 0.5f;
            s.n.attrs = a;
            s.in(ti(t, {1, 8}));
            s.in(ti(t, {1, 4}));
            s.in(ti(t, {1, 2, 8, 1}));
            y = ti(DataType::Float32, {});
            break;
        }
        case OpKind::DetectionPostProcess: {
            DetectionPostProcessAttrs a;
            a.max_detections = a.max_classes_per_detection = a.detections_per_class = 1;
            a.num_classes = 2;
            a.nms_iou_threshold = 0.5f;
            a.scale_x = a.scale_y = a.scale_w = a.scale_h = 1;
            s.n.attrs = a;
            s.in(ti(t, {1, 2, 4}));
            s.in(ti(t, {1, 2, 3}));
            s.in(ti(t, {2, 4}));
            y = ti(DataType::Float32, {});
            outputs = 4;
            break;
        }
        case OpKind::ElementwiseBinary: s.n.attrs = ElementwiseBinaryAttrs{}; s.in(x); s.in(x); break;
        case OpKind::ElementwiseUnary:
            s.n.attrs = ElementwiseUnaryAttrs{t == DataType::Boolean ? UnaryOp::LogicalNot : UnaryOp::Abs};
            s.in(x);
            break;
        case OpKind::Fill: s.n.attrs = FillAttrs{1.0f}; s.in(ti(DataType::Signed32, {4})); break;
        case OpKind::Floor: s.n.attrs = std::monostate{}; s.in(x); break;
        case OpKind::FullyConnected: sample_conv(op, t, x, s); break;
        case OpKind::Gather: s.n.attrs = GatherAttrs{0}; s.in(x); s.in(ti(DataType::Signed32, {2})); break;
        case OpKind::GatherNd: s.n.attrs = std::monostate{}; s.in(x); s.in(ti(DataType::Signed32, {1, 2})); break;
        case OpKind::InstanceNormalization: s.n.attrs = InstanceNormalizationAttrs{1, 0, 0.001f, DataLayout::NHWC}; s.in(x); break;
        case OpKind::L2Normalization: s.n.attrs = L2NormalizationAttrs{DataLayout::NHWC, 1e-12f}; s.in(x); break;
        case OpKind::LogicalBinary: s.n.attrs = LogicalBinaryAttrs{}; s.in(x); s.in(x); break;
        case OpKind::LogSoftmax: case OpKind::Softmax: s.n.attrs = SoftmaxAttrs{1.0f, -1}; s.in(x); break;
        case OpKind::Lstm: case OpKind::UnidirectionalSequenceLstm: case OpKind::QLstm: case OpKind::QuantizedLstm:
            if (sample_recurrent(op, t, s, &outputs)) return s;
            break;
        case OpKind::Mean: case OpKind::Reduce: {
            ReduceAttrs a;
            a.op = op == OpKind::Mean ? ReduceAttrs::Op::Mean : ReduceAttrs::Op::Sum;
            a.axes = {1, 2};
            s.n.attrs = a;
            s.in(x);
            break;
        }
        case OpKind::Merge: s.n.attrs = std::monostate{}; s.in(x); s.in(x); break;
        case OpKind::Permute: case OpKind::Transpose: s.n.attrs = PermuteAttrs{{0, 2, 1, 3}}; s.in(x); break;
        case OpKind::Prelu: s.n.attrs = std::monostate{}; s.in(x); s.in(ti(t, {2})); break;
        case OpKind::Rank: case OpKind::Shape: s.n.attrs = std::monostate{}; s.in(x); y = ti(DataType::Signed32, {}); break;
        case OpKind::Reshape: s.n.attrs = ReshapeAttrs{Shape{1, 8}}; s.in(x); break;
        case OpKind::ReverseV2: s.n.attrs = std::monostate{}; s.in(x); s.in(ti(DataType::Signed32, {1})); break;
        case OpKind::ScatterNd:  // one position in dimension 0, whose [2,2,2] slice is replaced
            s.n.attrs = ScatterNdAttrs{};
            s.in(x);
            s.in(ti(DataType::Signed32, {1, 1}));
            s.in(x);
            break;
        case OpKind::Tile: s.n.attrs = TileAttrs{{1, 1, 1, 2}}; s.in(x); break;
        case OpKind::Slice: s.n.attrs = SliceAttrs{{0, 0, 0, 0}, {1, 1, 1, 1}}; s.in(x); break;
        case OpKind::Splitter: {
            SplitterAttrs a;
            a.view_origins = {{0, 0, 0, 0}, {0, 0, 0, 1}};
            a.view_sizes = {{1, 2, 2, 1}, {1, 2, 2, 1}};
            s.n.attrs = a;
            s.in(x);
            y = ti(t, {1, 2, 2, 1});
            outputs = 2;
            break;
        }
        case OpKind::Stack: {
            StackAttrs a;
            a.num_inputs = 2;
            a.input_shape = x.shape;
            s.n.attrs = a;
            s.in(x);
            s.in(x);
            break;
        }
        case OpKind::StandIn: s.n.attrs = StandInAttrs{1, 1}; s.in(x); break;
        case OpKind::StridedSlice: {
            StridedSliceAttrs a;
            a.begin = {0, 0, 0, 0};
            a.end = {1, 2, 2, 2};
            a.stride = {1, 1, 1, 1};
            s.n.attrs = a;
            s.in(x);
            break;
        }
        case OpKind::Switch: s.n.attrs = std::monostate{}; s.in(x); s.in(ti(DataType::Boolean, {1})); outputs = 2; break;
    }
    if (op == OpKind::Fill) y = ti(t, {1, 2, 2, 2});
    for (size_t i = 0; i < outputs; ++i) s.out(y);
    return s;
}

std::string without_prefix(const std::string& message, const Node& n) {
    const std::string prefix = n.describe() + ": ";
    return message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size()) : message;
}

}  // namespace

std::string cpu_support(OpKind op, DataType dtype) {
    const kernels::Kernel* k = kernels::ref_kernel(op);
    if (!k || !k->run) return "no CPU kernel";
    Sample s = sample(op, dtype);
    std::vector<TensorInfo> outs;
    try {
        outs = ops::infer_outputs(s.n, s.g);
    } catch (const Error& e) {
        return without_prefix(e.what(), s.n);
    }
    for (size_t i = 0; i < outs.size() && i < s.n.outputs.size(); ++i) {
        TensorInfo& declared = s.g.tensors[s.n.outputs[i]].info;
        declared.shape = outs[i].shape;
        declared.dtype = outs[i].dtype;
        if (is_quantized(declared.dtype) && declared.quant.scales.empty()) declared.quant.scales = {0.1f};
    }
    return k->check ? k->check(KernelNodeView(s.n, s.g)) : std::string();
}

}  // namespace npurun::exec
