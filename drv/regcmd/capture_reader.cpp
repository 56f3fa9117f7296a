#include "drv/regcmd/capture_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <sys/stat.h>

namespace npudrv::regcmd {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw RegcmdError(path + ": " + what); }

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(path, "cannot open file");
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

// --- a small JSON reader (objects, arrays, strings, integers, null, true/false) ---------------------
struct Json {
    enum Type { Null, Bool, Number, String, Array, Object } type = Null;
    double number = 0;
    bool integral = false;
    uint64_t uint = 0;
    bool negative = false;
    std::string str;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;
    const Json* get(const std::string& key) const {
        for (const auto& [k, v] : members) {
            if (k == key) return &v;
        }
        return nullptr;
    }
};

class JsonParser {
public:
    JsonParser(const std::string& text, const std::string& path) : s_(text), path_(path) {}
    Json parse() {
        Json v = value(0);
        skip();
        if (i_ != s_.size()) error("trailing characters");
        return v;
    }

private:
    [[noreturn]] void error(const std::string& what) { fail(path_, "JSON " + what + " at byte " + std::to_string(i_)); }
    void skip() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    // True (and consumed) when the next non-space character is c: the close right after '{' or '[', or a
    // separator.
    bool closes(char c) {
        skip();
        const bool found = i_ < s_.size() && s_[i_] == c;
        if (found) ++i_;
        return found;
    }
    // After an object member or array item: true when a ',' announces another, false when `close` ends the
    // container (both consumed); anything else is an error.
    bool next_element(char close) {
        if (closes(',')) return true;
        if (closes(close)) return false;
        error(std::string("expected ',' or '") + close + "'");
    }
    // An object or array from its opening character: element(v) reads one member or item into v, as many
    // times as ',' separates them, until `close`.
    template <class Element> Json container(Json::Type type, char close, Element&& element) {
        Json v;
        v.type = type;
        ++i_;
        if (closes(close)) return v;
        do {
            element(v);
        } while (next_element(close));
        return v;
    }
    Json value(int depth) {
        if (depth > 64) error("nesting too deep");
        skip();
        if (i_ >= s_.size()) error("unexpected end");
        const char c = s_[i_];
        Json v;
        if (c == '{') {
            return container(Json::Object, '}', [&](Json& object) {
                skip();
                if (i_ >= s_.size() || s_[i_] != '"') error("expected key");
                std::string k = string();
                skip();
                if (i_ >= s_.size() || s_[i_] != ':') error("expected ':'");
                ++i_;
                object.members.emplace_back(k, value(depth + 1));
            });
        }
        if (c == '[') return container(Json::Array, ']', [&](Json& array) { array.items.push_back(value(depth + 1)); });
        if (c == '"') {
            v.type = Json::String;
            v.str = string();
            return v;
        }
        if (s_.compare(i_, 4, "null") == 0) {
            i_ += 4;
            return v;
        }
        if (s_.compare(i_, 4, "true") == 0) {
            i_ += 4;
            v.type = Json::Bool;
            v.uint = 1;
            return v;
        }
        if (s_.compare(i_, 5, "false") == 0) {
            i_ += 5;
            v.type = Json::Bool;
            return v;
        }
        if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
            v.type = Json::Number;
            size_t start = i_;
            if (c == '-') {
                v.negative = true;
                ++i_;
            }
            bool frac = false;
            while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == 'e' ||
                                      s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-')) {
                if (!std::isdigit(static_cast<unsigned char>(s_[i_]))) frac = true;
                ++i_;
            }
            const std::string tok = s_.substr(start, i_ - start);
            v.number = std::strtod(tok.c_str(), nullptr);
            if (!frac && !v.negative && tok.size() <= 19) {
                v.integral = true;
                v.uint = std::strtoull(tok.c_str(), nullptr, 10);
            }
            return v;
        }
        error(std::string("unexpected character '") + c + "'");
    }
    std::string string() {
        ++i_;  // opening quote
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            if (s_[i_] == '\\') {
                ++i_;
                if (i_ >= s_.size()) break;
            }
            out += s_[i_++];
        }
        if (i_ >= s_.size()) error("unterminated string");
        ++i_;
        return out;
    }
    const std::string& s_;
    std::string path_;
    size_t i_ = 0;
};

uint64_t json_uint(const Json& v, const std::string& path, const std::string& what) {
    if (v.type == Json::Number && v.integral) return v.uint;
    if (v.type == Json::String) {
        char* end = nullptr;
        const uint64_t x = std::strtoull(v.str.c_str(), &end, 0);
        if (end != v.str.c_str() && *end == '\0') return x;
    }
    fail(path, what + " is not a non-negative integer");
}

