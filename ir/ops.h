// Operation kinds and their typed attributes.
//
// The set follows Arm NN's layer types (the primary model format) with deprecated and redundant layers
// folded into their successors by the loaders: Merger -> Concat, ResizeBilinear -> Resize,
// Equal/Greater -> Comparison, Abs/Rsqrt -> ElementwiseUnary, and Addition/Subtraction/Multiplication/
// Division/Maximum/Minimum -> ElementwiseBinary. Semantics of every attribute are Arm NN's
// (reference/armnn-format.md §2); field defaults are the schema's defaults.
//
// Tensor operands: every operand, including weights and biases, is an input tensor of the node
// (constants are tensors with data). The input order per op is documented on each attribute struct.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/types.h"

namespace npurun {

enum class OpKind : uint8_t {
    Input,
    Output,
    Constant,
    Activation,
    ArgMinMax,
    BatchMatMul,
    BatchNormalization,
    BatchToSpaceNd,
    Cast,
    ChannelShuffle,
    Comparison,
    Concat,
    Convolution2d,
    Convolution3d,
    DepthToSpace,
    DepthwiseConvolution2d,
    Dequantize,
    DetectionOutput,
    DetectionPostProcess,
    ElementwiseBinary,
    ElementwiseUnary,
    Fill,
    Floor,
    FullyConnected,
    Gather,
    GatherNd,
    InstanceNormalization,
    L2Normalization,
    LogicalBinary,
    LogSoftmax,
    Lstm,
    Mean,
    Merge,
    Normalization,
    Pad,
    Permute,
    Pooling2d,
    Pooling3d,
    Prelu,
    QLstm,
    Quantize,
    QuantizedLstm,
    Rank,
    Reduce,
    Reshape,
    Resize,
    ReverseV2,
    RoiPooling,
    ScatterNd,
    Shape,
    Slice,
    Softmax,
    SpaceToBatchNd,
    SpaceToDepth,
    Splitter,
    Stack,
    StandIn,
    StridedSlice,
    Switch,
    Tile,
    Transpose,
    TransposeConvolution2d,
    UnidirectionalSequenceLstm,
    Count_,  // number of kinds; not an op
};

const char* to_string(OpKind k);

// ---- attribute structs (one per op that has parameters) ----

// Input/Output: no tensor operands beyond the bound value. binding_id is the Arm NN layerBindingId.
struct BindingAttrs {
    int32_t binding_id = 0;
};

enum class ActivationFunction : uint8_t {
    Sigmoid, TanH, Linear, ReLu, BoundedReLu, SoftReLu, LeakyReLu, Abs, Sqrt, Square, Elu, HardSwish,
    Gelu  // x * 0.5 * (1 + erf(x / sqrt 2)), Arm NN 23.11
};
const char* to_string(ActivationFunction f);
struct ActivationAttrs {  // inputs: x
    ActivationFunction function = ActivationFunction::Sigmoid;
    float a = 0.0f;  // BoundedReLu: upper bound; LeakyReLu/Elu: alpha; Linear: slope; TanH: a*tanh(b*x)
    float b = 0.0f;  // BoundedReLu: lower bound; Linear: offset
};

struct ArgMinMaxAttrs {  // inputs: x
    bool is_max = false;
    int32_t axis = 0;
};

struct BatchMatMulAttrs {  // inputs: x, y
    bool transpose_x = false, transpose_y = false;
    bool adjoint_x = false, adjoint_y = false;
    DataLayout layout_x = DataLayout::NCHW, layout_y = DataLayout::NCHW;
};

struct BatchNormalizationAttrs {  // inputs: x, mean, variance, beta, gamma
    float eps = 0.0f;
    DataLayout layout = DataLayout::NHWC;
};

struct BatchToSpaceNdAttrs {  // inputs: x
    std::vector<uint32_t> block_shape;
    std::vector<std::pair<uint32_t, uint32_t>> crops;
    DataLayout layout = DataLayout::NHWC;
};

struct ChannelShuffleAttrs {  // inputs: x
    uint32_t axis = 0;
    uint32_t num_groups = 0;
};

enum class ComparisonOp : uint8_t { Equal, Greater, GreaterOrEqual, Less, LessOrEqual, NotEqual };
struct ComparisonAttrs {  // inputs: a, b (broadcast); output Boolean
    ComparisonOp op = ComparisonOp::Equal;
};

// Concat (and Splitter views): per-view origin coordinates, one vector of `rank` per view.
struct ConcatAttrs {  // inputs: views...
    uint32_t axis = 0;  // concatAxis as written (CpuRef uses origins only)
    std::vector<std::vector<uint32_t>> view_origins;
};

struct Convolution2dAttrs {  // inputs: x, weights, [bias]
    uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
    uint32_t stride_x = 1, stride_y = 1;
    uint32_t dilation_x = 1, dilation_y = 1;
    bool bias_enabled = false;
    // NHWC: weights [O,H,W,I]; NCHW: weights [O,I,H,W]
    DataLayout layout = DataLayout::NCHW;
};

struct Convolution3dAttrs {  // inputs: x, weights [D,H,W,I,O], [bias]
    uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0, pad_front = 0, pad_back = 0;
    uint32_t stride_x = 1, stride_y = 1, stride_z = 1;
    uint32_t dilation_x = 1, dilation_y = 1, dilation_z = 1;
    bool bias_enabled = false;
    DataLayout layout = DataLayout::NDHWC;
};

struct DepthToSpaceAttrs {  // inputs: x (also used by SpaceToDepth)
    uint32_t block_size = 1;
    DataLayout layout = DataLayout::NHWC;
};

// Depthwise weights are always [1, H, W, I*M] in the IR, whatever the file's weightsLayoutScheme
// (the loader converts the legacy [M, I, H, W]); output channel c = i*M + m.
struct DepthwiseConvolution2dAttrs {  // inputs: x, weights [1,H,W,I*M], [bias]
    uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
    uint32_t stride_x = 1, stride_y = 1;
    uint32_t dilation_x = 1, dilation_y = 1;
    bool bias_enabled = false;
    DataLayout layout = DataLayout::NCHW;
};

// Caffe SSD's DetectionOutput as MNN runs it (CPUDetectionOutput); semantics in kernels/ref/detection_output.cpp.
struct DetectionOutputAttrs {  // inputs: locations [4P], confidences [P*C], priors [2 x 4P]; output [1,1,K,6]
    uint32_t num_classes = 0;      // C, class 0 the background
    uint32_t keep_top_k = 0;       // K: per-class NMS limit and total
    float nms_threshold = 0.0f;    // IoU above which a box is suppressed
    float confidence_threshold = 0.0f;  // scores must exceed it
};

// Caffe's ROIPooling as MNN runs it (CPUROIPooling); semantics in kernels/ref/roi_pooling.cpp.
struct RoiPoolingAttrs {  // inputs: x [N,C,H,W], rois [R,5] (batch, x1, y1, x2, y2); output [R,C,ph,pw]
    uint32_t pooled_height = 0, pooled_width = 0;
    float spatial_scale = 0.0f;
};

struct DetectionPostProcessAttrs {  // inputs: box_encodings, scores, anchors; outputs: boxes, classes, scores, num
    uint32_t max_detections = 0;
    uint32_t max_classes_per_detection = 1;
    uint32_t detections_per_class = 1;
    float nms_score_threshold = 0.0f;
    float nms_iou_threshold = 0.0f;
    uint32_t num_classes = 0;
    bool use_regular_nms = false;
    float scale_x = 0.0f, scale_y = 0.0f, scale_w = 0.0f, scale_h = 0.0f;
};

// SquaredDifference (a - b)^2 and Power pow(a, b): Arm NN BinaryOperation SqDiff (6) and Power (7).
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Maximum, Minimum, SquaredDifference, Power };
const char* to_string(BinaryOp o);
struct ElementwiseBinaryAttrs {  // inputs: a, b (NumPy broadcasting)
    BinaryOp op = BinaryOp::Add;
};

