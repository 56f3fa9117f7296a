// Pooling2d, NHWC float32: Max and Average (both padding methods, any rounding: the output shape comes
// from the graph). Semantics are Arm NN's reference (reference/armnn-format.md §2, Pooling2d):
// window start o*stride - pad_low, end min(start + pool, in + pad_high); a window wholly in padding
// gives 0; otherwise only real elements are visited, in (y, x) order; Max keeps an element when
// `value > best` (so NaN never wins), starting from the lowest finite float; Average divides the
// sequential sum by the window size measured before clamping (IgnoreValue) or by the real element count
// (Exclude). Vectorised over channels; the per-channel arithmetic is the reference's, so results equal
// kernels/ref bit for bit (stated bound for Average, allowing a differently ordered reference sum:
// |neon - ref| <= 2*(A+1)*2^-24*sum|x|/A over the A-element window). L2 and global pooling: ref.
// NCHW nodes run on NHWC scratch copies of input and output (see nchw.h).
#include <algorithm>
#include <limits>

#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/nchw.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::kernels::neon {
namespace {

std::string check(const KernelNode& n) {
    const auto& a = n.attr<Pooling2dAttrs>();
    if (a.layout != DataLayout::NHWC && a.layout != DataLayout::NCHW) return refuse("layout other than NHWC/NCHW");
    if (a.algorithm == PoolingAlgorithm::L2) return refuse("L2 pooling");
    if (a.stride_x == 0 || a.stride_y == 0) return refuse("global pooling (stride 0)");
    if (a.pool_width == 0 || a.pool_height == 0) return refuse("empty pool window");
    if (n.num_inputs() != 1 || n.num_outputs() != 1) return refuse("unexpected operand count");
    const TensorInfo &x = in_info(n, 0), &y = out_info(n);
    if (x.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("only float32");
    const uint32_t c_axis = a.layout == DataLayout::NCHW ? 1 : 3;
    if (x.shape.rank != 4 || y.shape.rank != 4 || x.shape[0] != y.shape[0] || x.shape[c_axis] != y.shape[c_axis])
        return refuse("shape");
    const uint64_t max_dim = std::numeric_limits<int32_t>::max();
    for (uint32_t i = 0; i < 4; ++i)
        if (x.shape[i] > max_dim || y.shape[i] > max_dim) return refuse("dimension too large");
    if (uint64_t(a.pool_width) + a.pad_left + a.pad_right > max_dim || uint64_t(a.pool_height) + a.pad_top + a.pad_bottom > max_dim)
        return refuse("window too large");
    return {};
}

bool is_nchw(const KernelNode& n) { return n.attr<Pooling2dAttrs>().layout == DataLayout::NCHW; }

// NHWC x [n, ih, iw, c] -> y [n, oh, ow, c].
void pool_nhwc(const KernelArgs& args, const Shape& xs, const Shape& ys, const float* x, float* y) {
    const auto& a = args.node.attr<Pooling2dAttrs>();
    const ptrdiff_t ih = xs[1], iw = xs[2], c = xs[3], oh = ys[1], ow = ys[2];
    const ptrdiff_t c4 = c & ~ptrdiff_t(3);
    const bool is_max = a.algorithm == PoolingAlgorithm::Max;
    const bool exclude = a.padding_method == PaddingMethod::Exclude;
    const float lowest = std::numeric_limits<float>::lowest();
    const size_t window = std::min<size_t>(size_t(a.pool_width) * a.pool_height, size_t(1) << 20);
    parallel_for(size_t(ys[0]) * size_t(oh), work_grain(size_t(ow * c) * window), [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            const ptrdiff_t n = ptrdiff_t(r) / oh, oy = ptrdiff_t(r) % oh;
            const float* xn = x + n * ih * iw * c;
            ptrdiff_t hs = oy * ptrdiff_t(a.stride_y) - ptrdiff_t(a.pad_top);
            ptrdiff_t he = std::min<ptrdiff_t>(hs + a.pool_height, ih + ptrdiff_t(a.pad_bottom));
            const ptrdiff_t h_area = he - hs;
            hs = std::max<ptrdiff_t>(hs, 0);
            he = std::min<ptrdiff_t>(he, ih);
            for (ptrdiff_t ox = 0; ox < ow; ++ox) {
                float* out = y + (ptrdiff_t(r) * ow + ox) * c;
                ptrdiff_t ws = ox * ptrdiff_t(a.stride_x) - ptrdiff_t(a.pad_left);
                ptrdiff_t we = std::min<ptrdiff_t>(ws + a.pool_width, iw + ptrdiff_t(a.pad_right));
                const ptrdiff_t w_area = we - ws;
                ws = std::max<ptrdiff_t>(ws, 0);
                we = std::min<ptrdiff_t>(we, iw);
                if (hs >= he || ws >= we) {
                    std::fill(out, out + c, 0.0f);
                    continue;
                }
                const float area = float(exclude ? (he - hs) * (we - ws) : h_area * w_area);
                ptrdiff_t ch = 0;
                for (; ch < c4; ch += 4) {
                    float32x4_t acc = vdupq_n_f32(is_max ? lowest : 0.0f);
                    for (ptrdiff_t yy = hs; yy < he; ++yy)
                        for (ptrdiff_t xx = ws; xx < we; ++xx) {
                            const float32x4_t v = vld1q_f32(xn + (yy * iw + xx) * c + ch);
                            acc = is_max ? vbslq_f32(vcgtq_f32(v, acc), v, acc) : vaddq_f32(acc, v);
                        }
                    if (!is_max) acc = div_f32x4(acc, vdupq_n_f32(area));
                    vst1q_f32(out + ch, acc);
                }
                for (; ch < c; ++ch) {
                    float acc = is_max ? lowest : 0.0f;
                    for (ptrdiff_t yy = hs; yy < he; ++yy)
                        for (ptrdiff_t xx = ws; xx < we; ++xx) {
                            const float v = xn[(yy * iw + xx) * c + ch];
                            if (is_max) {
                                if (v > acc) acc = v;
                            } else {
                                acc += v;
                            }
                        }
                    out[ch] = is_max ? acc : acc / area;
                }
            }
        }
    });
}

// NCHW only: [x as NHWC][y as NHWC], 64-byte aligned.
size_t scratch_bytes(const KernelNode& n) {
    return is_nchw(n) ? round_up64(in_info(n, 0).num_bytes()) + round_up64(out_info(n).num_bytes()) : 0;
}

void run(const KernelArgs& args) {
    const KernelNode& n = args.node;
    const Shape &xs = in_info(n, 0).shape, &ys = out_info(n).shape;
    if (!is_nchw(n)) {
        pool_nhwc(args, xs, ys, in_ptr<float>(args, 0), out_ptr<float>(args));
        return;
    }
    float* x = static_cast<float*>(args.scratch);
    float* y = reinterpret_cast<float*>(static_cast<uint8_t*>(args.scratch) + round_up64(in_info(n, 0).num_bytes()));
    nchw_to_nhwc(args.inputs[0], x, xs, sizeof(float));
    pool_nhwc(args, nhwc_of_nchw(xs), nhwc_of_nchw(ys), x, y);
    nhwc_to_nchw(y, args.outputs[0], ys, sizeof(float));
}

}  // namespace

const Kernel kPooling2d{check, scratch_bytes, run};

}  // namespace npurun::kernels::neon
