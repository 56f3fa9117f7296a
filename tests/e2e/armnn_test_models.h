// Small .armnn models built in code for the CLI end-to-end tests, written with the FlatBuffers builders
// generated from schemas/ArmnnSchema.fbs exactly as a current Arm NN serializer lays them out
// (featureVersions {1,1,1}, inputIds/outputIds holding binding ids).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npurun::e2e {

struct TensorSpec {
    std::vector<uint32_t> dims;
    int8_t dtype = 1;  // armnnSerializer::DataType: 1 Float32, 6 QAsymmU8, 3 Signed32
    float scale = 1.0f;
    int32_t offset = 0;
};

class ArmnnModel {
public:
    // Each returns the new layer's index; layers are connected through output slot 0 of `source`.
    uint32_t input(const std::string& name, int32_t binding_id, const TensorSpec& t);
    uint32_t relu(const std::string& name, uint32_t source, const TensorSpec& t);
    uint32_t addition(const std::string& name, uint32_t a, uint32_t b, const TensorSpec& t);
    uint32_t output(const std::string& name, int32_t binding_id, uint32_t source);

    std::vector<uint8_t> serialize() const;
    void write(const std::string& path) const;

private:
    enum class Kind { Input, Output, Relu, Addition };
    struct Layer {
        Kind kind;
        std::string name;
        int32_t binding_id = 0;
        std::vector<uint32_t> sources;
        TensorSpec out;
        bool has_output = true;
    };
    std::vector<Layer> layers_;
};

}  // namespace npurun::e2e
