// Windows BMP: BITMAPFILEHEADER (14 bytes) + BITMAPINFOHEADER (40 bytes) or a later version of it
// (V4 108, V5 124, which only append fields), uncompressed (BI_RGB) at 1, 4, 8 (palette), 24 or 32 bits,
// or BI_BITFIELDS at 32 bits with the usual 0x00RRGGBB masks. Rows are padded to 4 bytes and stored bottom
// up unless the height is negative. RLE compression and 16-bit pixels are refused by name.
#include <cstdint>

#include "tools/common/image.h"

namespace npurun::image {
namespace {

uint32_t u32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
uint16_t u16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }

}  // namespace

Image decode_bmp(const uint8_t* d, size_t size, const std::string& name) {
    if (size < 14 + 40) bad_image(name, "truncated: " + std::to_string(size) + " bytes is shorter than a BMP header");
    const uint32_t data_offset = u32(d + 10);
    const uint32_t header_size = u32(d + 14);
    if (header_size != 40 && header_size != 52 && header_size != 56 && header_size != 108 && header_size != 124)
        bad_image(name, "BMP info header of " + std::to_string(header_size) + " bytes is not supported (40, 108, 124 are)");
    if (14 + uint64_t(header_size) > size) bad_image(name, "truncated: the BMP info header ends after the file");
    const int32_t width = int32_t(u32(d + 18));
    const int32_t raw_height = int32_t(u32(d + 22));
    const uint16_t planes = u16(d + 26), bits = u16(d + 28);
    const uint32_t compression = u32(d + 30);
    uint32_t palette_size = u32(d + 46);
    if (planes != 1) bad_image(name, "BMP with " + std::to_string(planes) + " planes");
    if (width <= 0 || raw_height == 0 || raw_height == INT32_MIN)
        bad_image(name, "bad BMP size " + std::to_string(width) + "x" + std::to_string(raw_height));
    const bool top_down = raw_height < 0;
    const uint32_t height = uint32_t(top_down ? -int64_t(raw_height) : raw_height);
    check_dimensions(uint32_t(width), height, name);
    if (compression == 1 || compression == 2) bad_image(name, "RLE-compressed BMP is not supported");
    if (compression == 3) {
        if (bits != 32 || header_size < 52) bad_image(name, "BMP bit fields are supported at 32 bits only");
        if (u32(d + 54) != 0x00ff0000u || u32(d + 58) != 0x0000ff00u || u32(d + 62) != 0x000000ffu)
            bad_image(name, "BMP bit field masks other than 0x00RRGGBB are not supported");
    } else if (compression != 0) {
        bad_image(name, "BMP compression " + std::to_string(compression) + " is not supported");
    }
    if (bits != 1 && bits != 4 && bits != 8 && bits != 24 && bits != 32)
        bad_image(name, std::to_string(bits) + "-bit BMP is not supported (1, 4, 8, 24, 32 are)");

    // The palette (B, G, R, reserved) follows the info header.
    const uint8_t* palette = d + 14 + header_size;
    if (bits <= 8) {
        if (palette_size == 0) palette_size = 1u << bits;
        if (palette_size > (1u << bits)) bad_image(name, "BMP palette of " + std::to_string(palette_size) + " colours");
        if (14 + uint64_t(header_size) + 4ull * palette_size > size) bad_image(name, "truncated: the BMP palette ends after the file");
    }
    const uint64_t stride = ((uint64_t(width) * bits + 31) / 32) * 4;
    const uint64_t need = stride * height;
    if (data_offset > size || size - data_offset < need)
        bad_image(name, "truncated: " + std::to_string(width) + "x" + std::to_string(height) + " at " +
                            std::to_string(bits) + " bits needs " + std::to_string(need) + " bytes of pixels from offset " +
                            std::to_string(data_offset) + ", the file has " + std::to_string(size));
    Image img;
    img.width = uint32_t(width);
    img.height = height;
    img.channels = 3;
    img.pixels.resize(size_t(img.width) * height * 3);
    for (uint32_t y = 0; y < height; ++y) {
        const uint8_t* row = d + data_offset + stride * (top_down ? y : height - 1 - y);
        uint8_t* out = img.pixels.data() + size_t(y) * img.width * 3;
        for (uint32_t x = 0; x < img.width; ++x, out += 3) {
            const uint8_t* bgr;
            if (bits >= 24) {
                bgr = row + size_t(x) * (bits / 8);
            } else {
                const uint32_t per_byte = 8 / bits;
                const uint8_t byte = row[x / per_byte];
                const uint32_t shift = 8 - bits * (x % per_byte + 1);
                const uint32_t index = (byte >> shift) & ((1u << bits) - 1);
                if (index >= palette_size)
                    bad_image(name, "pixel uses colour " + std::to_string(index) + " of a " + std::to_string(palette_size) + "-colour palette");
                bgr = palette + 4 * index;
            }
            out[0] = bgr[2];
            out[1] = bgr[1];
            out[2] = bgr[0];
        }
    }
    return img;
}

}  // namespace npurun::image