// JSON field name -> register (the capture harness names registers after the TRM, lower case).
struct JsonRegName {
    const char* key;
    const char* reg;
};
constexpr JsonRegName kJsonRegisters[] = {
    {"cbuf0", "CNA_CBUF_CON0"},
    {"data_size0", "CNA_DATA_SIZE0"},
    {"data_size1", "CNA_DATA_SIZE1"},
    {"data_size3", "CNA_DATA_SIZE3"},
    {"fc_data_size0", "CNA_FC_DATA_SIZE0"},
    {"fc_data_size1", "CNA_FC_DATA_SIZE1"},
    {"dma_con2", "CNA_DMA_CON2"},
    {"weight_size0", "CNA_WEIGHT_SIZE0"},
    {"weight_size1", "CNA_WEIGHT_SIZE1"},
    {"weight_size2", "CNA_WEIGHT_SIZE2"},
    {"conv_con1", "CNA_CONV_CON1"},
    {"conv_con2", "CNA_CONV_CON2"},
    {"core_dataout_size0", "CORE_DATAOUT_SIZE_0"},
    {"core_dataout_size1", "CORE_DATAOUT_SIZE_1"},
    {"dst_base", "DPU_DST_BASE_ADDR"},
    {"feature_data_addr", "CNA_FEATURE_DATA_ADDR"},
    {"dcomp_addr", "CNA_DCOMP_ADDR0"},
    {"dst_surf_stride", "DPU_DST_SURF_STRIDE"},
    {"data_cube_height", "DPU_DATA_CUBE_HEIGHT"},
    {"data_cube_channel", "DPU_DATA_CUBE_CHANNEL"},
    {"wdma_size0", "DPU_WDMA_SIZE_0"},
    {"wdma_size1", "DPU_WDMA_SIZE_1"},
    {"surface_add", "DPU_SURFACE_ADD"},
};

uint64_t entry_for(const std::string& path, const char* reg_name, uint64_t value) {
    const RegisterDef* r = find_register(std::string_view(reg_name));
    if (r == nullptr) fail(path, std::string("internal: no register ") + reg_name);
    if (value > 0xFFFFFFFFull) fail(path, std::string(reg_name) + " value does not fit 32 bits");
    return make_entry(block_target(r->block), static_cast<uint32_t>(value), r->offset);
}

}  // namespace

Capture read_capture_json(const std::string& path) { return parse_capture_json(read_file(path), path); }

Capture parse_capture_json(const std::string& text, const std::string& path) {
    const Json root = JsonParser(text, path).parse();
    if (root.type != Json::Object) fail(path, "top level is not a JSON object");
    const Json* amounts = root.get("amounts");
    const Json* masks = root.get("masks");
    const Json* addrs = root.get("regcmd_addrs");
    const Json* rows = root.get("body_rows");
    if (!amounts || !masks || !addrs || !rows || amounts->type != Json::Array || masks->type != Json::Array ||
        addrs->type != Json::Array || rows->type != Json::Array) {
        fail(path, "not a capture file: needs arrays amounts, masks, regcmd_addrs, body_rows");
    }
    const size_t n = amounts->items.size();
    if (masks->items.size() != n || addrs->items.size() != n) fail(path, "amounts/masks/regcmd_addrs differ in length");
    Capture c;
    c.format = "json";
    size_t row = 0;
    for (size_t i = 0; i < n; ++i) {
        CaptureTask t;
        t.regcfg_amount = static_cast<uint32_t>(json_uint(amounts->items[i], path, "amounts[" + std::to_string(i) + "]"));
        t.enable_mask = static_cast<uint32_t>(json_uint(masks->items[i], path, "masks[" + std::to_string(i) + "]"));
        t.regcmd_addr = json_uint(addrs->items[i], path, "regcmd_addrs[" + std::to_string(i) + "]");
        t.int_mask = (t.enable_mask & 0x60) ? 0xC00 : 0x300;
        // body_rows hold the conv (CNA) tasks in order; PPU tasks have no row.
        if ((t.enable_mask & 0x1) && row >= rows->items.size()) {
            // The task table goes on past the register rows: the task is kept (decoded from its
            // descriptor), and counted.
            ++c.tasks_without_rows;
            t.registers_missing = true;
        } else if (t.enable_mask & 0x1) {
            const Json& r = rows->items[row++];
            if (r.type != Json::Object) fail(path, "body_rows entry is not an object");
            for (const auto& [key, v] : r.members) {
                if (v.type == Json::Null) continue;
                const JsonRegName* m = nullptr;
                for (const auto& jr : kJsonRegisters) {
                    if (key == jr.key) m = &jr;
                }
                if (m == nullptr) fail(path, "unknown register field '" + key + "' in body_rows");
                t.entries.emplace_back(entry_for(path, m->reg, json_uint(v, path, key)));
            }
        }
        // No tail is in the JSON: decode_capture takes what the task starts from the descriptor's
        // enable mask (equal to the op_en bits in every vendor capture).
        c.tasks.push_back(std::move(t));
    }
    if (row != rows->items.size()) fail(path, "more body_rows than conv tasks");
    c.notes.push_back("JSON capture: only the selected register values of conv tasks are present");
    if (c.tasks_without_rows != 0) {
        c.notes.push_back(std::to_string(c.tasks_without_rows) + " of the conv tasks in the task table have no body_rows entry (" +
                          std::to_string(row) + " rows present): those are decoded from their descriptors only");
    }
    return c;
}

