#include "runtime/passes/npu_support.h"

#include <algorithm>
#include <sstream>

#include "kernels/ref/element_access.h"
#include "runtime/passes/npu_limits.h"

namespace npurun {

namespace L = npu_limits;

namespace {

std::string dims2(uint32_t a, uint32_t b) { return std::to_string(a) + "x" + std::to_string(b); }

// A 4-D feature map seen through its layout.
struct Nchw {
    uint32_t n = 1, c = 1, h = 1, w = 1;
};

bool to_nchw(const Shape& s, DataLayout layout, Nchw* out) {
    if (s.rank != 4) return false;
    if (layout == DataLayout::NCHW) {
        *out = {s[0], s[1], s[2], s[3]};
        return true;
    }
    if (layout == DataLayout::NHWC) {
        *out = {s[0], s[3], s[1], s[2]};
        return true;
    }
    return false;
}

// The NPU arithmetic for an activation tensor, or a reason it has none.
// The NPU computes int8 (per-layer quantization) or fp16; nothing else reaches its MAC array.
bool activation_domain(const TensorInfo& t, const NpuPolicy& policy, const char* role, NpuDomain* d,
                       std::string* why) {
    switch (t.dtype) {
        case DataType::QAsymmS8:
        case DataType::QAsymmU8:
            if (t.quant.per_axis()) {
                *why = std::string(role) + " has per-axis quantization; the NPU needs per-layer (per-tensor)";
                return false;
            }
            *d = NpuDomain::Int8;
            return true;
        case DataType::Float16:
            *d = NpuDomain::Fp16;
            return true;
        case DataType::Float32:
            if (!policy.fp32_as_fp16) {
                *why = std::string(role) + " is Float32; the NPU computes int8 or float16 (use --fp16 to run it as fp16)";
                return false;
            }
            *d = NpuDomain::Fp16;
            return true;
        default:
            *why = std::string(role) + " is " + to_string(t.dtype) + "; the NPU computes int8 or float16";
            return false;
    }
}

// Checks every runtime (non-constant) input and every output share one NPU domain.
bool common_domain(const Graph& g, const Node& n, const NpuPolicy& policy, NpuDomain* d, std::string* why) {
    bool have = false;
    auto visit = [&](TensorId id, const char* role) {
        if (id == kNoTensor) return true;
        const Tensor& t = g.tensor(id);
        NpuDomain dd;
        if (!activation_domain(t.info, policy, role, &dd, why)) return false;
        if (have && dd != *d) {
            *why = "inputs and outputs mix int8 and float16";
            return false;
        }
        *d = dd;
        have = true;
        return true;
    };
    for (TensorId id : n.inputs) {
        if (id != kNoTensor && g.tensor(id).is_constant()) continue;
        if (!visit(id, "input")) return false;
    }
    for (TensorId id : n.outputs)
        if (!visit(id, "output")) return false;
    if (!have) {
        *why = "no runtime operand";
        return false;
    }
    return true;
}

// The ops whose runtime operands all share one NPU domain: the domain is checked first (its refusal wins),
// then the op's own check, which is given the domain.
using DomainCheck = NpuVerdict (*)(const Graph& g, const Node& n, NpuDomain d);
NpuVerdict in_domain(const Graph& g, const Node& n, const NpuPolicy& policy, DomainCheck check = nullptr) {
    std::string why;
    NpuDomain d = NpuDomain::Int8;  // set by common_domain when it accepts
    if (!common_domain(g, n, policy, &d, &why)) return NpuVerdict::no(why);
    return check ? check(g, n, d) : NpuVerdict::yes(d);
}

// Weights of a convolution: int8 per-layer or per-channel (QSymmS8 per-axis, QAsymmS8/U8 per-tensor) in the
// int8 domain; any float type in the fp16 domain (packed to fp16 at load).
bool weights_ok(const TensorInfo& w, NpuDomain d, std::string* why) {
    if (d == NpuDomain::Int8) {
        if (w.dtype == DataType::QSymmS8 || w.dtype == DataType::QAsymmS8 || w.dtype == DataType::QAsymmU8) return true;
        *why = std::string("weights are ") + to_string(w.dtype) + " in an int8 layer";
        return false;
    }
    if (w.dtype == DataType::Float16 || w.dtype == DataType::Float32) return true;
    *why = std::string("weights are ") + to_string(w.dtype) + " in a float16 layer";
    return false;
}

bool batch_one(const Nchw& s, const char* role, std::string* why) {
    if (s.n == 1) return true;
    *why = std::string(role) + " batch " + std::to_string(s.n) + " > 1 (the NPU lowering handles batch 1)";
    return false;
}

NpuVerdict check_conv_like(const Graph& g, const Node& n, NpuDomain d, bool depthwise) {
    uint32_t kh = 0, kw = 0, sx, sy, dx, dy, pl, pr, pt, pb;
    DataLayout layout;
    if (depthwise) {
        const auto& a = n.attr<DepthwiseConvolution2dAttrs>();
        sx = a.stride_x, sy = a.stride_y, dx = a.dilation_x, dy = a.dilation_y;
        pl = a.pad_left, pr = a.pad_right, pt = a.pad_top, pb = a.pad_bottom, layout = a.layout;
    } else {
        const auto& a = n.attr<Convolution2dAttrs>();
        sx = a.stride_x, sy = a.stride_y, dx = a.dilation_x, dy = a.dilation_y;
        pl = a.pad_left, pr = a.pad_right, pt = a.pad_top, pb = a.pad_bottom, layout = a.layout;
    }
    std::string why;
    if (n.inputs.size() < 2 || n.inputs[1] == kNoTensor) return NpuVerdict::no("weights missing");
    const Tensor& w = g.tensor(n.inputs[1]);
    if (!w.is_constant()) return NpuVerdict::no("weights are not constant (they are packed once at load)");
    if (!weights_ok(w.info, d, &why)) return NpuVerdict::no(why);
    if (n.inputs.size() > 2 && n.inputs[2] != kNoTensor && !g.tensor(n.inputs[2]).is_constant())
        return NpuVerdict::no("bias is not constant");

    Nchw in, out;
    if (!to_nchw(g.info(n.inputs[0]).shape, layout, &in) || !to_nchw(g.info(n.outputs[0]).shape, layout, &out))
        return NpuVerdict::no("input is not a 4-D NHWC/NCHW feature map");
    if (!batch_one(in, "input", &why)) return NpuVerdict::no(why);

    const Shape& ws = w.info.shape;
    if (ws.rank != 4) return NpuVerdict::no("weights are not 4-D");
    if (depthwise) {
        kh = ws[1], kw = ws[2];  // IR depthwise weights are [1, H, W, I*M]
        if (out.c != in.c)
            return NpuVerdict::no("depth multiplier " + std::to_string(in.c ? out.c / in.c : 0) +
                                  " != 1 (the NPU depthwise mode maps one input channel to one output channel)");
    } else if (layout == DataLayout::NHWC) {
        kh = ws[1], kw = ws[2];
    } else {
        kh = ws[2], kw = ws[3];
    }

    // A dilated kernel runs its own taps with the CONV_CON3 atrous fields (conv_layer.h); seed 003 bounds the
    // dilation. The window it covers, (k - 1) * dilation + 1 pixels, bounds the implicit padding below.
    if (dx < 1 || dy < 1) return NpuVerdict::no("dilation " + dims2(dy, dx));
    const uint32_t max_dil = depthwise ? L::kSeedDepthwiseMaxDilation : L::kSeedConvMaxDilation;
    if (dx > max_dil || dy > max_dil)
        return NpuVerdict::no("dilation " + dims2(dy, dx) + " exceeds " + std::to_string(max_dil) + " (seed 003 " +
                              (depthwise ? "DepthwiseConv" : "Conv") + " limit)");
    if (kh > L::kConvMaxKernel || kw > L::kConvMaxKernel)
        return NpuVerdict::no("kernel " + dims2(kh, kw) + " exceeds " + dims2(L::kConvMaxKernel, L::kConvMaxKernel) +
                              " (WEIGHT_SIZE2 field)");
    if (sx < 1 || sy < 1 || sx > L::kConvMaxStride || sy > L::kConvMaxStride)
        return NpuVerdict::no("stride " + dims2(sy, sx) + " outside 1.." + std::to_string(L::kConvMaxStride) +
                              " (CONV_CON3 field)");
    if (pl > L::kConvMaxPadLeftTop || pt > L::kConvMaxPadLeftTop)
        return NpuVerdict::no("padding top/left " + dims2(pt, pl) + " exceeds " +
                              std::to_string(L::kConvMaxPadLeftTop) + " (PAD_CON0 field)");
    const uint64_t span_w = uint64_t(kw - 1) * dx + 1, span_h = uint64_t(kh - 1) * dy + 1;
    if (pr > span_w - 1 + L::kConvMaxPadLeftTop || pb > span_h - 1 + L::kConvMaxPadLeftTop)
        return NpuVerdict::no("padding bottom/right " + dims2(pb, pr) + " too large for the implicit padding");
    if (in.w > L::kConvMaxInputWidth || in.h > L::kConvMaxInputHeight)
        return NpuVerdict::no("input " + dims2(in.h, in.w) + " exceeds " + dims2(L::kConvMaxInputHeight, L::kConvMaxInputWidth) +
                              " (DATA_SIZE0 field)");
    if (out.w > L::kConvMaxOutputWidth) return NpuVerdict::no("output width " + std::to_string(out.w) + " exceeds 2047");
    if (in.c > L::kConvMaxChannels || out.c > L::kConvMaxChannels)
        return NpuVerdict::no("channels " + std::to_string(std::max(in.c, out.c)) + " exceed " +
                              std::to_string(L::kConvMaxChannels));
    if (out.h > L::kCubeMaxDim) return NpuVerdict::no("output height " + std::to_string(out.h) + " exceeds 8192");
    const uint64_t bytes_per_elem = d == NpuDomain::Int8 ? 1 : 2;
    const uint64_t per_kernel = uint64_t(kh) * kw * (depthwise ? 1 : in.c) * bytes_per_elem;
    if (per_kernel > L::kMaxBytesPerKernel)
        return NpuVerdict::no("one kernel is " + std::to_string(per_kernel) + " bytes, above the 512 KiB WEIGHT_SIZE1 limit");
    // One kernel must fit the weight banks left after one data bank, or no tiling can run it.
    if (per_kernel > uint64_t(L::kCbufBanks - 1) * L::kCbufBankBytes)
        return NpuVerdict::no("one kernel does not fit the CBUF weight banks");
    return NpuVerdict::yes(d);
}

NpuVerdict check_fully_connected(const Graph& g, const Node& n, NpuDomain d) {
    const auto& a = n.attr<FullyConnectedAttrs>();
    std::string why;
    if (!a.constant_weights || n.inputs.size() < 2 || n.inputs[1] == kNoTensor || !g.tensor(n.inputs[1]).is_constant())
        return NpuVerdict::no("weights are not constant (they are packed once at load)");
    const TensorInfo& w = g.info(n.inputs[1]);
    if (!weights_ok(w, d, &why)) return NpuVerdict::no(why);
    if (w.shape.rank != 2) return NpuVerdict::no("weights are not 2-D");
    const uint32_t in_features = a.transpose_weights ? w.shape[1] : w.shape[0];
    const uint32_t out_features = a.transpose_weights ? w.shape[0] : w.shape[1];
    const Shape& os = g.info(n.outputs[0]).shape;
    if (os.rank != 2 || os[0] != 1)
        return NpuVerdict::no("batch " + std::to_string(os.rank ? os[0] : 0) + " > 1 (lowered as a 1x1 convolution over one pixel)");
    if (in_features > L::kConvMaxChannels || out_features > L::kConvMaxChannels)
        return NpuVerdict::no("features " + std::to_string(std::max(in_features, out_features)) + " exceed " +
                              std::to_string(L::kConvMaxChannels));
    const uint64_t per_kernel = uint64_t(in_features) * (d == NpuDomain::Int8 ? 1 : 2);
    if (per_kernel > L::kMaxBytesPerKernel) return NpuVerdict::no("weight row above the 512 KiB WEIGHT_SIZE1 limit");
    return NpuVerdict::yes(d);
}

// seed 003 Expand: the broadcast patterns the NPU supports, in NCHW terms, on 4-D operands that are
// NHWC in Arm NN models (element-wise layers carry no layout; models from TfLite are NHWC).
bool expand_pattern_ok(const Shape& small, const Shape& big, std::string* why) {
    if (small == big) return true;
    if (small.rank != big.rank) {
        *why = "operands of different rank";  // Arm NN requires equal ranks; be explicit anyway
        return false;
    }
    if (big.rank != 4) {
        *why = "broadcast between non-4-D operands";
        return false;
    }
    Nchw s, b;
    to_nchw(small, DataLayout::NHWC, &s);
    to_nchw(big, DataLayout::NHWC, &b);
    if (s.n != b.n) {
        *why = "broadcast along the batch axis";
        return false;
    }
    const bool c1 = s.c == 1, h1 = s.h == 1, w1 = s.w == 1;
    if ((s.c != b.c && !c1) || (s.h != b.h && !h1) || (s.w != b.w && !w1)) {
        *why = "shapes " + small.str() + " and " + big.str() + " do not broadcast";
        return false;
    }
    const bool bc = s.c != b.c, bh = s.h != b.h, bw = s.w != b.w;
    // Allowed (seed 003 Expand): [b,c,1,w] [b,1,1,w] [b,c,h,1] [b,1,h,1] [b,c,1,1] -> [b,c,h,w]
    bool ok = (!bc && bh && !bw) || (bc && bh && !bw) || (!bc && !bh && bw) || (bc && !bh && bw) ||
              (!bc && bh && bw);
    if (!ok) {
        // Name the pattern as seed 003 writes it (NCHW, 1 where the operand is broadcast).
        const std::string pattern = std::string("[b,") + (bc ? "1" : "c") + "," + (bh ? "1" : "h") + "," + (bw ? "1" : "w") + "]";
        *why = "broadcast " + small.str() + " -> " + big.str() + " (" + pattern +
               " -> [b,c,h,w]) is not one of the Expand patterns of seed 003 ([b,c,1,w] [b,1,1,w] [b,c,h,1] [b,1,h,1] [b,c,1,1])";
        return false;
    }
    if (b.h > L::kExpandMaxDim || b.w > L::kExpandMaxDim) {
        *why = "broadcast target height/width above 8192";
        return false;
    }
    return true;
}

// A constant operand of an element-wise layer is allowed (seed 003: "B a float const tensor"); it still has
// to be of a domain type or float (converted at load). "" when every constant operand is.
std::string constant_operand_refusal(const Graph& g, const Node& n) {
    for (TensorId id : n.inputs)
        if (g.tensor(id).is_constant()) {
            const DataType t = g.info(id).dtype;
            if (!is_float(t) && t != DataType::QAsymmS8 && t != DataType::QAsymmU8)
                return std::string("constant operand is ") + to_string(t);
        }
    return {};
}

// seed 003 Pow: X int8/float16 per-layer, the exponent a constant of one element (Arm NN: an ElementwiseBinary
// Power whose second input is a constant, broadcast) from the seed's list; the result has X's shape.
}  // namespace

bool pow_exponent(const Graph& g, const Node& n, float* exponent, std::string* why) {
    if (n.inputs.size() != 2 || n.inputs[1] == kNoTensor || !g.tensor(n.inputs[1]).is_constant()) {
        *why = "Pow exponent is not a constant (seed 003: an exponent of shape [1])";
        return false;
    }
    const Tensor& t = g.tensor(n.inputs[1]);
    if (t.info.shape.num_elements() != 1) {
        *why = "Pow exponent has " + std::to_string(t.info.shape.num_elements()) + " elements (seed 003: shape [1])";
        return false;
    }
    if (!is_float(t.info.dtype) && t.info.dtype != DataType::QAsymmU8 && t.info.dtype != DataType::QAsymmS8 &&
        t.info.dtype != DataType::QSymmS8 && t.info.dtype != DataType::Signed32) {
        *why = std::string("Pow exponent is ") + to_string(t.info.dtype);
        return false;
    }
    // The value the CPU reference computes with (its Reader: dequantized, or the plain integer).
    const float e = kernels::ref::Reader(t.info, t.data)[0];
    for (float allowed : L::kPowExponents) {
        if (e == allowed) {
            *exponent = e;
            return true;
        }
    }
    std::ostringstream os;
    os << "Pow exponent " << e << " is not one of " << L::kPowExponentsText << " (seed 003)";
    *why = os.str();
    return false;
}

namespace {

NpuVerdict check_power(const Graph& g, const Node& n, NpuDomain d) {
    float e = 0.0f;
    std::string why;
    if (!pow_exponent(g, n, &e, &why)) return NpuVerdict::no(why);
    const TensorInfo &x = g.info(n.inputs[0]), &y = g.info(n.outputs[0]);
    if (g.tensor(n.inputs[0]).is_constant()) return NpuVerdict::no("Pow base is a constant");
    if (!(x.shape == y.shape)) return NpuVerdict::no("Pow base " + x.shape.str() + " broadcasts to " + y.shape.str());
    if (x.quant.per_axis() || y.quant.per_axis()) return NpuVerdict::no("Pow with per-axis quantization (seed 003: per-layer)");
    for (uint32_t i = 0; i < y.shape.rank; ++i)
        if (y.shape[i] > L::kCubeMaxDim) return NpuVerdict::no("dimension " + std::to_string(y.shape[i]) + " above 8192");
    return NpuVerdict::yes(d);
}

NpuVerdict check_elementwise(const Graph& g, const Node& n, NpuDomain d) {
    const auto op = n.attr<ElementwiseBinaryAttrs>().op;
    std::string why;
    if (op == BinaryOp::Power) return check_power(g, n, d);
    if (op == BinaryOp::SquaredDifference)
        return NpuVerdict::no(std::string(to_string(op)) + " has no NPU element-wise algorithm (runs on the CPU)");
    if (op == BinaryOp::Div && d != NpuDomain::Fp16) return NpuVerdict::no("Div runs on the NPU only in float16 (seed 003)");
    const Shape& a = g.info(n.inputs[0]).shape;
    const Shape& b = g.info(n.inputs[1]).shape;
    const Shape& o = g.info(n.outputs[0]).shape;
    if (o.rank > 4) return NpuVerdict::no("rank " + std::to_string(o.rank) + " above 4");
    // A constant operand of any broadcast is expanded at load into a shape the DPU reads
    // (runtime/npu/constant_broadcast.h); a run-time one must be an Expand pattern.
    const bool ca = g.tensor(n.inputs[0]).is_constant(), cb = g.tensor(n.inputs[1]).is_constant();
    if (a != o && !ca && !expand_pattern_ok(a, o, &why)) return NpuVerdict::no(why);
    if (b != o && !cb && !expand_pattern_ok(b, o, &why)) return NpuVerdict::no(why);
    for (uint32_t i = 0; i < o.rank; ++i)
        if (o[i] > L::kCubeMaxDim) return NpuVerdict::no("dimension " + std::to_string(o[i]) + " above 8192");
    return NpuVerdict::yes(d);
}

NpuVerdict check_pooling(const Graph& g, const Node& n, NpuDomain d) {
    const auto& a = n.attr<Pooling2dAttrs>();
    std::string why;
    const char* name = a.algorithm == PoolingAlgorithm::Max ? "MaxPool" : "AveragePool";
    if (a.algorithm == PoolingAlgorithm::L2) return NpuVerdict::no("L2 pooling has no NPU mode");
    Nchw in;
    if (!to_nchw(g.info(n.inputs[0]).shape, a.layout, &in)) return NpuVerdict::no("input is not a 4-D NHWC/NCHW feature map");
    if (!batch_one(in, "input", &why)) return NpuVerdict::no(why);
    if (in.c > L::kPoolMaxDim || in.h > L::kPoolMaxDim || in.w > L::kPoolMaxDim)
        return NpuVerdict::no(std::string(name) + " input dimension above 8192");
    const bool global = a.stride_x == 0 && a.stride_y == 0;
    if (global || (a.pool_height == in.h && a.pool_width == in.w && a.pad_left + a.pad_right + a.pad_top + a.pad_bottom == 0)) {
        // Above the plane limit: windowed passes, then the global one (L::global_pool_passes), when the plane factors.
        const L::GlobalPoolPasses ph = L::global_pool_passes(in.h), pw = L::global_pool_passes(in.w);
        if (!ph.possible || !pw.possible)
            return NpuVerdict::no(
                std::string("Global") + name + " over " + dims2(in.h, in.w) + " exceeds " +
                dims2(L::kGlobalPoolMaxPlane, L::kGlobalPoolMaxPlane) +
                " and does not split into passes of windows <= 7 (a side with a prime factor above 7)");
        const uint32_t pre = std::max(ph.count, pw.count);
        if (d == NpuDomain::Int8 && a.algorithm == PoolingAlgorithm::Average && pre > L::kMaxInt8AveragePrePasses)
            return NpuVerdict::no("int8 GlobalAveragePool over " + dims2(in.h, in.w) + " needs " +
                                  std::to_string(pre + 1) + " passes, each rounding (the CPU rounds once): at most " +
                                  std::to_string(L::kMaxInt8AveragePrePasses + 1) + " keep it within one code");
        return NpuVerdict::yes(d);
    }
    if (a.rounding == OutputShapeRounding::Ceiling) return NpuVerdict::no(std::string(name) + " ceil rounding is not supported (floor only)");
    if (a.pool_height < 1 || a.pool_width < 1 || a.pool_height > L::kPoolMaxKernel || a.pool_width > L::kPoolMaxKernel)
        return NpuVerdict::no(std::string(name) + " kernel " + dims2(a.pool_height, a.pool_width) + " exceeds " +
                              dims2(L::kPoolMaxKernel, L::kPoolMaxKernel));
    if (a.stride_x < 1 || a.stride_y < 1 || a.stride_x > L::kPoolMaxStride || a.stride_y > L::kPoolMaxStride)
        return NpuVerdict::no(std::string(name) + " stride " + dims2(a.stride_y, a.stride_x) + " outside 1..8");
    const uint32_t maxpad = std::max({a.pad_left, a.pad_right, a.pad_top, a.pad_bottom});
    if (maxpad > L::kPoolMaxPad) return NpuVerdict::no(std::string(name) + " padding " + std::to_string(maxpad) + " exceeds 7");
    if (a.algorithm == PoolingAlgorithm::Average && a.padding_method == PaddingMethod::Exclude && maxpad > 0)
        return NpuVerdict::no("AveragePool with padding excluded from the divisor (the NPU counts padding: count_include_pad = 1)");
    return NpuVerdict::yes(d);
}

NpuVerdict check_pad(const Graph& g, const Node& n, NpuDomain d) {
    const auto& a = n.attr<PadAttrs>();
    const Shape& s = g.info(n.inputs[0]).shape;
    if (s.rank != 4) return NpuVerdict::no("Pad input is not 4-D");
    if (a.mode == PaddingMode::Symmetric) return NpuVerdict::no("Pad mode symmetric is not supported (constant or reflect only)");
    if (!a.pads.empty() && (a.pads[0].first || a.pads[0].second)) return NpuVerdict::no("Pad along the batch axis");
    if (a.mode == PaddingMode::Reflect) {
        Nchw in;
        to_nchw(s, DataLayout::NHWC, &in);
        if (in.c > L::kPadReflectMaxChannelHeight || in.h > L::kPadReflectMaxChannelHeight || in.w > L::kPadReflectMaxWidth)
            return NpuVerdict::no("Pad reflect needs channel, height <= 8192 and width <= 8176");
    }
    return NpuVerdict::yes(d);
}

NpuVerdict check_concat(const Graph& g, const Node& n, NpuDomain d) {
    const Shape& o = g.info(n.outputs[0]).shape;
    const auto& a = n.attr<ConcatAttrs>();
    if (o.rank != 4 || a.axis != 3)
        return NpuVerdict::no("Concat is done on the NPU only along the channel axis of a 4-D NHWC map (producers write at offsets)");
    if (d == NpuDomain::Int8) {
        const auto& q = g.info(n.outputs[0]).quant;
        for (TensorId id : n.inputs) {
            const auto& qi = g.info(id).quant;
            if (qi.scale() != q.scale() || qi.offset != q.offset)
                return NpuVerdict::no("Concat inputs are quantized differently from the output (needs a requantization)");
        }
    }
    return NpuVerdict::yes(d);
}

// Slice and Splitter (seed 003 does not cover them; the vendor's Slice/Split): on the NPU they are views of their
// input's buffer (runtime/npu/buffer_alias.h), which moves no data, so only a cut along the channel axis of a
// 4-D NHWC map (or [1,C]) that keeps the quantization; the atom alignment is the view unit's check.
NpuVerdict check_channel_view(const Graph& g, const Node& n, NpuDomain d) {
    const char* op = to_string(n.op);
    if (n.inputs.empty() || n.inputs[0] == kNoTensor || n.outputs.empty() ||
        std::find(n.outputs.begin(), n.outputs.end(), kNoTensor) != n.outputs.end())
        return NpuVerdict::no(std::string(op) + " without its input or an output");
    const Shape& s = g.info(n.inputs[0]).shape;
    if (!((s.rank == 4 || s.rank == 2) && s[0] == 1))
        return NpuVerdict::no(std::string(op) + " of a " + s.str() +
                              " tensor: a view on the NPU only of a [1,H,W,C] or [1,C] map");
    if (d == NpuDomain::Int8) {
        const auto& q = g.info(n.inputs[0]).quant;
        for (TensorId id : n.outputs) {
            const auto& qo = g.info(id).quant;
            if (qo.per_axis() || q.per_axis() || qo.scale() != q.scale() || qo.offset != q.offset)
                return NpuVerdict::no(std::string(op) +
                                      " output quantized differently from its input (a view cannot requantize)");
        }
    }
    return NpuVerdict::yes(d);
}

NpuVerdict check_reshape(const Graph& g, const Node& n, NpuDomain d) {
    // An NC1HWC2 buffer is reinterpreted without moving data when the reshape keeps the channel
    // count innermost and the number of pixels: [1,H,W,C] / [1,C] shapes with equal C and H*W
    // (element (c, pixel) keeps its place, see runtime/npu/buffer_alias.h); anything else moves data.
    const Shape& i = g.info(n.inputs[0]).shape;
    const Shape& o = g.info(n.outputs[0]).shape;
    auto pixels_channels = [](const Shape& s, uint64_t* pixels, uint32_t* c) {
        if (s.rank == 4 && s[0] == 1) {
            *pixels = uint64_t{s[1]} * s[2], *c = s[3];
            return true;
        }
        if (s.rank == 2 && s[0] == 1) {
            *pixels = 1, *c = s[1];
            return true;
        }
        return false;
    };
    uint64_t pi = 0, po = 0;
    uint32_t ci = 0, co = 0;
    if (pixels_channels(i, &pi, &ci) && pixels_channels(o, &po, &co) && pi == po && ci == co) return NpuVerdict::yes(d);
    return NpuVerdict::no("Reshape " + i.str() + " -> " + o.str() + " moves data in the NC1HWC2 layout");
}

// seed 003 Expand, which an Arm NN graph holds as a Tile: only axes of size 1 may be repeated (a Tile of a longer
// axis repeats data, which no RKNN2 operation does), into one of Expand's patterns and limits.
NpuVerdict check_tile(const Graph& g, const Node& n, NpuDomain d) {
    const Shape& i = g.info(n.inputs[0]).shape;
    const Shape& o = g.info(n.outputs[0]).shape;
    for (uint32_t a = 0; a < i.rank && a < o.rank; ++a)
        if (i[a] != o[a] && i[a] != 1)
            return NpuVerdict::no("Tile " + i.str() + " -> " + o.str() + " repeats axis " + std::to_string(a) + " of size " +
                                  std::to_string(i[a]) + ": not an Expand (seed 003 has no Tile)");
    std::string why;
    if (!expand_pattern_ok(i, o, &why)) return NpuVerdict::no(why);
    return NpuVerdict::yes(d);
}

NpuVerdict check_conv(const Graph& g, const Node& n, NpuDomain d) { return check_conv_like(g, n, d, false); }
NpuVerdict check_depthwise(const Graph& g, const Node& n, NpuDomain d) { return check_conv_like(g, n, d, true); }

// The ops whose whole question is the shared domain and then their own check (nullptr: the domain alone).
struct DomainOp {
    OpKind op;
    DomainCheck check;
};
const DomainOp kDomainOps[] = {
    {OpKind::Convolution2d, check_conv},
    {OpKind::DepthwiseConvolution2d, check_depthwise},
    {OpKind::FullyConnected, check_fully_connected},
    {OpKind::Pooling2d, check_pooling},
    {OpKind::Pad, check_pad},
    {OpKind::Concat, check_concat},
    {OpKind::Reshape, check_reshape},
    {OpKind::Slice, check_channel_view},
    {OpKind::Splitter, check_channel_view},
    // seed 003 Gather: X int8/float16 per-layer (the indices are a Signed32 constant, not a feature map).
    {OpKind::Gather, nullptr},
    {OpKind::Tile, check_tile},
};

}  // namespace

NpuVerdict check_npu_support(const Graph& g, const Node& n, const NpuPolicy& policy) {
    for (const DomainOp& o : kDomainOps)
        if (o.op == n.op) return in_domain(g, n, policy, o.check);
    switch (n.op) {
        case OpKind::ElementwiseBinary: {
            // Pow's exponent is read at load (check_power), never by the NPU: any numeric type.
            const bool power = n.attr<ElementwiseBinaryAttrs>().op == BinaryOp::Power;
            const std::string constant = power ? std::string() : constant_operand_refusal(g, n);
            return constant.empty() ? in_domain(g, n, policy, check_elementwise) : NpuVerdict::no(constant);
        }
        case OpKind::Activation:
            // Placement's rule: ReLu and BoundedReLu are fused into the layer before them or stay on the CPU.
            if (const auto f = n.attr<ActivationAttrs>().function; f == ActivationFunction::ReLu || f == ActivationFunction::BoundedReLu)
                return NpuVerdict::no("a standalone activation runs on the NPU only fused into the layer before it");
            // Which other functions the backend lowers in each domain (int8: all, through the DPU lookup table; fp16:
            // those the DPU computes or has a bounded table for) is the activation unit's answer, with its reason:
            // runtime/npu/ops/activation_op.cpp.
            return in_domain(g, n, policy, nullptr);
        case OpKind::Input:
        case OpKind::Output:
        case OpKind::Constant:
            return NpuVerdict::no("not a computation");
        case OpKind::Lstm:
        case OpKind::ElementwiseUnary:
            return NpuVerdict::no(std::string(to_string(n.op)) +
                                  " is allowed by RKNN2 within limits but npurun's NPU backend does not lower it yet");
        default:
            return NpuVerdict::no(std::string(to_string(n.op)) + " is not an NPU operation");
    }
}

}  // namespace npurun