enum class UnaryOp : uint8_t { Abs, Rsqrt, Sqrt, Exp, Neg, LogicalNot, Log, Sin, Ceil };  // schema numbering
const char* to_string(UnaryOp o);
struct ElementwiseUnaryAttrs {  // inputs: x
    UnaryOp op = UnaryOp::Abs;
};

struct FillAttrs {  // inputs: shape (Signed32 1-D)
    float value = 0.0f;
};

struct FullyConnectedAttrs {  // inputs: x, weights, [bias]
    bool bias_enabled = false;
    bool transpose_weights = false;  // true: weights [O, I]; false: [I, O]
    bool constant_weights = true;
};

struct GatherAttrs {  // inputs: params, indices (Signed32)
    int32_t axis = 0;
};

struct InstanceNormalizationAttrs {  // inputs: x
    float gamma = 0.0f, beta = 0.0f, eps = 0.0f;
    DataLayout layout = DataLayout::NHWC;
};

struct L2NormalizationAttrs {  // inputs: x
    DataLayout layout = DataLayout::NCHW;
    float eps = 1e-12f;
};

enum class LogicalBinaryOp : uint8_t { And, Or };
struct LogicalBinaryAttrs {  // inputs: a, b (Boolean)
    LogicalBinaryOp op = LogicalBinaryOp::And;
};

