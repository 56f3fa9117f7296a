// DPU (BS / CPEND / BN / EW / output converter / write DMA) with its read DMA (DPU_RDMA).
// Stage order follows NVDLA's SDP, the best model available (reference §11): CPEND -> BS -> BN -> EW -> CVT.
#include "drv/sim/sim_arithmetic.h"
#include "drv/sim/sim_internal.h"
#include "drv/sim/sim_vector.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace npudrv::sim::detail {

namespace rc = npudrv::regcmd;
namespace f = npudrv::regcmd::f;

namespace {

struct ChannelOperands {
    bool has_alu = false, has_cpend = false, has_mul = false;
    std::vector<int64_t> alu_i, cpend, mul_i;
    std::vector<float> alu_f, mul_f;
};

// BS/BN operand stream (BRDMA/NRDMA): per output channel, the operands selected by DATA_USE in bit
// order — b0 ALU (4 bytes: int32, or fp32 bits on float pipelines), b1 CPEND (int16), b2 MUL (int16, or
// fp16 on float pipelines); b3 (TRT) is not modelled. CHOICE following the RK3568 vendor layout
// [i32 bias][i16 ow][i16 mul] (reference §4.5).
ChannelOperands read_stream(TaskExec& t, uint32_t addr, uint32_t data_use, uint32_t channels, bool fl, const char* what) {
    ChannelOperands o;
    if (data_use & 0x8) t.unmodelled(std::string(what) + " DATA_USE TRT operand");
    o.has_alu = data_use & 1;
    o.has_cpend = data_use & 2;
    o.has_mul = data_use & 4;
    const uint32_t per = (o.has_alu ? 4 : 0) + (o.has_cpend ? 2 : 0) + (o.has_mul ? 2 : 0);
    if (per == 0) t.invalid(std::string(what) + " operand from memory but DATA_USE selects nothing");
    const uint8_t* p = t.dma_read(addr, uint64_t{per} * channels, what);
    for (uint32_t c = 0; c < channels; ++c) {
        const uint8_t* e = p + size_t{c} * per;
        if (o.has_alu) {
            if (fl) o.alu_f.push_back(load_float(e, kFp32)); else o.alu_i.push_back(load_int(e, kInt32));
            e += 4;
        }
        if (o.has_cpend) {
            o.cpend.push_back(load_int(e, kInt16));
            e += 2;
        }
        if (o.has_mul) {
            if (fl) o.mul_f.push_back(load_float(e, kFp16)); else o.mul_i.push_back(load_int(e, kInt16));
        }
    }
    return o;
}

float bits_to_float(uint32_t v) {
    const uint8_t b[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
                          static_cast<uint8_t>(v >> 24)};
    return load_float(b, kFp32);
}
float fp16_bits_to_float(uint32_t v) {
    const uint8_t b[2] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)};
    return load_float(b, kFp16);
}

// One BS or BN stage (identical structure, different registers).
struct StageRegs {
    const char* name;
    uint16_t cfg, alu_cfg, mul_cfg, relux;
};

// A BS or BN stage's registers, decoded once per task.
struct BsBnConfig {
    bool bypass, alu_bypass, mul_bypass, relu_bypass, relux, prelu, alu_mem, mul_mem;
    uint32_t algo, shift, alu_reg, mul_reg, relux_reg;
};

// The field definitions of one stage, looked up by name once per process (BS and BN differ by prefix only).
struct BsBnFields {
    const rc::FieldDef *bypass, *alu_bypass, *mul_bypass, *relu_bypass, *relux, *prelu, *algo, *alu_src;
    const rc::FieldDef *mul_src, *shift, *truncate_src, *mul_operand;
};

BsBnFields find_bs_bn_fields(const StageRegs& s) {
    const std::string p = s.name;
    auto cf = [&](const char* n) { return rc::find_field(s.cfg, p + n); };
    auto mf = [&](const char* n) { return rc::find_field(s.mul_cfg, p + n); };
    return BsBnFields{cf("_BYPASS"), cf("_ALU_BYPASS"), cf("_MUL_BYPASS"), cf("_RELU_BYPASS"), cf("_RELUX_EN"),
                      cf("_MUL_PRELU"), cf("_ALU_ALGO"), cf("_ALU_SRC"), mf("_MUL_SRC"), mf("_MUL_SHIFT_VALUE"),
                      mf("_TRUNCATE_SRC"), mf("_MUL_OPERAND")};
}

