// npu-bench: what an NPU session costs, measured (never asserted in tests). For a model (default:
// mobilenet_v1_0.25_128_quant from ../shared) on the simulated NPU (fake rknpu kernel + functional
// simulator): model load time, compile time (placement, weight packing, regcmd generation, buffer and job
// creation), regcmd bytes and tasks per model, kernel calls per inference (SUBMIT, cache syncs, from the
// fake kernel's counters), and the wall time of an inference (simulator speed, not NPU speed).
//
// Cost model (drv/sim/cost_model.h, docs/cost-model.md): useful/issued MACs, DMA bytes over the layers' ideal,
// and the estimated NPU time: every task's cycles added, as one core at 1 GHz would run them.
//
//   npu-bench [MODEL] [--iterations N] [--npu-cores N] [--fp16]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "drv/sim/fake_kernel.h"
#include "include/npurun/npurun.hpp"
#include "runtime/session/session_factory.h"
#include "runtime/npu/npu_backend.h"
#include "tools/npu-bench/sim_cpu_ratio.h"

using namespace npurun;
using Clock = std::chrono::steady_clock;

static double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

int main(int argc, char** argv) {
    std::string path = std::string(SHARED_DIR) + "/models/armnn/mobilenet_v1_0.25_128_quant.armnn";
    unsigned iterations = 5, cores = 0;  // cores 0: the session's default (auto)
    bool fp16 = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = unsigned(std::max(1, std::atoi(argv[++i])));
        } else if (std::strcmp(argv[i], "--fp16") == 0) {
            fp16 = true;
        } else if (std::strcmp(argv[i], "--npu-cores") == 0 && i + 1 < argc) {
            cores = unsigned(std::min(3, std::max(1, std::atoi(argv[++i]))));
        } else {
            path = argv[i];
        }
    }
    try {
        const auto t0 = Clock::now();
        const auto model = Model::load(path);
        const auto t1 = Clock::now();
        SessionOptions so;
        so.device = DeviceKind::Sim;
        so.npu_cores = cores;
        so.fp16 = fp16;
        Session session(model, so);
        const auto t2 = Clock::now();
        const npu::NpuBackend* npu = SessionFactory::npu_backend(session);
        auto* kernel = dynamic_cast<npudrv::sim::FakeKernel*>(&npu->context().device.syscalls());
        size_t regcmd_bytes = 0, tasks = 0, layers = 0;
        uint32_t cores_used = 0;  // the most cores (lanes) any segment's job uses
        for (const auto& s : npu->segments()) {
            cores_used = std::max(cores_used, s->lane_count());
            regcmd_bytes += s->regcmd().size_bytes();
            tasks += s->task_count();
            layers += s->layers().size();
        }
        const TensorBinding& in = session.input(0);
        // A fixed pattern of plausible values: bytes for a quantized input, floats in [-1, 1) (a normalized
        // image's range) for a float one. (Raw pattern bytes read as floats were mostly huge, infinite or
        // NaN after the fp16 conversion, which sends both paths down their rare-value branches.)
        if (in.info.dtype == DataType::Float32) {
            float* f = static_cast<float*>(in.data);
            for (size_t i = 0; i < in.info.num_bytes() / sizeof(float); ++i) f[i] = float(uint8_t(i * 31 + 7)) / 128.0f - 1.0f;
        } else {
            for (size_t i = 0; i < in.info.num_bytes(); ++i) static_cast<uint8_t*>(in.data)[i] = uint8_t(i * 31 + 7);
        }
        session.run();  // warm-up
        const npudrv::sim::FakeKernelStats before = kernel->stats();
        const auto t3 = Clock::now();
        for (unsigned i = 0; i < iterations; ++i) session.run();
        const auto t4 = Clock::now();
        const npudrv::sim::FakeKernelStats after = kernel->stats();
        const double per = double(iterations);
        std::printf("model            %s\n", path.c_str());
        std::printf("load             %.2f ms\n", ms(t0, t1));
        std::printf("compile (sim)    %.2f ms  (placement, weight packing, regcmd, buffers, jobs)\n", ms(t1, t2));
        std::printf("NPU segments     %zu, layers %zu, tasks %zu\n", npu->segments().size(), layers, tasks);
        std::printf("regcmd bytes     %zu\n", regcmd_bytes);
        std::printf("cores used       %u\n", cores_used);
        std::printf("per inference    %.1f SUBMIT ioctls, %.1f MEM_SYNC to device, %.1f MEM_SYNC from device, %.1f hw tasks\n",
                    double(after.submits - before.submits) / per, double(after.syncs_to_device - before.syncs_to_device) / per,
                    double(after.syncs_from_device - before.syncs_from_device) / per, double(after.hw_tasks - before.hw_tasks) / per);
        std::printf("inference (sim)  %.2f ms wall per run over %u runs (functional simulator speed, not the NPU's)\n",
                    ms(t3, t4) / per, iterations);
        // Cost model (drv/sim/cost_model.h) of the last simulated inference, summed over every NPU layer.
        npudrv::sim::cost::TaskCost cost;
        uint64_t useful = 0, ideal = 0;
        for (const auto& s : npu->segments())
            for (const npu::NpuLayerStats& l : s->layers()) {
                cost += l.cost;
                useful += l.macs;
                ideal += l.ideal_dma_bytes;
            }
        std::printf("useful/issued MACs  %.2f\n", cost.issued_macs ? double(useful) / double(cost.issued_macs) : 0.0);
        std::printf("DMA bytes/ideal  %.2f\n", ideal ? double(cost.dma_bytes()) / double(ideal) : 0.0);
        std::printf("estimated NPU time  %.2f ms\n", npudrv::sim::cost::microseconds(cost.cycles()) / 1000.0);
        std::printf("  (one core at 1 GHz: %llu compute, %llu memory, %llu overhead cycles; DMA feature %llu, weight %llu, "
                    "operand %llu, output %llu bytes, ideal %llu; %llu bytes reused from CBUF)\n",
                    static_cast<unsigned long long>(cost.compute_cycles), static_cast<unsigned long long>(cost.memory_cycles),
                    static_cast<unsigned long long>(cost.overhead_cycles), static_cast<unsigned long long>(cost.feature_bytes),
                    static_cast<unsigned long long>(cost.weight_bytes), static_cast<unsigned long long>(cost.operand_bytes),
                    static_cast<unsigned long long>(cost.output_bytes), static_cast<unsigned long long>(ideal),
                    static_cast<unsigned long long>(cost.cbuf_reused_bytes));
        // Multi-core (docs/multicore.md): each core's share of those cycles, and the time along the critical
        // path, where a segment's jobs run one after another and a job takes as long as its slowest lane.
        std::vector<uint64_t> per_core(3, 0);
        uint64_t critical = 0;
        size_t jobs = 0;
        for (const auto& s : npu->segments()) {
            for (size_t c = 0; c < s->core_cycles().size() && c < per_core.size(); ++c) per_core[c] += s->core_cycles()[c];
            critical += s->critical_path_cycles();
            jobs += s->job_count();
        }
        std::printf("cycles per core  %llu / %llu / %llu\n", static_cast<unsigned long long>(per_core[0]),
                    static_cast<unsigned long long>(per_core[1]), static_cast<unsigned long long>(per_core[2]));
        std::printf("estimated NPU time on %u core(s)  %.2f ms  (%zu job(s) in sequence, each as long as its slowest lane)\n",
                    cores_used, npudrv::sim::cost::microseconds(critical) / 1000.0, jobs);
        const npubench::SimCpuTimes sc = npubench::measure_sim_cpu(model, session, iterations);
        std::printf("sim/cpu time  %.2f\n", sc.ratio());
        std::printf("  (median per inference over %u alternating runs: sim %.2f ms, cpu %.2f ms)\n", iterations, sc.sim_ms, sc.cpu_ms);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "npu-bench: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
