// Register table consistency, writer -> decoder round trip for every register and field, PC tail layout.
#include "drv/regcmd/fields.h"
#include "drv/regcmd/regcmd_decoder.h"
#include "drv/regcmd/regcmd_writer.h"
#include "core/fp16.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <type_traits>

using namespace npudrv::regcmd;

TEST(RegisterTable, OffsetsUniqueAlignedAndFieldsWellFormed) {
    std::set<uint16_t> offsets;
    std::set<std::string> names;
    for (const RegisterDef& r : kRegisters) {
        EXPECT_TRUE(offsets.insert(r.offset).second) << r.name;
        EXPECT_TRUE(names.insert(r.name).second) << r.name;
        EXPECT_EQ(r.offset % 4, 0) << r.name;
        ASSERT_TRUE(block_of_offset(r.offset).has_value()) << r.name;
        EXPECT_EQ(*block_of_offset(r.offset), r.block) << r.name;
        EXPECT_GT(fields_of(r.offset).count, 0u) << r.name << " has no fields";
    }
    std::set<uint16_t> seen_done;
    uint16_t prev = 0xFFFF;
    for (const FieldDef& f : kFields) {
        ASSERT_NE(find_register(f.reg), nullptr) << f.name << " belongs to no register";
        EXPECT_LE(f.lsb, f.msb) << field_full_name(f);
        EXPECT_LE(f.msb, 31) << field_full_name(f);
        if (f.reg != prev) {  // a register's fields are contiguous in the table
            EXPECT_TRUE(seen_done.insert(f.reg).second) << "fields of " << find_register(f.reg)->name << " not contiguous";
            prev = f.reg;
        }
    }
    for (const RegisterDef& r : kRegisters) {  // fields of a register do not overlap, names unique
        uint32_t used = 0;
        std::set<std::string> fnames;
        for (const FieldDef& f : fields_of(r.offset)) {
            EXPECT_EQ(used & f.mask(), 0u) << field_full_name(f) << " overlaps";
            used |= f.mask();
            EXPECT_TRUE(fnames.insert(f.name).second) << field_full_name(f);
        }
    }
}

TEST(RegisterTable, ConstexprFieldHandlesMatchTheTable) {
    static_assert(f::CNA_CONV_MODE.reg == 0x100C && f::CNA_CONV_MODE.lsb == 0 && f::CNA_CONV_MODE.msb == 3);
    static_assert(f::DPU_OUT_PRECISION.lsb == 29 && f::DPU_OUT_PRECISION.msb == 31);
    static_assert(fetch_amount(108) == 55 && fetch_amount(26) == 14 && fetch_amount(13) == 8 && fetch_amount(17) == 10,
                  "vendor amounts (reference §2.3)");
    EXPECT_EQ(find_register("CORE_3030")->doc, Doc::Undocumented);
    EXPECT_EQ(find_register("DPU_40C4")->doc, Doc::Undocumented);
    EXPECT_EQ(find_field(reg("CNA_CONV_CON2"), "CON2_BIT30")->doc, Doc::Undocumented);
}

// Every field of every regcmd-writable register, written through the writer with its maximum value and
// with a value pattern, decodes to the same register name, field name and field value.
TEST(RegcmdRoundTrip, EveryRegisterAndField) {
    size_t fields_checked = 0, registers_checked = 0;
    for (const RegisterDef& r : kRegisters) {
        if (block_target(r.block) == 0) {
            RegcmdWriter w;
            w.begin_task(TaskKind::Conv);
            EXPECT_THROW(w.write(r.offset, 0), RegcmdError) << r.name << " is not a regcmd target";
            continue;
        }
        ++registers_checked;
        for (const FieldDef& fd : fields_of(r.offset)) {
            for (uint32_t v : {fd.max_value(), fd.max_value() / 3 + 1, 1u}) {
                RegcmdWriter w;
                w.begin_task(TaskKind::Conv);
                w.write(r.name, {{fd.name, v}});
                const RegcmdBuffer b = w.finish(0x1000);
                const std::vector<DecodedTask> tasks = decode_stream(b.qwords, b.base_addr);
                ASSERT_EQ(tasks.size(), 1u);
                const DecodedWrite& dw = tasks[0].writes.at(0);
                ASSERT_EQ(dw.kind, EntryKind::Register) << field_full_name(fd);
                EXPECT_STREQ(dw.reg->name, r.name);
                EXPECT_TRUE(dw.target_matches);
                EXPECT_EQ(fd.extract(dw.value), v) << field_full_name(fd);
                for (const FieldDef& other : fields_of(r.offset)) {
                    if (&other != &fd) {
                        EXPECT_EQ(other.extract(dw.value), 0u) << field_full_name(other);
                    }
                }
                EXPECT_NE(format_write(dw).find(r.name), std::string::npos);
            }
            ++fields_checked;
        }
    }
    EXPECT_GT(registers_checked, 180u);
    EXPECT_GT(fields_checked, 400u);
    std::printf("round trip: %zu registers, %zu fields\n", registers_checked, fields_checked);
}

