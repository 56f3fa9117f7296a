// Logic and shape-query layers of issue 3: ArgMinMax, Comparison (all six operations), Fill, Rank, and
// the control-flow pair Merge / Switch.
//
// Arm NN 20.08 has no LogicalBinary or LogicalNot (both arrived in 20.11: no INetwork entry point, no
// UnaryOperation::LogicalNot), so it cannot give a reference for them; they are not listed here.
#include <set>
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/index_types.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::DataType;
using armnn::TensorShape;

TensorShape logic_shape_of(const std::vector<unsigned>& dims) {
    return TensorShape(static_cast<unsigned>(dims.size()), dims.data());
}

bool is_float(const TypeVariant& v) { return v.type == DataType::Float32 || v.type == DataType::Float16; }

// ---- ArgMinMax ------------------------------------------------------------------------------------

void add_arg_min_max(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        std::vector<unsigned> in;
        int axis;
        bool ties;  // draw from a narrow range so that equal values (first index wins) are frequent
    };
    const P params[] = {
        {"4d_axis3", {1, 3, 4, 5}, 3, false},
        {"4d_axis1", {2, 3, 4, 2}, 1, false},
        {"4d_axis_neg1", {1, 2, 3, 6}, -1, false},
        {"3d_axis0", {4, 3, 2}, 0, false},
        {"3d_axis2_ties", {2, 3, 6}, 2, true},
        {"2d_axis0_ties", {5, 4}, 0, true},
        {"1d_axis0", {7}, 0, false},
    };
    // Signed32 and Boolean inputs: one case each (CpuRef's answer documents support or refusal).
    for (const TypeVariant& v : all_data_types())
        for (armnn::ArgMinMaxFunction f : {armnn::ArgMinMaxFunction::Min, armnn::ArgMinMaxFunction::Max})
            for (size_t i = 0; i < std::size(params); ++i) {
                const P p = params[i];
                if ((v.type == DataType::Boolean) && i > 0) continue;
                const bool is_min = f == armnn::ArgMinMaxFunction::Min;
                const std::string name = std::string(is_min ? "arg_min_" : "arg_max_") + v.tag + "_" + p.tag;
                out.push_back(exact(make_case(name, "ArgMinMax", v, [v, p, f](Net& net) {
                    const unsigned rank = static_cast<unsigned>(p.in.size());
                    const unsigned axis = static_cast<unsigned>(p.axis < 0 ? p.axis + static_cast<int>(rank) : p.axis);
                    std::vector<unsigned> od;
                    for (unsigned d = 0; d < rank; ++d)
                        if (d != axis) od.push_back(p.in[d]);
                    if (od.empty()) od.push_back(1);
                    ValueRange range;
                    if (p.ties) range = v.type == DataType::Signed32 ? ValueRange{-2, 2} : ValueRange{-0.1f, 0.1f};
                    // Float ties: the generator's floats never repeat, so only the integer types tie here.
                    auto& in =
                        net.input(ranged_info(v, logic_shape_of(p.in), -3, 3), is_float(v) ? ValueRange{} : range);
                    armnn::ArgMinMaxDescriptor d;
                    d.m_Function = f;
                    d.m_Axis = p.axis;
                    net.output(net.wire(net.net().AddArgMinMaxLayer(d, "arg_min_max"), {&in},
                                        armnn::TensorInfo(logic_shape_of(od), DataType::Signed32)));
                })));
            }
}

// ---- Comparison -----------------------------------------------------------------------------------

struct ComparisonOp {
    armnn::ComparisonOperation op;
    const char* tag;
};

const ComparisonOp kComparisons[] = {
    {armnn::ComparisonOperation::Equal, "equal"},
    {armnn::ComparisonOperation::Greater, "greater"},
    {armnn::ComparisonOperation::GreaterOrEqual, "greater_or_equal"},
    {armnn::ComparisonOperation::Less, "less"},
    {armnn::ComparisonOperation::LessOrEqual, "less_or_equal"},
    {armnn::ComparisonOperation::NotEqual, "not_equal"},
};

struct ComparisonShapes {
    const char* tag;
    std::vector<unsigned> a, b;
};

