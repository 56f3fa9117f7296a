// Concat and Splitter: copy views at their origins, decoding and re-encoding each element as CpuRef
// does (so inputs with other quantization parameters are requantized to the output's).
// Concat's views tile its output exactly (checked by ir/ops), so every output element is written.
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

// Copies every view to or from the one big tensor at its origin. concat: the inputs are the views and
// output 0 the big tensor; otherwise (Splitter) input 0 is the big tensor and the outputs the views.
void copy_views(const KernelArgs& a, const std::vector<std::vector<uint32_t>>& origins, bool concat) {
    const TensorInfo& big = concat ? out_info(a, 0) : in_info(a, 0);
    const Strides bst(big.shape);
    for (size_t v = 0; v < origins.size(); ++v) {
        const TensorInfo& view = concat ? in_info(a, v) : out_info(a, v);
        size_t base = 0;
        for (uint32_t d = 0; d < big.shape.rank; ++d) base += origins[v][d] * bst[d];
        const Reader src = concat ? Reader(view, a.inputs[v]) : Reader(big, a.inputs[0]);
        const Writer dst = concat ? Writer(big, a.outputs[0]) : Writer(view, a.outputs[v]);
        for_each_strided(view.shape, bst.s, base, [&](size_t i, size_t b) {
            if (concat) dst.set(b, src[i]);
            else dst.set(i, src[b]);
        });
    }
}

void run_concat(const KernelArgs& a) { copy_views(a, a.node.attr<ConcatAttrs>().view_origins, true); }
void run_splitter(const KernelArgs& a) { copy_views(a, a.node.attr<SplitterAttrs>().view_origins, false); }

}  // namespace

const Kernel kConcat = {check_numeric_io, nullptr, run_concat};
const Kernel kSplitter = {check_numeric_io, nullptr, run_splitter};

}  // namespace npurun::kernels::ref
