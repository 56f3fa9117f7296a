// regcmd-dump: human-readable decode of NPU register command streams.
//
//   regcmd-dump [-v] [--base ADDR] [--conv] FILE|DIR...
//
// FILE is a raw regcmd buffer (little-endian 64-bit entries), a capture JSON or a capture .log from
// ../shared/captures; DIR holds one raw buffer per task. Default: one line per task; -v: one line per
// register write as well. --conv adds the convolution recovered from all conv tasks of the file.
#include "drv/regcmd/capture_reader.h"
#include "drv/regcmd/conv_recovery.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: regcmd-dump [-v] [--conv] [--base ADDR] FILE|DIR...\n"
                 "  FILE: raw regcmd buffer, capture .json or capture .log; DIR: one raw buffer per task\n"
                 "  -v          one line per register write\n"
                 "  --conv      print the convolution recovered from the conv tasks\n"
                 "  --base ADDR DMA address of a raw buffer (default 0)\n");
}

int dump(const std::string& path, bool verbose, bool conv, uint64_t base) {
    using namespace npudrv::regcmd;
    // Directory, .json, .log or raw buffer (raw buffers placed at --base).
    Capture c = read_capture(path);
    if (c.format == "raw" && base != 0) c = read_raw_regcmd(path, base);
    const std::vector<DecodedTask> tasks = decode_capture(c);
    std::printf("# %s: %s, %zu task(s)\n", path.c_str(), c.format.c_str(), tasks.size());
    if (c.tasks_without_rows != 0)
        std::printf("# %zu conv task(s) of the task table have no register rows: decoded from their descriptors only\n",
                    c.tasks_without_rows);
    for (const TensorShape& t : c.tensors) {
        std::printf("# tensor %s (", t.name.c_str());
        for (size_t i = 0; i < t.dims.size(); ++i) std::printf("%s%u", i ? "," : "", t.dims[i]);
        std::printf(")\n");
    }
    for (size_t i = 0; i < tasks.size(); ++i) {
        const DecodedTask& d = tasks[i];
        const CaptureTask& ct = c.tasks[i];
        std::printf("task %zu @0x%llx", i, static_cast<unsigned long long>(d.addr));
        if (ct.regcfg_amount) std::printf(" amount %u", ct.regcfg_amount);
        if (d.op_en) std::printf(" op_en 0x%02x", *d.op_en);
        else if (ct.enable_mask) std::printf(" enable 0x%02x", ct.enable_mask);
        if (c.format == "log" && d.entries_known != d.entries_expected) {
            std::printf(" [partial: %zu/%zu entries captured]", d.entries_known, d.entries_expected);
        }
        std::printf(": %s\n", d.description.c_str());
        if (verbose) {
            size_t k = 0;
            for (const auto& e : ct.entries) {
                if (!e) {
                    std::printf("  [%3zu] (not captured)\n", k++);
                    continue;
                }
                std::printf("  [%3zu] %016llx  %s\n", k++, static_cast<unsigned long long>(*e), format_write(decode_entry(*e)).c_str());
            }
        }
    }
    if (conv) {
        const RecoveredConv r = recover_conv(tasks);
        if (r.valid) std::printf("# recovered: %s\n", r.summary().c_str());
        else std::printf("# recovered: no convolution (no conv task with enough captured registers)\n");
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    bool verbose = false, conv = false;
    uint64_t base = 0;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-v" || a == "--verbose") {
            verbose = true;
        } else if (a == "--conv") {
            conv = true;
        } else if (a == "--base") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "regcmd-dump: --base needs an address\n");
                return 2;
            }
            char* end = nullptr;
            base = std::strtoull(argv[++i], &end, 0);
            if (end == argv[i] || *end != '\0' || base % 16 != 0) {
                std::fprintf(stderr, "regcmd-dump: --base '%s' is not a 16-byte aligned address\n", argv[i]);
                return 2;
            }
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "regcmd-dump: unknown option '%s'\n", a.c_str());
            usage(stderr);
            return 2;
        } else {
            paths.push_back(a);
        }
    }
    if (paths.empty()) {
        usage(stderr);
        return 2;
    }
    int rc = 0;
    for (const std::string& p : paths) {
        try {
            dump(p, verbose, conv, base);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "regcmd-dump: %s\n", e.what());
            rc = 1;
        }
    }
    return rc;
}
