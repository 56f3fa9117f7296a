// The capture reader (drv/regcmd/capture_reader.h): a task table longer than the register rows decodes
// the rows present and counts the rest; every malformed capture is a RegcmdError, nothing else.
#include <gtest/gtest.h>

#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "drv/regcmd/capture_reader.h"
#include "drv/regcmd/register_map.h"

namespace npudrv::regcmd {
namespace {

std::string shared_dir() {
    const char* s = std::getenv("NPURUN_SHARED");
    return s ? s : "../shared";
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

std::vector<std::string> files_in(const std::string& dir, const std::string& suffix) {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) out.push_back(dir + "/" + n);
        }
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(CaptureReader, TaskTableLongerThanRowsDecodesTheRowsPresent) {
    const std::string json = R"({"amounts": [108, 26, 104, 104], "masks": [13, 96, 13, 13],
        "regcmd_addrs": ["0x1000", "0x2000", "0x3000", "0x4000"],
        "body_rows": [{"conv_con1": 0, "data_size0": 1048592}]})";
    const Capture c = parse_capture_json(json, "short.json");
    ASSERT_EQ(c.tasks.size(), 4u);
    EXPECT_EQ(c.tasks_without_rows, 2u);
    EXPECT_FALSE(c.tasks[0].registers_missing);
    EXPECT_EQ(c.tasks[0].entries.size(), 2u);
    EXPECT_TRUE(c.tasks[2].registers_missing);
    EXPECT_TRUE(c.tasks[3].registers_missing);
    bool noted = false;
    for (const std::string& n : c.notes) noted |= n.find("2 of the conv tasks in the task table have no body_rows entry (1 rows present)") != std::string::npos;
    EXPECT_TRUE(noted);
    const std::vector<DecodedTask> d = decode_capture(c);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_NE(d[2].description.find("no register rows"), std::string::npos) << d[2].description;
    // No state leaks from the task with rows into the ones without.
    EXPECT_EQ(d[0].writes.size(), 2u);
    EXPECT_TRUE(d[2].writes.empty());
}

// A real vendor capture with its last row cut off (what some files on the board look like) still decodes,
// and the rows it keeps decode exactly as before.
TEST(CaptureReader, RealCaptureWithRowsMissing) {
    const auto files = files_in(shared_dir() + "/captures/rk3588-vendor-conv", ".json");
    if (files.empty()) GTEST_SKIP() << "../shared/captures/rk3588-vendor-conv is absent";
    const std::string text = slurp(files[0]);
    const Capture full = parse_capture_json(text, files[0]);
    // Drop the last body_rows object: find the array and its last '{' ... '}' member.
    const size_t rows = text.find("\"body_rows\"");
    ASSERT_NE(rows, std::string::npos);
    const size_t close = text.find(']', rows);  // rows are flat objects: the first ']' ends the array
    const size_t last_close = text.rfind('}', close);
    const size_t last_open = text.rfind('{', last_close);
    const size_t cut = text.rfind(',', last_open);
    ASSERT_NE(cut, std::string::npos);
    ASSERT_GT(cut, rows) << "the first capture has a single row";
    const std::string shorter = text.substr(0, cut) + text.substr(last_close + 1);
    const Capture c = parse_capture_json(shorter, "shorter.json");
    ASSERT_EQ(c.tasks.size(), full.tasks.size());
    EXPECT_EQ(c.tasks_without_rows, 1u);
    const auto a = decode_capture(full), b = decode_capture(c);
    size_t same = 0;
    for (size_t i = 0; i < a.size(); ++i)
        if (!c.tasks[i].registers_missing && a[i].description == b[i].description) ++same;
    EXPECT_EQ(same, a.size() - 1);
}

template <class F> void expect_clean_error(F&& f, const std::string& label) {
    try {
        f();
        ADD_FAILURE() << label << ": accepted";
    } catch (const RegcmdError& e) {
        const std::string m = e.what();
        EXPECT_FALSE(m.empty()) << label;
        EXPECT_EQ(m.find('\n'), std::string::npos) << label << ": " << m;
    } catch (const std::exception& e) {
        ADD_FAILURE() << label << ": not a RegcmdError: " << e.what();
    }
}

