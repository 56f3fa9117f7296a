// Arm NN 20.08 as the oracle: serialize a network, read the file back with Arm NN's own deserializer,
// and run what it read on the CpuRef backend. Running the deserialized network (not the one we built)
// means the expected values are what Arm NN computes from the very file npurun will load.
#pragma once

#include <armnn/ArmNN.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace conformance {

using Bytes = std::vector<uint8_t>;

// Thrown when Arm NN cannot build, serialize, read back or run a case; the case is recorded as
// skipped with this message (never silently dropped).
struct CaseSkipped : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Binding {
    std::string name;
    armnn::LayerBindingId id = 0;
    armnn::TensorInfo info;
};

struct Bindings {
    std::vector<Binding> inputs, outputs;  // each sorted by binding id
};

Bytes serialize(const armnn::INetwork& net);
armnn::INetworkPtr deserialize(const Bytes& file);  // throws CaseSkipped
Bindings bindings_of(const armnn::INetwork& net);    // Input/Output layers found by visiting the graph

class CpuRefRunner {
public:
    // `backend_path`: folder of dynamic backends (empty: Arm NN's built-in search path). Throws
    // std::runtime_error when CpuRef is not available: without the oracle there is nothing to generate.
    explicit CpuRefRunner(const std::string& backend_path);
    // Optimizes for CpuRef, loads, runs with `inputs` (one buffer per `bindings.inputs` entry) and
    // returns one buffer per output. Throws CaseSkipped when CpuRef rejects the network.
    std::vector<Bytes> run(const armnn::INetwork& net, const Bindings& bindings, const std::vector<Bytes>& inputs);

private:
    armnn::IRuntimePtr runtime_;
};

}  // namespace conformance