TEST(RegcmdWriter, RejectsBadWrites) {
    RegcmdWriter w;
    EXPECT_THROW(w.write(reg("CNA_CONV_CON1"), 0), RegcmdError);  // before begin_task
    w.begin_task(TaskKind::Conv);
    EXPECT_THROW(w.write("CNA_CONV_CON1", {{"CONV_MODE", 16}}), RegcmdError);        // does not fit 4 bits
    EXPECT_THROW(w.write("CNA_CONV_CON1", {{"NO_SUCH_FIELD", 1}}), RegcmdError);
    EXPECT_THROW(w.write("NO_SUCH_REGISTER", {}), RegcmdError);
    EXPECT_THROW(w.write(reg("CNA_CONV_CON1"), 1u << 20), RegcmdError);               // reserved bit
    EXPECT_THROW(w.write(0x1FFC, 0), RegcmdError);                                    // unknown offset
    EXPECT_THROW(w.finish(0x1008), RegcmdError);                                      // not 16-byte aligned
}

// The generated handles: a write names its fields at compile time and encodes exactly what the by-name
// write does; the range and reserved-bit checks still apply.
TEST(RegcmdWriter, HandlesEncodeAsTheTableSays) {
    namespace R = regs;
    // A field of one register is not a field of another: such a write does not compile.
    static_assert(!std::is_convertible_v<FieldValue<R::CNA_CONV_CON2>, FieldValue<R::CNA_CONV_CON1>>);
    static_assert(R::CNA_CONV_CON1::offset == reg("CNA_CONV_CON1"));
    static_assert(R::CNA_CONV_CON1::CONV_MODE.lsb == field("CNA_CONV_CON1", "CONV_MODE").lsb &&
                  R::CNA_CONV_CON1::CONV_MODE.msb == field("CNA_CONV_CON1", "CONV_MODE").msb);
    RegcmdWriter by_handle, by_name;
    by_handle.begin_task(TaskKind::Conv);
    by_name.begin_task(TaskKind::Conv);
    by_handle.write({R::CNA_CBUF_CON0::WEIGHT_REUSE(1), R::CNA_CBUF_CON0::WEIGHT_BANK(7), R::CNA_CBUF_CON0::DATA_BANK(5)});
    by_name.write("CNA_CBUF_CON0", {{"WEIGHT_REUSE", 1}, {"WEIGHT_BANK", 7}, {"DATA_BANK", 5}});
    by_handle.write(R::CNA_DCOMP_CTRL{});
    by_name.write("CNA_DCOMP_CTRL", {});
    EXPECT_EQ(by_handle.tasks()[0].body, by_name.tasks()[0].body);
    EXPECT_EQ(entry_value(by_handle.tasks()[0].body[0]), (1u << 13) | (7u << 4) | 5u);
    EXPECT_THROW(by_handle.write({R::CNA_CONV_CON1::CONV_MODE(16)}), RegcmdError);  // does not fit 4 bits
    EXPECT_THROW(by_handle.write({R::CNA_CBUF_CON0::DATA_BANK(16)}), RegcmdError);
}

TEST(RegcmdWriter, TailsChainAlignedLists) {
    RegcmdWriter w;
    w.begin_task(TaskKind::Conv);
    for (int i = 0; i < 5; ++i) w.write("CNA_DATA_SIZE2", {{"DATAOUT_WIDTH", uint32_t(i)}});
    w.begin_task(TaskKind::PpuFlying);
    for (int i = 0; i < 26; ++i) w.write("PPU_MISC_CTRL", {{"BURST_LEN", 3}});
    w.begin_task(TaskKind::DpuFlying);
    w.write("DPU_S_POINTER", {{"POINTER_PP_MODE", 1}});
    const RegcmdBuffer b = w.finish(0x10000);
    ASSERT_EQ(b.tasks.size(), 3u);
    for (const LaidOutTask& t : b.tasks) EXPECT_EQ(t.offset % 64, 0u);
    EXPECT_EQ(b.tasks[0].offset, 0u);
    EXPECT_EQ(b.tasks[1].offset, 128u);  // 9 qwords = 72 bytes, next list 64-byte aligned
    EXPECT_EQ(b.tasks[2].offset, 384u);  // 30 qwords = 240 bytes after 128
    const auto tasks = decode_stream(b.qwords, b.base_addr);
    ASSERT_EQ(tasks.size(), 3u);
    EXPECT_EQ(*tasks[0].next_addr, b.tasks[1].regcmd_addr);
    EXPECT_EQ(*tasks[0].next_amount, fetch_amount(26));
    EXPECT_EQ(*tasks[1].next_addr, b.tasks[2].regcmd_addr);
    EXPECT_EQ(*tasks[2].next_addr, 0u);
    EXPECT_EQ(*tasks[0].op_en, 0x0Du);
    EXPECT_EQ(*tasks[1].op_en, 0x60u);
    EXPECT_EQ(*tasks[2].op_en, 0x18u);
    EXPECT_EQ(b.tasks[1].int_mask, 0xC00u);
    EXPECT_EQ(b.tasks[0].int_mask, 0x300u);
    // The tail: PC_BASE_ADDRESS, PC_REGISTER_AMOUNTS, 0x0041 marker, op_en broadcast.
    const auto& tw = tasks[0].writes;
    EXPECT_EQ(tw[tw.size() - 2].kind, EntryKind::PreOpEnMarker);
    EXPECT_EQ(tw.back().kind, EntryKind::OpEnable);
    EXPECT_EQ(b.qwords[b.tasks[2].offset / 8 + 1], 0u);  // last task: raw zero instead of PC_BASE_ADDRESS
}

