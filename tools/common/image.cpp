#include "tools/common/image.h"

#include <cctype>
#include <cstring>

#include "core/error.h"
#include "tools/common/whole_file.h"

namespace npurun::image {

void bad_image(const std::string& name, const std::string& problem) {
    fail(ErrorKind::BadInput, "image '" + name + "': " + problem);
}

void check_dimensions(uint64_t width, uint64_t height, const std::string& name) {
    if (width == 0 || height == 0)
        bad_image(name, "has no pixels (" + std::to_string(width) + "x" + std::to_string(height) + ")");
    if (width > kMaxImagePixels || height > kMaxImagePixels || width * height > kMaxImagePixels)
        bad_image(name, std::to_string(width) + "x" + std::to_string(height) + " is larger than the " +
                            std::to_string(kMaxImagePixels) + " pixels accepted");
}

ImageFormat format_from_name(const std::string& path) {
    const size_t dot = path.find_last_of('.');
    const size_t slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return ImageFormat::None;
    std::string ext = path.substr(dot + 1);
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == "jpg" || ext == "jpeg") return ImageFormat::Jpeg;
    if (ext == "png") return ImageFormat::Png;
    if (ext == "ppm" || ext == "pgm") return ImageFormat::Pnm;
    if (ext == "bmp") return ImageFormat::Bmp;
    return ImageFormat::None;
}

bool is_image_file(const std::string& path) { return format_from_name(path) != ImageFormat::None; }

const char* to_string(ImageFormat f) {
    switch (f) {
        case ImageFormat::None: return "none";
        case ImageFormat::Jpeg: return "JPEG";
        case ImageFormat::Png: return "PNG";
        case ImageFormat::Pnm: return "PPM/PGM";
        case ImageFormat::Bmp: return "BMP";
    }
    return "?";
}

namespace {

// The format a file's first bytes announce (None when they match no supported signature).
ImageFormat sniff(const uint8_t* d, size_t n) {
    if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) return ImageFormat::Jpeg;
    static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (n >= 8 && std::memcmp(d, png_sig, 8) == 0) return ImageFormat::Png;
    if (n >= 2 && d[0] == 'P' && (d[1] == '2' || d[1] == '3' || d[1] == '5' || d[1] == '6')) return ImageFormat::Pnm;
    if (n >= 2 && d[0] == 'B' && d[1] == 'M') return ImageFormat::Bmp;
    return ImageFormat::None;
}

}  // namespace

Image decode_image(const uint8_t* data, size_t size, ImageFormat format, const std::string& name) {
    if (format == ImageFormat::None) bad_image(name, "unsupported image type (expected .jpg, .jpeg, .png, .ppm, .pgm or .bmp)");
    if (size == 0) bad_image(name, "the file is empty");
    const ImageFormat actual = sniff(data, size);
    if (actual != format)
        bad_image(name, std::string("is not a ") + to_string(format) + " file (" +
                            (actual == ImageFormat::None ? std::string("unrecognized signature")
                                                         : std::string("its content is ") + to_string(actual)) +
                            ")");
    switch (format) {
        case ImageFormat::Jpeg: return decode_jpeg(data, size, name);
        case ImageFormat::Png: return decode_png(data, size, name);
        case ImageFormat::Pnm: return decode_pnm(data, size, name);
        case ImageFormat::Bmp: return decode_bmp(data, size, name);
        case ImageFormat::None: break;
    }
    bad_image(name, "unsupported image type");
}

Image read_image(const std::string& path) {
    const ImageFormat format = format_from_name(path);
    std::vector<uint8_t> data;
    tools::WholeFileError e;
    if (!tools::read_whole_file(path, &data, &e)) {
        switch (e.step) {
            case tools::WholeFileError::Step::Open: bad_image(path, "cannot open: " + e.reason);
            case tools::WholeFileError::Step::NotRegular: bad_image(path, "is not a regular file");
            case tools::WholeFileError::Step::Read:
                bad_image(path, "cannot read: " + (e.shrank ? std::string("file shrank while reading") : e.reason));
        }
    }
    return decode_image(data.data(), data.size(), format, path);
}

}  // namespace npurun::image
