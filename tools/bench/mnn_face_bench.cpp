// npurun on UltraFace slim-320 (.mnn) against OpenCV dnn on the same network's ONNX original, same
// machine, same input, one thread each: median latency of each and their ratio. Not part of make test.
//   build/tools/bench/mnn-face-bench ../shared/models/mnn [iterations]
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"

namespace {

template <class F>
double median_ms(int iterations, F f) {
    std::vector<double> t;
    f();  // warm-up
    for (int i = 0; i < iterations; ++i) {
        const auto a = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: mnn-face-bench MODELS_MNN_DIR [iterations]\n");
        return 2;
    }
    const std::string dir = argv[1];
    const int iterations = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;
    std::ifstream f(dir + "/reference/ultraface/input_1.bin", std::ios::binary);
    const std::vector<char> raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (raw.size() != 3u * 240 * 320 * 4) {
        std::fprintf(stderr, "mnn-face-bench: %s/reference/ultraface/input_1.bin missing or wrong size\n", dir.c_str());
        return 2;
    }
    try {
        npurun::SessionOptions o;
        o.device = npurun::DeviceKind::Cpu;
        o.threads = 1;
        npurun::Session s(npurun::Model::load(dir + "/slim-320.mnn"), o);
        std::memcpy(s.input(0).data, raw.data(), raw.size());
        const double ours = median_ms(iterations, [&] { s.run(); });

        cv::setNumThreads(1);
        cv::dnn::Net net = cv::dnn::readNetFromONNX(dir + "/onnx/version-slim-320_simplified.onnx");
        const int dims[4] = {1, 3, 240, 320};
        cv::Mat blob(4, dims, CV_32F, const_cast<char*>(raw.data()));
        std::vector<cv::Mat> out;
        const std::vector<std::string> names = {"scores", "boxes"};
        const double theirs = median_ms(iterations, [&] {
            net.setInput(blob);
            net.forward(out, names);
        });
        std::printf("slim-320 1x3x240x320, 1 thread, median of %d runs\n", iterations);
        std::printf("  npurun (cpu, .mnn)       %9.2f ms\n", ours);
        std::printf("  OpenCV dnn (.onnx)       %9.2f ms\n", theirs);
        std::printf("  ratio npurun / OpenCV    %9.2f\n", ours / theirs);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mnn-face-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