TEST(CaptureReader, MalformedJsonIsACleanError) {
    const char* const bad[] = {
        "", "{", "[]", "nul", "{\"amounts\": [1]}", R"({"amounts": [], "masks": [], "regcmd_addrs": [], "body_rows": {}})",
        R"({"amounts": [1, 2], "masks": [13], "regcmd_addrs": ["0x0"], "body_rows": []})",
        R"({"amounts": [-1], "masks": [13], "regcmd_addrs": ["0x0"], "body_rows": [{}]})",
        R"({"amounts": [1.5], "masks": [13], "regcmd_addrs": ["0x0"], "body_rows": [{}]})",
        R"({"amounts": [1], "masks": ["x"], "regcmd_addrs": ["0x0"], "body_rows": [{}]})",
        R"({"amounts": [1], "masks": [13], "regcmd_addrs": ["0x0"], "body_rows": [{"bogus": 1}]})",
        R"({"amounts": [1], "masks": [13], "regcmd_addrs": ["0x0"], "body_rows": [{"conv_con1": 4294967296}]})",
        R"({"amounts": [1], "masks": [13], "regcmd_addrs": ["0x0"], "body_rows": [7]})",
        R"({"amounts": [1], "masks": [96], "regcmd_addrs": ["0x0"], "body_rows": [{}]})",  // more rows than conv tasks
        R"({"amounts": [1], "masks": [13], "regcmd_addrs": ["0x0"], "body_rows": [{}]} trailing)",
        R"({"a": "unterminated)",
    };
    for (const char* b : bad) expect_clean_error([&] { parse_capture_json(b, "bad.json"); }, b);
    std::string deep(200, '[');
    expect_clean_error([&] { parse_capture_json(deep, "deep.json"); }, "deep nesting");
}

TEST(CaptureReader, MalformedLogAndRawAreCleanErrors) {
    expect_clean_error([] { parse_capture_log("", "empty.log"); }, "empty log");
    expect_clean_error([] { parse_capture_log("hello\nworld\n", "text.log"); }, "no descriptors");
    expect_clean_error([] { parse_raw_regcmd("", "e.bin", 0); }, "empty raw");
    expect_clean_error([] { parse_raw_regcmd("1234567", "7.bin", 0); }, "not a multiple of 8");
    expect_clean_error([] { parse_raw_regcmd(std::string(64, '\0'), "zero.bin", 0); }, "all zero");
    expect_clean_error([] { parse_raw_regcmd(std::string(16, '\x01'), "noend.bin", 0); }, "no op_en end");
}

// Truncations and byte flips of every real capture: each either reads and decodes, or is a RegcmdError.
TEST(CaptureReader, MutatedRealCapturesNeverFailUncleanly) {
    std::vector<std::string> files = files_in(shared_dir() + "/captures/rk3588-vendor-conv", ".json");
    const auto logs = files_in(shared_dir() + "/captures/rk3588-vendor-raw", ".log");
    if (files.empty() && logs.empty()) GTEST_SKIP() << "../shared/captures is absent";
    if (!logs.empty()) files.push_back(logs[1 % logs.size()]);
    std::mt19937 rng(17);
    size_t accepted = 0, refused = 0;
    for (const std::string& f : files) {
        const std::string text = slurp(f);
        const bool is_log = f.size() > 4 && f.compare(f.size() - 4, 4, ".log") == 0;
        for (int m = 0; m < (is_log ? 10 : 40); ++m) {
            std::string t = text;
            if (m % 2 == 0) {
                t.resize(std::uniform_int_distribution<size_t>(0, t.size())(rng));
            } else {
                for (int k = 0; k < 4; ++k) t[std::uniform_int_distribution<size_t>(0, t.size() - 1)(rng)] = char(rng());
            }
            try {
                const Capture c = is_log ? parse_capture_log(t, f) : parse_capture_json(t, f);
                (void)decode_capture(c);
                ++accepted;
            } catch (const RegcmdError&) {
                ++refused;
            } catch (const std::exception& e) {
                ADD_FAILURE() << f << " mutation " << m << ": " << e.what();
            }
        }
    }
    EXPECT_GT(accepted, 0u);
    EXPECT_GT(refused, 0u);
}

}  // namespace
}  // namespace npudrv::regcmd