struct SoftmaxAttrs {  // inputs: x (also LogSoftmax)
    float beta = 1.0f;
    int32_t axis = -1;
};

// LSTM family. Tensor operands are node inputs in this fixed order; absent optional operands are
// kNoTensor. Inputs 0..2 are the runtime inputs (input, outputStateIn, cellStateIn).
enum LstmOperand : uint32_t {
    kLstmInput = 0, kLstmOutputStateIn, kLstmCellStateIn,
    kInputToInputWeights, kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights,
    kRecurrentToInputWeights, kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights,
    kCellToInputWeights, kCellToForgetWeights, kCellToOutputWeights,
    kInputGateBias, kForgetGateBias, kCellBias, kOutputGateBias,
    kProjectionWeights, kProjectionBias,
    kInputLayerNormWeights, kForgetLayerNormWeights, kCellLayerNormWeights, kOutputLayerNormWeights,
    kLstmOperandCount,
};
struct LstmAttrs {  // Lstm and UnidirectionalSequenceLstm
    uint32_t activation = 0;  // TFLite fused-activation code: 0 none, 1 ReLU, 3 ReLU6, 4 tanh, 6 sigmoid
    float clip_cell = 0.0f, clip_proj = 0.0f;
    bool cifg = true, peephole = false, projection = false, layer_norm = false;
    bool time_major = false;  // UnidirectionalSequenceLstm only
};
struct QLstmAttrs {  // same operand order as LstmOperand
    bool cifg = true, peephole = false, projection = false, layer_norm = false;
    float cell_clip = 0.0f, projection_clip = 0.0f;
    float input_intermediate_scale = 0.0f, forget_intermediate_scale = 0.0f;
    float cell_intermediate_scale = 0.0f, output_intermediate_scale = 0.0f;
    int32_t hidden_state_zero_point = 0;
    float hidden_state_scale = 0.0f;
};
// QuantizedLstm uses the LstmOperand order too (no attributes).

struct ReduceAttrs {  // inputs: x (also Mean, with op Mean)
    enum class Op : uint8_t { Sum, Max, Mean, Min, Prod } op = Op::Sum;
    std::vector<uint32_t> axes;  // empty: all axes
    bool keep_dims = false;
};

enum class NormChannel : uint8_t { Across, Within };
enum class NormMethod : uint8_t { LocalBrightness, LocalContrast };
struct NormalizationAttrs {  // inputs: x
    NormChannel channel = NormChannel::Across;
    NormMethod method = NormMethod::LocalBrightness;
    uint32_t norm_size = 0;
    float alpha = 0.0f, beta = 0.0f, k = 0.0f;
    DataLayout layout = DataLayout::NCHW;
};

