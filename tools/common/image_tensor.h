// An image turned into a model input tensor: layout, channel order, size, dtype.
//
// What a pixel p (0..255, after resizing) becomes, per model input dtype:
//   Float32 / Float16: (p - mean[c]) / std[c], c the channel in the model's order; default mean 127.5,
//     std 127.5 for every channel (values in [-1, 1], the MobileNet/Inception convention).
//   QAsymmU8 / QAsymmS8 / QSymmS8, without --mean/--std: the 256 pixel values are the 256 quantized
//     levels, q = p (uint8) or q = p - 128 (int8); the model's scale and zero point then say which real
//     values that is (for mobilenet_v1 quant: scale 1/128, zero point 128, so pixels cover [-1, 0.992]),
//     which is how quantized vision models are trained to be fed.
//   quantized with --mean/--std: the real value (p - mean) / std is quantized with the input's scale and
//     zero point (rounded half away from zero, saturated).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "tools/common/image.h"
#include "tools/common/image_resize.h"

namespace npurun::image {

enum class ChannelOrder { Rgb, Bgr };
enum class LayoutChoice { Auto, Nhwc, Nchw };

struct Preprocess {
    ChannelOrder order = ChannelOrder::Rgb;
    ResizeMode resize = ResizeMode::Stretch;
    LayoutChoice layout = LayoutChoice::Auto;
    std::vector<float> mean, stddev;  // empty: the default above; one value: every channel; else one per channel
};

constexpr float kDefaultMean = 127.5f, kDefaultStd = 127.5f;

// How images are fed to one model input. Built without any image, so --info can print it.
struct InputPlan {
    std::string refusal;  // non-empty: images cannot feed this input, and why
    DataLayout layout = DataLayout::NHWC;
    std::string layout_source;  // "from Convolution2d 'conv1'", "from the shape", "--layout"
    uint32_t height = 0, width = 0, channels = 0;
    TensorInfo info;
    ChannelOrder order = ChannelOrder::Rgb;
    ResizeMode resize = ResizeMode::Stretch;
    bool quant_levels = false;  // quantized, no --mean/--std: q = p + qmin
    float mean[3] = {0, 0, 0}, stddev[3] = {1, 1, 1};

    std::string describe() const;  // one line for --info
};

// The layout a model input is consumed in: the `layout` attribute of the first layer reading it that has
// one (convolutions, pooling, resize, ...), else a guess from the shape (channels 1 or 3 last: NHWC, at
// dimension 1: NCHW, else NHWC, Arm NN's default). `source` says which.
DataLayout input_layout(const Graph& g, TensorId input, std::string* source);

// Throws Error(BadInput) for a malformed --mean/--std (wrong count, zero std).
InputPlan plan_image_input(const Graph& g, const Binding& input, const Preprocess& p);
// The same for a tensor outside any model (face-detect with raw outputs); the layout must be given.
InputPlan plan_image_input(const TensorInfo& info, DataLayout layout, const std::string& layout_source,
                           const Preprocess& p);

// The tensor bytes (plan.info.num_bytes() of them). Throws Error(BadInput) when the plan refuses.
std::vector<uint8_t> image_to_tensor(const Image& img, const InputPlan& plan, const std::string& name);

const char* to_string(ChannelOrder o);
const char* to_string(ResizeMode m);

}  // namespace npurun::image
