// Pooling2d output shape, exactly Arm NN's Pooling2dLayer (reference/armnn-format.md §2):
//   out = floor-or-ceil((in + padLow + padHigh - pool) / stride) + 1, minus 1 when the last window would
//   start in the high padding ((out-1)*stride >= in + padLow); strides both 0 mean global pooling (1x1).
#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {
namespace {

uint32_t pool_out_size(const Node& node, uint32_t in, uint32_t pad_lo, uint32_t pad_hi, uint32_t pool,
                       uint32_t stride, OutputShapeRounding rounding, const char* axis) {
    const std::string a(axis);
    if (pool == 0) bad(node, "pool " + a + " is 0");
    const uint32_t padded = add_u32(node, add_u32(node, in, pad_lo, "padded input"), pad_hi, "padded input");
    if (pool > padded)
        bad(node, "pool " + a + " of " + std::to_string(pool) + " is larger than the padded input " +
                      std::to_string(padded));
    if (stride == 0) bad(node, "stride " + a + " is 0");
    const uint32_t read = padded - pool;
    uint32_t out = (rounding == OutputShapeRounding::Ceiling ? read / stride + (read % stride != 0) : read / stride) + 1;
    // Make sure the last window starts inside the input or the low padding.
    if (uint64_t(out - 1) * stride >= uint64_t(in) + pad_lo) --out;
    return out;
}

}  // namespace

std::vector<TensorInfo> infer_pooling2d(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<Pooling2dAttrs>(node);
    const TensorInfo& x = typed_input(node, graph, 1, 1, kNumericTypes);
    const ImageDims in = image_dims(node, x, a.layout, "input");
    ImageDims out = in;
    if (a.stride_x == 0 && a.stride_y == 0) {
        if (a.pool_width == 0 || a.pool_height == 0) bad(node, "pool size is 0");
        out.h = out.w = 1;
    } else {
        out.h = pool_out_size(node, in.h, a.pad_top, a.pad_bottom, a.pool_height, a.stride_y, a.rounding, "height");
        out.w = pool_out_size(node, in.w, a.pad_left, a.pad_right, a.pool_width, a.stride_x, a.rounding, "width");
    }
    return {output_like(node, graph, 0, image_shape(out, a.layout), x.dtype)};
}

}  // namespace npurun::ops

namespace npurun::ops {

// Pooling3d: Pooling2d's rule per spatial axis (depth, height, width); strides all 0 mean global pooling.
std::vector<TensorInfo> infer_pooling3d(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<Pooling3dAttrs>(node);
    const TensorInfo& x = typed_input(node, graph, 1, 1, kNumericTypes);
    if (a.layout != DataLayout::NDHWC && a.layout != DataLayout::NCDHW)
        bad(node, std::string("data layout ") + to_string(a.layout) + " is not valid here (NDHWC or NCDHW)");
    expect_rank(node, x, "input", 5);
    const bool ndhwc = a.layout == DataLayout::NDHWC;
    Shape out = x.shape;
    const uint32_t di = ndhwc ? 1 : 2;
    if (a.stride_x == 0 && a.stride_y == 0 && a.stride_z == 0) {
        if (a.pool_width == 0 || a.pool_height == 0 || a.pool_depth == 0) bad(node, "pool size is 0");
        out[di] = out[di + 1] = out[di + 2] = 1;
    } else {
        out[di] = pool_out_size(node, x.shape[di], a.pad_front, a.pad_back, a.pool_depth, a.stride_z, a.rounding, "depth");
        out[di + 1] = pool_out_size(node, x.shape[di + 1], a.pad_top, a.pad_bottom, a.pool_height, a.stride_y, a.rounding, "height");
        out[di + 2] = pool_out_size(node, x.shape[di + 2], a.pad_left, a.pad_right, a.pool_width, a.stride_x, a.rounding, "width");
    }
    return {output_like(node, graph, 0, out, x.dtype)};
}

}  // namespace npurun::ops
