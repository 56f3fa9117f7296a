// npurun C++ API: load a model, create a session, run it.
//
//   auto model = npurun::Model::load("mobilenet.armnn");
//   npurun::Session session(model, {});
//   std::memcpy(session.input(0).data, image, session.input(0).info.num_bytes());
//   session.run();
//   const auto& out = session.output(0);   // out.info, out.data
//
// Every failure is an npurun::Error (runtime/graph/error.h) with a one-line message.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "runtime/graph/error.h"
#include "runtime/graph/graph.h"

namespace npurun {

class Model {
public:
    // Memory-maps and validates the file (format detected from its content); throws Error(BadModel).
    static std::shared_ptr<const Model> load(const std::string& path);
    // Same from bytes already in memory (copied); `origin` names the source in messages.
    static std::shared_ptr<const Model> load_from_memory(const void* data, size_t size, const std::string& origin);

    const Graph& graph() const { return graph_; }
    const std::string& path() const { return path_; }

    explicit Model(Graph g, std::string path) : graph_(std::move(g)), path_(std::move(path)) {}

private:
    Graph graph_;
    std::string path_;
};

enum class DeviceKind { Auto, Cpu, Npu, Sim };
const char* to_string(DeviceKind d);  // "auto", "cpu", "npu", "sim"

struct SessionOptions {
    DeviceKind device = DeviceKind::Auto;
    unsigned threads = 1;  // must be >= 1; the reference kernels run on the calling thread
    bool profile = false;  // collect per-layer timings
    bool fp16 = false;     // allow Float32 layers on the NPU in fp16 (lossy)
    unsigned npu_cores = 0;  // NPU cores a large convolution may be split over: 0 = auto, 1..3
};

// A bound model value: descriptor plus where its bytes live in the session.
struct TensorBinding {
    std::string name;
    int32_t binding_id = 0;
    TensorInfo info;
    void* data = nullptr;
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

    void run();  // allocates nothing; deterministic

    const std::vector<LayerProfile>& profile() const;  // filled by run() when options.profile
    MemoryPlanStats memory_stats() const;

private:
    struct Impl;
    friend struct SessionFactory;  // runtime/exec: builds sessions over a given kernel set (tests, backends)
    explicit Session(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace npurun
