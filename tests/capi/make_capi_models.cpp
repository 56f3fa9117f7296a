// Writes the models the C API test loads (the test itself is plain C and cannot build them):
//   identity.armnn: QAsymmU8 1x6 input "pixels" (scale 0.5, zero point 10) -> output "pixels out"
//   relu.armnn:     Float32 1x5 input "x" -> ReLu -> output "scores"
//   add.armnn:      QAsymmU8 1x4x4x16 inputs "a", "b" (scale 0.25, zero point 128) -> Addition -> "sum"
//                   (one int8 NPU layer: what the native-tensor (dma-buf) functions bind to)
//   add_float.armnn: the same with Float32 1x4x4x16 inputs: on the NPU only in fp16 (the extended options)
#include <cstdio>
#include <exception>
#include <string>

#include "tests/e2e/armnn_test_models.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_capi_models DIR\n");
        return 2;
    }
    try {
        const std::string dir = argv[1];
        npurun::e2e::ArmnnModel identity;
        identity.output("pixels out", 0, identity.input("pixels", 0, {{1, 6}, 6, 0.5f, 10}));
        identity.write(dir + "/identity.armnn");
        npurun::e2e::ArmnnModel relu;
        relu.output("scores", 0, relu.relu("relu", relu.input("x", 0, {{1, 5}}), {{1, 5}}));
        relu.write(dir + "/relu.armnn");
        npurun::e2e::ArmnnModel add;
        const npurun::e2e::TensorSpec q{{1, 4, 4, 16}, 6, 0.25f, 128};
        add.output("sum", 0, add.addition("add", add.input("a", 0, q), add.input("b", 1, q), q));
        add.write(dir + "/add.armnn");
        npurun::e2e::ArmnnModel add_float;
        const npurun::e2e::TensorSpec f{{1, 4, 4, 16}};
        add_float.output("sum", 0,
                         add_float.addition("add", add_float.input("a", 0, f), add_float.input("b", 1, f), f));
        add_float.write(dir + "/add_float.armnn");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_capi_models: %s\n", e.what());
        return 1;
    }
    return 0;
}