BsBnConfig decode_bs_bn(TaskExec& t, const StageRegs& s, bool is_float, const ChannelOperands* stream) {
    static const BsBnFields bs_fields = find_bs_bn_fields(
        StageRegs{"BS", rc::regs::DPU_BS_CFG::offset, rc::regs::DPU_BS_ALU_CFG::offset, rc::regs::DPU_BS_MUL_CFG::offset, 0});
    static const BsBnFields bn_fields = find_bs_bn_fields(
        StageRegs{"BN", rc::regs::DPU_BN_CFG::offset, rc::regs::DPU_BN_ALU_CFG::offset, rc::regs::DPU_BN_MUL_CFG::offset, 0});
    const BsBnFields& fd = s.cfg == rc::regs::DPU_BS_CFG::offset ? bs_fields : bn_fields;
    const std::string p = s.name;
    const uint32_t cfg = t.raw(s.cfg), mulcfg = t.raw(s.mul_cfg);
    BsBnConfig c{};
    c.bypass = fd.bypass->extract(cfg);
    if (c.bypass) return c;
    c.alu_bypass = fd.alu_bypass->extract(cfg);
    c.mul_bypass = fd.mul_bypass->extract(cfg);
    c.relu_bypass = fd.relu_bypass->extract(cfg);
    c.relux = fd.relux->extract(cfg);
    c.prelu = fd.prelu->extract(cfg);
    c.algo = fd.algo->extract(cfg);
    c.alu_mem = fd.alu_src->extract(cfg);
    c.mul_mem = fd.mul_src->extract(mulcfg);
    c.shift = fd.shift->extract(mulcfg);
    if (fd.truncate_src->extract(mulcfg)) t.unmodelled(p + "_MUL_CFG.TRUNCATE_SRC");
    if (!c.alu_bypass && c.algo != 0 && c.algo != 1 && c.algo != 2 && c.algo != 4) t.unmodelled(p + " ALU algorithm " + std::to_string(c.algo));
    if ((c.alu_mem && !c.alu_bypass) || (c.mul_mem && !c.mul_bypass)) {
        if (stream == nullptr) t.invalid(p + " operand from memory but DPU_RDMA is not enabled");
        if (c.alu_mem && !c.alu_bypass && !stream->has_alu) t.invalid(p + " ALU operand from memory but the stream carries none");
        if (c.mul_mem && !c.mul_bypass && !stream->has_mul) t.invalid(p + " MUL operand from memory but the stream carries none");
    }
    if (is_float && c.shift != 0) t.unmodelled(p + " multiplier shift on a float pipeline");
    c.alu_reg = t.raw(s.alu_cfg);
    c.mul_reg = fd.mul_operand->extract(mulcfg);
    c.relux_reg = t.raw(s.relux);
    return c;
}

// One stage on one channel plane: ALU, multiplier (PReLU: negative values only), ReLU, ReLU-X, each a pass
// over the plane (every element goes through the same steps in the same order as one fused loop).
template <typename T, typename Mul>
void bs_bn_plane(const BsBnConfig& c, T* v, size_t n, T op, T relux_cmp, Mul mul) {
    if (!c.alu_bypass) {
        if (c.algo == 2) for (size_t i = 0; i < n; ++i) v[i] = v[i] + op;
        else if (c.algo == 4) for (size_t i = 0; i < n; ++i) v[i] = v[i] - op;
        else if (c.algo == 0) for (size_t i = 0; i < n; ++i) v[i] = std::max(v[i], op);
        else for (size_t i = 0; i < n; ++i) v[i] = std::min(v[i], op);
    }
    if (!c.mul_bypass) {
        if (c.prelu) {
            for (size_t i = 0; i < n; ++i)
                if (v[i] < 0) v[i] = mul(v[i]);
        } else {
            for (size_t i = 0; i < n; ++i) v[i] = mul(v[i]);
        }
    }
    if (!c.relu_bypass) for (size_t i = 0; i < n; ++i) v[i] = std::max(v[i], T{0});
    if (c.relux) for (size_t i = 0; i < n; ++i) v[i] = std::min(v[i], relux_cmp);
}

void run_bs_bn(TaskExec& t, const StageRegs& s, Cube& x, const ChannelOperands* stream) {
    const BsBnConfig cfg = decode_bs_bn(t, s, x.is_float, stream);
    if (cfg.bypass) return;
    const size_t plane = size_t{x.h} * x.w;
    for (uint32_t c = 0; c < x.c; ++c) {
        if (x.is_float) {
            const float op = cfg.alu_bypass ? 0.0f : cfg.alu_mem ? stream->alu_f[c] : bits_to_float(cfg.alu_reg);
            const float m = cfg.mul_bypass ? 0.0f : cfg.mul_mem ? stream->mul_f[c] : fp16_bits_to_float(cfg.mul_reg);
            bs_bn_plane<float>(cfg, x.f.data() + c * plane, plane, op, bits_to_float(cfg.relux_reg), [m](float v) { return v * m; });
        } else {
            const int64_t op = cfg.alu_bypass ? 0 : cfg.alu_mem ? stream->alu_i[c] : static_cast<int32_t>(cfg.alu_reg);
            const int64_t m = cfg.mul_bypass ? 0 : cfg.mul_mem ? stream->mul_i[c] : static_cast<int16_t>(cfg.mul_reg);
            const uint32_t shift = cfg.shift;
            bs_bn_plane<int64_t>(cfg, x.i.data() + c * plane, plane, op, static_cast<int32_t>(cfg.relux_reg),
                                 [m, shift](int64_t v) { return arith::round_shift(v * m, shift); });
        }
    }
}

