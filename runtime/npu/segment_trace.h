// The timeline of one NPU segment's last run (npurun --trace): its layout conversions, the job's submit and
// wait, and its hardware tasks. Neither driver reports when each task ran, so the task spans divide the
// submit..wait interval among the tasks in proportion to their layers' MACs, and say so in their args
// (the same rule --profile uses for NPU layer times).
#pragma once

#include <chrono>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "runtime/npu/compiled_segment.h"

namespace npurun::npu {

void append_segment_trace(const Graph& g, const CompiledSegment& seg, uint32_t segment_index,
                          std::chrono::steady_clock::time_point origin, std::vector<TraceSpan>& out);

}  // namespace npurun::npu