enum class PaddingMode : uint8_t { Constant, Reflect, Symmetric };
struct PadAttrs {  // inputs: x
    std::vector<std::pair<uint32_t, uint32_t>> pads;  // (before, after) per dimension
    float value = 0.0f;  // for quantized outputs: the raw quantized value (Arm NN semantics)
    PaddingMode mode = PaddingMode::Constant;
};

struct PermuteAttrs {  // inputs: x. Permute: output[mapping[i]] = input dim i. Transpose: output dim i = input[mapping[i]]
    std::vector<uint32_t> mapping;
};

enum class PoolingAlgorithm : uint8_t { Max, Average, L2 };
enum class OutputShapeRounding : uint8_t { Floor, Ceiling };
enum class PaddingMethod : uint8_t { IgnoreValue, Exclude };
struct Pooling2dAttrs {  // inputs: x
    PoolingAlgorithm algorithm = PoolingAlgorithm::Max;
    uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
    uint32_t pool_width = 0, pool_height = 0;
    uint32_t stride_x = 0, stride_y = 0;  // both 0: global pooling
    OutputShapeRounding rounding = OutputShapeRounding::Floor;
    PaddingMethod padding_method = PaddingMethod::IgnoreValue;
    DataLayout layout = DataLayout::NHWC;
};
struct Pooling3dAttrs {  // inputs: x
    PoolingAlgorithm algorithm = PoolingAlgorithm::Max;
    uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0, pad_front = 0, pad_back = 0;
    uint32_t pool_width = 0, pool_height = 0, pool_depth = 0;
    uint32_t stride_x = 0, stride_y = 0, stride_z = 0;
    OutputShapeRounding rounding = OutputShapeRounding::Floor;
    PaddingMethod padding_method = PaddingMethod::IgnoreValue;
    DataLayout layout = DataLayout::NDHWC;
};

struct ReshapeAttrs {  // inputs: x
    Shape target;
};

enum class ResizeMethod : uint8_t { NearestNeighbor, Bilinear };
struct ResizeAttrs {  // inputs: x
    uint32_t target_height = 0, target_width = 0;
    ResizeMethod method = ResizeMethod::NearestNeighbor;
    DataLayout layout = DataLayout::NHWC;
    bool align_corners = false, half_pixel_centers = false;
};

struct SliceAttrs {  // inputs: x
    std::vector<uint32_t> begin, size;
};

struct SpaceToBatchNdAttrs {  // inputs: x
    std::vector<uint32_t> block_shape;
    std::vector<std::pair<uint32_t, uint32_t>> pads;
    DataLayout layout = DataLayout::NHWC;
};

struct SplitterAttrs {  // inputs: x; outputs: views
    std::vector<std::vector<uint32_t>> view_origins;
    std::vector<std::vector<uint32_t>> view_sizes;
};

struct StackAttrs {  // inputs: values...
    uint32_t axis = 0;
    uint32_t num_inputs = 0;
    Shape input_shape;
};

struct StandInAttrs {
    uint32_t num_inputs = 0, num_outputs = 0;
};

struct StridedSliceAttrs {  // inputs: x
    std::vector<int32_t> begin, end, stride;
    int32_t begin_mask = 0, end_mask = 0, shrink_axis_mask = 0, ellipsis_mask = 0, new_axis_mask = 0;
    DataLayout layout = DataLayout::NHWC;
};

// ReverseV2 has no attributes; inputs: x, axes (Signed32 1-D, negative axes count from the end, an axis listed
// twice is reversed once, as in Arm NN's reference).

struct TileAttrs {  // inputs: x
    std::vector<uint32_t> multiples;  // one per dimension of x: output dimension i = x dimension i * multiples[i]
};

