// Offset assignment for buffers with known lifetimes: the core of the static memory plan.
//
// Kept separate from the graph so its invariant (no two buffers that are live at the same step overlap
// in memory) can be tested exhaustively on arbitrary lifetimes, not only on the graphs we happen to have.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace npurun::plan {

// Every arena offset is a multiple of this: SIMD loads and DMA-friendly copies need it.
constexpr size_t kArenaAlignment = 64;

struct BufferRequest {
    size_t bytes = 0;         // 0 is allowed: such a buffer occupies no space
    uint32_t first_step = 0;  // live from the start of this step ...
    uint32_t last_step = 0;   // ... to the end of this one (inclusive); first_step <= last_step
};

struct ArenaLayout {
    std::vector<size_t> offsets;  // one per request, multiples of kArenaAlignment
    size_t arena_bytes = 0;       // end of the highest buffer (rounded to kArenaAlignment)
    size_t naive_bytes = 0;       // sum of every request rounded up to kArenaAlignment
};

inline bool lifetimes_overlap(const BufferRequest& a, const BufferRequest& b) {
    return a.first_step <= b.last_step && b.first_step <= a.last_step;
}

// Greedy best-fit: buffers are placed largest first (ties: earlier first step, then request order, so the
// result is deterministic); each goes into the smallest gap left between already placed buffers whose
// lifetimes overlap its own, or above them all when no gap fits. Throws Error(BadModel) when the arena
// size would overflow size_t.
ArenaLayout assign_offsets(const std::vector<BufferRequest>& requests);

}  // namespace npurun::plan
