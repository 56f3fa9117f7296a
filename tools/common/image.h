// Decoded images for the tools (npurun image inputs, face-detect): JPEG and PNG through Debian's
// libjpeg-turbo and libpng, PPM/PGM (binary and ASCII) and uncompressed BMP by small readers of our own
// (the formats are a few header fields; a library would add a dependency for no gain).
//
// Every image file is untrusted: a truncated file, a header that lies about the size, an unsupported
// variant or an image above kMaxImagePixels is an Error(BadInput) whose one-line message names the file
// and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npurun::image {

// Pixels interleaved, rows top to bottom, 8 bits per sample. channels: 1 (gray) or 3 (R, G, B).
struct Image {
    uint32_t width = 0, height = 0, channels = 0;
    std::vector<uint8_t> pixels;  // width * height * channels

    uint8_t at(uint32_t x, uint32_t y, uint32_t c) const { return pixels[(size_t(y) * width + x) * channels + c]; }
};

// Refused above this (a 100 MB RGB buffer): a small header must not make us allocate gigabytes.
constexpr uint64_t kMaxImagePixels = uint64_t{1} << 25;

enum class ImageFormat { None, Jpeg, Png, Pnm, Bmp };

// By file name ending (case-insensitive): .jpg .jpeg .png .ppm .pgm .bmp; None for anything else.
ImageFormat format_from_name(const std::string& path);
bool is_image_file(const std::string& path);
const char* to_string(ImageFormat f);

// Reads and decodes `path`; the format is chosen by name and must agree with the file's signature.
Image read_image(const std::string& path);
// Same from bytes in memory; `name` is used in messages (and for the format by ending).
Image decode_image(const uint8_t* data, size_t size, ImageFormat format, const std::string& name);

// The individual decoders (image_jpeg.cpp, image_png.cpp, image_pnm.cpp, image_bmp.cpp). Each throws
// Error(BadInput) "image 'name': ..." on any problem.
Image decode_jpeg(const uint8_t* data, size_t size, const std::string& name);
Image decode_png(const uint8_t* data, size_t size, const std::string& name);
Image decode_pnm(const uint8_t* data, size_t size, const std::string& name);
Image decode_bmp(const uint8_t* data, size_t size, const std::string& name);

// Writes an RGB or gray image as PNG (face-detect's annotated output). Throws Error(BadInput) naming the
// file on failure; writes to a temporary name and renames, so a failure never leaves a partial file.
void write_png(const Image& img, const std::string& path);

// Checks width/height against kMaxImagePixels and fails with the standard message.
void check_dimensions(uint64_t width, uint64_t height, const std::string& name);
[[noreturn]] void bad_image(const std::string& name, const std::string& problem);

}  // namespace npurun::image
