// How: FlatBuffers offsets only point forward (unsigned, from the referring field to a higher address), so
// new tables cannot be appended after the data they refer to. Instead a block is put *in front of* the
// original bytes: a new root table, a new layers vector and, per binary layer, new AnyLayer,
// ElementwiseBinaryLayer, LayerBase and descriptor tables. Everything they refer to (names, slot vectors,
// tensor infos, every other layer) stays where it was, now a fixed distance further on. The block's size is
// a multiple of 8, so every old object keeps its alignment; the old root and the replaced tables remain as
// unreferenced bytes.
#include "tools/modelwriter/elementwise_rewriter.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "ArmnnSchema_generated.h"

namespace npurun::modelwriter {
namespace {

namespace fb = armnnSerializer;

// A forward-only writer of FlatBuffers tables whose references are patched once every target is placed.
class PrefixWriter {
public:
    explicit PrefixWriter(size_t old_size) : old_size_(old_size) {}

    size_t pos() const { return out_.size(); }
    void align(size_t a) {
        while (out_.size() % a) out_.push_back(0);
    }
    template <class T> size_t put(T v) {
        const size_t at = out_.size();
        out_.resize(at + sizeof(T));
        std::memcpy(out_.data() + at, &v, sizeof(T));
        return at;
    }
    // A uoffset field at `at` that must point at block position `target` (known now or later).
    size_t ref_placeholder() { return put<uint32_t>(0); }
    void ref_to_block(size_t at, size_t target) { block_refs_.push_back({at, target}); }
    // A uoffset field pointing at `old_pos` in the original bytes (placed after the block).
    void ref_to_old(size_t at, size_t old_pos) { old_refs_.push_back({at, old_pos}); }

    // Field kinds of one table, in field-id order; `size` is the byte width (4 for a reference).
    struct Field {
        bool present;
        size_t size;
    };
    // Writes a vtable and the table after it; returns the table position and each field's position.
    size_t table(const std::vector<Field>& fields, std::vector<size_t>& field_pos) {
        align(4);
        const size_t vtable = pos();
        const size_t vsize = 4 + 2 * fields.size();
        for (size_t i = 0; i < vsize; ++i) out_.push_back(0);
        align(4);
        const size_t table = put<int32_t>(static_cast<int32_t>(0));  // soffset, set below
        field_pos.assign(fields.size(), 0);
        for (size_t i = 0; i < fields.size(); ++i) {
            if (!fields[i].present) continue;
            align(fields[i].size);
            field_pos[i] = pos();
            for (size_t k = 0; k < fields[i].size; ++k) out_.push_back(0);
        }
        align(4);
        const size_t tsize = pos() - table;
        const int32_t soffset = static_cast<int32_t>(table - vtable);
        std::memcpy(out_.data() + table, &soffset, 4);
        set_u16(vtable, static_cast<uint16_t>(vsize));
        set_u16(vtable + 2, static_cast<uint16_t>(tsize));
        for (size_t i = 0; i < fields.size(); ++i)
            if (fields[i].present) set_u16(vtable + 4 + 2 * i, static_cast<uint16_t>(field_pos[i] - table));
        return table;
    }
    template <class T> void set(size_t at, T v) { std::memcpy(out_.data() + at, &v, sizeof(T)); }

