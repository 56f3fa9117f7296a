// PNG through libpng's simplified API (png_image_*): it reports errors through a return value and a
// message, so no setjmp is needed here. Every colour type and bit depth is converted by libpng to 8-bit
// gray or RGB; alpha is composited on black (libpng's documented behaviour without a background colour).
#include <png.h>

#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "core/error.h"
#include "tools/common/image.h"

namespace npurun::image {

Image decode_png(const uint8_t* data, size_t size, const std::string& name) {
    png_image png;
    std::memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&png, data, size)) bad_image(name, std::string("bad PNG: ") + png.message);
    const bool gray = (png.format & PNG_FORMAT_FLAG_COLOR) == 0;
    png.format = gray ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
    const uint64_t w = png.width, h = png.height;
    if (w == 0 || h == 0 || w > kMaxImagePixels || h > kMaxImagePixels || w * h > kMaxImagePixels) {
        png_image_free(&png);
        check_dimensions(w, h, name);
    }
    Image img;
    img.width = png.width;
    img.height = png.height;
    img.channels = gray ? 1 : 3;
    img.pixels.assign(size_t(PNG_IMAGE_SIZE(png)), 0);
    // background nullptr: alpha composited onto black; row stride 0: packed rows.
    if (!png_image_finish_read(&png, nullptr, img.pixels.data(), 0, nullptr)) {
        const std::string why = png.message;
        png_image_free(&png);
        bad_image(name, "bad PNG: " + why);
    }
    png_image_free(&png);
    return img;
}

void write_png(const Image& img, const std::string& path) {
    if (img.channels != 1 && img.channels != 3) bad_image(path, "cannot write an image with " + std::to_string(img.channels) + " channels");
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string tmpl = dir + "." + base + ".tmp-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) fail(ErrorKind::BadInput, "cannot write '" + path + "': " + std::strerror(errno));
    // mkstemp creates 0600; the picture gets the usual permissions (subject to umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    (void)::fchmod(fd, 0666 & ~mask);
    std::FILE* f = ::fdopen(fd, "wb");
    if (f == nullptr) {
        ::close(fd);
        ::unlink(buf.data());
        fail(ErrorKind::BadInput, "cannot write '" + path + "': " + std::strerror(errno));
    }
    png_image png;
    std::memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    png.width = img.width;
    png.height = img.height;
    png.format = img.channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
    const bool ok = png_image_write_to_stdio(&png, f, 0, img.pixels.data(), 0, nullptr) != 0;
    const std::string why = ok ? "" : png.message;
    png_image_free(&png);
    const bool closed = std::fclose(f) == 0;
    if (!ok || !closed || ::rename(buf.data(), path.c_str()) != 0) {
        ::unlink(buf.data());
        fail(ErrorKind::BadInput, "cannot write '" + path + "': " + (ok ? std::string(std::strerror(errno)) : why));
    }
}

}  // namespace npurun::image
