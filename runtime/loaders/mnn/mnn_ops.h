// Op-mapping functions of the MNN loader, one family per file (mnn_ops_*.cpp).
#pragma once

#include "runtime/loaders/mnn/mnn_builder.h"

namespace npurun::mnn {

void map_convolution(Builder& b, bool int8);  // Convolution, ConvolutionDepthwise, ConvInt8, DepthwiseConvInt8
void map_float_to_int8(Builder& b);
void map_int8_to_float(Builder& b);
void map_pooling(Builder& b);
void map_inner_product(Builder& b);
void map_prior_box(Builder& b);  // folded into a constant (mnn_ops_prior_box.cpp)
void map_deconvolution(Builder& b);  // Deconvolution, DeconvolutionDepthwise (mnn_ops_deconv.cpp)
void map_eltwise_int8(Builder& b);  // mnn_ops_eltwise_int8.cpp
void map_detection_output(Builder& b);  // mnn_ops_detection.cpp
void map_lstm(Builder& b);  // mnn_ops_lstm.cpp
void map_roi_pooling(Builder& b);  // mnn_ops_roi_pooling.cpp

// Emits a convolution's fused activation after y (float: ReLU / ReLU6; int8: also the [-127, 127] clamp).
TensorId fused_activation(Builder& b, TensorId y, bool relu, bool relu6, bool int8);

}  // namespace npurun::mnn

namespace npurun::mnn {
uint32_t positive_size(const Builder& b, int32_t v);

// MNN op types mapped alike: how the loader maps them (map), the IR operations they become (kinds), or,
// when map is null, why they are refused (refusal). The table behind map_op and `npurun --list-layers`.
struct MnnOpRow {
    std::vector<MNN::OpType> types;
    void (*map)(Builder&);
    std::vector<OpKind> kinds;
    const char* refusal = nullptr;
};
const std::vector<MnnOpRow>& mnn_op_table();
const MnnOpRow* find_mnn_op(MNN::OpType type);  // nullptr: a type the loader does not know
}  // namespace npurun::mnn
