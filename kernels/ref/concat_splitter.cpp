// Concat and Splitter: copy views at their origins, decoding and re-encoding each element as CpuRef
// does (so inputs with other quantization parameters are requantized to the output's).
// Concat's views tile its output exactly (checked by ir/ops), so every output element is written.
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

// Copies every element of `small` (shape ss) to/from `big` (shape bs) at `origin`.
// to_big: small -> big (Concat); otherwise big -> small (Splitter).
void copy_view(const Shape& ss, const Shape& bs, const std::vector<uint32_t>& origin, const Reader& src,
               const Writer& dst, bool to_big) {
    const Strides bst(bs);
    size_t base = 0;
    for (uint32_t d = 0; d < bs.rank; ++d) base += origin[d] * bst[d];
    for_each_strided(ss, bst.s, base, [&](size_t i, size_t b) {
        if (to_big) dst.set(b, src[i]);
        else dst.set(i, src[b]);
    });
}

void run_concat(const KernelArgs& a) {
    const auto& at = a.node.attr<ConcatAttrs>();
    const TensorInfo& yi = out_info(a, 0);
    const Writer y(yi, a.outputs[0]);
    for (size_t v = 0; v < a.node.num_inputs(); ++v) {
        const TensorInfo& xi = in_info(a, v);
        copy_view(xi.shape, yi.shape, at.view_origins[v], Reader(xi, a.inputs[v]), y, true);
    }
}

void run_splitter(const KernelArgs& a) {
    const auto& at = a.node.attr<SplitterAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const Reader x(xi, a.inputs[0]);
    for (size_t v = 0; v < a.node.num_outputs(); ++v) {
        const TensorInfo& yi = out_info(a, v);
        copy_view(yi.shape, xi.shape, at.view_origins[v], x, Writer(yi, a.outputs[v]), false);
    }
}

}  // namespace

const Kernel kConcat = {check_numeric_io, nullptr, run_concat};
const Kernel kSplitter = {check_numeric_io, nullptr, run_splitter};

}  // namespace npurun::kernels::ref
