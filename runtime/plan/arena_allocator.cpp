#include "runtime/plan/arena_allocator.h"

#include <algorithm>
#include <numeric>

#include "core/error.h"
#include "core/checked_math.h"

namespace npurun::plan {
namespace {

size_t aligned_size(size_t bytes) {
    size_t out = 0;
    if (!checked_align_up(bytes, kArenaAlignment, &out)) fail(ErrorKind::BadModel, "memory plan: tensor too large");
    return out;
}

struct Interval {
    size_t begin, end;
};

}  // namespace

ArenaLayout assign_offsets(const std::vector<BufferRequest>& requests) {
    const size_t n = requests.size();
    ArenaLayout layout;
    layout.offsets.assign(n, 0);

    std::vector<size_t> sizes(n);
    for (size_t i = 0; i < n; ++i) {
        if (requests[i].first_step > requests[i].last_step)
            fail(ErrorKind::Internal, "memory plan: buffer lifetime ends before it starts");
        sizes[i] = aligned_size(requests[i].bytes);
        if (!checked_add(layout.naive_bytes, sizes[i], &layout.naive_bytes))
            fail(ErrorKind::BadModel, "memory plan: total tensor size overflows");
    }

    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (sizes[a] != sizes[b]) return sizes[a] > sizes[b];
        return requests[a].first_step < requests[b].first_step;
    });

    std::vector<size_t> placed;  // request indices already given an offset
    placed.reserve(n);
    std::vector<Interval> busy;
    for (size_t idx : order) {
        const size_t size = sizes[idx];
        if (size == 0) {  // takes no space; offset 0 is as good as any
            layout.offsets[idx] = 0;
            continue;
        }
        busy.clear();
        for (size_t p : placed) {
            if (lifetimes_overlap(requests[p], requests[idx]))
                busy.push_back({layout.offsets[p], layout.offsets[p] + sizes[p]});
        }
        std::sort(busy.begin(), busy.end(), [](const Interval& a, const Interval& b) {
            return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
        });

        // Walk the gaps between busy intervals; remember the smallest one that fits.
        size_t best_offset = 0, best_gap = SIZE_MAX;
        bool found = false;
        size_t cursor = 0;
        for (const Interval& iv : busy) {
            if (iv.begin > cursor) {
                const size_t gap = iv.begin - cursor;
                if (gap >= size && gap < best_gap) {
                    best_gap = gap;
                    best_offset = cursor;
                    found = true;
                }
            }
            cursor = std::max(cursor, iv.end);
        }
        if (!found) best_offset = cursor;  // above every overlapping buffer

        size_t end = 0;
        if (!checked_add(best_offset, size, &end)) fail(ErrorKind::BadModel, "memory plan: arena size overflows");
        layout.offsets[idx] = best_offset;
        layout.arena_bytes = std::max(layout.arena_bytes, end);
        placed.push_back(idx);
    }
    return layout;
}

}  // namespace npurun::plan
