#include "tools/modelwriter/model_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>

#include "core/depthwise_layout.h"

namespace npurun::modelwriter {

namespace {

template <class T>
std::vector<uint8_t> to_bytes(const std::vector<T>& v) {
    std::vector<uint8_t> out(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
    return out;
}

// The inverse: `count` elements of T read from raw little-endian bytes (bytes.size() == count * sizeof(T)).
template <class T> std::vector<T> elements_of(const std::vector<uint8_t>& bytes, size_t count) {
    std::vector<T> e(count);
    if (count) std::memcpy(e.data(), bytes.data(), bytes.size());
    return e;
}

// Element width and union member Arm NN's serializer uses for a data type number (any numbering).
fb::ConstTensorData default_storage(fb::DataType t) {
    switch (static_cast<int>(t)) {
        case 1: case 3: return fb::ConstTensorData::IntData;                      // Float32, Signed32
        case 0: case 5: case 7: return fb::ConstTensorData::ShortData;            // Float16, QSymmS16 (both numbers)
        case 10: return fb::ConstTensorData::LongData;                            // Signed64
        default: return fb::ConstTensorData::ByteData;                            // 8-bit types, Boolean
    }
}

size_t width_of(fb::ConstTensorData d) {
    switch (d) {
        case fb::ConstTensorData::ByteData: return 1;
        case fb::ConstTensorData::ShortData: return 2;
        case fb::ConstTensorData::IntData: return 4;
        case fb::ConstTensorData::LongData: return 8;
        default: return 1;
    }
}

// The table of an Input or Output layer: a BindableLayerBase around the base, wrapped by `create`
// (fb::CreateInputLayer or fb::CreateOutputLayer).
template <class Create> TableFn bindable_table(int32_t binding_id, Create create) {
    return [binding_id, create](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
        return create(b, fb::CreateBindableLayerBase(b, base, binding_id)).Union();
    };
}

}  // namespace

TensorDesc tensor(std::vector<uint32_t> dims, fb::DataType dtype, float scale, int32_t offset) {
    TensorDesc t;
    t.dims = std::move(dims);
    t.dtype = dtype;
    t.scale = scale;
    t.offset = offset;
    return t;
}

ConstDesc const_f32(std::vector<uint32_t> dims, const std::vector<float>& values) {
    return ConstDesc{tensor(std::move(dims), fb::DataType::Float32), to_bytes(values), {}, {}};
}
ConstDesc const_i32(std::vector<uint32_t> dims, const std::vector<int32_t>& values, float scale) {
    return ConstDesc{tensor(std::move(dims), fb::DataType::Signed32, scale), to_bytes(values), {}, {}};
}
ConstDesc const_u8(std::vector<uint32_t> dims, const std::vector<uint8_t>& values, float scale, int32_t offset,
                   fb::DataType dtype) {
    return ConstDesc{tensor(std::move(dims), dtype, scale, offset), values, {}, {}};
}
ConstDesc const_i8(std::vector<uint32_t> dims, const std::vector<int8_t>& values, float scale, int32_t offset,
                   fb::DataType dtype) {
    return ConstDesc{tensor(std::move(dims), dtype, scale, offset), to_bytes(values), {}, {}};
}

ConstDesc depthwise_weights_to_legacy(const ConstDesc& cur, uint32_t M) {
    if (cur.info.dims.size() != 4 || cur.info.dims[0] != 1 || M == 0 || cur.info.dims[3] % M != 0)
        throw std::invalid_argument("depthwise_weights_to_legacy: weights must be [1, H, W, I*M]");
    const uint32_t H = cur.info.dims[1], W = cur.info.dims[2], IM = cur.info.dims[3], I = IM / M;
    const size_t es = cur.bytes.size() / (size_t(H) * W * IM);
    ConstDesc out = cur;
    out.info.dims = {M, I, H, W};
    for_each_depthwise_weight(M, I, H, W, [&](size_t legacy, size_t current) {
        std::memcpy(&out.bytes[legacy * es], &cur.bytes[current * es], es);
    });
    if (!cur.info.scales.empty()) out.info.axis = 0;  // the scales stay indexed by output channel i*M+m
    return out;
}

flatbuffers::Offset<fb::TensorInfo> ModelWriter::write_tensor_info(flatbuffers::FlatBufferBuilder& b, const TensorDesc& t) {
    auto dims = b.CreateVector(t.dims);
    flatbuffers::Offset<flatbuffers::Vector<float>> scales;
    if (!t.scales.empty()) scales = b.CreateVector(t.scales);
    flatbuffers::Offset<flatbuffers::Vector<uint8_t>> spec;
    if (!t.specificity.empty()) {
        std::vector<uint8_t> s(t.specificity.begin(), t.specificity.end());
        spec = b.CreateVector(s);
    }
    fb::TensorInfoBuilder tb(b);
    tb.add_dimensions(dims);
    tb.add_dataType(t.dtype);
    tb.add_quantizationScale(t.scales.empty() ? t.scale : t.scales[0]);
    tb.add_quantizationOffset(t.offset);
    if (!t.scales.empty()) {
        tb.add_quantizationScales(scales);
        tb.add_quantizationDim(t.axis);
    }
    tb.add_dimensionality(t.dimensionality);
    if (!t.specificity.empty()) tb.add_dimensionSpecificity(spec);
    return tb.Finish();
}

flatbuffers::Offset<fb::ConstTensor> ModelWriter::write_const_tensor(flatbuffers::FlatBufferBuilder& b, const ConstDesc& c) {
    const fb::ConstTensorData kind = c.storage ? *c.storage : default_storage(c.info.dtype);
    const size_t width = width_of(kind);
    const size_t count = c.element_count ? *c.element_count : c.bytes.size() / width;
    std::vector<uint8_t> bytes(count * width, 0);
    std::memcpy(bytes.data(), c.bytes.data(), std::min(bytes.size(), c.bytes.size()));

    flatbuffers::Offset<void> data;
    switch (kind) {
        case fb::ConstTensorData::ByteData: {
            auto v = b.CreateVector(reinterpret_cast<const int8_t*>(bytes.data()), count);
            data = fb::CreateByteData(b, v).Union();
            break;
        }
        case fb::ConstTensorData::ShortData:
            data = fb::CreateShortData(b, b.CreateVector(elements_of<int16_t>(bytes, count))).Union();
            break;
        case fb::ConstTensorData::IntData:
            data = fb::CreateIntData(b, b.CreateVector(elements_of<int32_t>(bytes, count))).Union();
            break;
        case fb::ConstTensorData::LongData:
            data = fb::CreateLongData(b, b.CreateVector(elements_of<int64_t>(bytes, count))).Union();
            break;
        default: break;  // NONE (or a raw value): no data table, as Arm NN 20.08 writes int8 constants
    }
    auto info = write_tensor_info(b, c.info);
    return fb::CreateConstTensor(b, info, kind, data);
}

uint32_t ModelWriter::add_layer(fb::Layer union_type, fb::LayerType layer_type, const std::string& name,
                                std::vector<Port> inputs, std::vector<TensorDesc> outputs, TableFn make) {
    LayerRecord r;
    r.union_type = union_type;
    r.layer_type = layer_type;
    r.name = name;
    r.inputs = std::move(inputs);
    r.outputs = std::move(outputs);
    r.make = std::move(make);
    for (uint32_t k = 0; k < r.inputs.size(); ++k) r.input_slot_index.push_back(k);
    for (uint32_t k = 0; k < r.outputs.size(); ++k) r.output_slot_index.push_back(k);
    layers_.push_back(std::move(r));
    return uint32_t(layers_.size() - 1);
}

uint32_t ModelWriter::add_plain(fb::Layer union_type, fb::LayerType layer_type, const std::string& name,
                                std::vector<Port> inputs, std::vector<TensorDesc> outputs) {
    // Every plain layer table is {base: LayerBase} with base as its first field: build it generically.
    return add_layer(union_type, layer_type, name, std::move(inputs), std::move(outputs),
                     [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                         fb::AdditionLayerBuilder lb(b);  // same layout as every {base} table
                         lb.add_base(base);
                         return lb.Finish().Union();
                     });
}

uint32_t ModelWriter::add_input(const std::string& name, const TensorDesc& t, int32_t binding_id) {
    const uint32_t id =
        add_layer(fb::Layer::InputLayer, fb::LayerType::Input, name, {}, {t}, bindable_table(binding_id, fb::CreateInputLayer));
    layers_[id].is_input = true;
    layers_[id].binding_id = binding_id;
    return id;
}

uint32_t ModelWriter::add_output(const std::string& name, Port from, int32_t binding_id) {
    const uint32_t id = add_layer(fb::Layer::OutputLayer, fb::LayerType::Output, name, {from}, {},
                                  bindable_table(binding_id, fb::CreateOutputLayer));
    layers_[id].is_output = true;
    layers_[id].binding_id = binding_id;
    return id;
}

uint32_t ModelWriter::add_constant(const std::string& name, const ConstDesc& c) {
    return add_layer(fb::Layer::ConstantLayer, fb::LayerType::Constant, name, {}, {c.info},
                     [c](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                         auto t = write_const_tensor(b, c);
                         return fb::CreateConstantLayer(b, base, t).Union();
                     });
}

uint32_t ModelWriter::add_activation(const std::string& name, Port in, const TensorDesc& out, fb::ActivationFunction f,
                                     float a, float bv) {
    return add_layer(fb::Layer::ActivationLayer, fb::LayerType::Activation, name, {in}, {out},
                     [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                         auto d = fb::CreateActivationDescriptor(b, f, a, bv);
                         return fb::CreateActivationLayer(b, base, d).Union();
                     });
}

uint32_t ModelWriter::add_elementwise_binary(const std::string& name, Port a, Port b, const TensorDesc& out,
                                             fb::BinaryOperation op) {
    return add_layer(fb::Layer::ElementwiseBinaryLayer, fb::LayerType::ElementwiseBinary, name, {a, b}, {out},
                     [=](flatbuffers::FlatBufferBuilder& fbb, flatbuffers::Offset<fb::LayerBase> base) {
                         fbb.ForceDefaults(true);  // Add (0) stored explicitly, as Arm NN's writer does
                         fb::ElementwiseBinaryDescriptorBuilder d(fbb);
                         d.add_operation(op);
                         const auto desc = d.Finish();
                         fbb.ForceDefaults(false);
                         return fb::CreateElementwiseBinaryLayer(fbb, base, desc).Union();
                     });
}

uint32_t ModelWriter::add_elementwise_unary(const std::string& name, Port in, const TensorDesc& out, fb::UnaryOperation op) {
    return add_layer(fb::Layer::ElementwiseUnaryLayer, fb::LayerType::ElementwiseUnary, name, {in}, {out},
                     [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                         auto d = fb::CreateElementwiseUnaryDescriptor(b, op);
                         return fb::CreateElementwiseUnaryLayer(b, base, d).Union();
                     });
}

namespace {

// Shared by the weighted layers: wires weights either into the table or as Constant layers on slots 1/2.
template <class MakeTable>
uint32_t add_weighted(ModelWriter& w, fb::Layer ut, fb::LayerType lt, const std::string& name, Port in,
                      const TensorDesc& out, const ConstDesc& weights, const std::optional<ConstDesc>& bias,
                      WeightsPlacement placement, MakeTable make) {
    std::vector<Port> inputs{in};
    const bool embedded = placement == WeightsPlacement::Embedded;
    if (!embedded) {
        inputs.push_back(Port(w.add_constant(name + "/weights", weights)));
        if (bias) inputs.push_back(Port(w.add_constant(name + "/bias", *bias)));
    }
    std::optional<ConstDesc> ew, eb;
    if (embedded) {
        ew = weights;
        eb = bias;
    }
    return w.add_layer(ut, lt, name, inputs, {out},
                       [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                           flatbuffers::Offset<fb::ConstTensor> wt, bt;
                           if (ew) wt = ModelWriter::write_const_tensor(b, *ew);
                           if (eb) bt = ModelWriter::write_const_tensor(b, *eb);
                           return make(b, base, wt, bt);
                       });
}

}  // namespace

uint32_t ModelWriter::add_convolution2d(const std::string& name, Port in, const TensorDesc& out, const Conv2dParams& p,
                                        const ConstDesc& weights, const std::optional<ConstDesc>& bias,
                                        WeightsPlacement placement) {
    const bool has_bias = bias.has_value();
    return add_weighted(*this, fb::Layer::Convolution2dLayer, fb::LayerType::Convolution2d, name, in, out, weights, bias,
                        placement,
                        [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base,
                            flatbuffers::Offset<fb::ConstTensor> wt, flatbuffers::Offset<fb::ConstTensor> bt) {
                            auto d = fb::CreateConvolution2dDescriptor(b, p.pad_left, p.pad_right, p.pad_top, p.pad_bottom,
                                                                       p.stride_x, p.stride_y, p.dilation_x, p.dilation_y,
                                                                       has_bias, p.layout);
                            return fb::CreateConvolution2dLayer(b, base, d, wt, bt).Union();
                        });
}

uint32_t ModelWriter::add_depthwise_convolution2d(const std::string& name, Port in, const TensorDesc& out,
                                                  const Conv2dParams& p, const ConstDesc& weights,
                                                  const std::optional<ConstDesc>& bias, WeightsPlacement placement) {
    const bool has_bias = bias.has_value();
    return add_weighted(*this, fb::Layer::DepthwiseConvolution2dLayer, fb::LayerType::DepthwiseConvolution2d, name, in,
                        out, weights, bias, placement,
                        [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base,
                            flatbuffers::Offset<fb::ConstTensor> wt, flatbuffers::Offset<fb::ConstTensor> bt) {
                            auto d = fb::CreateDepthwiseConvolution2dDescriptor(
                                b, p.pad_left, p.pad_right, p.pad_top, p.pad_bottom, p.stride_x, p.stride_y,
                                p.dilation_x, p.dilation_y, has_bias, p.layout);
                            return fb::CreateDepthwiseConvolution2dLayer(b, base, d, wt, bt).Union();
                        });
}

uint32_t ModelWriter::add_fully_connected(const std::string& name, Port in, const TensorDesc& out,
                                          const ConstDesc& weights, const std::optional<ConstDesc>& bias,
                                          bool transpose_weights, WeightsPlacement placement) {
    const bool has_bias = bias.has_value();
    const bool constant_weights = true;
    return add_weighted(*this, fb::Layer::FullyConnectedLayer, fb::LayerType::FullyConnected, name, in, out, weights,
                        bias, placement,
                        [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base,
                            flatbuffers::Offset<fb::ConstTensor> wt, flatbuffers::Offset<fb::ConstTensor> bt) {
                            auto d = fb::CreateFullyConnectedDescriptor(b, has_bias, transpose_weights, constant_weights);
                            return fb::CreateFullyConnectedLayer(b, base, d, wt, bt).Union();
                        });
}

std::vector<uint8_t> ModelWriter::finish(const WriteOptions& o) const {
    const uint32_t n = uint32_t(layers_.size());
    auto file_index = [&](uint32_t id) -> uint32_t {
        if (id < n && layers_[id].index_override) return *layers_[id].index_override;
        return o.index_base + o.index_stride * id;
    };

    std::array<uint32_t, 3> fv{0, 0, 0};
    bool write_fv = true;
    switch (o.features) {
        case Features::Absent: write_fv = false; break;
        case Features::BindingOnly: fv = {1, 0, 0}; break;
        case Features::Current: fv = {1, 1, 1}; break;
    }
    if (o.custom_features) {
        fv = *o.custom_features;
        write_fv = true;
    }
    const bool ids_are_indices = !write_fv || fv[0] == 0;

    // Position of each layer in the written vector; a seeded Fisher-Yates shuffle when asked (mt19937's
    // output is fixed by the standard, so the file is the same on every platform).
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    if (o.shuffle) {
        std::mt19937 rng(o.seed);
        for (uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    }
    if (o.order) order = *o.order;

    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<fb::AnyLayer>> any;
    for (uint32_t id : order) {
        const LayerRecord& r = layers_[id];
        std::vector<flatbuffers::Offset<fb::InputSlot>> ins;
        for (size_t k = 0; k < r.inputs.size(); ++k) {
            const Port& p = r.inputs[k];
            const fb::Connection c(p.raw ? p.layer : file_index(p.layer), p.slot);
            const auto over = r.overridden_input ? write_tensor_info(b, *r.overridden_input) : 0;
            ins.push_back(fb::CreateInputSlot(b, r.input_slot_index[k], &c, r.overridden_input.has_value(), over));
        }
        std::vector<flatbuffers::Offset<fb::OutputSlot>> outs;
        for (size_t k = 0; k < r.outputs.size(); ++k) {
            auto ti = write_tensor_info(b, r.outputs[k]);
            outs.push_back(fb::CreateOutputSlot(b, r.output_slot_index[k], ti));
        }
        auto name = b.CreateString(r.name);
        auto in_vec = b.CreateVector(ins);
        auto out_vec = b.CreateVector(outs);
        auto base = fb::CreateLayerBase(b, file_index(id), name, r.layer_type, in_vec, out_vec);
        auto table = r.make(b, base);
        any.push_back(fb::CreateAnyLayer(b, r.union_type, table));
    }
    auto layers = b.CreateVector(any);

    std::vector<int32_t> in_ids, out_ids;
    for (uint32_t id = 0; id < n; ++id) {
        const LayerRecord& r = layers_[id];
        const int32_t v = ids_are_indices ? int32_t(file_index(id)) : r.binding_id;
        if (r.is_input) in_ids.push_back(v);
        if (r.is_output) out_ids.push_back(v);
    }
    if (o.input_ids) in_ids = *o.input_ids;
    if (o.output_ids) out_ids = *o.output_ids;
    auto in_vec = b.CreateVector(in_ids);
    auto out_vec = b.CreateVector(out_ids);
    flatbuffers::Offset<fb::FeatureCompatibilityVersions> fvt;
    if (write_fv) fvt = fb::CreateFeatureCompatibilityVersions(b, fv[0], fv[1], fv[2]);
    auto root = fb::CreateSerializedGraph(b, layers, in_vec, out_vec, fvt);
    if (o.identifier)
        fb::FinishSerializedGraphBuffer(b, root);
    else
        b.Finish(root);
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
    // Written under a temporary name and renamed, so a failure never leaves a partial file at `path`.
    const std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot create '" + tmp + "': " + std::strerror(errno));
    const size_t written = std::fwrite(bytes.data(), 1, bytes.size(), f);
    const bool ok = (std::fclose(f) == 0) && written == bytes.size();
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw std::runtime_error("cannot write '" + path + "'");
    }
}

}  // namespace npurun::modelwriter