// Reads a cube stored NC1HWC2 (16-byte atoms, row pitch W*16) at addr with the given plane pitch.
void read_cube(TaskExec& t, Cube& out, uint32_t addr, uint64_t plane_pitch, uint32_t precision, const char* what) {
    const uint32_t c2 = atom_channels(precision), bpe = bytes_of(precision);
    const uint32_t planes = (out.c + c2 - 1) / c2;
    const uint64_t span = uint64_t{out.h} * out.w * 16;
    if (planes > 1 && plane_pitch < span) t.invalid(std::string(what) + " plane pitch below one plane");
    for (uint32_t p = 0; p < planes; ++p) {
        const uint8_t* base = t.dma_read(addr + p * plane_pitch, span, what);
        if (out.is_float && precision == kFp16 && (p + 1) * c2 <= out.c) {
            // A full fp16 atom plane: the vector widening (same values as load_float).
            vec::widen_fp16_plane(base, uint64_t{out.w} * 16, out.h, out.w, &out.f[out.index(p * c2, 0, 0)], size_t{out.h} * out.w);
            continue;
        }
        for (uint32_t y = 0; y < out.h; ++y)
            for (uint32_t x = 0; x < out.w; ++x)
                for (uint32_t e = 0; e < c2 && p * c2 + e < out.c; ++e) {
                    const uint8_t* q = base + (uint64_t{y} * out.w + x) * 16 + e * bpe;
                    const size_t idx = out.index(p * c2 + e, y, x);
                    if (out.is_float) out.f[idx] = load_float(q, precision); else out.i[idx] = load_int(q, precision);
                }
    }
}

}  // namespace

// EW stage: the operand (per channel or per pixel through ERDMA, or the register value) through its converter,
// the ALU / multiplier, the lookup table (sim_lut.cpp), then the EW ReLU / ReLU-X.
void run_ew(TaskExec& t, Cube& x, bool rdma, uint32_t Ch, uint32_t H, uint32_t W) {
    const bool fl = x.is_float;
    if (t.get(f::DPU_EW_BYPASS) == 0) {
        const bool op_bypass = t.get(f::DPU_EW_OP_BYPASS);
        Cube e;
        if (!op_bypass) {
            e.resize(Ch, H, W, fl);
            if (t.get(f::DPU_EW_OP_SRC)) {
                if (!rdma) t.invalid("EW operand from memory but DPU_RDMA is not enabled");
                if (t.get(f::RDMA_ERDMA_DISABLE)) t.invalid("EW operand from memory but ERDMA_DISABLE is set");
                t.require(f::RDMA_ERDMA_DATA_MODE, {0, 1}, "only per-channel and per-pixel EW operands are modelled");
                if (t.get(f::DPU_EW_DATA_MODE) != t.get(f::RDMA_ERDMA_DATA_MODE)) t.invalid("EW_DATA_MODE differs from ERDMA_DATA_MODE");
                const bool per_channel = t.get(f::RDMA_ERDMA_DATA_MODE) == 0;
                const uint32_t size = t.get(f::RDMA_ERDMA_DATA_SIZE);
                if (t.get(f::DPU_EDATA_SIZE) != size) t.invalid("EDATA_SIZE differs from ERDMA_DATA_SIZE");
                uint32_t eprec = 0;
                if (fl && size == 2) eprec = kFp16;
                else if (!fl && size == 1) eprec = kInt8;
                else if (!fl && size == 2) eprec = kInt16;
                else t.unmodelled("EW operand size code " + std::to_string(size) + " on this pipeline");
                const uint32_t stride_atoms = t.get(f::RDMA_EW_SURF_STRIDE);
                if (per_channel) {
                    // CHOICE: one value per channel stored as a 1x1 NC1HWC2 map with plane pitch EW_SURF_STRIDE
                    // atoms; the TRM's EW_SURF_STRIDE = 1 for per-channel operands makes it C contiguous elements.
                    Cube pc;
                    pc.resize(Ch, 1, 1, fl);
                    read_cube(t, pc, t.get(f::RDMA_EW_BASE), uint64_t{stride_atoms} * 16, eprec, "ERDMA per-channel EW operand");
                    for (uint32_t c = 0; c < Ch; ++c)
                        for (size_t i = 0; i < size_t{H} * W; ++i) {
                            if (fl) e.f[c * size_t{H} * W + i] = pc.f[c]; else e.i[c * size_t{H} * W + i] = pc.i[c];
                        }
                } else {
                    const uint64_t pitch = stride_atoms ? uint64_t{stride_atoms} * 16 : uint64_t{W} * H * 16;
                    read_cube(t, e, t.get(f::RDMA_EW_BASE), pitch, eprec, "ERDMA EW operand");
                }
            } else {
                const uint32_t v = t.get(f::DPU_EW_OPERAND_0);
                for (size_t i = 0; i < (fl ? e.f.size() : e.i.size()); ++i) {
                    if (fl) e.f[i] = bits_to_float(v); else e.i[i] = static_cast<int32_t>(v);
                }
            }
            // Operand converter.
            if (t.get(f::DPU_EW_OP_CVT_BYPASS) == 0) {
                const uint32_t scale = t.get(f::DPU_EW_CVT_SCALE), shift = t.get(f::DPU_EW_CVT_SHIFT);
                const auto offset = static_cast<int32_t>(t.get(f::DPU_EW_CVT_OFFSET));
                if (fl) {
                    if (scale != 1 || shift != 0 || offset != 0) t.unmodelled("EW operand converter with scale/shift/offset on a float pipeline");
                } else {
                    for (auto& v : e.i) v = arith::out_convert(v, t.get(f::DPU_EW_CVT_TYPE) ? 1 : 0, scale, shift, offset);
                }
            }
            const bool mul = t.get(f::DPU_EW_OP_TYPE);
            const uint32_t algo = t.get(f::DPU_EW_ALU_ALGO);
            const uint32_t trunc = t.get(f::DPU_EW_TRUNCATE);
            if (!mul && algo != 0 && algo != 1 && algo != 2 && algo != 4 && !(fl && algo == 3)) t.unmodelled("EW ALU algorithm " + std::to_string(algo));
            if (fl && trunc != 0) t.unmodelled("EW_TRUNCATE on a float pipeline");
            if (!mul && trunc != 0) t.unmodelled("EW_TRUNCATE with an ALU operation");
            const size_t n = size_t{Ch} * H * W;
            for (size_t i = 0; i < n; ++i) {
                if (fl) {
                    const float a = x.f[i], b = e.f[i];
                    x.f[i] = mul ? a * b : algo == 0 ? std::max(a, b) : algo == 1 ? std::min(a, b) : algo == 2 ? a + b : algo == 3 ? a / b : a - b;
                } else {
                    const int64_t a = x.i[i], b = e.i[i];
                    x.i[i] = mul ? arith::round_shift(a * b, trunc) : algo == 0 ? std::max(a, b) : algo == 1 ? std::min(a, b) : algo == 2 ? a + b : a - b;
                }
            }
        }
        // The lookup table closes the operand's part of the stage (dpu_lut.h L3).
        if (t.get(f::DPU_EW_LUT_BYPASS) == 0) run_lut(t, x);
        if (t.get(f::DPU_EW_RELU_BYPASS) == 0) {
            for (size_t i = 0; i < size_t{Ch} * H * W; ++i) {
                if (fl) x.f[i] = std::max(x.f[i], 0.0f); else x.i[i] = std::max<int64_t>(x.i[i], 0);
            }
        }
        if (t.get(f::DPU_EW_RELUX_EN)) {
            const uint32_t v = t.get(f::DPU_EW_RELUX_CMP);
            for (size_t i = 0; i < size_t{Ch} * H * W; ++i) {
                if (fl) x.f[i] = std::min(x.f[i], bits_to_float(v)); else x.i[i] = std::min<int64_t>(x.i[i], static_cast<int32_t>(v));
            }
        }
    }

}

