#include "runtime/util/npy.h"

#include <cctype>
#include <cstring>

#include "core/error.h"
#include "core/checked_math.h"

namespace npurun::npy {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

[[noreturn]] void bad(const std::string& origin, const std::string& what) {
    fail(ErrorKind::BadInput, "'" + origin + "': not a usable .npy file: " + what);
}

// A cursor over the header dict, a Python literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (1, 28, 28), }
struct DictParser {
    const std::string& s;
    const std::string& origin;
    size_t pos = 0;

    void skip_space() {
        while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
    }
    bool accept(char c) {
        skip_space();
        if (pos < s.size() && s[pos] == c) {
            ++pos;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) bad(origin, std::string("header: expected '") + c + "' at offset " + std::to_string(pos));
    }
    std::string string_literal() {
        skip_space();
        if (pos >= s.size() || (s[pos] != '\'' && s[pos] != '"')) bad(origin, "header: expected a string");
        const char q = s[pos++];
        const size_t end = s.find(q, pos);
        if (end == std::string::npos) bad(origin, "header: unterminated string");
        std::string out = s.substr(pos, end - pos);
        pos = end + 1;
        return out;
    }
    bool boolean() {
        skip_space();
        if (s.compare(pos, 4, "True") == 0) {
            pos += 4;
            return true;
        }
        if (s.compare(pos, 5, "False") == 0) {
            pos += 5;
            return false;
        }
        bad(origin, "header: expected True or False");
    }
    uint64_t integer() {
        skip_space();
        if (pos >= s.size() || !std::isdigit(static_cast<unsigned char>(s[pos]))) bad(origin, "header: expected a dimension");
        uint64_t v = 0;
        while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
            if (!checked_mul(v, uint64_t{10}, &v) || !checked_add(v, uint64_t(s[pos] - '0'), &v))
                bad(origin, "header: dimension too large");
            ++pos;
        }
        if (pos < s.size() && s[pos] == 'L') ++pos;  // Python 2 long suffix
        return v;
    }
    std::vector<uint64_t> tuple() {
        expect('(');
        std::vector<uint64_t> dims;
        while (!accept(')')) {
            dims.push_back(integer());
            if (dims.size() > 32) bad(origin, "header: too many dimensions");
            if (!accept(',')) {
                expect(')');
                break;
            }
        }
        return dims;
    }
};

}  // namespace

Header parse_header(const uint8_t* data, size_t size, const std::string& origin) {
    if (size < kMagicLen + 4 || std::memcmp(data, kMagic, kMagicLen) != 0) bad(origin, "missing the \\x93NUMPY magic");
    const uint8_t major = data[6];
    size_t header_len = 0, prefix = 0;
    if (major == 1) {
        header_len = size_t(data[8]) | size_t(data[9]) << 8;
        prefix = 10;
    } else if (major == 2) {
        if (size < 12) bad(origin, "truncated header");
        header_len = size_t(data[8]) | size_t(data[9]) << 8 | size_t(data[10]) << 16 | size_t(data[11]) << 24;
        prefix = 12;
    } else {
        bad(origin, "format version " + std::to_string(major) + "." + std::to_string(data[7]) +
                        " (only 1.0 and 2.0 are supported)");
    }
    if (header_len > size - prefix) bad(origin, "header longer than the file");

    const std::string dict(reinterpret_cast<const char*>(data + prefix), header_len);
    DictParser p{dict, origin};
    Header h;
    bool have_descr = false, have_order = false, have_shape = false;
    p.expect('{');
    while (!p.accept('}')) {
        const std::string key = p.string_literal();
        p.expect(':');
        if (key == "descr") {
            h.descr = p.string_literal();
            have_descr = true;
        } else if (key == "fortran_order") {
            if (p.boolean()) bad(origin, "Fortran-order arrays are not supported (save with C order)");
            have_order = true;
        } else if (key == "shape") {
            h.shape = p.tuple();
            have_shape = true;
        } else {
            bad(origin, "header: unknown key '" + key + "'");
        }
        if (!p.accept(',')) {
            p.expect('}');
            break;
        }
    }
    if (!have_descr || !have_order || !have_shape) bad(origin, "header lacks descr, fortran_order or shape");
    if (!h.descr.empty() && h.descr[0] == '>' && h.descr.size() == 3 && h.descr[2] != '1')
        bad(origin, "big-endian dtype '" + h.descr + "' (only little-endian is supported)");
    h.data_offset = prefix + header_len;
    return h;
}

