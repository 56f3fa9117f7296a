// Zero-copy NPU inputs (Session::export_native_input / import_native_input, runtime/npu/README.md
// "Native-layout inputs"): an input bound to a dma-buf holding the tensor in NC1HWC2 gives the same output,
// bit for bit, as the normal NHWC path; run() performs no conversion for it; bad bindings are refused with
// the reason.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "drv/device.h"
#include "include/npurun/npurun.hpp"
#include "runtime/exec/session_factory.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/util/quantization.h"
#include "tests/npu/npu_graphs.h"

namespace {

using namespace npurun;
using namespace npurun::npu_test;

SessionOptions sim_options(bool fp16) {
    SessionOptions so;
    so.device = DeviceKind::Sim;
    so.fp16 = fp16;
    return so;
}

npu::NpuBackend& backend_of(Session& s) {
    // The test plays the user's camera/ISP driver: it needs the device the session runs on.
    return *const_cast<npu::NpuBackend*>(SessionFactory::npu_backend(s));
}

uint64_t conversions(Session& s) {
    uint64_t n = 0;
    for (const auto& seg : backend_of(s).segments()) n += seg->input_conversions();
    return n;
}

// The test's own NHWC -> native layout writer, from the layout description the session returns.
void write_native(const TensorBinding& nhwc, const NativeTensor& n, uint8_t* dst) {
    const size_t eb = element_size(n.info.dtype);
    for (uint32_t y = 0; y < n.h; ++y)
        for (uint32_t x = 0; x < n.w; ++x)
            for (uint32_t c = 0; c < n.c; ++c) {
                const size_t i = (size_t(y) * n.w + x) * n.c + c;
                uint8_t* o = dst + (c / n.c2) * n.plane_bytes + (size_t(y) * n.w + x) * 16 + (c % n.c2) * eb;
                if (nhwc.info.dtype == DataType::QAsymmU8) {
                    *o = uint8_t(static_cast<const uint8_t*>(nhwc.data)[i] - 128);  // signed domain
                } else if (nhwc.info.dtype == DataType::Float32) {
                    const uint16_t h = quant::fp32_to_fp16(static_cast<const float*>(nhwc.data)[i]);
                    std::memcpy(o, &h, 2);
                } else {
                    std::memcpy(o, static_cast<const uint8_t*>(nhwc.data) + i * eb, eb);
                }
            }
}

std::vector<uint8_t> output_bytes(const Session& s) {
    const TensorBinding& o = s.output(0);
    const auto* p = static_cast<const uint8_t*>(o.data);
    return std::vector<uint8_t>(p, p + o.info.num_bytes());
}

// The normal path: NHWC input converted by run().
std::vector<uint8_t> reference_output(const std::shared_ptr<const Model>& m, bool fp16, Session* source) {
    Session ref(m, sim_options(fp16));
    std::memcpy(ref.input(0).data, source->input(0).data, source->input(0).info.num_bytes());
    ref.run();
    EXPECT_EQ(conversions(ref), 1u);
    return output_bytes(ref);
}

ConvSpec conv(DataType dt, uint32_t h, uint32_t w, uint32_t c) {
    ConvSpec s;
    s.dt = dt;
    s.h = h, s.w = w, s.c = c, s.k = 24;
    s.act = Act::Relu;
    return s;
}

// Export: the user fills the session's own buffer through the dma-buf fd (imported and mapped as another
// driver would), run() reads it in place.
void check_exported(const ConvSpec& spec, bool fp16) {
    const auto m = conv_model(spec);
    Session s(m, sim_options(fp16));
    fill_input(s, 11);
    const std::vector<uint8_t> expected = reference_output(m, fp16, &s);

    const NativeTensor n = s.export_native_input(0);
    ASSERT_GE(n.fd, 0);
    ASSERT_NE(n.data, nullptr);
    EXPECT_EQ(n.h, spec.h);
    EXPECT_EQ(n.w, spec.w);
    EXPECT_EQ(n.c, spec.c);
    EXPECT_EQ(n.c2, fp16 ? 8u : 16u);
    EXPECT_EQ(n.plane_bytes, uint64_t{spec.h} * spec.w * 16);
    EXPECT_EQ(n.info.dtype, fp16 ? DataType::Float16 : DataType::QAsymmS8);
    npudrv::Device& dev = backend_of(s).context().device;
    npudrv::Buffer view = dev.import_dmabuf(n.fd);
    ASSERT_GE(view.size(), n.size_bytes);
    write_native(s.input(0), n, view.map());
    fill_input(s, 99);  // the NHWC binding now holds something else: run() must not read it
    s.run();
    EXPECT_EQ(output_bytes(s), expected);
    EXPECT_EQ(conversions(s), 0u) << "a bound input was converted";
    s.run();  // again, still in place
    EXPECT_EQ(output_bytes(s), expected);
    EXPECT_EQ(conversions(s), 0u);
}

TEST(NpuNativeInput, ExportedInt8BufferMatchesTheNhwcPathBitExact) { check_exported(conv(DataType::QAsymmU8, 8, 8, 16), false); }
TEST(NpuNativeInput, ExportedSignedInt8BufferWithPaddingChannels) { check_exported(conv(DataType::QAsymmS8, 6, 5, 20), false); }
TEST(NpuNativeInput, ExportedFp16BufferMatchesTheNhwcPathBitExact) { check_exported(conv(DataType::Float32, 8, 8, 12), true); }

// Import: the user's own dma-buf (another buffer at another address) replaces the session's at bind time.
void check_imported(const ConvSpec& spec, bool fp16) {
    const auto m = conv_model(spec);
    Session s(m, sim_options(fp16));
    fill_input(s, 5);
    const std::vector<uint8_t> expected = reference_output(m, fp16, &s);

    npudrv::Device& dev = backend_of(s).context().device;
    npudrv::Buffer user = dev.create_buffer(64 * 1024, npudrv::kBufferZeroed);
    const int fd = user.export_dmabuf();
    const NativeTensor n = s.import_native_input(0, fd);
    EXPECT_EQ(n.fd, fd);
    EXPECT_EQ(n.data, nullptr);
    write_native(s.input(0), n, user.map());
    fill_input(s, 77);
    s.run();
    EXPECT_EQ(output_bytes(s), expected);
    EXPECT_EQ(conversions(s), 0u);
    dev.close_fd(fd);  // the session holds its own handle
    s.run();
    EXPECT_EQ(output_bytes(s), expected);

    // Back to the session's own buffer: the regcmd is re-emitted with its address again.
    const NativeTensor e = s.export_native_input(0);
    npudrv::Buffer view = dev.import_dmabuf(e.fd);
    write_native(s.input(0), e, view.map());  // input(0) holds seed 77 now
    s.run();
    Session ref(m, sim_options(fp16));
    std::memcpy(ref.input(0).data, s.input(0).data, s.input(0).info.num_bytes());
    ref.run();
    EXPECT_EQ(output_bytes(s), output_bytes(ref));
}

TEST(NpuNativeInput, ImportedInt8BufferMatchesTheNhwcPathBitExact) { check_imported(conv(DataType::QAsymmU8, 8, 8, 16), false); }
TEST(NpuNativeInput, ImportedFp16BufferMatchesTheNhwcPathBitExact) { check_imported(conv(DataType::Float32, 7, 9, 8), true); }

TEST(NpuNativeInput, UnboundSessionStillConvertsEveryRun) {
    const auto m = conv_model(conv(DataType::QAsymmU8, 8, 8, 16));
    Session s(m, sim_options(false));
    fill_input(s, 3);
    s.run();
    s.run();
    EXPECT_EQ(conversions(s), 2u);
}

std::string error_of(const std::function<void()>& f, ErrorKind* kind) {
    try {
        f();
    } catch (const Error& e) {
        *kind = e.kind();
        return e.what();
    }
    return "";
}

TEST(NpuNativeInput, TooSmallDmaBufIsRefused) {
    const auto m = conv_model(conv(DataType::QAsymmU8, 32, 32, 16));  // needs 16 KiB
    Session s(m, sim_options(false));
    npudrv::Device& dev = backend_of(s).context().device;
    npudrv::Buffer user = dev.create_buffer(4096, 0);
    const int fd = user.export_dmabuf();
    ErrorKind k = ErrorKind::Internal;
    const std::string msg = error_of([&] { s.import_native_input(0, fd); }, &k);
    dev.close_fd(fd);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("holds 4096 bytes; its NPU layout needs 16384"), std::string::npos) << msg;
    // The session still runs on its own path.
    fill_input(s, 1);
    const std::vector<uint8_t> expected = reference_output(m, false, &s);
    s.run();
    EXPECT_EQ(output_bytes(s), expected);
    EXPECT_EQ(conversions(s), 1u);
}