// Output converter + write DMA.
void write_output(TaskExec& t, const Cube& x, uint32_t Ch, uint32_t H, uint32_t W) {
    const bool fl = x.is_float;
    const uint32_t out_prec = t.get(f::DPU_OUT_PRECISION);
    const uint32_t scale = t.get(f::DPU_OUT_CVT_SCALE), shift = t.get(f::DPU_OUT_CVT_SHIFT);
    const auto offset = static_cast<int32_t>(t.get(f::DPU_OUT_CVT_OFFSET));
    if (fl) {
        if (out_prec != kFp16 && out_prec != kFp32) t.unmodelled("float pipeline to output precision " + std::to_string(out_prec));
        if (scale != 1 || shift != 0 || offset != 0) t.unmodelled("output converter scale/shift/offset on a float pipeline (only identity is modelled)");
        if (t.get(f::DPU_FP32TOFP16_EN) != (out_prec == kFp16 ? 1u : 0u)) t.invalid("FP32TOFP16_EN disagrees with the output precision");
    } else {
        if (out_prec != kInt8 && out_prec != kInt16 && out_prec != kInt32) t.unmodelled("integer pipeline to output precision " + std::to_string(out_prec));
        if (t.get(f::DPU_FP32TOFP16_EN)) t.invalid("FP32TOFP16_EN on an integer pipeline");
    }
    const uint32_t oc2 = atom_channels(out_prec), obpe = bytes_of(out_prec);
    const uint64_t surf = uint64_t{t.get(f::DPU_DST_SURF_STRIDE)} * 16;
    const uint32_t planes = (Ch + oc2 - 1) / oc2;
    const uint64_t span = uint64_t{H} * W * 16;
    if (planes > 1 && surf < span) t.invalid("DST_SURF_STRIDE below one output plane of the task");
    // Empirical invariant of every known stream: SURF_ADD = (SIZE_E+1) * DST_SURF_STRIDE (reference §4.2).
    if (t.regs().written(rc::regs::DPU_SURFACE_ADD::offset) && t.regs().written(rc::regs::DPU_BS_OW_CFG::offset)) {
        const uint32_t m = t.get(f::DPU_SIZE_E_0) + 1;
        if (t.get(f::DPU_SIZE_E_1) + 1 != m || t.get(f::DPU_SIZE_E_2) + 1 != m ||
            uint64_t{t.get(f::DPU_SURF_ADD)} != uint64_t{m} * t.get(f::DPU_DST_SURF_STRIDE)) {
            t.invalid("SURFACE_ADD != (SIZE_E+1) * DST_SURF_STRIDE");
        }
    }
    const uint32_t dst = t.get(f::DPU_DST_BASE);
    const size_t plane = size_t{H} * W;
    // Integer pipeline: the output converter and saturation per channel plane (registers read once).
    const uint32_t cvt_type = fl ? 0 : t.get(f::DPU_OUT_CVT_TYPE);
    const int64_t lo = int_min(out_prec), hi = int_max(out_prec);
    PooledVector<int64_t> conv_i;
    conv_i.pooled_resize(fl ? 0 : plane);
    for (uint32_t p = 0; p < planes; ++p) {
        uint8_t* base = t.dma_write(dst + p * surf, span, "DPU output");
        if (fl) {
            // Atom by atom (each 16-byte atom written once, in address order), its channels inside.
            const uint32_t ne = std::min(oc2, Ch - p * oc2);
            const float* src = x.f.data() + size_t{p} * oc2 * plane;
            if (out_prec == kFp16 && ne == oc2) {
                vec::narrow_fp16_atoms(src, plane, plane, base);
                continue;
            }
            for (size_t i = 0; i < plane; ++i)
                for (uint32_t e = 0; e < ne; ++e) store_float(base + i * 16 + e * obpe, out_prec, src[e * plane + i]);
            continue;
        }
        for (uint32_t e = 0; e < oc2 && p * oc2 + e < Ch; ++e) {
            const size_t c = size_t{p} * oc2 + e;
            uint8_t* q = base + e * obpe;
            const int64_t* src = x.i.data() + c * plane;
            if (cvt_type == 0) {
                for (size_t i = 0; i < plane; ++i) conv_i[i] = arith::saturate(arith::out_convert(src[i], 0, scale, shift, offset), lo, hi);
            } else {
                for (size_t i = 0; i < plane; ++i) conv_i[i] = arith::saturate(arith::out_convert(src[i], 1, scale, shift, offset), lo, hi);
            }
            if (out_prec == kInt8) {
                for (size_t i = 0; i < plane; ++i) q[i * 16] = static_cast<uint8_t>(static_cast<int8_t>(conv_i[i]));
            } else {
                for (size_t i = 0; i < plane; ++i) store_int(q + i * 16, out_prec, conv_i[i]);
            }
        }
    }
}