Capture read_capture_log(const std::string& path) { return parse_capture_log(read_file(path), path); }

Capture parse_capture_log(const std::string& text, const std::string& path) {
    std::istringstream in(text);
    std::string line;
    struct Gem {
        uint64_t dma = 0;
        uint64_t size = 0;
    };
    std::map<uint32_t, Gem> gems;                // handle -> dma range
    std::map<uint64_t, uint64_t> memory;         // dma addr -> qword
    std::vector<CaptureTask> descriptors;        // from the task buffer (GEM 1)
    uint32_t current_gem = 0;
    bool in_gem = false;
    Capture c;
    c.format = "log";
    const std::regex alloc_re(R"(allocated memory, name: (\w+), .*dma addr: (0x[0-9a-fA-F]+), .*aligned size: (\d+), .*handle: (\d+))");
    const std::regex gem_re(R"(^GEM (\d+): handle=(\d+))");
    const std::regex task_re(
        R"(^\s*task_like\[\d+\] off=(0x[0-9a-f]+) flags=(0x[0-9a-f]+) op_idx=(\d+) enable_mask=(0x[0-9a-f]+) int_mask=(0x[0-9a-f]+) int_clear=(0x[0-9a-f]+) int_status=(0x[0-9a-f]+) regcfg_amount=(\d+) regcfg_offset=(\d+) regcmd_addr=(0x[0-9a-f]+))");
    const std::regex qword_re(R"(^\s*regcmd_qword\[\d+\] off=(0x[0-9a-f]+) value=(0x[0-9a-f]+))");
    const std::regex tensor_re(R"(^D RKNN: \[[^\]]*\]\s+\d+\s+(\S+)\s+(\S+)\s+(FLOAT16|FLOAT|INT8|UINT8|INT16)\s+(?:\S+\s+)?\(([0-9,]+)\))");
    std::smatch m;
    auto u = [](const std::string& s) { return std::strtoull(s.c_str(), nullptr, 0); };
    while (std::getline(in, line)) {
        if (std::regex_search(line, m, alloc_re)) {
            gems[static_cast<uint32_t>(u(m[4]))] = Gem{u(m[2]), u(m[3])};
            continue;
        }
        if (std::regex_search(line, m, gem_re)) {
            current_gem = static_cast<uint32_t>(u(m[2]));
            in_gem = gems.count(current_gem) != 0;
            continue;
        }
        if (std::regex_search(line, m, tensor_re)) {
            TensorShape ts;
            ts.name = std::string(m[1]) + ":" + std::string(m[2]);
            std::string dims = m[4];
            std::stringstream ds(dims);
            std::string d;
            while (std::getline(ds, d, ',')) ts.dims.push_back(static_cast<uint32_t>(std::strtoul(d.c_str(), nullptr, 10)));
            c.tensors.push_back(ts);
            continue;
        }
        if (!in_gem) continue;
        if (std::regex_search(line, m, task_re)) {
            uint32_t v[8];
            for (int i = 0; i < 8; ++i) v[i] = static_cast<uint32_t>(u(m[2 + i]));
            const uint64_t addr = gems[current_gem].dma + u(m[1]);
            const uint64_t regcmd_addr = u(m[10]);
            // A 40-byte window = 5 qwords of whatever the buffer holds there.
            for (int i = 0; i < 4; ++i) memory[addr + 8 * i] = uint64_t{v[2 * i]} | (uint64_t{v[2 * i + 1]} << 32);
            memory[addr + 32] = regcmd_addr;
            if (current_gem == 1) {  // the task buffer: these are the real descriptors
                CaptureTask t;
                t.enable_mask = v[2];
                t.int_mask = v[3];
                t.regcfg_amount = v[6];
                t.regcmd_addr = regcmd_addr;
                descriptors.push_back(t);
            }
            continue;
        }
        if (std::regex_search(line, m, qword_re)) {
            memory[gems[current_gem].dma + u(m[1])] = u(m[2]);
        }
    }
    if (descriptors.empty()) fail(path, "no task descriptors (GEM 1 task_like lines) found: not an rknpu capture log");
    for (CaptureTask& t : descriptors) {
        if (t.regcfg_amount == 0 || t.regcfg_amount > 65535) fail(path, "task descriptor with implausible regcfg_amount");
        size_t known = 0;
        for (uint32_t i = 0; i < t.regcfg_amount + 4; ++i) {
            auto it = memory.find(t.regcmd_addr + 8ull * i);
            if (it != memory.end()) {
                t.entries.emplace_back(it->second);
                ++known;
            } else {
                t.entries.emplace_back(std::nullopt);
                c.complete = false;
            }
        }
        c.notes.push_back("task @0x" + [&] {
            char b[32];
            std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(t.regcmd_addr));
            return std::string(b);
        }() + ": " + std::to_string(known) + " of " + std::to_string(t.regcfg_amount + 4) + " entries captured");
        c.tasks.push_back(std::move(t));
    }
    return c;
}

