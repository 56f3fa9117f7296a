// Reading a whole regular file for the tools (image files, npurun's input files): one loop that survives
// EINTR and short reads, with the failing step reported so each caller words its own message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npurun::tools {

struct WholeFileError {
    enum class Step { Open, NotRegular, Read } step = Step::Open;
    bool shrank = false;  // Read: the file got shorter than fstat said (reason is then empty)
    std::string reason;   // Open / Read: strerror(errno)
};

// The bytes of `path` into *out; false with *error set when it cannot be opened, is not a regular file,
// or a read fails.
bool read_whole_file(const std::string& path, std::vector<uint8_t>* out, WholeFileError* error);

}  // namespace npurun::tools
