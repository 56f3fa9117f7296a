// npurun-make-example: writes the bundled example (an edge-detection network with hand-set Sobel weights
// and a generated test image) and shows the result as ASCII art.
//
//   npurun-make-example DIR          writes DIR/edges.armnn and DIR/image.bin
//   npurun-make-example --show DIR   prints DIR/image.bin next to DIR/edges.out.bin (written by
//                                    `npurun DIR/edges.armnn DIR/image.bin -o DIR/edges.out.bin`)
//   npurun-make-example --show DIR cpu=edges.out.bin sim=edges.sim.bin
//                                    the same with several outputs side by side (make run: CPU and NPU)
//
// Exit codes follow npurun's: 0 success, 2 bad arguments or input files, 1 I/O failure.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "tools/modelwriter/model_writer.h"

namespace {

namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

constexpr uint32_t kSize = 64;  // image is kSize x kSize, one channel

// Sobel kernels, [row][col]: x responds to vertical edges, y to horizontal ones.
constexpr float kSobelX[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
constexpr float kSobelY[3][3] = {{-1, -2, -1}, {0, 0, 0}, {1, 2, 1}};

// Input 1x64x64x1 -> Conv2d 3x3 (Sobel x, Sobel y; pad 1) -> Abs -> Conv2d 1x1 (sum of both channels)
// -> BoundedReLu [0, 1] -> output 1x64x64x1. All float32, NHWC.
std::vector<uint8_t> edge_network() {
    mw::ModelWriter w;
    const auto image = mw::tensor({1, kSize, kSize, 1});
    const auto two = mw::tensor({1, kSize, kSize, 2});
    const uint32_t in = w.add_input("image", image, 0);

    // NHWC convolution weights are [O, H, W, I].
    std::vector<float> sobel;
    for (const auto* k : {kSobelX, kSobelY})
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) sobel.push_back(k[r][c]);
    mw::Conv2dParams p;
    p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
    const uint32_t grad = w.add_convolution2d("sobel", in, two, p, mw::const_f32({2, 3, 3, 1}, sobel),
                                              mw::const_f32({2}, {0.0f, 0.0f}));
    const uint32_t mag = w.add_elementwise_unary("abs", grad, two, fb::UnaryOperation::Abs);
    const uint32_t sum = w.add_convolution2d("sum", mag, image, mw::Conv2dParams{},
                                             mw::const_f32({1, 1, 1, 2}, {1.0f, 1.0f}), std::nullopt);
    const uint32_t clamp = w.add_activation("clamp", sum, image, fb::ActivationFunction::BoundedReLu, 1.0f, 0.0f);
    w.add_output("edges", clamp, 0);
    return w.finish();
}

// A bright filled circle and a dimmer rectangle on a dark background, values in [0, 1].
std::vector<float> test_image() {
    std::vector<float> img(kSize * kSize, 0.0f);
    for (uint32_t y = 0; y < kSize; ++y)
        for (uint32_t x = 0; x < kSize; ++x) {
            const float dx = float(x) - 20.0f, dy = float(y) - 22.0f;
            if (dx * dx + dy * dy <= 13.0f * 13.0f) img[y * kSize + x] = 0.95f;
            if (x >= 38 && x <= 57 && y >= 30 && y <= 55) img[y * kSize + x] = 0.7f;
        }
    return img;
}

bool read_floats(const std::string& path, std::vector<float>& out, std::string& why) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        why = "cannot open '" + path + "'";
        return false;
    }
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (bytes.size() != size_t(kSize) * kSize * sizeof(float)) {
        why = "'" + path + "' has " + std::to_string(bytes.size()) + " bytes, expected " +
              std::to_string(size_t(kSize) * kSize * sizeof(float)) + " (64x64 float32)";
        return false;
    }
    out.resize(size_t(kSize) * kSize);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return true;
}

