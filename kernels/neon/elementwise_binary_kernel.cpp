// ElementwiseBinary (Add, Sub, Mul, Div, Maximum, Minimum), float32, NumPy broadcasting.
//
// The output is walked as rows of its innermost dimension; each operand is, along that row, either
// contiguous or a broadcast scalar, so the row is one vector loop. Every element is one IEEE operation
// on the same two floats as the reference, and Maximum/Minimum select exactly as std::max/std::min
// (`a < b ? b : a`, `b < a ? b : a`), so results equal kernels/ref bit for bit (0 ulp).
// Work is split over rows (whole rows per thread). Quantized operands: ref.
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::kernels::neon {
namespace {

std::string check(const KernelNode& n) {
    if (n.num_inputs() != 2 || n.num_outputs() != 1) return refuse("unexpected operand count");
    const BinaryOp op = n.attr<ElementwiseBinaryAttrs>().op;
    // No vector form of these (rare in models); the reference kernel runs them.
    if (op == BinaryOp::SquaredDifference || op == BinaryOp::Power) return refuse(std::string(to_string(op)) + " has no NEON kernel");
    const TensorInfo &a = in_info(n, 0), &b = in_info(n, 1), &y = out_info(n);
    if (a.dtype != DataType::Float32 || b.dtype != DataType::Float32 || y.dtype != DataType::Float32)
        return refuse("only float32");
    if (a.shape.rank > y.shape.rank || b.shape.rank > y.shape.rank) return refuse("operand rank above output rank");
    for (const TensorInfo* t : {&a, &b}) {
        const uint32_t lead = y.shape.rank - t->shape.rank;
        for (uint32_t d = 0; d < t->shape.rank; ++d)
            if (t->shape[d] != 1 && t->shape[d] != y.shape[d + lead]) return refuse("shapes do not broadcast");
    }
    return {};
}

template <BinaryOp OP> inline float32x4_t apply(float32x4_t a, float32x4_t b) {
    switch (OP) {
        case BinaryOp::Add: return vaddq_f32(a, b);
        case BinaryOp::Sub: return vsubq_f32(a, b);
        case BinaryOp::Mul: return vmulq_f32(a, b);
        case BinaryOp::Div: return div_f32x4(a, b);
        case BinaryOp::Maximum: return vbslq_f32(vcltq_f32(a, b), b, a);
        case BinaryOp::Minimum: return vbslq_f32(vcltq_f32(b, a), b, a);
        case BinaryOp::SquaredDifference: case BinaryOp::Power: break;  // refused by check()
    }
    return a;
}
template <BinaryOp OP> inline float apply1(float a, float b) {
    return vgetq_lane_f32(apply<OP>(vdupq_n_f32(a), vdupq_n_f32(b)), 0);
}

struct Plan {
    uint32_t rank;
    size_t dims[kMaxRank];
    size_t sa[kMaxRank], sb[kMaxRank];  // element strides, 0 along broadcast dimensions
};

Plan make_plan(const Shape& as, const Shape& bs, const Shape& ys) {
    Plan p{};
    p.rank = ys.rank == 0 ? 1 : ys.rank;
    for (uint32_t d = 0; d < p.rank; ++d) p.dims[d] = ys.rank == 0 ? 1 : ys[d];
    for (int which = 0; which < 2; ++which) {
        const Shape& s = which ? bs : as;
        size_t* st = which ? p.sb : p.sa;
        size_t stride = 1;
        for (uint32_t d = p.rank; d-- > 0;) {
            const int64_t sd = int64_t(d) - int64_t(p.rank - s.rank);
            const size_t len = sd < 0 ? 1 : s[uint32_t(sd)];
            st[d] = len == 1 ? 0 : stride;
            stride *= len;
        }
    }
    return p;
}

template <BinaryOp OP> void run_op(const Plan& p, const float* a, const float* b, float* y) {
    const size_t inner = p.dims[p.rank - 1];
    size_t rows = 1;
    for (uint32_t d = 0; d + 1 < p.rank; ++d) rows *= p.dims[d];
    const size_t ia = p.sa[p.rank - 1], ib = p.sb[p.rank - 1];
    parallel_for(rows, work_grain(inner), [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            // Offsets of this row's first element in a and b.
            size_t oa = 0, ob = 0, rem = r;
            for (uint32_t d = p.rank - 1; d-- > 0;) {
                const size_t i = rem % p.dims[d];
                rem /= p.dims[d];
                oa += i * p.sa[d];
                ob += i * p.sb[d];
            }
            const float* ar = a + oa;
            const float* br = b + ob;
            float* yr = y + r * inner;
            size_t i = 0;
            if (ia && ib) {
                for (; i + 4 <= inner; i += 4) vst1q_f32(yr + i, apply<OP>(vld1q_f32(ar + i), vld1q_f32(br + i)));
            } else if (ia) {
                const float32x4_t bv = vdupq_n_f32(br[0]);
                for (; i + 4 <= inner; i += 4) vst1q_f32(yr + i, apply<OP>(vld1q_f32(ar + i), bv));
            } else if (ib) {
                const float32x4_t av = vdupq_n_f32(ar[0]);
                for (; i + 4 <= inner; i += 4) vst1q_f32(yr + i, apply<OP>(av, vld1q_f32(br + i)));
            }
            for (; i < inner; ++i) yr[i] = apply1<OP>(ar[i * ia], br[i * ib]);
        }
    });
}

void run(const KernelArgs& args) {
    const KernelNode& n = args.node;
    const Plan p = make_plan(in_info(n, 0).shape, in_info(n, 1).shape, out_info(n).shape);
    const float* a = in_ptr<float>(args, 0);
    const float* b = in_ptr<float>(args, 1);
    float* y = out_ptr<float>(args);
    switch (n.attr<ElementwiseBinaryAttrs>().op) {
        case BinaryOp::Add: run_op<BinaryOp::Add>(p, a, b, y); break;
        case BinaryOp::Sub: run_op<BinaryOp::Sub>(p, a, b, y); break;
        case BinaryOp::Mul: run_op<BinaryOp::Mul>(p, a, b, y); break;
        case BinaryOp::Div: run_op<BinaryOp::Div>(p, a, b, y); break;
        case BinaryOp::Maximum: run_op<BinaryOp::Maximum>(p, a, b, y); break;
        case BinaryOp::Minimum: run_op<BinaryOp::Minimum>(p, a, b, y); break;
        case BinaryOp::SquaredDifference: case BinaryOp::Power: break;  // refused by check()
    }
}

}  // namespace

const Kernel kElementwiseBinary{check, nullptr, run};

}  // namespace npurun::kernels::neon
