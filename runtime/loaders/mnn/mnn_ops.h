// Op-mapping functions of the MNN loader, one family per file (mnn_ops_*.cpp).
#pragma once

#include "runtime/loaders/mnn/mnn_builder.h"

namespace npurun::mnn {

void map_convolution(Builder& b, bool int8);  // Convolution, ConvolutionDepthwise, ConvInt8, DepthwiseConvInt8
void map_float_to_int8(Builder& b);
void map_int8_to_float(Builder& b);
void map_pooling(Builder& b);
void map_inner_product(Builder& b);

}  // namespace npurun::mnn

namespace npurun::mnn {
uint32_t positive_size(const Builder& b, int32_t v);

// MNN op types mapped alike: how the loader maps them (map), the IR operations they become (kinds), or,
// when map is null, why they are refused (refusal). The table behind map_op and `npurun --list-layers`.
struct MnnOpRow {
    std::vector<MNN::OpType> types;
    void (*map)(Builder&);
    std::vector<OpKind> kinds;
    const char* refusal;
};
const std::vector<MnnOpRow>& mnn_op_table();
const MnnOpRow* find_mnn_op(MNN::OpType type);  // nullptr: a type the loader does not know
}  // namespace npurun::mnn
