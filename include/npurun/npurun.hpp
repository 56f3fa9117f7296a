// npurun C++ API: load a model, create a session, run it.
//
//   auto model = npurun::Model::load("mobilenet.armnn");
//   npurun::Session session(model, {});
//   std::memcpy(session.input(0).data, image, session.input(0).info.num_bytes());
//   session.run();
//   const auto& out = session.output(0);   // out.info, out.data
//
// Every failure is an npurun::Error (core/error.h) with a one-line message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

// The API's vocabulary: npurun::Error, DataType, Shape, Quantization, TensorInfo (installed with this header).
#include "core/error.h"
#include "core/load_options.h"
#include "core/types.h"

namespace npurun {

// The graph IR stays internal (ir/graph.h, not installed): the API names it only as an opaque type.
struct Graph;

class Model {
public:
    // Memory-maps and validates the file (format detected from its content); throws Error(BadModel).
    static std::shared_ptr<const Model> load(const std::string& path);
    // With loader options (input shapes for models that leave dimensions open, e.g. MNN's -1 batch).
    static std::shared_ptr<const Model> load(const std::string& path, const LoadOptions& options);
    // Same from bytes already in memory (copied); `origin` names the source in messages.
    static std::shared_ptr<const Model> load_from_memory(const void* data, size_t size, const std::string& origin);

    // The loaded graph, for npurun's own code (tools, tests); ir/graph.h defines it.
    const Graph& graph() const { return *graph_; }
    const std::string& path() const { return path_; }

    explicit Model(Graph g, std::string path);
    ~Model();
    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;

private:
    std::unique_ptr<const Graph> graph_;
    std::string path_;
};

enum class DeviceKind { Auto, Cpu, Npu, Sim };
const char* to_string(DeviceKind d);  // "auto", "cpu", "npu", "sim"

struct SessionOptions {
    DeviceKind device = DeviceKind::Auto;
    unsigned threads = 1;  // must be >= 1; the reference kernels run on the calling thread
    bool profile = false;  // collect per-layer timings
    bool fp16 = false;     // allow Float32 layers on the NPU in fp16 (lossy)
    // CPU layers: run Float32 convolutions and fully connected layers with fp16 arithmetic (lossy; twice the
    // multiply-adds per instruction). Needs an aarch64 CPU with FEAT_FP16 (RK3588's cores have it); the session
    // is refused with Error(Unsupported) elsewhere. Semantics: kernels/ref/fp16_arithmetic.h.
    bool cpu_fp16 = false;
    unsigned npu_cores = 0;  // NPU cores a large convolution may be split over: 0 = auto, 1..3
    // Upper bound on the memory the session may allocate for the model (activation arena, NPU buffers,
    // kernels' prepared state), checked before allocating: a model needing more is refused with
    // Error(Unsupported) naming the size. 0 = half of the machine's physical memory.
    uint64_t max_memory_bytes = 0;
    // NPU sessions: when the NPU fails during run() (job timeout, hardware error, device removed), run that
    // inference on the CPU instead, with the same outputs as a CPU session. The CPU executor is built at the
    // first failure (that run allocates). Always on for DeviceKind::Auto; not with dma-buf bound tensors.
    bool cpu_fallback = false;
};

// A bound model value: descriptor plus where its bytes live in the session.
struct TensorBinding {
    std::string name;
    int32_t binding_id = 0;
    TensorInfo info;
    void* data = nullptr;
};

// A model input or output bound to a dma-buf in the NPU's native layout (runtime/npu/README.md,
// "Native-layout inputs and outputs"): the NPU reads / writes it in place, run() neither converts nor copies it. NC1HWC2: element (y, x, c) of
// the [1,h,w,c] tensor (a [1,c] tensor: h = w = 1) is at byte
//     (c / c2) * plane_bytes + (y * w + x) * 16 + (c % c2) * element_size(info.dtype)
// Input channels past c up to the end of their 16-byte atom must hold 0 (or any finite value); in an
// output they hold whatever the NPU wrote.
struct NativeTensor {
    int fd = -1;           // the dma-buf (exported: owned by the session, valid while it lives)
    void* data = nullptr;  // CPU mapping of an exported buffer (nullptr for an imported one)
    uint32_t h = 0, w = 0, c = 0;
    uint32_t c2 = 0;            // channels per 16-byte atom: 16 (int8) or 8 (fp16)
    uint64_t plane_bytes = 0;   // pitch of one channel plane: h * w * 16
    uint64_t size_bytes = 0;    // bytes the buffer must hold
    // The stored values: QAsymmS8 (a QAsymmU8 tensor is stored as q - 128, zero point - 128) or Float16
    // (a Float32 tensor of an --fp16 session is stored in fp16).
    TensorInfo info;
};

struct LayerProfile {
    std::string name, type, device;
    double microseconds = 0;
    Shape output_shape;
    // NPU layers: multiply-accumulates, bytes the NPU's DMA moved (simulator counters; 0 on a board)
    // and hardware tasks (row tiles) of the layer.
    uint64_t macs = 0;
    uint64_t dma_bytes = 0;
    uint32_t tasks = 0;
    // CPU layers: most threads one of the layer's parallel loops ran on in the last run (1: not split, because
    // each thread's share would have been too small to pay for waking it; 0: no parallel loop, or not a NEON kernel).
    uint32_t threads = 0;
    // Cost model of the simulated run (drv/sim/cost_model.h; 0 on a board): MAC slots issued at the CNA's
    // atomic granularity, the layer's ideal DMA (input, weights, output once, unpadded) and the estimated
    // time of its tasks on one core at 1 GHz.
    uint64_t issued_macs = 0;
    uint64_t ideal_dma_bytes = 0;
    double estimated_us = 0;
};

// One timed span of the last profiled run() (SessionOptions::profile), for a timeline (npurun --trace).
// Times are microseconds from the start of run(), taken with the steady clock on the calling thread.
struct TraceSpan {
    std::string name;
    std::string category;  // "cpu", "npu segment", "convert", "submit", "wait", "npu task"
    std::string track;     // the timeline row: "cpu", "npu segment 0", "npu segment 0 tasks core 0"
    double start_us = 0, duration_us = 0;
    std::vector<std::pair<std::string, std::string>> args;  // details shown with the span
};

struct MemoryPlanStats {
    size_t arena_bytes = 0;        // size of the one activation arena
    size_t naive_bytes = 0;        // sum of every arena buffer's size (64-byte rounded), without sharing
    size_t num_tensors = 0;        // buffers in the arena: run-time tensors and kernel scratch areas
};

class Session {
public:
    Session(std::shared_ptr<const Model> model, const SessionOptions& options);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    const Model& model() const;
    DeviceKind device() const;  // the device actually used (Auto resolved)

