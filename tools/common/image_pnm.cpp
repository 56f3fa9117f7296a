// Netpbm PGM/PPM (P2 and P3 ASCII, P5 and P6 binary), as specified by netpbm's pgm(5)/ppm(5): a header of
// magic, width, height, maxval separated by whitespace with '#' comments, then the samples; binary samples
// are one byte when maxval < 256, else two bytes big-endian. Samples are scaled from 0..maxval to 0..255.
#include <cstdint>

#include "tools/common/image.h"

namespace npurun::image {
namespace {

class Reader {
public:
    Reader(const uint8_t* d, size_t n, const std::string& name) : d_(d), n_(n), name_(name) {}

    void skip_space_and_comments() {
        while (pos_ < n_) {
            if (d_[pos_] == '#') {
                while (pos_ < n_ && d_[pos_] != '\n' && d_[pos_] != '\r') ++pos_;
            } else if (is_space(d_[pos_])) {
                ++pos_;
            } else {
                break;
            }
        }
    }
    // A decimal header field (or ASCII sample), at most `max`.
    uint32_t number(const char* what, uint32_t max) {
        skip_space_and_comments();
        if (pos_ >= n_) bad_image(name_, std::string("truncated: the file ends before the ") + what);
        if (d_[pos_] < '0' || d_[pos_] > '9') bad_image(name_, std::string("bad PPM/PGM header: the ") + what + " is not a number");
        uint64_t v = 0;
        while (pos_ < n_ && d_[pos_] >= '0' && d_[pos_] <= '9') {
            v = v * 10 + uint64_t(d_[pos_++] - '0');
            if (v > max) bad_image(name_, std::string("the ") + what + " is larger than " + std::to_string(max));
        }
        return uint32_t(v);
    }
    size_t pos() const { return pos_; }
    void advance(size_t k) { pos_ += k; }
    bool at_space() const { return pos_ < n_ && is_space(d_[pos_]); }

private:
    static bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
    const uint8_t* d_;
    size_t n_;
    size_t pos_ = 2;  // after the magic
    const std::string& name_;
};

}  // namespace

Image decode_pnm(const uint8_t* data, size_t size, const std::string& name) {
    if (size < 2 || data[0] != 'P') bad_image(name, "not a PPM/PGM file");
    const char kind = char(data[1]);
    const bool ascii = kind == '2' || kind == '3';
    const uint32_t channels = (kind == '3' || kind == '6') ? 3 : 1;
    if (kind != '2' && kind != '3' && kind != '5' && kind != '6')
        bad_image(name, std::string("PNM type P") + kind + " is not supported (P2, P3, P5, P6 are)");
    Reader r(data, size, name);
    const uint32_t width = r.number("width", 1u << 30);
    const uint32_t height = r.number("height", 1u << 30);
    const uint32_t maxval = r.number("maxval", 65535);
    if (maxval == 0) bad_image(name, "bad PPM/PGM header: maxval is 0");
    check_dimensions(width, height, name);
    Image img;
    img.width = width;
    img.height = height;
    img.channels = channels;
    const size_t samples = size_t(width) * height * channels;
    img.pixels.resize(samples);
    auto scale = [maxval](uint32_t v) { return uint8_t((v * 255u + maxval / 2) / maxval); };
    if (ascii) {
        for (size_t i = 0; i < samples; ++i) {
            const uint32_t v = r.number("sample", 65535);
            if (v > maxval) bad_image(name, "sample " + std::to_string(v) + " is above maxval " + std::to_string(maxval));
            img.pixels[i] = scale(v);
        }
        return img;
    }
    // Exactly one whitespace byte separates maxval from the binary samples.
    if (!r.at_space()) bad_image(name, "bad PPM/PGM header: no whitespace after maxval");
    r.advance(1);
    const size_t bytes_per = maxval < 256 ? 1 : 2;
    const size_t need = samples * bytes_per;
    const size_t have = size - r.pos();
    if (have < need)
        bad_image(name, "truncated: " + std::to_string(width) + "x" + std::to_string(height) + " needs " +
                            std::to_string(need) + " bytes of samples, the file has " + std::to_string(have));
    const uint8_t* p = data + r.pos();
    for (size_t i = 0; i < samples; ++i) {
        const uint32_t v = bytes_per == 1 ? p[i] : (uint32_t(p[2 * i]) << 8 | p[2 * i + 1]);
        if (v > maxval) bad_image(name, "sample " + std::to_string(v) + " is above maxval " + std::to_string(maxval));
        img.pixels[i] = scale(v);
    }
    return img;
}

}  // namespace npurun::image
