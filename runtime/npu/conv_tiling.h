// Tiling of one prepared convolution layer (conv_layer.h), separate from its register emission
// (conv_regcmd.h): the CBUF bank split (reference §9.2), output-row tiles when a task's input does not fit
// the data banks, K tiles when one task cannot hold all output channels, and the split over cores (lanes).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/npu/conv_layer.h"

namespace npurun::npu {

// How a layer's tasks are spread over cores (lanes of one job, drv/device.h).
enum class LaneSplit : uint8_t {
    None,     // one lane
    Rows,     // each lane computes a contiguous range of output rows (all channels)
    Kernels,  // each lane computes a contiguous range of output channels (K), reading its weight slice
};

struct ConvTiling {
    uint32_t data_banks = 0, weight_banks = 0;
    uint32_t rows_per_task = 0;  // output rows per task (the last task of a range may have fewer)
    uint32_t tasks = 0;
    // Depthwise only: input channels per task (0 = all). A depthwise layer whose input does not fit is
    // first split into channel slices, as the vendor does: the most whole weight groups (64 bytes of
    // channels) whose full input fits the data banks, at least one group; then by rows if still needed.
    uint32_t channels_per_task = 0;
    // The weights of one task fit its weight banks: a following task of the same lane with the same
    // weights finds them resident in the CBUF (CBUF_CON0.WEIGHT_REUSE, as the vendor's later row tiles
    // do) and does not fetch them again.
    bool weight_reuse = false;
    // Output channels per task (0 = all): K tiles, a multiple of the weight group (32 int8 / 16 fp16
    // kernels) so that a tile's weights are one contiguous slice of the packed weights and its output whole
    // NC1HWC2 planes. Needed when K exceeds what one task can express (DPU cube channel field, 8192), and
    // as the unit of a multi-core split by K.
    uint32_t kernels_per_task = 0;
    // Lanes (cores) the tasks are spread over; each lane's tasks are independent of the other lanes'.
    uint32_t lanes = 1;
    LaneSplit split = LaneSplit::None;
    // Order inside a lane when there are both K and row tiles: rows outer (the input rows stay resident
    // for all K tiles, CBUF_CON0.DATA_REUSE; weights fetched per row tile) or K outer (each K tile's
    // weights resident for its row tiles; input fetched per K tile), whichever moves fewer bytes.
    bool rows_outer = false;
};

// What the caller asks of the plan beyond fitting the CBUF.
struct TilingRequest {
    uint32_t lanes = 1;                 // spread the tasks over this many cores (1..3) when the layer allows
    uint32_t max_kernels_per_task = 0;  // force K tiles of at most this many kernels (0 = only when needed)
    // Split lanes by output rows even where K would move fewer bytes: so that each lane reads only the rows the
    // same lane of the layer before wrote, and both layers can share one job (compiled_segment.cpp).
    bool rows_only = false;
};

// One task of a tiled layer.
struct ConvTile {
    uint32_t lane = 0;
    uint32_t c0 = 0, ca = 0;      // input channel slice (depthwise channel tiling; else 0, L.ca)
    uint32_t k0 = 0, kt = 0;      // output channels [k0, k0+kt) (depthwise: the slice's channels)
    uint32_t oy0 = 0, rows = 0;   // output rows [oy0, oy0+rows)
    bool weight_reuse = false;    // the previous task of the lane left exactly these weights resident
    bool data_reuse = false;      // the previous task of the lane left exactly this input resident
};

// The CBUF split, the K and row tiling and the lane split; false (with a reason) when no tiling fits (a
// kernel too large for 11 weight banks, or one output row's input rows too large for the data banks
// left). CBUF accounting: data banks hold the task's input rows (all channels of its slice), weight banks
// at least one kernel; data + weight banks = 12.
bool plan_conv_tiling(const ConvLayer& L, ConvTiling* out, std::string* why, const TilingRequest& req = {});

// The output rows (LaneSplit::Rows) or kernels (Kernels; whole weight groups) lane `lane` computes:
// {first, count}. Units are dealt out evenly, the first lanes taking one more.
std::pair<uint32_t, uint32_t> lane_range(const ConvLayer& L, const ConvTiling& t, uint32_t lane);

// The tasks of a planned layer, lane by lane, in execution order (reuse flags set within each lane).
std::vector<ConvTile> conv_tiles(const ConvLayer& L, const ConvTiling& t);

// Input rows [iy0, iy1) a task of output rows [oy0, oy0+rows) reads, and its top padding.
struct InputWindow {
    uint32_t iy0, iy1, pad_top;
};
InputWindow input_window(const ConvLayer& L, uint32_t oy0, uint32_t rows);

}  // namespace npurun::npu
