// Permute and Transpose: element moves, bit-exact with kernels/ref (which moves one element per call through a
// generic strided walk). Here the move is planned once per call:
// The plan depends only on the shapes and the mapping, so it is made once at prepare time (the kernel's state):
//  - each output dimension gets the input stride it walks (Transpose: output dim i is input dim mapping[i];
//    Permute: input dim i is output dim mapping[i]);
//  - size-1 dimensions are dropped and neighbours that are contiguous in both tensors merged, so
//    NCHW -> NHWC of [1, 3, 240, 320] becomes [76800 pixels (input stride 1)] x [3 channels (stride 76800)];
//  - the two innermost output dimensions are a typed loop (1, 2, 4 or 8-byte elements), a memcpy when the
//    innermost is contiguous in the input too; the outer ones are an odometer, split over threads by output
//    rows (each output element is written by one thread, so the thread count changes nothing).
#include <cstring>
#include <new>

#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/thread_pool.h"
#include "kernels/ref/ref_common.h"

namespace npurun::kernels::neon {
namespace {

struct MovePlan {
    uint32_t rank = 0;  // after merging; the output walked as rank dims, innermost last
    size_t size[kMaxRank] = {}, in_stride[kMaxRank] = {};
    size_t elem = 1;  // bytes per element
};

std::string check_permute(const KernelNode& n) {
    if (n.num_inputs() != 1 || n.num_outputs() != 1) return refuse("unexpected operand count");
    const TensorInfo &x = in_info(n, 0), &y = out_info(n);
    if (x.dtype != y.dtype) return refuse("input and output types differ");
    const size_t es = element_size(x.dtype);
    if (es != 1 && es != 2 && es != 4 && es != 8) return refuse("element size " + std::to_string(es));
    const auto& m = n.attr<PermuteAttrs>().mapping;
    if (m.size() != x.shape.rank || y.shape.rank != x.shape.rank) return refuse("mapping does not match the rank");
    for (uint32_t i = 0; i < m.size(); ++i)
        if (m[i] >= x.shape.rank) return refuse("mapping entry out of range");
    return {};
}

MovePlan plan(const KernelNode& n) {
    const TensorInfo& x = in_info(n, 0);
    const auto& m = n.attr<PermuteAttrs>().mapping;
    const uint32_t r = x.shape.rank;
    const ref::Strides in_stride(x.shape);
    uint32_t src_dim[kMaxRank] = {};  // the input dimension output dimension i walks
    for (uint32_t i = 0; i < r; ++i) {
        if (n.op == OpKind::Transpose)
            src_dim[i] = m[i];
        else
            src_dim[m[i]] = i;
    }
    MovePlan p;
    p.elem = element_size(x.dtype);
    for (uint32_t i = 0; i < r; ++i) {
        const size_t size = x.shape[src_dim[i]], stride = in_stride[src_dim[i]];
        if (size == 1) continue;
        // Merge with the previous output dim when stepping it is stepping this one `size` times in the input.
        if (p.rank > 0 && p.in_stride[p.rank - 1] == stride * size) {
            p.size[p.rank - 1] *= size;
            p.in_stride[p.rank - 1] = stride;
        } else {
            p.size[p.rank] = size, p.in_stride[p.rank] = stride, ++p.rank;
        }
    }
    return p;
}

// Output rows [begin, end): a row is one index of every dimension but the innermost.
template <size_t E> void move_rows(const MovePlan& p, const uint8_t* src, uint8_t* dst, size_t begin, size_t end) {
    const uint32_t inner = p.rank - 1;
    const size_t n = p.size[inner], step = p.in_stride[inner] * E;
    for (size_t row = begin; row < end; ++row) {
        size_t at = 0, r = row;  // the row's first input element: the outer indices by div/mod
        for (uint32_t d = inner; d-- > 0;) {
            at += (r % p.size[d]) * p.in_stride[d];
            r /= p.size[d];
        }
        uint8_t* out = dst + row * n * E;
        const uint8_t* in = src + at * E;
        if (step == E) {
            std::memcpy(out, in, n * E);
        } else {
            for (size_t i = 0; i < n; ++i) std::memcpy(out + i * E, in + i * step, E);  // one load, one store
        }
    }
}

size_t plan_bytes(const KernelNode&) { return sizeof(MovePlan); }
void prepare_plan(const PrepareArgs& a) { new (a.state) MovePlan(plan(a.node)); }  // state: 64-byte aligned, zeroed

void run_permute(const KernelArgs& a) {
    const MovePlan& p = *static_cast<const MovePlan*>(a.state);
    const auto* src = static_cast<const uint8_t*>(a.inputs[0]);
    auto* dst = static_cast<uint8_t*>(a.outputs[0]);
    const size_t total = out_info(a.node).shape.num_elements();
    if (total == 0) return;
    if (p.rank == 0 || (p.rank == 1 && p.in_stride[0] == 1)) {  // the identity move
        std::memcpy(dst, src, total * p.elem);
        return;
    }
    const size_t rows = total / p.size[p.rank - 1];
    parallel_for(rows, work_grain(p.size[p.rank - 1]), [&](size_t begin, size_t end) {
        switch (p.elem) {
            case 1: move_rows<1>(p, src, dst, begin, end); break;
            case 2: move_rows<2>(p, src, dst, begin, end); break;
            case 4: move_rows<4>(p, src, dst, begin, end); break;
            default: move_rows<8>(p, src, dst, begin, end); break;
        }
    });
}

}  // namespace

const Kernel kPermute = {check_permute, nullptr, run_permute, plan_bytes, prepare_plan};
const Kernel kTranspose = {check_permute, nullptr, run_permute, plan_bytes, prepare_plan};

}  // namespace npurun::kernels::neon