TEST(Fp16, KnownValuesAndRounding) {
    EXPECT_EQ(npudrv::fp32_to_fp16(1.0f), 0x3C00);
    EXPECT_EQ(npudrv::fp32_to_fp16(-2.0f), 0xC000);
    EXPECT_EQ(npudrv::fp32_to_fp16(65504.0f), 0x7BFF);
    EXPECT_EQ(npudrv::fp32_to_fp16(65520.0f), 0x7C00);          // rounds to infinity
    EXPECT_EQ(npudrv::fp32_to_fp16(5.9604645e-8f), 0x0001);     // smallest subnormal
    EXPECT_EQ(npudrv::fp32_to_fp16(1.0f + 1.0f / 2048), 0x3C00);  // tie -> even
    EXPECT_EQ(npudrv::fp32_to_fp16(1.0f + 3.0f / 2048), 0x3C02);  // tie -> even (up)
    for (uint32_t h = 0; h < 0x10000; ++h) {
        if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) continue;  // NaN payloads
        EXPECT_EQ(npudrv::fp32_to_fp16(npudrv::fp16_to_fp32(static_cast<uint16_t>(h))), h);
    }
}

#include "drv/regcmd/capture_reader.h"

#include <cstdio>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

// A buffer built by the writer, saved as a raw file and as a directory of per-task files, reads back
// through the capture reader with the same tasks and descriptions.
TEST(RegcmdFiles, RawBufferAndTaskDirectoryReadBack) {
    RegcmdWriter w;
    w.begin_task(TaskKind::PpuFlying);
    w.write("PPU_OPERATION_MODE_CFG", {{"FLYING_MODE", 1}, {"POOLING_METHOD", 1}});
    w.write("PPU_POOLING_KERNEL_CFG", {{"KERNEL_HEIGHT", 1}, {"KERNEL_WIDTH", 1}});
    w.begin_task(TaskKind::DpuFlying);
    w.write("DPU_FEATURE_MODE_CFG", {{"FLYING_MODE", 1}, {"OUTPUT_MODE", 2}});
    const RegcmdBuffer b = w.finish(0);
    char dir_template[] = "/tmp/regcmd-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir_template), nullptr);
    const std::string dir = dir_template;
    auto save = [](const std::string& path, const uint64_t* q, size_t n) {
        std::ofstream out(path, std::ios::binary);
        for (size_t i = 0; i < n; ++i)
            for (int byte = 0; byte < 8; ++byte) out.put(static_cast<char>((q[i] >> (8 * byte)) & 0xFF));
    };
    save(dir + "/all.bin", b.qwords.data(), b.qwords.size());
    const Capture raw = read_capture(dir + "/all.bin");
    ASSERT_EQ(raw.tasks.size(), 2u);
    const auto tasks = decode_capture(raw);
    EXPECT_NE(tasks[0].description.find("pool max 2x2"), std::string::npos) << tasks[0].description;
    EXPECT_NE(tasks[1].description.find("dpu"), std::string::npos) << tasks[1].description;
    const std::string sub = dir + "/tasks";
    ASSERT_EQ(mkdir(sub.c_str(), 0700), 0);
    for (size_t i = 0; i < b.tasks.size(); ++i) {
        save(sub + "/task" + std::to_string(i) + ".bin", &b.qwords[b.tasks[i].offset / 8], b.tasks[i].total_qwords);
    }
    const Capture d = read_capture(sub);
    EXPECT_EQ(d.format, "dir");
    ASSERT_EQ(d.tasks.size(), 2u);
    EXPECT_EQ(decode_capture(d)[0].description, tasks[0].description);
    for (const char* f : {"/tasks/task0.bin", "/tasks/task1.bin", "/all.bin"}) std::remove((dir + f).c_str());
    rmdir(sub.c_str());
    rmdir(dir.c_str());
    EXPECT_THROW(read_capture(dir + "/missing.bin"), RegcmdError);
}
