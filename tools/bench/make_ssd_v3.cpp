// Writes the float SSD-style network of make bench's threads table (a MobileNet-v3-style backbone with
// hard-swish and squeeze-excite, SSD box / score heads; tools/modelwriter/ssd_v3_style.h) at a given input
// size, and a fixed pseudo-random float input in [-1, 1) for it.
//
// Usage: make-ssd-v3 OUT.armnn INPUT.bin [SIZE]   (SIZE: a multiple of 16, default 320)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "tools/modelwriter/model_writer.h"
#include "tools/modelwriter/ssd_v3_style.h"

namespace mw = npurun::modelwriter;

int main(int argc, char** argv) {
    const long size = argc == 4 ? std::strtol(argv[3], nullptr, 10) : 320;
    if ((argc != 3 && argc != 4) || size < 16 || size > 4096 || size % 16 != 0) {
        std::fprintf(stderr, "usage: make-ssd-v3 OUT.armnn INPUT.bin [SIZE, a multiple of 16 in 16..4096]\n");
        return 2;
    }
    mw::write_file(argv[1], mw::ssd_mobilenet_v3_style(uint32_t(size)));
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> x(size_t(size) * size_t(size) * 3);
    for (auto& v : x) v = d(rng);
    std::vector<uint8_t> bytes(x.size() * sizeof(float));
    std::memcpy(bytes.data(), x.data(), bytes.size());
    mw::write_file(argv[2], bytes);
    return 0;
}
