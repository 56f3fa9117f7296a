#include <gtest/gtest.h>

#include <cstring>

#include "core/error.h"
#include "runtime/util/npy.h"

using namespace npurun;

namespace {

std::vector<uint8_t> bytes(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// A hand-written v1.0 file as numpy.save writes it: magic, version, little-endian length, dict, payload.
std::vector<uint8_t> v1_file(const std::string& dict, size_t payload) {
    std::string d = dict;
    while ((10 + d.size() + 1) % 64) d += ' ';
    d += '\n';
    std::string f = std::string("\x93NUMPY", 6) + '\x01' + '\x00' + char(d.size() & 0xff) + char(d.size() >> 8) + d;
    f.append(payload, '\0');
    return bytes(f);
}

TensorInfo info(DataType t, Shape s) {
    TensorInfo i;
    i.dtype = t;
    i.shape = s;
    return i;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::BadInput);
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
}

}  // namespace

TEST(Npy, ParsesAVersion1Header) {
    auto f = v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 28, 28), }", 784 * 4);
    npy::Header h = npy::parse_header(f.data(), f.size(), "x.npy");
    EXPECT_EQ(h.descr, "<f4");
    EXPECT_EQ(h.shape, (std::vector<uint64_t>{1, 28, 28}));
    EXPECT_EQ(h.data_offset % 64, 0u);
    EXPECT_EQ(npy::check_against(h, f.size(), info(DataType::Float32, Shape{1, 28, 28}), "x.npy"), h.data_offset);
}

TEST(Npy, OneDimensionalAndScalarShapes) {
    auto f = v1_file("{'descr': '|u1', 'fortran_order': False, 'shape': (10,), }", 10);
    EXPECT_EQ(npy::parse_header(f.data(), f.size(), "a").shape, (std::vector<uint64_t>{10}));
    auto g = v1_file("{'descr': '<i4', 'fortran_order': False, 'shape': (), }", 4);
    npy::Header h = npy::parse_header(g.data(), g.size(), "b");
    EXPECT_TRUE(h.shape.empty());
    EXPECT_NO_THROW(npy::check_against(h, g.size(), info(DataType::Signed32, Shape{}), "b"));
}

TEST(Npy, WriterRoundTripsThroughTheReader) {
    for (Shape s : {Shape{}, Shape{7}, Shape{1, 3, 224, 224}}) {
        TensorInfo ti = info(DataType::QAsymmU8, s);
        auto h = npy::make_header(ti);
        EXPECT_EQ(h.size() % 64, 0u);
        EXPECT_EQ(h[6], 1);
        EXPECT_EQ(h.back(), '\n');
        h.resize(h.size() + ti.num_bytes());
        npy::Header back = npy::parse_header(h.data(), h.size(), "rt");
        EXPECT_EQ(back.descr, "|u1");
        EXPECT_EQ(back.shape.size(), s.rank);
        EXPECT_NO_THROW(npy::check_against(back, h.size(), ti, "rt"));
    }
}

TEST(Npy, Version2HeaderIsAccepted) {
    std::string d = "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 2), }";
    while ((12 + d.size() + 1) % 64) d += ' ';
    d += '\n';
    std::string f = std::string("\x93NUMPY", 6) + '\x02' + '\x00' + char(d.size()) + '\0' + '\0' + '\0' + d;
    f.append(8, '\0');
    auto b = bytes(f);
    npy::Header h = npy::parse_header(b.data(), b.size(), "v2");
    EXPECT_EQ(h.data_offset, 12 + d.size());
    EXPECT_NO_THROW(npy::check_against(h, b.size(), info(DataType::QSymmS16, Shape{2, 2}), "v2"));
}

TEST(Npy, RejectsWhatItCannotRead) {
    auto fortran = v1_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16);
    EXPECT_NE(error_of([&] { npy::parse_header(fortran.data(), fortran.size(), "f.npy"); }).find("Fortran"),
              std::string::npos);
    auto big = v1_file("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8);
    EXPECT_NE(error_of([&] { npy::parse_header(big.data(), big.size(), "b.npy"); }).find("big-endian"),
              std::string::npos);
    auto junk = bytes("P5\n28 28\n255\n");
    EXPECT_NE(error_of([&] { npy::parse_header(junk.data(), junk.size(), "j.npy"); }).find("magic"), std::string::npos);
    auto v3 = v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 8);
    v3[6] = 3;
    EXPECT_NE(error_of([&] { npy::parse_header(v3.data(), v3.size(), "v3.npy"); }).find("version 3"), std::string::npos);
    auto truncated = v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 0);
    truncated.resize(30);
    EXPECT_NE(error_of([&] { npy::parse_header(truncated.data(), truncated.size(), "t.npy"); }).find("longer than"),
              std::string::npos);
    auto garbage = v1_file("{'descr': '<f4', 'shape': (2,", 0);
    error_of([&] { npy::parse_header(garbage.data(), garbage.size(), "g.npy"); });
}

TEST(Npy, MismatchesStateBothSides) {
    auto f = v1_file("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 4), }", 32);
    npy::Header h = npy::parse_header(f.data(), f.size(), "d.npy");
    const std::string dtype_msg = error_of([&] { npy::check_against(h, f.size(), info(DataType::Float32, Shape{1, 4}), "d.npy"); });
    EXPECT_NE(dtype_msg.find("'<f8'"), std::string::npos) << dtype_msg;
    EXPECT_NE(dtype_msg.find("Float32"), std::string::npos) << dtype_msg;

    auto g = v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 1), }", 16);
    npy::Header hg = npy::parse_header(g.data(), g.size(), "s.npy");
    const std::string shape_msg = error_of([&] { npy::check_against(hg, g.size(), info(DataType::Float32, Shape{1, 4}), "s.npy"); });
    EXPECT_NE(shape_msg.find("(4,1)"), std::string::npos) << shape_msg;
    EXPECT_NE(shape_msg.find("1x4"), std::string::npos) << shape_msg;

    auto short_payload = v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }", 12);
    npy::Header hs = npy::parse_header(short_payload.data(), short_payload.size(), "p.npy");
    const std::string size_msg = error_of(
        [&] { npy::check_against(hs, short_payload.size(), info(DataType::Float32, Shape{1, 4}), "p.npy"); });
    EXPECT_NE(size_msg.find("12 bytes, expected 16 bytes"), std::string::npos) << size_msg;
}

TEST(Npy, OneByteTypesIgnoreByteOrder) {
    EXPECT_TRUE(npy::descr_matches("|u1", DataType::QAsymmU8));
    EXPECT_TRUE(npy::descr_matches("<u1", DataType::QAsymmU8));
    EXPECT_TRUE(npy::descr_matches("|i1", DataType::QAsymmS8));
    EXPECT_FALSE(npy::descr_matches("|u1", DataType::QAsymmS8));
    EXPECT_FALSE(npy::descr_matches(">f4", DataType::Float32));
    EXPECT_FALSE(npy::descr_matches("<f4x", DataType::Float32));
}
