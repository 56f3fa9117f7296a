// Zero-copy NPU inputs and outputs (Session::export/import_native_input/output, runtime/npu/README.md
// "Native-layout inputs and outputs"): a tensor bound to a dma-buf holding it in NC1HWC2 gives the same
// result, bit for bit, as the normal NHWC path; run() performs no conversion for it; bad bindings are refused
// with the reason.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include "drv/device.h"
#include "include/npurun/npurun.hpp"
#include "runtime/session/session_factory.h"
#include "runtime/npu/npu_backend.h"
#include "core/quantization.h"
#include "tests/npu/npu_graphs.h"

namespace {

using namespace npurun;
using namespace npurun::npu_test;

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

std::string error_of(const std::function<void()>& f, ErrorKind* kind) {
    try {
        f();
    } catch (const Error& e) {
        *kind = e.kind();
        return e.what();
    }
    return "";
}

// The test's own native layout -> NHWC reader (the model's output bytes).
std::vector<uint8_t> read_native(const TensorInfo& nhwc, const NativeTensor& n, const uint8_t* src) {
    std::vector<uint8_t> out(nhwc.num_bytes());
    const size_t eb = element_size(n.info.dtype);
    for (uint32_t y = 0; y < n.h; ++y)
        for (uint32_t x = 0; x < n.w; ++x)
            for (uint32_t c = 0; c < n.c; ++c) {
                const size_t i = (size_t(y) * n.w + x) * n.c + c;
                const uint8_t* p = src + (c / n.c2) * n.plane_bytes + (size_t(y) * n.w + x) * 16 + (c % n.c2) * eb;
                if (nhwc.dtype == DataType::QAsymmU8) {
                    out[i] = uint8_t(*p + 128);
                } else if (nhwc.dtype == DataType::Float32) {
                    uint16_t h;
                    std::memcpy(&h, p, 2);
                    const float f = quant::fp16_to_fp32(h);
                    std::memcpy(out.data() + i * 4, &f, 4);
                } else {
                    std::memcpy(out.data() + i * eb, p, eb);
                }
            }
    return out;
}

// Outputs: the last layer writes straight into the bound buffer; output(0).data is no longer written.
void check_output(const ConvSpec& spec, bool fp16, bool import) {
    const auto m = conv_model(spec);
    Session s(m, sim_options(fp16));
    fill_input(s, 21);
    const std::vector<uint8_t> expected = reference_output(m, fp16, &s);
    npudrv::Device& dev = backend_of(s).context().device;
    npudrv::Buffer user = dev.create_buffer(64 * 1024, npudrv::kBufferZeroed);
    NativeTensor n;
    npudrv::Buffer view;
    const uint8_t* native = nullptr;
    if (import) {
        const int fd = user.export_dmabuf();
        n = s.import_native_output(0, fd);
        dev.close_fd(fd);
        native = user.map();
    } else {
        n = s.export_native_output(0);
        view = dev.import_dmabuf(n.fd);  // as the consumer (display, encoder) of the fd would
        native = view.map();
    }
    EXPECT_EQ(n.c, spec.k);
    const TensorBinding& o = s.output(0);
    std::memset(o.data, 0xab, o.info.num_bytes());
    s.run();
    EXPECT_EQ(read_native(o.info, n, native), expected);
    const std::vector<uint8_t> untouched(o.info.num_bytes(), 0xab);
    EXPECT_EQ(output_bytes(s), untouched) << "a bound output was still converted into output(0).data";
    uint64_t converted = 0;
    for (const auto& seg : backend_of(s).segments()) converted += seg->output_conversions();
    EXPECT_EQ(converted, 0u);
    EXPECT_EQ(conversions(s), 1u);  // the input still goes the normal way
}

TEST(NpuNativeOutput, ExportedInt8OutputMatchesTheNhwcPathBitExact) { check_output(conv(DataType::QAsymmU8, 8, 8, 16), false, false); }
TEST(NpuNativeOutput, ImportedInt8OutputMatchesTheNhwcPathBitExact) { check_output(conv(DataType::QAsymmS8, 6, 5, 20), false, true); }
TEST(NpuNativeOutput, ExportedFp16OutputMatchesTheNhwcPathBitExact) { check_output(conv(DataType::Float32, 8, 8, 12), true, false); }
TEST(NpuNativeOutput, ImportedFp16OutputMatchesTheNhwcPathBitExact) { check_output(conv(DataType::Float32, 7, 9, 8), true, true); }

TEST(NpuNativeOutput, InputAndOutputBoundTogetherNeedNoConversionAtAll) {
    const ConvSpec spec = conv(DataType::QAsymmU8, 8, 8, 16);
    const auto m = conv_model(spec);
    Session s(m, sim_options(false));
    fill_input(s, 8);
    const std::vector<uint8_t> expected = reference_output(m, false, &s);
    npudrv::Device& dev = backend_of(s).context().device;
    const NativeTensor in = s.export_native_input(0);
    const NativeTensor out = s.export_native_output(0);
    write_native(s.input(0), in, static_cast<uint8_t*>(in.data));
    s.run();
    npudrv::Buffer view = dev.import_dmabuf(out.fd);
    EXPECT_EQ(read_native(s.output(0).info, out, view.map()), expected);
    EXPECT_EQ(conversions(s), 0u);
    EXPECT_EQ(backend_of(s).segments()[0]->output_conversions(), 0u);
}

TEST(NpuNativeOutput, ImportedBuffersWithAConvolutionSplitOverThreeCores) {
    // Every lane's chain addresses the imported buffers (the regcmd of all lanes is re-emitted at bind time).
    ConvSpec spec;
    spec.h = spec.w = 20, spec.c = 32, spec.k = 192;
    const auto m = conv_model(spec);
    SessionOptions so = sim_options(false);
    so.npu_cores = 3;
    Session s(m, so);
    ASSERT_EQ(backend_of(s).segments().size(), 1u);
    ASSERT_EQ(backend_of(s).segments()[0]->lane_count(), 3u);
    fill_input(s, 4);
    Session ref(m, so);
    std::memcpy(ref.input(0).data, s.input(0).data, s.input(0).info.num_bytes());
    ref.run();
    npudrv::Device& dev = backend_of(s).context().device;
    npudrv::Buffer in_buf = dev.create_buffer(256 * 1024, npudrv::kBufferZeroed);
    npudrv::Buffer out_buf = dev.create_buffer(256 * 1024, npudrv::kBufferZeroed);
    const int in_fd = in_buf.export_dmabuf(), out_fd = out_buf.export_dmabuf();
    const NativeTensor in = s.import_native_input(0, in_fd);
    const NativeTensor out = s.import_native_output(0, out_fd);
    dev.close_fd(in_fd);
    dev.close_fd(out_fd);
    write_native(s.input(0), in, in_buf.map());
    s.run();
    EXPECT_EQ(read_native(s.output(0).info, out, out_buf.map()), output_bytes(ref));
    EXPECT_EQ(conversions(s), 0u);
}

TEST(NpuNativeOutput, TooSmallOrCpuProducedOutputIsRefused) {
    const auto m = conv_model(conv(DataType::QAsymmU8, 32, 32, 16));  // 24 channels out: 2 int8 planes, 32 KiB
    Session s(m, sim_options(false));
    npudrv::Device& dev = backend_of(s).context().device;
    npudrv::Buffer user = dev.create_buffer(16384, 0);
    const int fd = user.export_dmabuf();
    ErrorKind k = ErrorKind::Internal;
    std::string msg = error_of([&] { s.import_native_output(0, fd); }, &k);
    dev.close_fd(fd);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("output 'conv_act'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("holds 16384 bytes; its NPU layout needs 32768"), std::string::npos) << msg;

    Session cpu_placed(conv_model(conv(DataType::Float32, 8, 8, 16)), sim_options(false));
    msg = error_of([&] { cpu_placed.export_native_output(0); }, &k);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("cannot be bound to a dma-buf: it is produced by"), std::string::npos) << msg;
    EXPECT_NE(msg.find("on the CPU"), std::string::npos) << msg;
}

TEST(NpuNativeInput, UnboundSessionStillConvertsEveryRun) {
    const auto m = conv_model(conv(DataType::QAsymmU8, 8, 8, 16));
    Session s(m, sim_options(false));
    fill_input(s, 3);
    s.run();
    s.run();
    EXPECT_EQ(conversions(s), 2u);
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

TEST(NpuNativeInput, NegativeFdIsRefusedNotTakenAsExport) {
    Session s(conv_model(conv(DataType::QAsymmU8, 8, 8, 16)), sim_options(false));
    for (int fd : {-1, -2}) {
        ErrorKind k = ErrorKind::Internal;
        const std::string msg = error_of([&] { s.import_native_input(0, fd); }, &k);
        EXPECT_EQ(k, ErrorKind::BadInput);
        EXPECT_NE(msg.find("is not a dma-buf file descriptor"), std::string::npos) << msg;
        const std::string out_msg = error_of([&] { s.import_native_output(0, fd); }, &k);
        EXPECT_NE(out_msg.find("is not a dma-buf file descriptor"), std::string::npos) << out_msg;
    }
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
    add_output_binding(g, "second", 1, z);
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
    Session s(conv_model(conv(DataType::QAsymmU8, 8, 8, 16)), cpu_options());
    ErrorKind k = ErrorKind::Internal;
    const std::string msg = error_of([&] { s.export_native_input(0); }, &k);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("the session runs on the CPU"), std::string::npos) << msg;
}

}  // namespace

// An RGB input whose 3x3/2 windows the host packs for the first convolution (runtime/npu/window_packing.h):
// its NPU buffer holds the windows, not the tensor, so it cannot be bound; every run converts it.
TEST(NpuNativeInput, HostPackedFirstLayerInputIsRefusedWithTheReason) {
    ConvSpec spec = conv(DataType::QAsymmU8, 16, 16, 3);
    spec.stride = 2;
    Session s(conv_model(spec), sim_options(false));
    ErrorKind k = ErrorKind::Internal;
    const std::string msg = error_of([&] { s.export_native_input(0); }, &k);
    EXPECT_EQ(k, ErrorKind::BadInput);
    EXPECT_NE(msg.find("holds the first convolution's input windows packed on the host"), std::string::npos) << msg;
    fill_input(s, 5);
    s.run();
    EXPECT_EQ(conversions(s), 1u);
}
