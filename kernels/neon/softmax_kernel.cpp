// Softmax, float32, along the last axis (Arm NN: exp((x - max)*beta) / sum exp((x - max)*beta)).
// Per row: maximum (exact), exponentials with exp_f32 (vector_math.h), the sum accumulated sequentially
// in element order as the reference does, one division per element. The only differences to kernels/ref
// come from exp_f32 (<= 2 ulp per term): stated bound <= 8 ulp of the reference result, or 2^-30
// absolute for results below 2^-20. Rows are split across threads. Other axes, quantized: ref.
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
    if (x.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("only float32");
    if (x.shape != y.shape || x.shape.rank == 0) return refuse("shape");
    const int32_t axis = n.attr<SoftmaxAttrs>().axis;
    if (axis != -1 && axis != int32_t(x.shape.rank) - 1) return refuse("softmax axis other than the last");
    return {};
}

void run(const KernelArgs& args) {
    const Shape& s = in_info(args.node, 0).shape;
    const size_t inner = s[s.rank - 1], rows = inner ? s.num_elements() / inner : 0;
    const float beta = args.node.attr<SoftmaxAttrs>().beta;
    const float* x = in_ptr<float>(args, 0);
    float* y = out_ptr<float>(args);
    parallel_for(rows, 1, [&](size_t begin, size_t end) {
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
