// Writes the models the C API test loads (the test itself is plain C and cannot build them):
//   identity.armnn: QAsymmU8 1x6 input "pixels" (scale 0.5, zero point 10) -> output "pixels out"
//   relu.armnn:     Float32 1x5 input "x" -> ReLu -> output "scores"
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
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_capi_models: %s\n", e.what());
        return 1;
    }
    return 0;
}
