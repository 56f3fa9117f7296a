#include "runtime/loaders/armnn/tensor_decoding.h"

#include <cstring>
#include <string>
#include <type_traits>

#include "core/error.h"
#include "core/checked_math.h"
#include "core/depthwise_layout.h"

namespace npurun::armnn {

namespace {

[[noreturn]] void bad(const std::string& msg) { fail(ErrorKind::BadModel, msg); }

// armnn::Dimensionality values (include/armnn/Types.hpp).
constexpr uint32_t kDimensionalityNotSpecified = 0;
constexpr uint32_t kDimensionalitySpecified = 1;
constexpr uint32_t kDimensionalityScalar = 2;

}  // namespace

DataType decode_data_type(int raw) {
    switch (raw) {
        case 0: return DataType::Float16;
        case 1: return DataType::Float32;
        case 2: return DataType::QAsymmU8;  // QuantisedAsymm8, the 2019 schema's number
        case 3: return DataType::Signed32;
        case 4: return DataType::Boolean;
        case 5: return DataType::QSymmS16;  // QuantisedSymm16, the 2019 schema's number
        case 6: return DataType::QAsymmU8;
        case 7: return DataType::QSymmS16;
        case 8: return DataType::QAsymmS8;
        case 9: return DataType::QSymmS8;
        case 10: return DataType::Signed64;
        default: break;
    }
    bad("unknown data type " + std::to_string(raw) + " (known: 0..10)");
}

void check_quantization(const TensorInfo& info) {
    if (!info.quant.per_axis()) return;
    if (info.shape.rank == 0) bad("per-axis quantization on a scalar tensor");
    if (info.quant.axis >= info.shape.rank)
        bad("quantization axis " + std::to_string(info.quant.axis) + " is out of range for shape " +
            info.shape.str());
    if (info.quant.scales.size() != info.shape[info.quant.axis])
        bad("per-axis quantization has " + std::to_string(info.quant.scales.size()) + " scales but dimension " +
            std::to_string(info.quant.axis) + " of " + info.shape.str() + " has " +
            std::to_string(info.shape[info.quant.axis]) + " entries");
}

TensorInfo decode_tensor_info(const armnnSerializer::TensorInfo* fb, bool check_quant) {
    if (!fb) bad("tensor info is missing");
    TensorInfo info;
    info.dtype = decode_data_type(static_cast<int>(fb->dataType()));

    const uint32_t dimensionality = fb->dimensionality();
    if (dimensionality == kDimensionalityScalar) {
        info.shape = Shape();  // the dims vector is ignored for scalars, as Arm NN does
    } else if (dimensionality == kDimensionalitySpecified) {
        const auto* dims = fb->dimensions();
        if (!dims || dims->size() == 0) bad("tensor has no dimensions (and is not marked scalar)");
        if (dims->size() > kMaxRank)
            bad("tensor rank " + std::to_string(dims->size()) + " exceeds the maximum of " + std::to_string(kMaxRank));
        const auto* specificity = fb->dimensionSpecificity();
        if (specificity && specificity->size() != dims->size())
            bad("dimensionSpecificity has " + std::to_string(specificity->size()) + " entries for a rank-" +
                std::to_string(dims->size()) + " tensor");
        info.shape.rank = dims->size();
        for (uint32_t i = 0; i < dims->size(); ++i) {
            if (specificity && specificity->Get(i) == 0)
                bad("dimension " + std::to_string(i) +
                    " is unspecified (dynamic shapes are not supported yet)");
            const uint32_t d = dims->Get(i);
            if (d == 0) bad("dimension " + std::to_string(i) + " is 0");
            info.shape.dims[i] = d;
        }
    } else if (dimensionality == kDimensionalityNotSpecified) {
        bad("tensor rank is unspecified (dynamic shapes are not supported yet)");
    } else {
        bad("unknown dimensionality " + std::to_string(dimensionality) + " (known: 0, 1, 2)");
    }

    // Rejects element counts or byte sizes that overflow, and absurdly large tensors.
    const size_t bytes = info.num_bytes();
    if (bytes > kMaxTensorBytes) bad("tensor " + info.shape.str() + " is too large (" + std::to_string(bytes) + " bytes)");

    // Per-axis quantization (20.05+): the scales vector wins and the offset is ignored, as in Arm NN.
    const auto* scales = fb->quantizationScales();
    if (scales && scales->size() > 0) {
        info.quant.scales.assign(scales->begin(), scales->end());
        info.quant.axis = fb->quantizationDim();
        info.quant.offset = 0;
    } else {
        info.quant.scales = {fb->quantizationScale()};
        info.quant.offset = fb->quantizationOffset();
    }
    if (check_quant) check_quantization(info);
    return info;
}

// The data vector of a ByteData/ShortData/IntData/LongData table as untyped elements (vec nullptr when
// absent), with the element width of that table's vector type.
struct UntypedData {
    const flatbuffers::VectorOfAny* vec = nullptr;
    size_t width = 0;
};
template <class Table> UntypedData untyped_data(const Table* d) {
    using Element = typename std::remove_pointer_t<decltype(d->data())>::return_type;
    return {d ? reinterpret_cast<const flatbuffers::VectorOfAny*>(d->data()) : nullptr, sizeof(Element)};
}

ConstView decode_const_tensor(const armnnSerializer::ConstTensor* fb, bool check_quant) {
    if (!fb) bad("constant tensor is missing");
    ConstView c;
    c.info = decode_tensor_info(fb->info(), check_quant);

    const auto kind = fb->data_type();
    UntypedData data;
    switch (kind) {
        case armnnSerializer::ConstTensorData::NONE:
            // Arm NN 20.08 writes per-tensor QAsymmS8 constants like this; no reader can recover them.
            bad("constant data is missing (data union type NONE)");
        case armnnSerializer::ConstTensorData::ByteData: data = untyped_data(fb->data_as_ByteData()); break;
        case armnnSerializer::ConstTensorData::ShortData: data = untyped_data(fb->data_as_ShortData()); break;
        case armnnSerializer::ConstTensorData::IntData: data = untyped_data(fb->data_as_IntData()); break;
        case armnnSerializer::ConstTensorData::LongData: data = untyped_data(fb->data_as_LongData()); break;
        default:
            bad("unknown constant data union type " + std::to_string(static_cast<int>(kind)) + " (known: 1..4)");
    }
    const flatbuffers::VectorOfAny* vec = data.vec;
    const size_t width = data.width;
    if (!vec) bad("constant data vector is missing");
    // Arm NN only compares the element count; the element width must also match the data type, or the
    // bytes cannot be the tensor's values (e.g. Float32 values need IntData, whose ints hold the bits).
    if (width != element_size(c.info.dtype))
        bad(std::string("constant of type ") + to_string(c.info.dtype) + " is stored with " +
            std::to_string(width) + "-byte elements");
    const size_t expected = c.info.shape.num_elements();
    if (vec->size() != expected)
        bad("constant has " + std::to_string(vec->size()) + " elements but its shape " + c.info.shape.str() +
            " needs " + std::to_string(expected));
    c.bytes = vec->Data();
    c.num_bytes = c.info.num_bytes();
    return c;
}

const void* place_constant(Graph& g, const ConstView& c) {
    const size_t align = element_size(c.info.dtype);
    if (reinterpret_cast<uintptr_t>(c.bytes) % align == 0) return c.bytes;
    uint8_t* copy = g.allocate_owned(c.num_bytes);
    std::memcpy(copy, c.bytes, c.num_bytes);
    return copy;
}

Tensor convert_legacy_depthwise_weights(Graph& g, const ConstView& c, const std::string& name) {
    const Shape& s = c.info.shape;
    if (s.rank != 4) bad("legacy depthwise weights must be 4-D [M, I, H, W], got " + s.str());
    const uint32_t M = s[0], I = s[1], H = s[2], W = s[3];
    uint32_t IM = 0;
    if (!checked_mul(I, M, &IM)) bad("depthwise weights " + s.str() + " are too large");

    Tensor t;
    t.name = name;
    t.info.dtype = c.info.dtype;
    t.info.shape = Shape{1, H, W, IM};
    t.info.quant = c.info.quant;

    // Per-axis quantization follows the data: an axis over M or I becomes the output-channel axis (3),
    // expanding the scales to one per output channel c = i*M + m; H and W keep their meaning at 1 and 2.
    if (c.info.quant.per_axis()) {
        const auto& in = c.info.quant.scales;
        std::vector<float> out;
        switch (c.info.quant.axis) {
            case 0:
                if (in.size() == M) {
                    out.resize(IM);
                    for (uint32_t i = 0; i < I; ++i)
                        for (uint32_t m = 0; m < M; ++m) out[size_t(i) * M + m] = in[m];
                } else if (in.size() == IM) {
                    // Arm NN 20.08's TfLite parser keeps TFLite's per-output-channel scales (index i*M+m)
                    // on axis 0 of the permuted weights.
                    out = in;
                } else {
                    bad("legacy depthwise weights " + s.str() + " have " + std::to_string(in.size()) +
                        " scales on axis 0 (expected " + std::to_string(M) + " or " + std::to_string(IM) + ")");
                }
                t.info.quant.axis = 3;
                break;
            case 1:
                if (in.size() != I)
                    bad("legacy depthwise weights " + s.str() + " have " + std::to_string(in.size()) +
                        " scales on axis 1");
                out.resize(IM);
                for (uint32_t i = 0; i < I; ++i)
                    for (uint32_t m = 0; m < M; ++m) out[size_t(i) * M + m] = in[i];
                t.info.quant.axis = 3;
                break;
            case 2: out = in; t.info.quant.axis = 1; break;
            case 3: out = in; t.info.quant.axis = 2; break;
            default:
                bad("quantization axis " + std::to_string(c.info.quant.axis) + " is out of range for " + s.str());
        }
        t.info.quant.scales = std::move(out);
    }
    check_quantization(t.info);

    const size_t es = element_size(c.info.dtype);
    uint8_t* dst = g.allocate_owned(c.num_bytes);
    for_each_depthwise_weight(M, I, H, W, [&](size_t legacy, size_t current) {
        std::memcpy(dst + current * es, c.bytes + legacy * es, es);
    });
    t.data = dst;
    return t;
}

}  // namespace npurun::armnn
