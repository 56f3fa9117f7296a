// A program outside the project, built only from the staged install (headers found through
// `pkg-config --cflags npurun`, library through `pkg-config --libs npurun`). It includes the public
// C++ header, so any header that the public one needs but the install left out breaks the compile, and
// it calls into the library, so a missing or mislinked libnpurun breaks the link or the run.
#include <npurun/npurun.hpp>

#include <cstdio>
#include <cstring>

int main() {
    // Functions with a body in the library (core/types.cpp), not inline in a header.
    const char* name = npurun::to_string(npurun::DataType::Float32);
    const size_t size = npurun::element_size(npurun::DataType::Float32);
    if (name == nullptr || std::strcmp(name, "Float32") != 0 || size != 4) {
        std::fprintf(stderr, "consumer: unexpected answers from libnpurun: '%s', %zu\n", name ? name : "(null)", size);
        return 1;
    }
    // An npurun::Error thrown inside the library is caught here by its type: the exception's type
    // information has to be the same on both sides of the shared-library boundary.
    try {
        npurun::Model::load("/nonexistent/npurun-consumer-model.armnn");
        std::fprintf(stderr, "consumer: loading a missing file did not fail\n");
        return 1;
    } catch (const npurun::Error& e) {
        if (std::strlen(e.what()) == 0) {
            std::fprintf(stderr, "consumer: empty error message\n");
            return 1;
        }
    }
    std::printf("npurun consumer ok\n");
    return 0;
}
