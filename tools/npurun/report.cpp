#include "tools/npurun/report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>

#include "ir/graph.h"
#include "runtime/exec/cpu_support.h"
#include "runtime/npu/npu_op.h"
#include "runtime/loaders/mnn/mnn_ops.h"

namespace npurun::cli {
namespace {

// IEEE 754 binary16 -> binary32, exact for every value (subnormals, infinities, NaN).
float half_to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h >> 15) << 31;
    const uint32_t exp = (h >> 10) & 0x1f;
    const uint32_t mant = h & 0x3ff;
    float f;
    if (exp == 0) {
        f = std::ldexp(float(mant), -24);  // zero or subnormal
        return sign ? -f : f;
    }
    uint32_t bits;
    if (exp == 31)
        bits = sign | 0x7f800000u | (mant << 13);
    else
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

template <class T> T load(const void* data, size_t i) {
    T v;
    std::memcpy(&v, static_cast<const uint8_t*>(data) + i * sizeof(T), sizeof(T));
    return v;
}

// The per-axis channel of element i (C order).
size_t channel_of(const TensorInfo& info, size_t i) {
    const Shape& s = info.shape;
    if (info.quant.axis >= s.rank) return 0;
    size_t inner = 1;
    for (uint32_t d = info.quant.axis + 1; d < s.rank; ++d) inner *= s[d];
    return (i / inner) % s[info.quant.axis];
}

}  // namespace

double element_value(const TensorInfo& info, const void* data, size_t i) {
    double raw = 0;
    switch (info.dtype) {
        case DataType::Float32: return load<float>(data, i);
        case DataType::Float16: return half_to_float(load<uint16_t>(data, i));
        case DataType::Signed32: return load<int32_t>(data, i);
        case DataType::Signed64: return double(load<int64_t>(data, i));
        case DataType::Boolean: return load<uint8_t>(data, i) ? 1 : 0;
        case DataType::QAsymmU8: raw = load<uint8_t>(data, i); break;
        case DataType::QAsymmS8:
        case DataType::QSymmS8: raw = load<int8_t>(data, i); break;
        case DataType::QSymmS16: raw = load<int16_t>(data, i); break;
    }
    const size_t ch = info.quant.per_axis() ? channel_of(info, i) : 0;
    return double(info.quant.scale(ch)) * (raw - double(info.quant.per_axis() ? 0 : info.quant.offset));
}

bool is_scores_output(const TensorInfo& info, size_t* classes) {
    const Shape& s = info.shape;
    const size_t n = s.num_elements();
    *classes = n;
    return (s.rank == 1 || (s.rank == 2 && s[0] == 1)) && n > 1;
}