const ComparisonShapes kComparisonShapes[] = {
    {"same_1x4x5x3", {1, 4, 5, 3}, {1, 4, 5, 3}},
    {"bcast_both", {2, 1, 5, 1}, {1, 4, 1, 3}},
    {"bcast_2d", {3, 1}, {1, 6}},
    {"bcast_scalar_like_second", {2, 3, 4}, {1, 1, 1}},
};

TensorShape broadcast(const std::vector<unsigned>& a, const std::vector<unsigned>& b) {
    std::vector<unsigned> d(a.size());
    for (size_t i = 0; i < a.size(); ++i) d[i] = std::max(a[i], b[i]);
    return logic_shape_of(d);
}

// Comparison inputs. Ties matter (Equal, GreaterOrEqual, LessOrEqual differ from their strict forms
// only there), so:
// - quantized: the second side has twice the first's scale, so the two sides need rescaling; on every
//   other shape both are drawn from comparison_tie_range (frequent exact ties), on the rest from
//   their whole quantized ranges;
// - float: each side goes through Floor (an already-verified layer), giving small integers that
//   repeat; the "_raw" variants compare the continuous values directly.
CaseSpec comparison_case(const TypeVariant& v, const ComparisonOp& op, const ComparisonShapes& s, bool raw, bool ties) {
    const std::string name =
        std::string("comparison_") + op.tag + "_" + v.tag + "_" + s.tag + (raw ? "_raw" : "");
    CaseSpec c = exact(make_case(name, "Comparison", v, [v, op, s, raw, ties](Net& net) {
        const ValueRange narrow = ties ? comparison_tie_range(v) : ValueRange{};
        armnn::IOutputSlot* a;
        armnn::IOutputSlot* b;
        if (is_float(v)) {
            a = &net.input(v.info(logic_shape_of(s.a), 0, 0), {-3, 3});
            b = &net.input(v.info(logic_shape_of(s.b), 0, 0), {-3, 3});
            if (!raw) {
                a = &net.wire(net.net().AddFloorLayer("floor_a"), {a}, v.info(logic_shape_of(s.a), 0, 0));
                b = &net.wire(net.net().AddFloorLayer("floor_b"), {b}, v.info(logic_shape_of(s.b), 0, 0));
            }
        } else {
            // Signed32 values are their own codes; Boolean inputs take the whole {0, 1} range.
            const ValueRange r = v.type == DataType::Signed32 ? ValueRange{-3, 3}
                                 : v.type == DataType::Boolean ? ValueRange{}
                                                               : narrow;
            a = &net.input(ranged_info(v, logic_shape_of(s.a), -2, 2), r);
            b = &net.input(ranged_info(v, logic_shape_of(s.b), -4, 4), r);
        }
        auto* layer = net.net().AddComparisonLayer(armnn::ComparisonDescriptor(op.op), "comparison");
        net.output(net.wire(layer, {a, b}, armnn::TensorInfo(broadcast(s.a, s.b), DataType::Boolean)));
    }));
    c.covers = std::string("Comparison/") + armnn::GetComparisonOperationAsCString(op.op);
    return c;
}

void add_comparison(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : all_data_types())
        for (const ComparisonOp& op : kComparisons)
            for (size_t i = 0; i < std::size(kComparisonShapes); ++i) {
                out.push_back(comparison_case(v, op, kComparisonShapes[i], false, i % 2 == 0));
                if (v.type == DataType::Float32 && i < 2) out.push_back(comparison_case(v, op, kComparisonShapes[i], true, false));
            }
}

// ---- Fill -----------------------------------------------------------------------------------------

