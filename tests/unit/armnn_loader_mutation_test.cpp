// Deterministic robustness check: thousands of mutations of a real model file (bit flips, byte
// overwrites, truncations, splices) each either load or throw npurun::Error; nothing else may happen
// (no crash, no other exception; run under the ASan/UBSan build too). A fixed seed keeps it repeatable.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>

#include "tests/unit/armnn_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

std::vector<uint8_t> read_all(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

struct Outcome {
    int loaded = 0, rejected = 0;
};

void mutate_and_load(const std::vector<uint8_t>& original, uint32_t seed, int iterations, Outcome& out) {
    std::mt19937 rng(seed);
    for (int it = 0; it < iterations; ++it) {
        std::vector<uint8_t> m = original;
        switch (rng() % 5) {
            case 0: {  // flip a few bits
                const int flips = 1 + int(rng() % 8);
                for (int i = 0; i < flips; ++i) m[rng() % m.size()] ^= uint8_t(1u << (rng() % 8));
                break;
            }
            case 1: {  // overwrite bytes with boundary values
                const uint8_t v[] = {0x00, 0xff, 0x7f, 0x80, 0x01};
                const int n = 1 + int(rng() % 4);
                for (int i = 0; i < n; ++i) m[rng() % m.size()] = v[rng() % 5];
                break;
            }
            case 2:  // truncate
                m.resize(rng() % m.size());
                break;
            case 3: {  // overwrite a 32-bit word (offsets, lengths, indices) with a random value
                const size_t at = (rng() % (m.size() / 4)) * 4;
                const uint32_t v = rng();
                std::memcpy(&m[at], &v, 4);
                break;
            }
            default: {  // copy a run of bytes from elsewhere in the file
                const size_t len = 1 + rng() % 64;
                const size_t from = rng() % (m.size() - len), to = rng() % (m.size() - len);
                std::memmove(&m[to], &m[from], len);
                break;
            }
        }
        try {
            const Graph g = load_model_memory(m.data(), m.size(), "mutant");
            // A mutant that loads must still be a consistent graph.
            for (const Node& n : g.nodes) {
                for (TensorId t : n.inputs) ASSERT_TRUE(t == kNoTensor || t < g.tensors.size());
                for (TensorId t : n.outputs) ASSERT_LT(t, g.tensors.size());
            }
            ++out.loaded;
        } catch (const Error& e) {
            ASSERT_FALSE(std::string(e.what()).empty());
            ++out.rejected;
        } catch (const std::exception& e) {
            FAIL() << "iteration " << it << ": non-npurun exception: " << e.what();
        }
    }
}

}  // namespace

TEST(ArmnnMutation, MnistMutantsLoadOrFailCleanly) {
    const std::string root = shared_dir();
    const std::string path = root + "/models/armnn/mnist_uint8.armnn";
    const auto original = root.empty() ? std::vector<uint8_t>() : read_all(path);
    if (original.empty()) GTEST_SKIP() << "real model not found (set NPURUN_SHARED to ../shared): " << path;
    Outcome o;
    mutate_and_load(original, 20261129u, 3000, o);
    // Both outcomes must occur, or the mutations are not exercising the loader.
    EXPECT_GT(o.loaded, 0);
    EXPECT_GT(o.rejected, 0);
    std::printf("mnist mutants: %d loaded, %d rejected\n", o.loaded, o.rejected);
}

TEST(ArmnnMutation, WriterModelMutantsLoadOrFailCleanly) {
    // A small graph with most attribute kinds, independent of the shared folder.
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", mw::tensor({1, 4, 4, 2}, fb::DataType::QAsymmU8, 0.5f, 3), 0);
    auto dw = mw::const_u8({1, 3, 3, 2}, std::vector<uint8_t>(18, 7), 0.25f, 1);
    const uint32_t d = w.add_depthwise_convolution2d("dw", in, mw::tensor({1, 4, 4, 2}, fb::DataType::QAsymmU8, 1.0f, 0),
                                                     mw::Conv2dParams{1, 1, 1, 1, 1, 1, 1, 1, fb::DataLayout::NHWC},
                                                     mw::depthwise_weights_to_legacy(dw, 1), mw::const_i32({2}, {1, 2}, 0.125f));
    const uint32_t a = w.add_activation("relu6", d, mw::tensor({1, 4, 4, 2}, fb::DataType::QAsymmU8, 1.0f, 0),
                                        fb::ActivationFunction::BoundedReLu, 6.0f);
    w.add_output("out", a, 0);
    mw::WriteOptions opt;
    opt.features = mw::Features::BindingOnly;
    opt.shuffle = true;
    Outcome o;
    mutate_and_load(w.finish(opt), 7u, 2000, o);
    EXPECT_GT(o.loaded, 0);
    EXPECT_GT(o.rejected, 0);
}