TEST(NpuNativeInput, BadFdIsRefused) {
    Session s(conv_model(conv(DataType::QAsymmU8, 8, 8, 16)), sim_options(false));
    ErrorKind k = ErrorKind::Internal;
    const std::string msg = error_of([&] { s.import_native_input(0, 12345); }, &k);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("cannot import dma-buf fd 12345"), std::string::npos) << msg;
}

TEST(NpuNativeInput, InputReadOnTheCpuIsRefusedWithTheReason) {
    // Float32 without --fp16 stays on the CPU: the input has no NPU buffer.
    Session s(conv_model(conv(DataType::Float32, 8, 8, 16)), sim_options(false));
    ErrorKind k = ErrorKind::Internal;
    const std::string msg = error_of([&] { s.export_native_input(0); }, &k);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("input 'x' cannot be bound to a dma-buf: it is read by"), std::string::npos) << msg;
    EXPECT_NE(msg.find("on the CPU"), std::string::npos) << msg;
}

TEST(NpuNativeInput, InputAlsoReadByACpuLayerIsRefused) {
    // x feeds an NPU convolution (output 0) and a convolution the NPU refuses (stride 9, past the CNA's
    // limit) that stays on the CPU (output 1): the CPU layer needs x in NHWC, so x cannot be bound.
    Graph g;
    const TensorId x = value(g, "x", Shape{1, 8, 8, 16}, DataType::QAsymmU8, 0.05f, 118);
    ConvSpec a = conv(DataType::QAsymmU8, 8, 8, 16);
    a.act = Act::None;
    const TensorId y = add_conv(g, a, x, "npu_conv");
    ConvSpec b = a;
    b.kh = b.kw = 1, b.pad = 0, b.stride = 9;  // 1x1 output; far past any NPU stride limit
    b.seed = 2;
    const TensorId z = add_conv(g, b, x, "cpu_conv");
    io(g, x, y);
    g.outputs.push_back({"second", 1, z});
    Node o;
    o.op = OpKind::Output;
    o.name = "second";
    o.inputs = {z};
    o.attrs = BindingAttrs{1};
    o.source_index = uint32_t(g.nodes.size());
    g.nodes.push_back(o);
    const auto m = std::make_shared<const Model>(std::move(g), "two-readers");
    Session s(m, sim_options(false));
    ErrorKind k = ErrorKind::Internal;
    const std::string msg = error_of([&] { s.export_native_input(0); }, &k);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("cannot be bound to a dma-buf"), std::string::npos) << msg;
    EXPECT_NE(msg.find("cpu_conv"), std::string::npos) << msg;
    EXPECT_NE(msg.find("needs it in NHWC"), std::string::npos) << msg;
}

TEST(NpuNativeInput, CpuSessionIsRefused) {
    SessionOptions co;
    co.device = DeviceKind::Cpu;
    Session s(conv_model(conv(DataType::QAsymmU8, 8, 8, 16)), co);
    ErrorKind k = ErrorKind::Internal;
    const std::string msg = error_of([&] { s.export_native_input(0); }, &k);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("the session runs on the CPU"), std::string::npos) << msg;
}

}  // namespace