void add_fill(std::vector<CaseSpec>& out) {
    // The shape operand is a network input here; every dimension is equal so that a random draw from
    // the one-value range [d, d] is the right shape.
    struct P {
        const char* tag;
        unsigned rank, dim;
        float value;
    };
    const P params[] = {
        {"2x2_value1p5", 2, 2, 1.5f},
        {"3x3x3_value_neg0p25", 3, 3, -0.25f},
        {"4_value7", 1, 4, 7.0f},
        {"2x2x2x2_value0", 4, 2, 0.0f},
    };
    for (const TypeVariant& v : all_data_types())
        for (size_t i = 0; i < std::size(params); ++i) {
            const P p = params[i];
            if (!(is_float(v) || v.type == DataType::Signed32) && i > 0) continue;
            CaseSpec c = make_case(std::string("fill_") + v.tag + "_" + p.tag, "Fill", v, [v, p](Net& net) {
                const armnn::TensorInfo dims_info(TensorShape({p.rank}), DataType::Signed32);
                const float d = static_cast<float>(p.dim);
                auto& dims = net.input(dims_info, {d, d});
                const std::vector<unsigned> od(p.rank, p.dim);
                auto* layer = net.net().AddFillLayer(armnn::FillDescriptor(p.value), "fill");
                net.output(net.wire(layer, {&dims}, ranged_info(v, logic_shape_of(od), -8, 8)));
            });
            // The 20.08 serializer writes the fill value (checked with flatc --json), but the 20.08
            // deserializer's ParseFill builds FillDescriptor(1.0f) whatever the file says (fixed upstream:
            // later readers take descriptor.value). The file's value is the layer's meaning, so CpuRef runs
            // the network as built, with the value the file carries.
            c.oracle_from_built = true;
            c.note = "20.08 deserializer ignores the Fill value (uses 1.0); CpuRef ran the network as built";
            out.push_back(v.type == DataType::Signed32 ? exact(c) : c);
        }
}

// ---- Rank -----------------------------------------------------------------------------------------

void add_rank(std::vector<CaseSpec>& out) {
    const std::vector<unsigned> shapes[] = {{1, 2, 3, 4}, {5}, {2, 3}, {2, 1, 3}};
    for (const TypeVariant& v : all_data_types())
        for (size_t i = 0; i < std::size(shapes); ++i) {
            if (v.type != DataType::Float32 && i > 0) continue;  // Rank ignores the values: one case per type
            const std::vector<unsigned> in = shapes[i];
            const std::string name = std::string("rank_") + v.tag + "_rank" + std::to_string(in.size()) + "_" + std::to_string(i);
            out.push_back(exact(make_case(name, "Rank", v, [v, in](Net& net) {
                auto& x = net.input(ranged_info(v, logic_shape_of(in), -3, 3));
                // Arm NN infers a scalar (Dimensionality::Scalar), which the file stores as dimensionality 2.
                const TensorShape scalar(armnn::Dimensionality::Scalar);
                net.output(net.wire(net.net().AddRankLayer("rank"), {&x}, armnn::TensorInfo(scalar, DataType::Signed32)));
            })));
        }
}

// ---- Merge / Switch -------------------------------------------------------------------------------

void add_merge_switch(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : {kF32, kU8}) {
        out.push_back(make_case(std::string("switch_") + v.tag + "_1x2x3", "Switch", v, [v](Net& net) {
            const TensorShape shape({1, 2, 3});
            auto& data = net.input(ranged_info(v, shape, -3, 3));
            // Arm NN 20.08 infers output k of Switch from input k, so the predicate has the data's shape.
            auto& pred = net.input(armnn::TensorInfo(shape, DataType::Boolean));
            auto* layer = net.net().AddSwitchLayer("switch");
            data.Connect(layer->GetInputSlot(0));
            pred.Connect(layer->GetInputSlot(1));
            for (unsigned k = 0; k < 2; ++k) {
                layer->GetOutputSlot(k).SetTensorInfo(ranged_info(v, shape, -3, 3));
                net.output(layer->GetOutputSlot(k));
            }
        }));
        out.push_back(make_case(std::string("merge_") + v.tag + "_1x2x3", "Merge", v, [v](Net& net) {
            const TensorShape shape({1, 2, 3});
            auto& a = net.input(ranged_info(v, shape, -3, 3));
            auto& b = net.input(ranged_info(v, shape, -3, 3));
            net.output(net.wire(net.net().AddMergeLayer("merge"), {&a, &b}, ranged_info(v, shape, -3, 3)));
        }));
    }
}

}  // namespace

void add_logic_cases(std::vector<CaseSpec>& out) {
    add_arg_min_max(out);
    add_comparison(out);
    add_fill(out);
    add_rank(out);
    add_merge_switch(out);
}

}  // namespace conformance
