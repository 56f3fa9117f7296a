// Runs a fuzz target's LLVMFuzzerTestOneInput over files, without libFuzzer: every finding saved in
// tests/fuzz/regressions/<target>/ (and the seed models) is replayed by `meson test` in the normal gcc
// build, so a fixed finding stays fixed. Exit 0 when every input was handled (a crash or sanitizer
// report ends the process, an escaping exception is reported and fails).
//   <target>-replay FILE|DIR...
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

void collect(const std::string& path, std::vector<std::string>* out) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return;  // an absent ../shared folder: nothing to replay
    if (!S_ISDIR(st.st_mode)) {
        out->push_back(path);
        return;
    }
    DIR* d = ::opendir(path.c_str());
    if (d == nullptr) return;
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d))
        if (e->d_name[0] != '.') names.push_back(e->d_name);
    ::closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) collect(path + "/" + n, out);
}

}  // namespace

int main(int argc, char** argv) {
    if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) collect(argv[i], &files);
    size_t n = 0;
    for (const std::string& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        try {
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: exception escaped the target: %s\n", f.c_str(), e.what());
            return 1;
        }
        ++n;
    }
    std::printf("replayed %zu input(s)\n", n);
    return 0;
}