void run_dpu(TaskExec& t, ConvResult* conv) {
    const bool rdma = t.op_en() & rc::kEnDpuRdma;
    t.check_block(0x4000, 0x4FFC,
                  {rc::regs::DPU_S_POINTER::POINTER_PP_MODE, rc::regs::DPU_S_POINTER::EXECUTER_PP_EN,
                   rc::regs::DPU_S_POINTER::POINTER_PP_EN, rc::regs::DPU_FEATURE_MODE_CFG::BURST_LEN,
                   f::DPU_CONV_MODE, f::DPU_OUTPUT_MODE, f::DPU_FLYING_MODE, f::DPU_OUT_PRECISION, f::DPU_IN_PRECISION,
                   f::DPU_PROC_PRECISION, f::DPU_DST_BASE, f::DPU_DST_SURF_STRIDE, f::DPU_WIDTH, f::DPU_HEIGHT,
                   f::DPU_ORIG_CHANNEL, f::DPU_CHANNEL, f::DPU_SIZE_E_0, f::DPU_SIZE_E_1, f::DPU_SIZE_E_2,
                   f::DPU_OD_BYPASS, f::DPU_OW_SRC, f::DPU_OW_OP, f::DPU_CHANNEL_WDMA, f::DPU_HEIGHT_WDMA,
                   f::DPU_WIDTH_WDMA, f::DPU_SURF_ADD,
                   // BS / BN
                   rc::regs::DPU_BS_CFG::BS_ALU_ALGO, rc::regs::DPU_BS_CFG::BS_ALU_SRC,
                   rc::regs::DPU_BS_CFG::BS_RELUX_EN, rc::regs::DPU_BS_CFG::BS_RELU_BYPASS,
                   rc::regs::DPU_BS_CFG::BS_MUL_PRELU, rc::regs::DPU_BS_CFG::BS_MUL_BYPASS,
                   rc::regs::DPU_BS_CFG::BS_ALU_BYPASS, rc::regs::DPU_BS_CFG::BS_BYPASS,
                   rc::regs::DPU_BS_ALU_CFG::BS_ALU_OPERAND, rc::regs::DPU_BS_MUL_CFG::BS_MUL_OPERAND,
                   rc::regs::DPU_BS_MUL_CFG::BS_MUL_SHIFT_VALUE, rc::regs::DPU_BS_MUL_CFG::BS_MUL_SRC,
                   rc::regs::DPU_BS_MUL_CFG::BS_TRUNCATE_SRC,
                   rc::regs::DPU_BS_RELUX_CMP_VALUE::BS_RELUX_CMP_DAT, rc::regs::DPU_BN_CFG::BN_ALU_ALGO,
                   rc::regs::DPU_BN_CFG::BN_ALU_SRC, rc::regs::DPU_BN_CFG::BN_RELUX_EN,
                   rc::regs::DPU_BN_CFG::BN_RELU_BYPASS, rc::regs::DPU_BN_CFG::BN_MUL_PRELU,
                   rc::regs::DPU_BN_CFG::BN_MUL_BYPASS, rc::regs::DPU_BN_CFG::BN_ALU_BYPASS,
                   rc::regs::DPU_BN_CFG::BN_BYPASS, rc::regs::DPU_BN_ALU_CFG::BN_ALU_OPERAND,
                   rc::regs::DPU_BN_MUL_CFG::BN_MUL_OPERAND, rc::regs::DPU_BN_MUL_CFG::BN_MUL_SHIFT_VALUE,
                   rc::regs::DPU_BN_MUL_CFG::BN_MUL_SRC, rc::regs::DPU_BN_MUL_CFG::BN_TRUNCATE_SRC,
                   rc::regs::DPU_BN_RELUX_CMP_VALUE::BN_RELUX_CMP_DAT,
                   // EW
                   f::DPU_EW_CVT_TYPE, f::DPU_EW_DATA_MODE, f::DPU_EDATA_SIZE, f::DPU_EW_ALU_ALGO,
                   f::DPU_EW_RELUX_EN, f::DPU_EW_RELU_BYPASS, f::DPU_EW_OP_CVT_BYPASS, f::DPU_EW_LUT_BYPASS,
                   f::DPU_EW_OP_SRC, f::DPU_EW_OP_TYPE, f::DPU_EW_OP_BYPASS, f::DPU_EW_BYPASS, f::DPU_EW_CVT_OFFSET,
                   f::DPU_EW_TRUNCATE, f::DPU_EW_CVT_SHIFT, f::DPU_EW_CVT_SCALE, f::DPU_EW_RELUX_CMP,
                   f::DPU_EW_OPERAND_0,
                   // lookup table (dpu_lut.h; CAL_SEL, EXPAND_EN and ROAD_SEL are not modelled)
                   rc::regs::DPU_LUT_ACCESS_CFG::LUT_ACCESS_TYPE, rc::regs::DPU_LUT_ACCESS_CFG::LUT_TABLE_ID,
                   rc::regs::DPU_LUT_ACCESS_CFG::LUT_ADDR, rc::regs::DPU_LUT_ACCESS_DATA::LUT_ACCESS_DATA,
                   rc::regs::DPU_LUT_CFG::LUT_HYBRID_PRIORITY, rc::regs::DPU_LUT_CFG::LUT_OFLOW_PRIORITY,
                   rc::regs::DPU_LUT_CFG::LUT_UFLOW_PRIORITY, rc::regs::DPU_LUT_CFG::LUT_LO_LE_MUX,
                   rc::regs::DPU_LUT_INFO::LUT_LO_INDEX_SELECT, rc::regs::DPU_LUT_INFO::LUT_LE_INDEX_SELECT,
                   rc::regs::DPU_LUT_LE_START::LUT_LE_START, rc::regs::DPU_LUT_LE_END::LUT_LE_END,
                   rc::regs::DPU_LUT_LO_START::LUT_LO_START, rc::regs::DPU_LUT_LO_END::LUT_LO_END,
                   rc::regs::DPU_LUT_LE_SLOPE_SCALE::LUT_LE_SLOPE_OFLOW_SCALE,
                   rc::regs::DPU_LUT_LE_SLOPE_SCALE::LUT_LE_SLOPE_UFLOW_SCALE,
                   rc::regs::DPU_LUT_LE_SLOPE_SHIFT::LUT_LE_SLOPE_OFLOW_SHIFT,
                   rc::regs::DPU_LUT_LE_SLOPE_SHIFT::LUT_LE_SLOPE_UFLOW_SHIFT,
                   rc::regs::DPU_LUT_LO_SLOPE_SCALE::LUT_LO_SLOPE_OFLOW_SCALE,
                   rc::regs::DPU_LUT_LO_SLOPE_SCALE::LUT_LO_SLOPE_UFLOW_SCALE,
                   rc::regs::DPU_LUT_LO_SLOPE_SHIFT::LUT_LO_SLOPE_OFLOW_SHIFT,
                   rc::regs::DPU_LUT_LO_SLOPE_SHIFT::LUT_LO_SLOPE_UFLOW_SHIFT,
                   // output converter
                   f::DPU_OUT_CVT_OFFSET, f::DPU_FP32TOFP16_EN, f::DPU_OUT_CVT_SCALE, f::DPU_OUT_CVT_TYPE,
                   f::DPU_OUT_CVT_SHIFT});
    if (rdma) {
        t.check_block(0x5000, 0x5FFC,
                      {rc::regs::DPU_RDMA_S_POINTER::POINTER_PP_MODE, rc::regs::DPU_RDMA_S_POINTER::EXECUTER_PP_EN,
                       rc::regs::DPU_RDMA_S_POINTER::POINTER_PP_EN, f::RDMA_WIDTH, f::RDMA_HEIGHT, f::RDMA_CHANNEL,
                       f::RDMA_SRC_BASE, f::RDMA_BRDMA_DATA_USE, f::RDMA_BS_BASE, f::RDMA_NRDMA_DATA_USE, f::RDMA_BN_BASE,
                       f::RDMA_ERDMA_DATA_MODE, f::RDMA_ERDMA_DATA_SIZE, f::RDMA_ERDMA_DISABLE,
                       rc::regs::DPU_RDMA_ERDMA_CFG::OV4K_BYPASS, f::RDMA_EW_BASE, f::RDMA_EW_SURF_STRIDE,
                       f::RDMA_IN_PRECISION, rc::regs::DPU_RDMA_FEATURE_MODE_CFG::BURST_LEN, f::RDMA_PROC_PRECISION,
                       f::RDMA_MRDMA_DISABLE, f::RDMA_MRDMA_FP16TOFP32, f::RDMA_CONV_MODE, f::RDMA_FLYING_MODE,
                       f::RDMA_SURF_NOTCH, rc::regs::DPU_RDMA_WEIGHT::E_WEIGHT, rc::regs::DPU_RDMA_WEIGHT::N_WEIGHT,
                       rc::regs::DPU_RDMA_WEIGHT::B_WEIGHT, rc::regs::DPU_RDMA_WEIGHT::M_WEIGHT});
    }
    const bool flying = conv == nullptr;
    if (t.get(f::DPU_FLYING_MODE) != (flying ? 1u : 0u)) {
        t.invalid(flying ? "DPU-only task (op_en 0x18) without DPU FLYING_MODE" : "conv task with DPU FLYING_MODE set");
    }
    t.require(f::DPU_OUTPUT_MODE, {2}, "only 'write to memory' is modelled (PPU pipelining is not)");

    const uint32_t W = t.get(f::DPU_WIDTH) + 1, H = t.get(f::DPU_HEIGHT) + 1, Ch = t.get(f::DPU_CHANNEL) + 1;
    const uint32_t orig = t.get(f::DPU_ORIG_CHANNEL) + 1;
    if (orig > Ch) t.invalid("DPU ORIG_CHANNEL above CHANNEL");
    if (t.regs().written(f::DPU_CHANNEL_WDMA.reg) && t.get(f::DPU_CHANNEL_WDMA) != Ch - 1) t.invalid("WDMA channels != cube channels");
    if (t.regs().written(f::DPU_WIDTH_WDMA.reg) && (t.get(f::DPU_WIDTH_WDMA) != W - 1 || t.get(f::DPU_HEIGHT_WDMA) != H - 1)) {
        t.invalid("WDMA size != cube size");
    }
    t.check_size(uint64_t{W} * H * Ch, "DPU cube");
    uint32_t in_prec = 0;
    Cube x;
    if (!flying) {
        in_prec = t.get(f::CNA_PROC_PRECISION);
        if (t.get(f::DPU_CONV_MODE) != t.get(f::CNA_CONV_MODE)) t.invalid("DPU CONV_MODE differs from CNA");
        if (conv->acc.w != W || conv->acc.h != H || conv->acc.c != Ch) t.invalid("DPU cube differs from the CORE output size");
        if (t.get(f::DPU_IN_PRECISION) != in_prec || t.get(f::DPU_PROC_PRECISION) != in_prec) t.invalid("DPU input/proc precision differs from CNA");
        x = std::move(conv->acc);
        // CPEND (weight offset) stage on the raw accumulator.
        if (t.get(f::DPU_OD_BYPASS) == 0) {
            if (x.is_float) t.unmodelled("weight-offset (CPEND) stage on a float pipeline");
            if (t.get(f::DPU_OW_SRC) != 0) t.unmodelled("weight-offset operand from memory");
            const auto ow = static_cast<int16_t>(t.get(f::DPU_OW_OP));
            const size_t plane = size_t{x.h} * x.w;
            const size_t sum_channels = conv->per_channel_sums ? conv->window_sums.size() / plane : 1;
            for (uint32_t c = 0; c < x.c; ++c) {
                // Depthwise: channel c's own window sum; output channels past the input's have none (0).
                const int64_t* sums = conv->per_channel_sums ? (c < sum_channels ? &conv->window_sums[c * plane] : nullptr)
                                                             : conv->window_sums.data();
                if (sums == nullptr) continue;
                for (size_t i = 0; i < plane; ++i) x.i[c * plane + i] += arith::weight_offset_term(ow, sums[i]);
            }
        }
    } else {
        if (t.get(f::DPU_CONV_MODE) != 0) t.invalid("flying DPU task with a conv mode");
        if (t.get(f::RDMA_FLYING_MODE) != 1 || t.get(f::RDMA_MRDMA_DISABLE) != 0) t.invalid("DPU flying mode needs DPU_RDMA FLYING_MODE and MRDMA");
        if (t.get(f::RDMA_WIDTH) != W - 1 || t.get(f::RDMA_HEIGHT) != H - 1 || t.get(f::RDMA_CHANNEL) != Ch - 1) t.invalid("DPU_RDMA cube differs from the DPU cube");
        if (t.get(f::DPU_OD_BYPASS) == 0) t.unmodelled("weight-offset (CPEND) stage without a convolution");
        in_prec = t.get(f::RDMA_IN_PRECISION);
        if (in_prec != kInt8 && in_prec != kFp16) t.unmodelled("DPU_RDMA input precision " + std::to_string(in_prec));
        if (t.get(f::RDMA_PROC_PRECISION) != in_prec || t.get(f::DPU_IN_PRECISION) != in_prec || t.get(f::DPU_PROC_PRECISION) != in_prec) {
            t.invalid("DPU/DPU_RDMA precisions disagree");
        }
        if (in_prec == kFp16 && t.get(f::RDMA_MRDMA_FP16TOFP32) != 1) t.unmodelled("fp16 MRDMA input without FP16TOFP32 conversion");
        if (in_prec == kInt8 && t.get(f::RDMA_MRDMA_FP16TOFP32) != 0) t.invalid("FP16TOFP32 on int8 input");
        x.resize(Ch, H, W, is_float(in_prec));
        // MRDMA plane pitch: CHOICE from SURF_NOTCH's description ("from the end of the processed map to
        // the end of the full map"): plane = W*H atoms + SURF_NOTCH atoms.
        const uint64_t pitch = (uint64_t{W} * H + t.get(f::RDMA_SURF_NOTCH)) * 16;
        read_cube(t, x, t.get(f::RDMA_SRC_BASE), pitch, in_prec, "DPU_RDMA main input");
    }
    if (rdma && t.get(f::RDMA_CONV_MODE) != (flying ? 0u : t.get(f::CNA_CONV_MODE) == 3 ? 3u : 0u)) t.invalid("DPU_RDMA CONV_MODE differs");
    const bool fl = x.is_float;

    // BS and BN with their operand streams.
    const StageRegs bs{"BS", rc::regs::DPU_BS_CFG::offset, rc::regs::DPU_BS_ALU_CFG::offset, rc::regs::DPU_BS_MUL_CFG::offset, rc::regs::DPU_BS_RELUX_CMP_VALUE::offset};
    const StageRegs bn{"BN", rc::regs::DPU_BN_CFG::offset, rc::regs::DPU_BN_ALU_CFG::offset, rc::regs::DPU_BN_MUL_CFG::offset, rc::regs::DPU_BN_RELUX_CMP_VALUE::offset};
    ChannelOperands bs_stream, bn_stream;
    const bool bs_mem = !rc::regs::DPU_BS_CFG::BS_BYPASS.get(t.raw(bs.cfg)) &&
                        (rc::regs::DPU_BS_CFG::BS_ALU_SRC.get(t.raw(bs.cfg)) || rc::regs::DPU_BS_MUL_CFG::BS_MUL_SRC.get(t.raw(bs.mul_cfg)));
    const bool bn_mem = !rc::regs::DPU_BN_CFG::BN_BYPASS.get(t.raw(bn.cfg)) &&
                        (rc::regs::DPU_BN_CFG::BN_ALU_SRC.get(t.raw(bn.cfg)) || rc::regs::DPU_BN_MUL_CFG::BN_MUL_SRC.get(t.raw(bn.mul_cfg)));
    if (bs_mem && rdma) bs_stream = read_stream(t, t.get(f::RDMA_BS_BASE), t.get(f::RDMA_BRDMA_DATA_USE), Ch, fl, "BS operand stream");
    if (bn_mem && rdma) bn_stream = read_stream(t, t.get(f::RDMA_BN_BASE), t.get(f::RDMA_NRDMA_DATA_USE), Ch, fl, "BN operand stream");
    if (bs_stream.has_cpend) t.unmodelled("CPEND operand in the BS stream");
    run_bs_bn(t, bs, x, (bs_mem && rdma) ? &bs_stream : nullptr);
    run_bs_bn(t, bn, x, (bn_mem && rdma) ? &bn_stream : nullptr);

    run_ew(t, x, rdma, Ch, H, W);
    write_output(t, x, Ch, H, W);
}

}  // namespace npudrv::sim::detail
