#include "runtime/npu/segment_trace.h"

#include <string>

namespace npurun::npu {

void append_segment_trace(const Graph& g, const CompiledSegment& seg, uint32_t segment_index,
                          std::chrono::steady_clock::time_point origin, std::vector<TraceSpan>& out) {
    const CompiledSegment::RunTiming& t = seg.last_timing();
    auto us = [origin](std::chrono::steady_clock::time_point p) {
        return std::chrono::duration<double, std::micro>(p - origin).count();
    };
    const std::string track = "npu segment " + std::to_string(segment_index);
    for (const auto& c : t.conversions) {
        const TensorInfo& info = g.info(c.tensor);
        out.push_back(TraceSpan{std::string(c.input ? "convert in '" : "convert out '") + g.tensor(c.tensor).name + "'",
                                "convert", track, us(c.begin), us(c.end) - us(c.begin),
                                {{"layout", c.input ? "NHWC -> NC1HWC2" : "NC1HWC2 -> NHWC"},
                                 {"tensor", info.str()}}});
    }
    const JobStatsView stats = seg.job_stats_view();
    const auto& phases = seg.phases();
    const auto& layers = seg.layers();
    const size_t ntasks = seg.task_count();
    // Task weights: each task's share of its layer's MACs (the driver gives no per-task time).
    std::vector<double> weight(ntasks, 0.0);
    std::vector<const NpuLayerStats*> owner(ntasks, nullptr);
    for (const NpuLayerStats& l : layers)
        for (uint32_t k = 0; k < l.tasks; ++k) {
            const size_t i = size_t(l.first_task) + k;
            if (i >= ntasks) break;
            owner[i] = &l;
            weight[i] = l.tasks ? double(l.macs) / double(l.tasks) : 0.0;
        }
    for (size_t j = 0; j < t.jobs.size() && j < phases.size(); ++j) {
        const CompiledSegment::RunTiming::JobTiming& jt = t.jobs[j];
        const CompiledSegment::Phase& ph = phases[j];
        size_t job_tasks = 0;
        for (const auto& [first, end] : ph.lane_tasks) job_tasks += end - first;
        const std::string job = phases.size() > 1 ? " job " + std::to_string(j) : std::string();
        out.push_back(TraceSpan{"submit" + job, "submit", track, us(jt.submit_begin), us(jt.submit_end) - us(jt.submit_begin),
                                {{"tasks", std::to_string(job_tasks)},
                                 {"lanes", std::to_string(ph.lanes)},
                                 {"note", "inputs synced to the device, job submitted (the simulator runs it here)"}}});
        out.push_back(TraceSpan{"wait" + job, "wait", track, us(jt.submit_end), us(jt.wait_end) - us(jt.submit_end),
                                {{"note", "completion awaited, outputs synced back"},
                                 {"hw_elapse_time_ns", std::to_string(stats.hw_elapse_time_ns)}}});
        // Tasks: per lane, consecutive over the job's submit..wait, each task's share by its layer's MACs.
        const double begin = us(jt.submit_begin), span = us(jt.wait_end) - begin;
        for (size_t lane = 0; lane < ph.lane_tasks.size(); ++lane) {
            const auto [first, end] = ph.lane_tasks[lane];
            double total = 0;
            for (size_t i = first; i < end && i < ntasks; ++i) total += weight[i] > 0 ? weight[i] : 1.0;
            double at = begin;
            for (size_t i = first; i < end && i < ntasks; ++i) {
                const double share = total > 0 ? span * (weight[i] > 0 ? weight[i] : 1.0) / total : 0.0;
                const NpuLayerStats* l = owner[i];
                out.push_back(TraceSpan{"task " + std::to_string(i) + (l ? " " + l->type : std::string()), "npu task",
                                        track + " tasks core " + std::to_string(lane), at, share,
                                        {{"layer", l ? l->name : std::string("?")},
                                         {"timing", "estimated: submit..wait shared by MACs (no per-task time from the driver)"}}});
                at += share;
            }
        }
    }
}

}  // namespace npurun::npu
