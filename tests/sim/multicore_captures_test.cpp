// The multi-core reading of the vendor's raw streams (docs/multicore.md), checked on every complete capture
// in ../shared/captures/rk3588-vendor-raw: the task list is a set of PC chains (a chain = a head task and the
// lists its PC tails point at); bits 16-17 of PC_REGISTER_AMOUNTS are the same on every link of a chain and
// equal to (cores of its alternative) - 1; an alternative with value m holds exactly m + 1 chains, which
// write different output addresses (the work is split, not duplicated); the low 16 bits of each link are the
// 128-bit words of the list it points at, (regcfg_amount + 2) / 2.
#include "drv/regcmd/capture_reader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace npudrv::regcmd;

namespace {

constexpr uint16_t kPcTarget = 0x0101, kPcBase = 0x0010, kPcAmounts = 0x0014, kDpuDstBase = 0x4020;

struct Link {
    bool chained = false;
    uint32_t next = 0;       // PC_BASE_ADDRESS
    uint32_t amounts = 0;    // PC_REGISTER_AMOUNTS
    uint32_t dpu_dst = 0;    // DPU_DST_BASE_ADDR (0: not a DPU task)
};

Link read_link(const CaptureTask& t) {
    Link l;
    for (const auto& e : t.entries) {
        if (!e) continue;
        const uint16_t target = uint16_t(*e >> 48), reg = uint16_t(*e & 0xFFFF);
        const uint32_t value = uint32_t(*e >> 16);
        if (target == kPcTarget && reg == kPcBase) l.next = value;
        if (target == kPcTarget && reg == kPcAmounts) l.amounts = value;
        if (reg == kDpuDstBase) l.dpu_dst = value;
    }
    l.chained = l.next != 0 && (l.amounts & 0xFFFF) != 0;
    return l;
}

std::vector<std::string> complete_logs() {
    const char* s = std::getenv("NPURUN_SHARED");
    std::vector<std::string> out;
    if (s == nullptr) return out;
    const std::filesystem::path dir = std::filesystem::path(s) / "captures" / "rk3588-vendor-raw";
    std::error_code ec;
    for (const auto& f : std::filesystem::directory_iterator(dir, ec))
        if (f.path().extension() == ".log") out.push_back(f.path().string());
    return out;
}

TEST(MulticoreCaptures, ChainsAndCoreBitsAgree) {
    const std::vector<std::string> files = complete_logs();
    if (files.empty()) GTEST_SKIP() << "no raw captures (set NPURUN_SHARED)";
    size_t checked = 0;
    for (const std::string& file : files) {
        const Capture c = read_capture_log(file);
        if (!c.complete || c.tasks.empty()) continue;
        std::map<uint32_t, size_t> by_addr;
        std::vector<Link> links;
        for (size_t i = 0; i < c.tasks.size(); ++i) {
            by_addr[uint32_t(c.tasks[i].regcmd_addr)] = i;
            links.push_back(read_link(c.tasks[i]));
        }
        std::set<size_t> pointed;
        for (const Link& l : links)
            if (l.chained) pointed.insert(by_addr.at(l.next));
        std::map<uint32_t, std::vector<std::set<uint32_t>>> alternatives;  // core bits -> chains' output addresses
        for (size_t head = 0; head < links.size(); ++head) {
            if (pointed.count(head) != 0) continue;
            std::set<uint32_t> outputs, bits;
            for (size_t i = head;;) {
                if (links[i].dpu_dst != 0) outputs.insert(links[i].dpu_dst);
                if (!links[i].chained) break;
                bits.insert(links[i].amounts >> 16);
                const size_t next = by_addr.at(links[i].next);
                const uint32_t entries = c.tasks[next].regcfg_amount;  // body entries (descriptor)
                EXPECT_EQ(links[i].amounts & 0xFFFF, (entries + 2) / 2) << file << ": task " << i;
                i = next;
            }
            ASSERT_LE(bits.size(), 1u) << file << ": chain at task " << head << " mixes core bits";
            alternatives[bits.empty() ? 0u : *bits.begin()].push_back(outputs);
        }
        for (const auto& [m, chains] : alternatives) {
            if (m == 0) continue;  // unchained single-core lists (and the 1-core alternative) carry no bits
            EXPECT_EQ(chains.size(), size_t(m) + 1) << file << ": alternative with core bits " << m;
            std::set<uint32_t> firsts;
            for (const auto& o : chains)
                if (!o.empty()) firsts.insert(*o.begin());
            EXPECT_EQ(firsts.size(), chains.size()) << file << ": chains of one alternative write the same place";
        }
        EXPECT_EQ(alternatives.count(1), 1u) << file;
        EXPECT_EQ(alternatives.count(2), 1u) << file;
        ++checked;
    }
    std::printf("complete raw captures checked: %zu\n", checked);
    EXPECT_GE(checked, 6u);
}

}  // namespace
