// The state the MNN loader carries while it maps ops to IR nodes, shared by the op-mapping files.
//
// MNN tensors are integer ids into Net.tensorName. Each gets, once produced, an IR tensor and a layout tag
// saying what its dimension order means for 4-D tensors (NC4HW4 and NCHW both mean N,C,H,W; NHWC means
// N,H,W,C). MNN's NC4HW4 is an internal storage layout, so the loader is free to store those tensors
// channels-last: convolutions, pooling, normalisation and the element-wise ops between them produce IR
// tensors in NHWC order (the layout the NPU lowers), and a Transpose back to the file's dimension order is
// emitted only where an op reads dimensions by position (Reshape, Softmax axis, ...) or at a model output. Small int32 tensors whose values
// are known at load time (Const blobs, the result of Shape, and what StridedSlice/Pack compute from them)
// also keep their values, so that shape-computing subgraphs fold into constants.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "MNN_generated.h"
#include "ir/graph.h"
#include "core/load_options.h"

namespace npurun::mnn {

enum class Layout : uint8_t { NCHW, NHWC };

struct TensorState {
    TensorId id = kNoTensor;   // the IR tensor, once produced
    Layout layout = Layout::NCHW;
    std::optional<std::vector<int32_t>> values;  // int32 contents known at load time
    // The IR tensor holds an N,C,H,W tensor in N,H,W,C order (id); the file's order is made on demand.
    bool channels_last = false;
    TensorId file_order = kNoTensor;     // cache: the tensor in the file's dimension order
    TensorId channels_last_id = kNoTensor;  // cache: an N,C,H,W tensor transposed to N,H,W,C
};

// Where dimension d of an N,C,H,W tensor sits in its channels-last IR tensor.
inline uint32_t channels_last_position(uint32_t d) {
    static const uint32_t pos[4] = {0, 3, 1, 2};
    return pos[d];
}

class Builder {
public:
    Builder(Graph& g, const MNN::Net* net, const LoadOptions& options);

    Graph& g;
    const MNN::Net* net;
    const LoadOptions& options;
    std::vector<TensorState> tensors;           // by MNN tensor index
    std::map<int32_t, float> dequant_scale;     // int8 tensor index -> scale its Int8ToFloat consumer reads
    bool weights_stripped = false;              // graph-only file ("benchmark" converter output)

    // The op being mapped (for messages and names).
    const MNN::Op* op = nullptr;
    uint32_t op_index = 0;
    std::string op_name;

    // Operand k of the current op: checks the index and that the tensor was produced.
    int32_t input_index(size_t k) const;
    size_t num_inputs() const;
    // As stored (possibly channels-last).
    const TensorState& raw(size_t k) const;
    // In the file's dimension order (a Transpose is emitted once if the tensor is stored channels-last).
    TensorState in(size_t k);
    TensorId in_id(size_t k) { return in(k).id; }
    const TensorInfo& in_info(size_t k) { return g.info(in_id(k)); }
    // A 4-D N,C,H,W operand as an N,H,W,C IR tensor (a Transpose is emitted once if needed).
    TensorId in_channels_last(size_t k);
    // The file-order IR tensor of MNN tensor t (for model outputs).
    TensorId file_order(int32_t t);
    int32_t output_index(size_t k) const;
    size_t num_outputs() const;

    // A new IR value tensor (shape filled in when its producing node is emitted). `dtype`/`quant` are the
    // declared parts the infer functions keep (the quantization of a quantized output).
    TensorId new_value(const std::string& name, DataType dtype = DataType::Float32, Quantization quant = {});
    // A constant tensor with owned, copied data.
    TensorId new_constant(const std::string& name, const TensorInfo& info, const void* bytes);
    TensorId new_float_constant(const std::string& name, const Shape& shape, const std::vector<float>& v);
    TensorId new_int32_constant(const std::string& name, const std::vector<int32_t>& v);

    // Appends a node for the current op, infers its output descriptors and stores them on its outputs.
    void emit(OpKind kind, OpAttrs attrs, std::vector<TensorId> inputs, std::vector<TensorId> outputs,
              const std::string& suffix = "");
    // Binds MNN output slot k of the current op to an IR tensor with a layout.
    void produce(size_t k, TensorId id, Layout layout, std::optional<std::vector<int32_t>> values = {},
                 bool channels_last = false);

    // "op 12 'conv1' (Convolution)"
    std::string describe() const;
    // The current op's name, or "op12" for an unnamed one: the stem of the IR names of what it emits.
    std::string base_name() const;
    [[noreturn]] void bad(const std::string& problem) const;
    [[noreturn]] void unsupported(const std::string& problem) const;
};

// Maps the current op of `b` (b.op) to IR nodes. Throws Error naming the op.
void map_op(Builder& b);

// The op type's MNN name ("Convolution", or "type 777" for a number this reader does not know).
std::string op_type_name(int32_t type);

}  // namespace npurun::mnn
