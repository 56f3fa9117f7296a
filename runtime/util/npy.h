// A small reader/writer for NumPy .npy files: format versions 1.0 and 2.0, little-endian (or
// byte-order-free) dtypes, C order. Just enough for model inputs and outputs; anything else is refused
// with a message that names the file and the problem, never guessed at.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace npurun::npy {

struct Header {
    std::string descr;            // as written, e.g. "<f4", "|u1"
    std::vector<uint64_t> shape;  // empty for a 0-d array
    size_t data_offset = 0;       // where the array bytes start in the file
};

// Parses the header of an .npy file held in memory. Throws Error(BadInput) naming `origin` for a
// malformed header, a big-endian dtype or Fortran order.
Header parse_header(const uint8_t* data, size_t size, const std::string& origin);

// The .npy type string for a model dtype: "<f4", "<f2", "|u1", "|i1", "<i2", "<i4", "<i8", "|b1".
// Quantized tensors are stored as their integer type.
std::string descr_for(DataType t);

// True when `descr` denotes the same element type as `expected` (byte order '<', '|' or '=' accepted).
bool descr_matches(const std::string& descr, DataType expected);

// Checks a parsed file against the tensor the model expects (dtype, shape, payload size) and returns
// the offset of the payload. Throws Error(BadInput) stating what the file has and what was expected.
size_t check_against(const Header& h, size_t file_size, const TensorInfo& expected, const std::string& origin);

// A complete v1.0 header (v2.0 when the dict does not fit in 64 KiB) for a C-order array of `info`.
std::vector<uint8_t> make_header(const TensorInfo& info);

}  // namespace npurun::npy