    std::vector<uint8_t> finish(const uint8_t* old) {
        align(8);
        const size_t block = out_.size();
        for (const auto& r : block_refs_) set<uint32_t>(r.first, static_cast<uint32_t>(r.second - r.first));
        for (const auto& r : old_refs_) set<uint32_t>(r.first, static_cast<uint32_t>(block + r.second - r.first));
        out_.insert(out_.end(), old, old + old_size_);
        return std::move(out_);
    }

private:
    void set_u16(size_t at, uint16_t v) { std::memcpy(out_.data() + at, &v, 2); }
    size_t old_size_;
    std::vector<uint8_t> out_;
    std::vector<std::pair<size_t, size_t>> block_refs_, old_refs_;
};

bool binary_op_of(fb::Layer t, fb::BinaryOperation& op) {
    switch (t) {
        case fb::Layer::AdditionLayer: op = fb::BinaryOperation::Add; return true;
        case fb::Layer::SubtractionLayer: op = fb::BinaryOperation::Sub; return true;
        case fb::Layer::MultiplicationLayer: op = fb::BinaryOperation::Mul; return true;
        case fb::Layer::DivisionLayer: op = fb::BinaryOperation::Div; return true;
        case fb::Layer::MaximumLayer: op = fb::BinaryOperation::Maximum; return true;
        case fb::Layer::MinimumLayer: op = fb::BinaryOperation::Minimum; return true;
        default: return false;
    }
}

// Every binary layer table is {base:LayerBase}: field 0.
const fb::LayerBase* binary_base(const fb::AnyLayer* l) {
    const auto* t = static_cast<const flatbuffers::Table*>(l->layer());
    return t ? t->GetPointer<const fb::LayerBase*>(4) : nullptr;
}

}  // namespace

RewriteResult rewrite_binary_layers_as_elementwise(const uint8_t* data, size_t size) {
    flatbuffers::Verifier verifier(data, size);
    if (!verifier.VerifyBuffer<fb::SerializedGraph>(nullptr))  // real files carry no "ARMN"
        throw std::runtime_error("rewrite: not a valid Arm NN file");
    const fb::SerializedGraph* g = fb::GetSerializedGraph(data);
    const auto* layers = g->layers();
    if (!layers) throw std::runtime_error("rewrite: the file has no layers");
    auto old_pos = [data](const void* p) { return static_cast<size_t>(static_cast<const uint8_t*>(p) - data); };

    PrefixWriter w(size);
    RewriteResult result;
    const size_t root_ref = w.ref_placeholder();
    // SerializedGraph: layers, inputIds, outputIds, featureVersions.
    std::vector<size_t> gf;
    const size_t graph = w.table({{true, 4}, {g->inputIds() != nullptr, 4}, {g->outputIds() != nullptr, 4},
                                  {g->featureVersions() != nullptr, 4}},
                                 gf);
    w.ref_to_block(root_ref, graph);
    if (g->inputIds()) w.ref_to_old(gf[1], old_pos(g->inputIds()));
    if (g->outputIds()) w.ref_to_old(gf[2], old_pos(g->outputIds()));
    if (g->featureVersions()) w.ref_to_old(gf[3], old_pos(g->featureVersions()));

    w.align(4);
    const size_t vec = w.put<uint32_t>(layers->size());
    w.ref_to_block(gf[0], vec);
    std::vector<size_t> slot(layers->size());
    for (uint32_t i = 0; i < layers->size(); ++i) slot[i] = w.ref_placeholder();

    for (uint32_t i = 0; i < layers->size(); ++i) {
        const fb::AnyLayer* l = layers->Get(i);
        fb::BinaryOperation op;
        const fb::LayerBase* base = binary_op_of(l->layer_type(), op) ? binary_base(l) : nullptr;
        if (!base) {
            w.ref_to_old(slot[i], old_pos(l));
            continue;
        }
        // AnyLayer: layer_type (u8), layer (offset).
        std::vector<size_t> af;
        const size_t any = w.table({{true, 1}, {true, 4}}, af);
        w.set<uint8_t>(af[0], static_cast<uint8_t>(fb::Layer::ElementwiseBinaryLayer));
        w.ref_to_block(slot[i], any);
        // ElementwiseBinaryLayer: base, descriptor.
        std::vector<size_t> lf;
        const size_t layer = w.table({{true, 4}, {true, 4}}, lf);
        w.ref_to_block(af[1], layer);
        // LayerBase: index, layerName, layerType, inputSlots, outputSlots.
        std::vector<size_t> bf;
        const size_t nb = w.table({{true, 4}, {base->layerName() != nullptr, 4}, {true, 4},
                                   {base->inputSlots() != nullptr, 4}, {base->outputSlots() != nullptr, 4}},
                                  bf);
        w.ref_to_block(lf[0], nb);
        w.set<uint32_t>(bf[0], base->index());
        if (base->layerName()) w.ref_to_old(bf[1], old_pos(base->layerName()));
        w.set<uint32_t>(bf[2], static_cast<uint32_t>(fb::LayerType::ElementwiseBinary));
        if (base->inputSlots()) w.ref_to_old(bf[3], old_pos(base->inputSlots()));
        if (base->outputSlots()) w.ref_to_old(bf[4], old_pos(base->outputSlots()));
        // ElementwiseBinaryDescriptor: operation (u8), always written (Add included) as Arm NN does.
        std::vector<size_t> df;
        const size_t desc = w.table({{true, 1}}, df);
        w.set<uint8_t>(df[0], static_cast<uint8_t>(op));
        w.ref_to_block(lf[1], desc);
        ++result.rewritten;
    }
    result.bytes = w.finish(data);
    flatbuffers::Verifier check(result.bytes.data(), result.bytes.size());
    if (!check.VerifyBuffer<fb::SerializedGraph>(nullptr)) throw std::runtime_error("rewrite: internal error, the result does not verify");
    return result;
}

}  // namespace npurun::modelwriter