// How a ScatterNd update combines with the element it lands on (schema ScatterNdFunction numbering).
enum class ScatterNdFunction : uint8_t { Update, Add, Sub, Max, Min };
const char* to_string(ScatterNdFunction f);
// inputs: data (input_enabled) or a constant Signed32 1-D output shape (!input_enabled: the output starts from
// zeros), indices (Signed32 [N, K]: N positions in the first K dimensions), updates ([N] + output dims K..).
// As in Arm NN's reference, each update combines with the element of the *input* (0 without input), so of
// two updates at one position the later one wins even for Add/Sub/Max/Min.
struct ScatterNdAttrs {
    ScatterNdFunction function = ScatterNdFunction::Update;
    bool input_enabled = true;
};

struct TransposeConvolution2dAttrs {  // inputs: x, weights (NHWC [O,H,W,I]; NCHW [O,I,H,W]), [bias]
    uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
    uint32_t stride_x = 1, stride_y = 1;
    bool bias_enabled = false;
    DataLayout layout = DataLayout::NCHW;
};

using OpAttrs = std::variant<std::monostate, BindingAttrs, ActivationAttrs, ArgMinMaxAttrs, BatchMatMulAttrs,
                             BatchNormalizationAttrs, BatchToSpaceNdAttrs, ChannelShuffleAttrs, ComparisonAttrs,
                             ConcatAttrs, Convolution2dAttrs, Convolution3dAttrs, DepthToSpaceAttrs,
                             DepthwiseConvolution2dAttrs, DetectionPostProcessAttrs, ElementwiseBinaryAttrs,
                             ElementwiseUnaryAttrs, FillAttrs, FullyConnectedAttrs, GatherAttrs,
                             InstanceNormalizationAttrs, L2NormalizationAttrs, LogicalBinaryAttrs, SoftmaxAttrs,
                             LstmAttrs, QLstmAttrs, ReduceAttrs, NormalizationAttrs, PadAttrs, PermuteAttrs,
                             Pooling2dAttrs, Pooling3dAttrs, ReshapeAttrs, ResizeAttrs, SliceAttrs,
                             SpaceToBatchNdAttrs, SplitterAttrs, StackAttrs, StandInAttrs, StridedSliceAttrs,
                             TransposeConvolution2dAttrs, TileAttrs, ScatterNdAttrs, DetectionOutputAttrs,
                             RoiPoolingAttrs>;

// Attribute struct per op (std::monostate for ops without attributes):
//   Input/Output: BindingAttrs; Constant, Cast, Dequantize, Floor, GatherNd, Merge, Prelu, Quantize,
//   QuantizedLstm, Rank, ReverseV2, Shape, Switch: monostate; Mean and Reduce: ReduceAttrs; Softmax and LogSoftmax:
//   SoftmaxAttrs; DepthToSpace and SpaceToDepth: DepthToSpaceAttrs; Permute and Transpose: PermuteAttrs;
//   Lstm and UnidirectionalSequenceLstm: LstmAttrs; QLstm: QLstmAttrs; every other op: <Op>Attrs.

}  // namespace npurun

// Attribute-derived index arithmetic shared by shape inference (ir/ops/) and the kernels, which see only
// attributes and descriptors.
namespace npurun::ops {

// StridedSlice along dimension d of shape s (Arm NN's GetStartForAxis/GetStopForAxis): the first index,
// the step and the number of elements taken; `shrink` when the dimension is removed from the output.
struct StridedSliceRange {
    int64_t start = 0, stride = 1;
    uint32_t count = 0;
    bool shrink = false;
};
StridedSliceRange strided_slice_range(const StridedSliceAttrs& a, const Shape& s, uint32_t d);

// BatchMatMul: the two multiplied axes of an operand of rank `rank` in `layout`.
struct BatchMatMulAxes {
    uint32_t row = 0, col = 1;
};
BatchMatMulAxes batch_matmul_axes(DataLayout layout, uint32_t rank);

}  // namespace npurun::ops
