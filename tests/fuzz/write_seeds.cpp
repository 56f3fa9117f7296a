// Writes generated seed inputs for the fuzz targets into DIR (run by tests/fuzz/run-fuzz.sh before
// fuzzing): small models made with the project's model writer (every shape of file the fuzzers should
// start from, beyond ../shared/models) and the register command buffers the NPU lowering emits for
// them, for the regcmd decoder.
//   fuzz-write-seeds DIR   ->  DIR/models/*.armnn, DIR/regcmd/*.regcmd
#include <sys/stat.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "runtime/session/session_factory.h"
#include "runtime/npu/npu_backend.h"
#include "tests/reliability/huge_models.h"
#include "tools/modelwriter/model_writer.h"

namespace mw = npurun::modelwriter;
namespace fb = mw::fb;

namespace {

std::vector<uint8_t> conv_model(uint32_t c, uint32_t k, uint32_t hw, bool relu) {
    mw::ModelWriter w;
    const float s = 0.05f;
    const uint32_t x = w.add_input("x", mw::tensor({1, hw, hw, c}, fb::DataType::QAsymmU8, s, 128), 0);
    std::vector<uint8_t> wv(size_t(k) * 3 * 3 * c);
    for (size_t i = 0; i < wv.size(); ++i) wv[i] = uint8_t(i * 37 + 11);
    std::vector<int32_t> bv(k);
    for (uint32_t i = 0; i < k; ++i) bv[i] = int32_t(i * 97) - 300;
    mw::Conv2dParams p;
    p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
    const uint32_t conv = w.add_convolution2d("conv", x, mw::tensor({1, hw, hw, k}, fb::DataType::QAsymmU8, 0.1f, 120), p,
                                              mw::const_u8({k, 3, 3, c}, wv, 0.02f, 128), mw::const_i32({k}, bv, s * 0.02f));
    uint32_t last = conv;
    if (relu)
        last = w.add_activation("relu", conv, mw::tensor({1, hw, hw, k}, fb::DataType::QAsymmU8, 0.1f, 120),
                                fb::ActivationFunction::ReLu);
    w.add_output("y", last, 0);
    return w.finish();
}

std::vector<uint8_t> float_chain() {
    mw::ModelWriter w;
    const uint32_t x = w.add_input("x", mw::tensor({1, 4, 4, 3}), 0);
    const uint32_t a = w.add_elementwise_unary("abs", x, mw::tensor({1, 4, 4, 3}), fb::UnaryOperation::Abs);
    const uint32_t r = w.add_activation("relu6", a, mw::tensor({1, 4, 4, 3}), fb::ActivationFunction::BoundedReLu, 6.0f, 0.0f);
    const uint32_t fc = w.add_fully_connected("fc", r, mw::tensor({1, 2}),
                                              mw::const_f32({2, 48}, std::vector<float>(96, 0.25f)),
                                              mw::const_f32({2}, {0.5f, -0.5f}), true);
    w.add_output("y", fc, 0);
    return w.finish();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz-write-seeds DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    ::mkdir(dir.c_str(), 0755);
    ::mkdir((dir + "/models").c_str(), 0755);
    try {
        struct Seed {
            const char* name;
            std::vector<uint8_t> bytes;
        };
        const std::vector<Seed> seeds = {
            {"conv-u8-16x16", conv_model(16, 16, 8, false)},
            {"conv-u8-relu", conv_model(8, 32, 6, true)},
            {"float-chain", float_chain()},
            {"abs-1000", npurun::reliability_test::abs_model(1000)},
            {"huge-resize", npurun::reliability_test::huge_resize_model()},
        };
        for (const Seed& s : seeds) mw::write_file(dir + "/models/" + s.name + ".armnn", s.bytes);
        // The regcmd of the NPU models as the simulator session compiles them.
        for (const Seed& s : seeds) {
            if (std::string(s.name).rfind("conv", 0) != 0) continue;
            auto model = npurun::Model::load_from_memory(s.bytes.data(), s.bytes.size(), s.name);
            npurun::SessionOptions o;
            o.device = npurun::DeviceKind::Sim;
            npurun::Session session(model, o);
            npurun::npu::dump_regcmd(*npurun::SessionFactory::npu_backend(session), dir + "/regcmd-" + s.name);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz-write-seeds: %s\n", e.what());
        return 1;
    }
    return 0;
}
