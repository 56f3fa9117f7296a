// Readers for the register streams captured on real RK3588 boards (../shared/captures):
//  * decoded JSON (rk3588-vendor-conv/*.json): task table + selected register values per conv task;
//  * raw gdb logs (rk3588-vendor-raw/*.log): tensor tables, task descriptors, regcmd qwords (and, where
//    the qword window missed the lists, 40-byte "task_like" windows that happen to cover parts of them);
//  * a raw regcmd buffer (little-endian qwords) or a directory of such buffers (one file per task list).
// All of them become a list of CaptureTask whose entries may be partly unknown.
#pragma once

#include "drv/regcmd/regcmd_decoder.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npudrv::regcmd {

struct CaptureTask {
    uint64_t regcmd_addr = 0;
    uint32_t regcfg_amount = 0;   // body qwords (descriptor), 0 when unknown
    uint32_t enable_mask = 0;     // descriptor enable mask, 0 when unknown
    uint32_t int_mask = 0;
    // Entries of the list (body + tail). nullopt = not captured. For JSON captures the entries are
    // synthesised from the named register values (order not the original).
    std::vector<std::optional<uint64_t>> entries;
    // True for a task whose registers the capture does not hold at all (a JSON conv task past the last
    // body_rows entry): decode_capture describes it from its descriptor, with no state carried in or out.
    bool registers_missing = false;
};

struct TensorShape {
    std::string name;
    std::vector<uint32_t> dims;  // as printed (NCHW / OIHW)
};

struct Capture {
    std::string format;  // "json", "log", "raw", "dir"
    std::vector<CaptureTask> tasks;
    std::vector<TensorShape> tensors;  // log: feature + const tensor tables (OrigShape)
    std::vector<std::string> notes;    // facts worth printing (e.g. how much of each list was captured)
    // JSON captures: conv tasks of the task table past the last body_rows entry (some vendor files list
    // more conv tasks than they hold rows for). They are decoded from the descriptor only.
    size_t tasks_without_rows = 0;
    // False when some entries of some list are missing (partial log captures). Register state is then
    // NOT carried from task to task by decode_capture: a stale value from another task would be mixed in.
    bool complete = true;
};

// Each throws RegcmdError with a one-line message naming the file and the problem.
Capture read_capture_json(const std::string& path);
Capture read_capture_log(const std::string& path);
Capture read_raw_regcmd(const std::string& path, uint64_t base_addr);
Capture read_regcmd_dir(const std::string& dir);
// Picks the reader from the path (directory, .json, .log, else raw).
Capture read_capture(const std::string& path);

// The same readers over bytes already in memory (tests, the fuzz target); `origin` names the source in
// messages. Every malformed input throws RegcmdError, never anything else.
Capture parse_capture_json(const std::string& text, const std::string& origin);
Capture parse_capture_log(const std::string& text, const std::string& origin);
Capture parse_raw_regcmd(const std::string& bytes, const std::string& origin, uint64_t base_addr);

// Decodes the tasks of a capture in order, carrying the register state from task to task.
std::vector<DecodedTask> decode_capture(const Capture& c);

}  // namespace npudrv::regcmd
