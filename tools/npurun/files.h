// File I/O of the npurun tool: reading model inputs (raw or .npy) and writing outputs atomically.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"

namespace npurun::cli {

// Reads INPUT `index` for the model input `expected`/`name`: a .npy file (by extension) is checked for
// dtype, shape and size; any other file must hold exactly expected.num_bytes() bytes. Returns the payload.
// Throws Error(BadInput) that names the file and states expected and actual sizes.
std::vector<uint8_t> read_input(const std::string& path, size_t index, const std::string& name,
                                const TensorInfo& expected);

// Where outputs go: one file (raw concatenation, or one .npy when there is one output) or a directory.
struct OutputTarget {
    bool directory = false;
    std::string path;  // the file, or the directory without a trailing '/'
};

// Decides file vs directory and checks the destination exists and is writable, before anything runs.
OutputTarget resolve_output(const std::string& out);

// A file name made from a binding name: letters, digits, '.', '-', '_' kept; everything else '_'.
std::string sanitize_file_name(const std::string& binding_name);

// Writes files so that none is ever seen half-written: each is written to a temporary name in its
// destination directory, and only when all are complete are they renamed into place. On any failure
// the temporaries are removed and Error(BadInput) names the file.
struct PendingFile {
    std::string path;
    std::vector<std::pair<const void*, size_t>> chunks;
};
void write_files_atomically(const std::vector<PendingFile>& files);

}  // namespace npurun::cli