    size_t num_inputs() const;
    size_t num_outputs() const;
    TensorBinding& input(size_t i);          // write input bytes into input(i).data
    const TensorBinding& output(size_t i) const;

    // Allocates nothing; deterministic. An NPU failure is Error(Runtime) (timeout, hardware error: the next
    // run may succeed) or Error(Device) (the device is gone: every later run fails the same way), unless
    // the CPU fallback (SessionOptions::cpu_fallback, device auto) runs the inference instead.
    void run();
    bool used_cpu_fallback() const;  // the last run() ran on the CPU because the NPU failed

    // Zero-copy inputs and outputs (--device npu|sim). Input i must be read only by the NPU layers of one
    // segment, output i produced by one and read by nothing else, else Error(BadInput) says why. Binding
    // happens here, not per run; afterwards run() ignores input(i).data / no longer writes output(i).data.
    // Export: the session's own NPU buffer for the tensor, as a dma-buf fd (+ its CPU mapping).
    NativeTensor export_native_input(size_t i);
    NativeTensor export_native_output(size_t i);
    // Import: the caller's dma-buf (fd stays the caller's; the buffer must outlive the binding); it must
    // hold at least the layout's size_bytes, else Error(BadInput).
    NativeTensor import_native_input(size_t i, int dmabuf_fd);
    NativeTensor import_native_output(size_t i, int dmabuf_fd);

    const std::vector<LayerProfile>& profile() const;  // filled by run() when options.profile
    std::vector<TraceSpan> trace() const;  // the last run()'s spans, when options.profile (built on call)
    MemoryPlanStats memory_stats() const;

private:
    struct Impl;
    friend struct SessionFactory;  // runtime/session: builds sessions over a given kernel set (tests, backends)
    explicit Session(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace npurun
