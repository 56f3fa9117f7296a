// Softmax, float32, along the last axis (Arm NN: exp((x - max)*beta) / sum exp((x - max)*beta)).
// Per row: maximum (exact), exponentials with exp_f32 (vector_math.h), the sum accumulated sequentially
// in element order as the reference does, one division per element. The only differences to kernels/ref
// come from exp_f32 (<= 2 ulp per term): stated bound <= 8 ulp of the reference result, or 2^-30
// absolute for results below 2^-20. Rows are split across threads. Other axes: ref.
//
// 8-bit quantized (QAsymmU8/QAsymmS8 per-tensor in and out), bit-exact with kernels/ref: the reference works on
// the dequantized floats, exp((x - max) * beta) with std::exp, summed in element order, then quantize(exp / sum).
// An input holds at most 256 distinct codes, so a long row computes those float terms once per code (the same
// float operations on the same values: the same results), sums the looked-up terms in element order and
// quantizes once per code; short rows (under 256 elements) evaluate the reference's expression per element.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/quantization.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"
#include "kernels/neon/vector_math.h"

namespace npurun::kernels::neon {
namespace {

std::string check(const KernelNode& n) {
    if (n.num_inputs() != 1 || n.num_outputs() != 1) return refuse("unexpected operand count");
    const TensorInfo &x = in_info(n, 0), &y = out_info(n);
    const bool q8 = (x.dtype == DataType::QAsymmU8 || x.dtype == DataType::QAsymmS8) &&
                    (y.dtype == DataType::QAsymmU8 || y.dtype == DataType::QAsymmS8);
    if (!q8 && (x.dtype != DataType::Float32 || y.dtype != DataType::Float32)) return refuse("only float32 or 8-bit");
    if (q8 && (x.quant.per_axis() || y.quant.per_axis() || !(x.quant.scale() > 0.0f) || !std::isfinite(x.quant.scale())))
        return refuse("8-bit softmax needs a finite positive per-tensor input scale");
    if (x.shape != y.shape || x.shape.rank == 0) return refuse("shape");
    const int32_t axis = n.attr<SoftmaxAttrs>().axis;
    if (axis != -1 && axis != int32_t(x.shape.rank) - 1) return refuse("softmax axis other than the last");
    return {};
}

struct QuantIo {
    bool x_signed;
    float sx, beta;
    int32_t zx;
    const TensorInfo* y;
    int32_t code(const uint8_t* x, size_t i) const { return x_signed ? int32_t(int8_t(x[i])) : int32_t(x[i]); }
    float value(int32_t q) const { return quant::dequantize(q, sx, zx); }
    uint8_t out(float v) const { return uint8_t(quant::quantize(v, y->quant.scale(), y->quant.offset, y->dtype)); }
};

void quant_row(const QuantIo& io, const uint8_t* xr, uint8_t* yr, size_t len) {
    float mx = -FLT_MAX;
    for (size_t k = 0; k < len; ++k) mx = std::max(mx, io.value(io.code(xr, k)));
    float sum = 0.0f;
    if (len < 256) {
        for (size_t k = 0; k < len; ++k) sum += std::exp((io.value(io.code(xr, k)) - mx) * io.beta);
        for (size_t k = 0; k < len; ++k) yr[k] = io.out(std::exp((io.value(io.code(xr, k)) - mx) * io.beta) / sum);
        return;
    }
    float term[256];  // by raw byte
    for (int b = 0; b < 256; ++b) {
        const uint8_t byte = uint8_t(b);
        term[b] = std::exp((io.value(io.code(&byte, 0)) - mx) * io.beta);
    }
    for (size_t k = 0; k < len; ++k) sum += term[xr[k]];
    uint8_t table[256];
    for (int b = 0; b < 256; ++b) table[b] = io.out(term[b] / sum);
    for (size_t k = 0; k < len; ++k) yr[k] = table[xr[k]];
}

void run_quant(const KernelArgs& args) {
    const TensorInfo& xi = in_info(args.node, 0);
    const size_t inner = xi.shape[xi.shape.rank - 1], rows = inner ? xi.shape.num_elements() / inner : 0;
    const QuantIo io{xi.dtype != DataType::QAsymmU8, xi.quant.scale(), args.node.attr<SoftmaxAttrs>().beta, xi.quant.offset,
                     &out_info(args.node)};
    const uint8_t* x = in_ptr<uint8_t>(args, 0);
    uint8_t* y = out_ptr<uint8_t>(args);
    parallel_for(rows, work_grain(4 * inner), [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) quant_row(io, x + r * inner, y + r * inner, inner);
    });
}

void run(const KernelArgs& args) {
    if (in_info(args.node, 0).dtype != DataType::Float32) return run_quant(args);
    const Shape& s = in_info(args.node, 0).shape;
    const size_t inner = s[s.rank - 1], rows = inner ? s.num_elements() / inner : 0;
    const float beta = args.node.attr<SoftmaxAttrs>().beta;
    const float* x = in_ptr<float>(args, 0);
    float* y = out_ptr<float>(args);
    parallel_for(rows, work_grain(16 * inner), [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            const float* xr = x + r * inner;
            float* yr = y + r * inner;
            float mx = xr[0];
            for (size_t i = 1; i < inner; ++i) mx = xr[i] > mx ? xr[i] : mx;
            const float32x4_t mv = vdupq_n_f32(mx), bv = vdupq_n_f32(beta);
            size_t i = 0;
            for (; i + 4 <= inner; i += 4) vst1q_f32(yr + i, exp_f32(vmulq_f32(vsubq_f32(vld1q_f32(xr + i), mv), bv)));
            if (i < inner) {
                float tmp[4] = {0, 0, 0, 0};
                for (size_t j = i; j < inner; ++j) tmp[j - i] = xr[j];
                vst1q_f32(tmp, exp_f32(vmulq_f32(vsubq_f32(vld1q_f32(tmp), mv), bv)));
                for (size_t j = i; j < inner; ++j) yr[j] = tmp[j - i];
            }
            float sum = 0.0f;
            for (size_t j = 0; j < inner; ++j) sum += yr[j];
            const float32x4_t sv = vdupq_n_f32(sum);
            for (i = 0; i + 4 <= inner; i += 4) vst1q_f32(yr + i, div_f32x4(vld1q_f32(yr + i), sv));
            for (; i < inner; ++i) yr[i] /= sum;
        }
    });
}

}  // namespace

const Kernel kSoftmax{check, nullptr, run};

}  // namespace npurun::kernels::neon