Capture read_raw_regcmd(const std::string& path, uint64_t base_addr) { return parse_raw_regcmd(read_file(path), path, base_addr); }

Capture parse_raw_regcmd(const std::string& bytes, const std::string& path, uint64_t base_addr) {
    if (bytes.empty()) fail(path, "empty file");
    if (bytes.size() % 8 != 0) fail(path, "size " + std::to_string(bytes.size()) + " is not a multiple of 8 (64-bit entries)");
    std::vector<uint64_t> q(bytes.size() / 8);
    for (size_t i = 0; i < q.size(); ++i) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; --b) v = (v << 8) | static_cast<uint8_t>(bytes[i * 8 + static_cast<size_t>(b)]);
        q[i] = v;
    }
    // Split into lists at the op_en broadcasts (zero padding between lists skipped).
    Capture c;
    c.format = "raw";
    size_t i = 0;
    while (i < q.size()) {
        while (i < q.size() && q[i] == 0) ++i;
        if (i >= q.size()) break;
        CaptureTask t;
        t.regcmd_addr = base_addr + i * 8;
        const size_t start = i;
        bool ended = false;
        while (i < q.size()) {
            const uint64_t e = q[i++];
            t.entries.emplace_back(e);
            if (entry_target(e) == kTargetOpEnBroadcast && entry_offset(e) == kOpEnOffset) {
                ended = true;
                break;
            }
        }
        if (!ended) {
            fail(path, "entries from byte offset " + std::to_string(start * 8) +
                           " are not ended by an op_en broadcast (0x0081...0008): not a regcmd buffer, or truncated");
        }
        t.regcfg_amount = t.entries.size() >= 4 ? static_cast<uint32_t>(t.entries.size() - 4) : 0;
        c.tasks.push_back(std::move(t));
    }
    if (c.tasks.empty()) fail(path, "no regcmd entries (file is all zero)");
    return c;
}

Capture read_regcmd_dir(const std::string& dir) {
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) fail(dir, "cannot open directory");
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        names.push_back(e->d_name);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    if (names.empty()) fail(dir, "directory holds no task buffers");
    Capture c;
    c.format = "dir";
    for (const std::string& n : names) {
        Capture one = read_raw_regcmd(dir + "/" + n, 0);
        for (auto& t : one.tasks) c.tasks.push_back(std::move(t));
        c.notes.push_back(n + ": " + std::to_string(one.tasks.size()) + " list(s)");
    }
    return c;
}

Capture read_capture(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) fail(path, "no such file or directory");
    if (S_ISDIR(st.st_mode)) return read_regcmd_dir(path);
    auto ends = [&](const char* suf) {
        const size_t n = std::strlen(suf);
        return path.size() >= n && path.compare(path.size() - n, n, suf) == 0;
    };
    if (ends(".json")) return read_capture_json(path);
    if (ends(".log")) return read_capture_log(path);
    return read_raw_regcmd(path, 0);
}

std::vector<DecodedTask> decode_capture(const Capture& c) {
    std::vector<DecodedTask> out;
    RegisterState state;
    for (size_t i = 0; i < c.tasks.size(); ++i) {
        const CaptureTask& t = c.tasks[i];
        const bool carry = c.complete && !t.registers_missing;
        DecodedTask d = decode_task(t.entries, carry ? state : RegisterState{}, i, t.regcmd_addr);
        d.descriptor_enable_mask = t.enable_mask;
        if (!d.op_en && t.enable_mask) {
            // Tail not captured: the descriptor's enable mask says what the task starts.
            d.description = describe_task(d.state, t.enable_mask) + " (op_en from descriptor)";
        }
        if (t.registers_missing) d.description += " (no register rows in the capture)";
        else state = d.state;
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace npudrv::regcmd
