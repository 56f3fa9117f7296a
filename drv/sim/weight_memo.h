// Weights the simulated CORE has already decoded into its dense MAC order, kept per core across tasks and
// runs. Not hardware state: the NPU reads its weights every task, and so does the simulator (the DMA is
// still counted). What the memo saves is the decoding, which on float networks was a fifth of a
// simulated inference: an inference run again feeds the same bytes to the same tasks.
//
// An entry is used only when the task's geometry and the bytes it just fetched equal those the entry was
// decoded from (compared in full), so it cannot change a result. The memo is bounded: past kMaxBytes it is
// emptied and starts again (deterministic, and a network too big for it just decodes every time).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace npudrv::sim {

class WeightMemo {
public:
    static constexpr uint64_t kMaxBytes = uint64_t{64} << 20;

    // What the dense order depends on besides the bytes.
    struct Geometry {
        uint32_t K = 0, C = 0, kh = 0, kw = 0, precision = 0;
        bool depthwise = false;
        bool operator==(const Geometry& o) const {
            return K == o.K && C == o.C && kh == o.kh && kw == o.kw && precision == o.precision && depthwise == o.depthwise;
        }
    };

    // The decoded weights of `raw` (fetched from `addr`) for `g`, or null.
    template <typename T>
    const std::vector<T>* find(uint32_t addr, const Geometry& g, const std::vector<uint8_t>& raw) const {
        const auto it = entries_.find(addr);
        if (it == entries_.end()) return nullptr;
        const Entry& e = it->second;
        if (!(e.geometry == g) || e.raw.size() != raw.size() || std::memcmp(e.raw.data(), raw.data(), raw.size()) != 0)
            return nullptr;
        const std::vector<T>& v = values<T>(e);
        return v.empty() && !raw.empty() ? nullptr : &v;
    }

    // Keeps `decoded` for later tasks and returns the kept copy.
    template <typename T>
    const std::vector<T>& keep(uint32_t addr, const Geometry& g, const std::vector<uint8_t>& raw, std::vector<T> decoded) {
        const uint64_t bytes = raw.size() + decoded.size() * sizeof(T);
        if (bytes_ + bytes > kMaxBytes) clear();
        Entry& e = entries_[addr];
        bytes_ -= e.bytes;
        e = Entry{};
        e.geometry = g;
        e.raw = raw;
        values<T>(e) = std::move(decoded);
        e.bytes = bytes;
        bytes_ += bytes;
        return values<T>(e);
    }

    void clear() {
        entries_.clear();
        bytes_ = 0;
    }

private:
    struct Entry {
        Geometry geometry;
        std::vector<uint8_t> raw;
        std::vector<float> f;      // float pipelines
        std::vector<int16_t> i;    // int8 pipelines (values held as int16)
        uint64_t bytes = 0;
    };
    template <typename T>
    static std::vector<T>& values(Entry& e) {
        if constexpr (std::is_same_v<T, float>) return e.f; else return e.i;
    }
    template <typename T>
    static const std::vector<T>& values(const Entry& e) {
        if constexpr (std::is_same_v<T, float>) return e.f; else return e.i;
    }
    std::unordered_map<uint32_t, Entry> entries_;
    uint64_t bytes_ = 0;
};

}  // namespace npudrv::sim
