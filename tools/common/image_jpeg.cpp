// JPEG through libjpeg-turbo's libjpeg API. libjpeg reports fatal errors through error_exit, which must not
// return; the usual way out is longjmp back to the decoding function. That function therefore keeps only
// trivially destructible state between setjmp and the last libjpeg call (the Image lives in the caller), so
// the jump never skips a destructor. A warning is treated as an error too: libjpeg "recovers" from a
// truncated file by inventing grey rows, and an inference on invented pixels is a fake result.
#include <csetjmp>
#include <cstdio>
#include <cstring>

#include <jpeglib.h>

#include "tools/common/image.h"

namespace npurun::image {
namespace {

struct ErrorManager {
    jpeg_error_mgr base;  // first: libjpeg hands us a pointer to it
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    bool failed;
};

void on_error(j_common_ptr cinfo) {
    auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, e->message);
    e->failed = true;
    std::longjmp(e->jump, 1);
}

// level -1: a warning (corrupt or truncated data); other levels are trace messages, ignored.
void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    on_error(cinfo);
}

// Decodes into `pixels` (already sized by the caller after the header pass). Returns false with
// `message` set on any libjpeg error or warning. Plain C-style on purpose (see the file comment).
bool decode(const uint8_t* data, size_t size, uint32_t* width, uint32_t* height, uint32_t* channels,
            std::vector<uint8_t>* pixels, uint64_t max_pixels, char* message, size_t message_size) {
    jpeg_decompress_struct cinfo;
    ErrorManager err;
    std::memset(&cinfo, 0, sizeof cinfo);
    std::memset(&err, 0, sizeof err);
    cinfo.err = jpeg_std_error(&err.base);
    err.base.error_exit = on_error;
    err.base.emit_message = on_message;
    if (setjmp(err.jump) != 0) {
        jpeg_destroy_decompress(&cinfo);
        std::snprintf(message, message_size, "%s", err.message);
        return false;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(size));
    jpeg_read_header(&cinfo, TRUE);
    // Gray stays gray; everything else (YCbCr, RGB, CMYK is refused by libjpeg's conversion) becomes RGB.
    const bool gray = cinfo.jpeg_color_space == JCS_GRAYSCALE;
    if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
        jpeg_destroy_decompress(&cinfo);
        std::snprintf(message, message_size, "CMYK JPEG is not supported (convert it to RGB)");
        return false;
    }
    cinfo.out_color_space = gray ? JCS_GRAYSCALE : JCS_RGB;
    // Deterministic output whatever the build's SIMD: the accurate integer DCT and fancy upsampling.
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.do_fancy_upsampling = TRUE;
    const uint64_t w = cinfo.image_width, h = cinfo.image_height;
    if (w == 0 || h == 0 || w > max_pixels || h > max_pixels || w * h > max_pixels) {
        jpeg_destroy_decompress(&cinfo);
        std::snprintf(message, message_size, "%llux%llu is larger than the %llu pixels accepted",
                      static_cast<unsigned long long>(w), static_cast<unsigned long long>(h),
                      static_cast<unsigned long long>(max_pixels));
        return false;
    }
    jpeg_start_decompress(&cinfo);
    const uint32_t c = uint32_t(cinfo.output_components);
    *width = cinfo.output_width;
    *height = cinfo.output_height;
    *channels = c;
    pixels->assign(size_t(*width) * *height * c, 0);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels->data() + size_t(cinfo.output_scanline) * *width * c;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) {
            jpeg_destroy_decompress(&cinfo);
            std::snprintf(message, message_size, "truncated: image data ends early");
            return false;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return true;
}

}  // namespace

Image decode_jpeg(const uint8_t* data, size_t size, const std::string& name) {
    Image img;
    char message[JMSG_LENGTH_MAX + 64] = {0};
    if (!decode(data, size, &img.width, &img.height, &img.channels, &img.pixels, kMaxImagePixels, message,
                sizeof message))
        bad_image(name, std::string("bad JPEG: ") + message);
    if (img.channels != 1 && img.channels != 3) bad_image(name, "JPEG with " + std::to_string(img.channels) + " components");
    return img;
}

}  // namespace npurun::image