// One character per 2x2 block, darkest to brightest.
std::string ascii_row(const std::vector<float>& img, uint32_t y) {
    static const char ramp[] = " .:-=+*#%@";
    std::string s;
    for (uint32_t x = 0; x < kSize; x += 2) {
        float v = 0;
        for (uint32_t dy = 0; dy < 2; ++dy)
            for (uint32_t dx = 0; dx < 2; ++dx) v += img[(y + dy) * kSize + x + dx];
        v = std::fmin(std::fmax(v / 4.0f, 0.0f), 1.0f);
        if (std::isnan(v)) v = 0;
        s += ramp[int(v * 9.0f + 0.5f)];
    }
    return s;
}

// `outputs`: (label, file in DIR) pairs shown side by side after the input; by default the one
// npurun output edges.out.bin. With two or more, the largest difference to the first is printed too.
int show(const std::string& dir, std::vector<std::pair<std::string, std::string>> outputs) {
    if (outputs.empty()) outputs.push_back({"edges (Sobel |gx|+|gy|, clamped to 1)", "edges.out.bin"});
    std::vector<float> image;
    std::string why;
    if (!read_floats(dir + "/image.bin", image, why)) {
        std::cerr << "npurun-make-example: " << why << " (run `npurun-make-example " << dir << "` first)\n";
        return 2;
    }
    std::vector<std::vector<float>> edges(outputs.size());
    for (size_t i = 0; i < outputs.size(); ++i) {
        if (!read_floats(dir + "/" + outputs[i].second, edges[i], why)) {
            std::cerr << "npurun-make-example: " << why << " (run `npurun " << dir << "/edges.armnn " << dir
                      << "/image.bin -o " << dir << "/" << outputs[i].second << "` first)\n";
            return 2;
        }
    }
    auto column = [](std::string t) {
        t.resize(kSize / 2, ' ');
        return t;
    };
    std::cout << column("input image");
    for (size_t i = 0; i < outputs.size(); ++i) std::cout << " | " << (i + 1 < outputs.size() ? column(outputs[i].first) : outputs[i].first);
    std::cout << '\n';
    for (uint32_t y = 0; y < kSize; y += 2) {
        std::cout << ascii_row(image, y);
        for (const auto& e : edges) std::cout << " | " << ascii_row(e, y);
        std::cout << '\n';
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
        size_t edge_pixels = 0;
        for (float v : edges[i]) edge_pixels += v > 0.5f;
        std::cout << (outputs.size() > 1 ? outputs[i].first + ": " : std::string()) << edge_pixels << " of " << kSize * kSize
                  << " pixels are edges (> 0.5)";
        if (i > 0) {
            float worst = 0;
            for (size_t k = 0; k < edges[i].size(); ++k) worst = std::fmax(worst, std::fabs(edges[i][k] - edges[0][k]));
            std::cout << "; largest difference to " << outputs[0].first << ": " << worst;
        }
        std::cout << '\n';
    }
    return 0;
}

int make(const std::string& dir) {
    try {
        mw::write_file(dir + "/edges.armnn", edge_network());
        const std::vector<float> img = test_image();
        std::vector<uint8_t> bytes(img.size() * sizeof(float));
        std::memcpy(bytes.data(), img.data(), bytes.size());
        mw::write_file(dir + "/image.bin", bytes);
    } catch (const std::exception& e) {
        std::cerr << "npurun-make-example: " << e.what() << '\n';
        return 1;
    }
    std::cout << "wrote " << dir << "/edges.armnn (Sobel edge detector) and " << dir << "/image.bin (64x64 float32)\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string usage = "usage: npurun-make-example DIR | npurun-make-example --show DIR [LABEL=FILE...]";
    if (argc == 2 && std::string(argv[1]).rfind("-", 0) != 0) return make(argv[1]);
    if (argc >= 3 && std::string(argv[1]) == "--show") {
        std::vector<std::pair<std::string, std::string>> outputs;
        for (int i = 3; i < argc; ++i) {
            const std::string a = argv[i];
            const size_t eq = a.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == a.size() || a.find('/') != std::string::npos) {
                std::cerr << "npurun-make-example: '" << a << "' is not LABEL=FILE (FILE in DIR)\n" << usage << '\n';
                return 2;
            }
            outputs.push_back({a.substr(0, eq), a.substr(eq + 1)});
        }
        return show(argv[2], outputs);
    }
    std::cerr << usage << '\n';
    return 2;
}