void print_output_summary(std::FILE* out, size_t index, const TensorBinding& b, const std::vector<std::string>* labels) {
    const TensorInfo& info = b.info;
    const size_t n = info.shape.num_elements();
    std::fprintf(out, "output %zu '%s': %s %s", index, b.name.c_str(), info.shape.str().c_str(), to_string(info.dtype));
    if (is_quantized(info.dtype) && !info.quant.per_axis())
        std::fprintf(out, " (scale %g, zero point %d; values below dequantized)", double(info.quant.scale()),
                     info.quant.offset);
    std::fprintf(out, "\n");
    if (n == 0) {
        std::fprintf(out, "  (no elements)\n");
        return;
    }
    double mn = INFINITY, mx = -INFINITY, sum = 0;
    size_t nan = 0;
    for (size_t i = 0; i < n; ++i) {
        const double v = element_value(info, b.data, i);
        if (std::isnan(v)) {
            ++nan;
            continue;
        }
        mn = std::min(mn, v);
        mx = std::max(mx, v);
        sum += v;
    }
    if (nan == n) {
        std::fprintf(out, "  all %zu values are NaN\n", n);
        return;
    }
    std::fprintf(out, "  min %.6g  max %.6g  mean %.6g", mn, mx, sum / double(n - nan));
    if (nan) std::fprintf(out, "  (%zu NaN)", nan);
    std::fprintf(out, "\n");

    // Scores: a vector, or a batch of one vector. Ties keep the lower index first (deterministic).
    size_t classes = 0;
    if (!is_scores_output(info, &classes)) return;
    std::vector<size_t> idx(n);
    std::iota(idx.begin(), idx.end(), size_t{0});
    const size_t k = std::min<size_t>(5, n);
    auto key = [&](size_t i) {
        const double v = element_value(info, b.data, i);
        return std::isnan(v) ? -INFINITY : v;  // NaN ranks last
    };
    std::partial_sort(idx.begin(), idx.begin() + std::ptrdiff_t(k), idx.end(), [&](size_t a, size_t c) {
        const double ka = key(a), kc = key(c);
        return ka > kc || (ka == kc && a < c);
    });
    if (labels != nullptr && labels->size() == n) {
        std::fprintf(out, "  top-%zu:\n", k);
        for (size_t j = 0; j < k; ++j)
            std::fprintf(out, "    %zu  %-8.6g  %s\n", idx[j], element_value(info, b.data, idx[j]), (*labels)[idx[j]].c_str());
        return;
    }
    std::fprintf(out, "  top-%zu:", k);
    for (size_t j = 0; j < k; ++j)
        std::fprintf(out, "%s %zu (%.6g)", j ? "," : "", idx[j], element_value(info, b.data, idx[j]));
    std::fprintf(out, "\n");
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

void print_profile(std::FILE* out, const std::vector<LayerProfile>& rows) {
    size_t name_w = 5, type_w = 4;
    for (const auto& r : rows) {
        name_w = std::max(name_w, std::min<size_t>(r.name.size(), 40));
        type_w = std::max(type_w, r.type.size());
    }
    bool npu = false;
    for (const auto& r : rows) npu = npu || r.tasks > 0;
    if (!npu) {
        std::fprintf(out, "%-*s  %-*s  %-6s  %12s  %7s  %s\n", int(name_w), "layer", int(type_w), "type", "device",
                     "time (us)", "threads", "output shape");
    } else {
        std::fprintf(out, "%-*s  %-*s  %-6s  %12s  %12s  %12s  %6s  %12s  %8s  %9s  %5s  %s\n", int(name_w), "layer", int(type_w),
                     "type", "device", "time (us)", "MACs", "issued MACs", "useful", "DMA bytes", "DMA/ideal", "est (us)",
                     "tasks", "output shape");
    }
    double total = 0, estimated = 0;
    uint64_t macs = 0, dma = 0, tasks = 0, split = 0, looped = 0, issued = 0, ideal = 0;
    for (const auto& r : rows) {
        const std::string name = r.name.size() > 40 ? r.name.substr(0, 37) + "..." : r.name;
        if (!npu) {
            const std::string threads = r.threads ? std::to_string(r.threads) : "-";
            std::fprintf(out, "%-*s  %-*s  %-6s  %12.1f  %7s  %s\n", int(name_w), name.c_str(), int(type_w), r.type.c_str(),
                         r.device.c_str(), r.microseconds, threads.c_str(), r.output_shape.str().c_str());
        } else if (r.tasks == 0) {
            std::fprintf(out, "%-*s  %-*s  %-6s  %12.1f  %12s  %12s  %6s  %12s  %8s  %9s  %5s  %s\n", int(name_w), name.c_str(),
                         int(type_w), r.type.c_str(), r.device.c_str(), r.microseconds, "-", "-", "-", "-", "-", "-", "-",
                         r.output_shape.str().c_str());
        } else {
            std::fprintf(out, "%-*s  %-*s  %-6s  %12.1f  %12llu  %12llu  %6.2f  %12llu  %8.2f  %9.1f  %5u  %s\n", int(name_w),
                         name.c_str(), int(type_w), r.type.c_str(), r.device.c_str(), r.microseconds,
                         static_cast<unsigned long long>(r.macs), static_cast<unsigned long long>(r.issued_macs),
                         ratio(double(r.macs), double(r.issued_macs)), static_cast<unsigned long long>(r.dma_bytes),
                         ratio(double(r.dma_bytes), double(r.ideal_dma_bytes)), r.estimated_us, r.tasks,
                         r.output_shape.str().c_str());
        }
        total += r.microseconds;
        split += r.threads > 1;
        looped += r.threads > 0;
        macs += r.macs;
        dma += r.dma_bytes;
        tasks += r.tasks;
        issued += r.issued_macs;
        ideal += r.ideal_dma_bytes;
        estimated += r.estimated_us;
    }
    if (!npu) {
        std::fprintf(out, "%-*s  %-*s  %-6s  %12.1f\n", int(name_w), "total", int(type_w), "", "", total);
        // The threading policy, checkable without a clock: a layer is split only when every thread gets enough work.
        std::fprintf(out, "(threads: most threads one parallel loop of the layer ran on; %llu of %llu CPU layers split)\n",
                     static_cast<unsigned long long>(split), static_cast<unsigned long long>(looped));
    } else {
        std::fprintf(out, "%-*s  %-*s  %-6s  %12.1f  %12llu  %12llu  %6.2f  %12llu  %8.2f  %9.1f  %5llu\n", int(name_w), "total",
                     int(type_w), "", "", total, static_cast<unsigned long long>(macs), static_cast<unsigned long long>(issued),
                     ratio(double(macs), double(issued)), static_cast<unsigned long long>(dma), ratio(double(dma), double(ideal)),
                     estimated, static_cast<unsigned long long>(tasks));
        std::fprintf(out, "(NPU rows: time is the segment's time shared by MACs; DMA bytes, issued MACs (CNA atomic groups), "
                          "DMA/ideal (input, weights, output once, unpadded) and est (one core, 1 GHz) from the simulator's "
                          "cost model, docs/cost-model.md; 0 on a board)\n");
    }
}

Latency latency_of(std::vector<double> run_ms) {
    Latency l;
    if (run_ms.empty()) return l;
    std::sort(run_ms.begin(), run_ms.end());
    const size_t n = run_ms.size();
    l.median_ms = n % 2 ? run_ms[n / 2] : (run_ms[n / 2 - 1] + run_ms[n / 2]) / 2;
    const size_t rank = (9 * n + 9) / 10;  // ceil(0.9 n), nearest-rank percentile
    l.p90_ms = run_ms[std::max<size_t>(rank, 1) - 1];
    return l;
}

void print_model_info(std::FILE* out, const Model& model, const MemoryPlanStats& stats, const std::string& stats_note) {
    const Graph& g = model.graph();
    std::fprintf(out, "model: %s\n", model.path().c_str());
    auto binding = [&](const char* kind, size_t i, const Binding& b) {
        std::fprintf(out, "  %s %zu '%s' (binding id %d): %s\n", kind, i, b.name.c_str(), b.id,
                     g.info(b.tensor).str().c_str());
    };
    std::fprintf(out, "inputs: %zu\n", g.inputs.size());
    for (size_t i = 0; i < g.inputs.size(); ++i) binding("input", i, g.inputs[i]);
    std::fprintf(out, "outputs: %zu\n", g.outputs.size());
    for (size_t i = 0; i < g.outputs.size(); ++i) binding("output", i, g.outputs[i]);
    std::map<std::string, size_t> by_type;
    for (const Node& n : g.nodes) ++by_type[to_string(n.op)];
    std::fprintf(out, "layers: %zu\n", g.nodes.size());
    for (const auto& [type, count] : by_type) std::fprintf(out, "  %-24s %zu\n", type.c_str(), count);
    const double pct = stats.naive_bytes ? 100.0 * double(stats.arena_bytes) / double(stats.naive_bytes) : 0.0;
    std::fprintf(out, "memory: arena %zu bytes, naive sum %zu bytes (%.1f%%), %zu buffers%s\n", stats.arena_bytes,
                 stats.naive_bytes, pct, stats.num_tensors, stats_note.c_str());
}

namespace {

// The MNN op types (.mnn files): what each becomes in the IR, or why it is refused. "mnn" in the table
// above marks the IR layer types these reach.
void print_mnn_op_support(std::FILE* out) {
    std::fprintf(out, "\nMNN op types (.mnn files)          IR layers (besides layout Transpose/Reshape) or refusal\n");
    for (const mnn::MnnOpRow& r : mnn::mnn_op_table()) {
        std::string what;
        if (!r.map) {
            what = std::string("refused: ") + r.refusal;
        } else if (r.kinds.empty()) {
            what = "no node (a graph constant, folded at load, or the identity)";
        } else {
            for (OpKind k : r.kinds) what += (what.empty() ? "" : ", ") + std::string(to_string(k));
        }
        for (MNN::OpType t : r.types) std::fprintf(out, "%-34s %s\n", mnn::op_type_name(int32_t(t)).c_str(), what.c_str());
    }
    std::fprintf(out, "Any other MNN op type is refused at load with its name and number.\n");
}

}  // namespace

void print_layer_support(std::FILE* out) {
    static const DataType types[] = {DataType::Float32,  DataType::Float16, DataType::QAsymmU8,
                                     DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16,
                                     DataType::Signed32, DataType::Signed64, DataType::Boolean};
    // The IR layer types some MNN op maps to (the MNN loader's op table, runtime/loaders/mnn/mnn_ops.h).
    std::vector<bool> from_mnn(uint32_t(OpKind::Count_), false);
    for (const mnn::MnnOpRow& r : mnn::mnn_op_table())
        for (OpKind k : r.kinds) from_mnn[uint32_t(k)] = true;
    std::fprintf(out, "%-27s %-9s %-4s %-4s %-4s %s\n", "layer type", "data type", "cpu", "npu", "mnn",
                 "reason (when not supported)");
    for (uint32_t k = 0; k < uint32_t(OpKind::Count_); ++k) {
        const OpKind op = OpKind(k);
        if (op == OpKind::Input || op == OpKind::Output || op == OpKind::Constant) continue;
        const bool npu_unit = npu::npu_op_unit(op) != nullptr;  // the NPU operation table (runtime/npu/npu_op.h)
        const char* mnn = from_mnn[k] ? "yes" : "-";
        for (DataType t : types) {
            const std::string reason = exec::cpu_support(op, t);
            // The NPU computes int8 (QAsymmU8/S8 activations) or fp16; Float32 runs as fp16 under --fp16.
            const char* npu = !npu_unit                                                ? "-"
                              : (t == DataType::QAsymmU8 || t == DataType::QAsymmS8 || t == DataType::Float16) ? "yes"
                              : t == DataType::Float32                                 ? "fp16"
                                                                                       : "no";
            std::fprintf(out, "%-27s %-9s %-4s %-4s %-4s %s\n", to_string(op), to_string(t), reason.empty() ? "yes" : "no",
                         npu, mnn, reason.c_str());
        }
    }
    std::fprintf(out,
                 "Input, Output and Constant need no kernel. Deprecated Arm NN layers run as their successors: Merger as\n"
                 "Concat, ResizeBilinear as Resize, Equal/Greater as Comparison, Abs/Rsqrt as ElementwiseUnary,\n"
                 "Addition..Minimum as ElementwiseBinary. npu: \"-\" = no NPU lowering for the layer type, \"no\" = the\n"
                 "NPU computes int8 (QAsymmU8/QAsymmS8) or float16 only, \"fp16\" = as float16 with --fp16; each\n"
                 "layer's own limits (kernel, stride, broadcast, ...) decide at load (npurun --explain).\n");
    // The operations inside the three enum-driven layer types, from the IR's own enums (so a value added
    // there is listed here), and the Arm NN file layer types that reach them.
    auto list = [out](const char* what, auto last, const char* note) {
        using E = decltype(last);
        std::fprintf(out, "%s:", what);
        for (int v = 0; v <= int(last); ++v) std::fprintf(out, " %s", to_string(E(v)));
        std::fprintf(out, "\n  %s\n", note);
    };
    list("ElementwiseBinary operations", BinaryOp::Power,
         "file layers: ElementwiseBinary (type 69, Arm NN 23.05+; BinaryOperation 0..7, SqDiff 6 and Power 7 as\n"
         "  SquaredDifference and Power, CPU only) or Addition, Subtraction, Multiplication, Division, Maximum,\n"
         "  Minimum (every release)");
    list("ElementwiseUnary operations", UnaryOp::Ceil, "Ceil: Arm NN 23.05+");
    list("Activation functions", ActivationFunction::Gelu, "Gelu: Arm NN 23.11+");
    list("ScatterNd functions", ScatterNdFunction::Min, "ScatterNd with axisEnabled is refused (Arm NN's reference refuses it too)");
    std::fprintf(out,
                 "Arm NN layer types after ElementwiseBinary: ReverseV2 (70), Tile (71), ScatterNd (72); a type above 72 is\n"
                 "refused by number. A Tile of size-1 axes along H/W is seed 003's Expand and may go to the NPU; the rest\n"
                 "runs on the CPU. BroadcastTo is not in Arm NN's serializer schema (no file can hold it).\n");
    print_mnn_op_support(out);
}

}  // namespace npurun::cli