std::string descr_for(DataType t) {
    switch (t) {
        case DataType::Float16: return "<f2";
        case DataType::Float32: return "<f4";
        case DataType::QAsymmU8: return "|u1";
        case DataType::QAsymmS8:
        case DataType::QSymmS8: return "|i1";
        case DataType::QSymmS16: return "<i2";
        case DataType::Signed32: return "<i4";
        case DataType::Signed64: return "<i8";
        case DataType::Boolean: return "|b1";
    }
    return "?";
}

bool descr_matches(const std::string& descr, DataType expected) {
    const std::string want = descr_for(expected);
    if (descr.size() != 3 || descr.substr(1) != want.substr(1)) return false;
    const char order = descr[0];
    if (order == '<' || order == '=' || order == '|') return true;
    return order == '>' && want[2] == '1';  // byte order is meaningless for one-byte types
}

size_t check_against(const Header& h, size_t file_size, const TensorInfo& expected, const std::string& origin) {
    if (!descr_matches(h.descr, expected.dtype))
        fail(ErrorKind::BadInput, "'" + origin + "': .npy dtype '" + h.descr + "' does not match the model's " +
                                      to_string(expected.dtype) + " (expected '" + descr_for(expected.dtype) + "')");
    bool same = h.shape.size() == expected.shape.rank;
    for (size_t i = 0; same && i < h.shape.size(); ++i) same = h.shape[i] == expected.shape[uint32_t(i)];
    if (!same) {
        std::string got = "(";
        for (size_t i = 0; i < h.shape.size(); ++i) got += (i ? "," : "") + std::to_string(h.shape[i]);
        got += h.shape.size() == 1 ? ",)" : ")";
        fail(ErrorKind::BadInput, "'" + origin + "': .npy shape " + got + " does not match the model's " +
                                      expected.shape.str());
    }
    const size_t want = expected.num_bytes();
    const size_t have = file_size - h.data_offset;
    if (have != want)
        fail(ErrorKind::BadInput, "'" + origin + "': .npy payload has " + std::to_string(have) + " bytes, expected " +
                                      std::to_string(want) + " bytes");
    return h.data_offset;
}

std::vector<uint8_t> make_header(const TensorInfo& info) {
    // Python's tuple spelling: "()", "(3,)", "(1, 2, 3)".
    std::string dims;
    for (uint32_t i = 0; i < info.shape.rank; ++i) dims += (i ? ", " : "") + std::to_string(info.shape[i]);
    if (info.shape.rank == 1) dims += ",";
    std::string dict = "{'descr': '" + descr_for(info.dtype) + "', 'fortran_order': False, 'shape': (" + dims + "), }";

    // Total header size is a multiple of 64, padded with spaces and ending in a newline.
    const bool v2 = dict.size() + 1 + 10 > 65535;
    const size_t prefix = v2 ? 12 : 10;
    size_t total = prefix + dict.size() + 1;
    total = (total + 63) / 64 * 64;
    dict.append(total - prefix - dict.size() - 1, ' ');
    dict += '\n';

    std::vector<uint8_t> out(kMagic, kMagic + kMagicLen);
    out.push_back(v2 ? 2 : 1);
    out.push_back(0);
    const size_t len = dict.size();
    out.push_back(uint8_t(len));
    out.push_back(uint8_t(len >> 8));
    if (v2) {
        out.push_back(uint8_t(len >> 16));
        out.push_back(uint8_t(len >> 24));
    }
    out.insert(out.end(), dict.begin(), dict.end());
    return out;
}

}  // namespace npurun::npy
