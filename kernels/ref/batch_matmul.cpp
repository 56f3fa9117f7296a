// BatchMatMul (reference/armnn-format.md §2): per broadcast batch, out = op(X) * op(Y) in float, where op
// is a transpose (transposeX/Y), the classical adjugate (adjointX/Y, the transposed cofactor matrix of a
// square matrix; NOT a conjugate transpose), or the identity; transpose wins when both flags are set.
// The multiplied axes are the last two (NCHW/NCDHW) or (-3, -2) (NHWC/NDHWC). Each operand matrix of a
// batch is materialised in the scratch area (no allocation on the run path).
#include <algorithm>
#include <cmath>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"
#include "ir/ops.h"

namespace npurun::kernels::ref {
namespace {

struct MatrixView {
    uint32_t rows, cols;
    size_t row_stride, col_stride;
};

// Determinant of the n x n matrix m (row-major, destroyed) by Gaussian elimination with partial pivoting.
float determinant(float* m, uint32_t n) {
    float det = 1.0f;
    for (uint32_t c = 0; c < n; ++c) {
        uint32_t p = c;
        for (uint32_t r = c + 1; r < n; ++r)
            if (std::fabs(m[r * n + c]) > std::fabs(m[p * n + c])) p = r;
        if (m[p * n + c] == 0.0f) return 0.0f;
        if (p != c) {
            for (uint32_t k = 0; k < n; ++k) std::swap(m[c * n + k], m[p * n + k]);
            det = -det;
        }
        det *= m[c * n + c];
        for (uint32_t r = c + 1; r < n; ++r) {
            const float f = m[r * n + c] / m[c * n + c];
            for (uint32_t k = c; k < n; ++k) m[r * n + k] -= f * m[c * n + k];
        }
    }
    return det;
}

// dst (n x n) = adjugate(src): dst[i][j] = (-1)^(i+j) * det(src without row j and column i).
void adjugate(const float* src, float* dst, uint32_t n, float* minor) {
    if (n == 1) {
        dst[0] = 1.0f;
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            uint32_t k = 0;
            for (uint32_t r = 0; r < n; ++r) {
                if (r == j) continue;
                for (uint32_t c = 0; c < n; ++c)
                    if (c != i) minor[k++] = src[r * n + c];
            }
            const float d = determinant(minor, n - 1);
            dst[i * n + j] = ((i + j) % 2 ? -d : d);
        }
}

struct Plan {
    ops::BatchMatMulAxes ax, ay, ao;
    uint32_t m, k, n;  // op(X) is m x k, op(Y) is k x n
};

Plan plan(const KernelNode& node) {
    const auto& at = node.attr<BatchMatMulAttrs>();
    const Shape& xs = node.in(0).shape;
    const Shape& ys = node.in(1).shape;
    Plan p;
    p.ax = ops::batch_matmul_axes(at.layout_x, xs.rank);
    p.ay = ops::batch_matmul_axes(at.layout_y, ys.rank);
    p.ao = ops::batch_matmul_axes(at.layout_x, node.out(0).shape.rank);
    p.m = at.transpose_x ? xs[p.ax.col] : xs[p.ax.row];
    p.k = at.transpose_x ? xs[p.ax.row] : xs[p.ax.col];
    p.n = at.transpose_y ? ys[p.ay.row] : ys[p.ay.col];
    return p;
}

size_t scratch(const KernelNode& node) {
    const Plan p = plan(node);
    const size_t big = std::max(p.m, p.n) > p.k ? std::max(p.m, p.n) : p.k;
    // op(X), op(Y), a raw square copy for the adjugate, and its minor.
    return (size_t(p.m) * p.k + size_t(p.k) * p.n + big * big + big * big) * sizeof(float);
}

// Loads op(A) (rows x cols after the op) of one batch into dst.
void load(const Reader& r, size_t base, size_t rs, size_t cs, uint32_t rows, uint32_t cols, bool transpose,
          bool adjoint, float* dst, float* tmp, float* minor) {
    if (transpose) {
        for (uint32_t i = 0; i < rows; ++i)
            for (uint32_t j = 0; j < cols; ++j) dst[i * cols + j] = r[base + j * rs + i * cs];
        return;
    }
    float* raw = adjoint ? tmp : dst;
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) raw[i * cols + j] = r[base + i * rs + j * cs];
    if (adjoint) adjugate(tmp, dst, rows, minor);
}

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<BatchMatMulAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = in_info(a, 1);
    const TensorInfo& oi = out_info(a, 0);
    const Plan p = plan(a.node);
    const Strides xs(xi.shape), ys(yi.shape), os(oi.shape);
    float* opx = static_cast<float*>(a.scratch);
    float* opy = opx + size_t(p.m) * p.k;
    float* tmp = opy + size_t(p.k) * p.n;
    const size_t big = std::max(p.m, p.n) > p.k ? std::max(p.m, p.n) : p.k;
    float* minor = tmp + big * big;
    const Reader xr(xi, a.inputs[0]), yr(yi, a.inputs[1]);
    const Writer out(oi, a.outputs[0]);
    Shape batches = oi.shape;  // the output shape with the matrix axes collapsed
    batches[p.ao.row] = batches[p.ao.col] = 1;
    const uint32_t lead_x = oi.shape.rank - xi.shape.rank, lead_y = oi.shape.rank - yi.shape.rank;
    for_each_index(batches, [&](const uint32_t* idx, size_t) {
        size_t bx = 0, by = 0, bo = 0;
        for (uint32_t d = 0; d < oi.shape.rank; ++d) {
            if (d == p.ao.row || d == p.ao.col) continue;
            bo += idx[d] * os[d];
            if (d >= lead_x && xi.shape[d - lead_x] != 1) bx += idx[d] * xs[d - lead_x];
            if (d >= lead_y && yi.shape[d - lead_y] != 1) by += idx[d] * ys[d - lead_y];
        }
        load(xr, bx, xs[p.ax.row], xs[p.ax.col], p.m, p.k, at.transpose_x, at.adjoint_x, opx, tmp, minor);
        load(yr, by, ys[p.ay.row], ys[p.ay.col], p.k, p.n, at.transpose_y, at.adjoint_y, opy, tmp, minor);
        for (uint32_t i = 0; i < p.m; ++i)
            for (uint32_t j = 0; j < p.n; ++j) {
                float acc = 0.0f;
                for (uint32_t k = 0; k < p.k; ++k) acc += opx[i * p.k + k] * opy[k * p.n + j];
                out.set(bo + i * os[p.ao.row] + j * os[p.ao.col], acc);
            }
    });
}

}  // namespace

const Kernel kBatchMatMul = {check_numeric_io, scratch, run};

}  // namespace npurun::kernels::ref
