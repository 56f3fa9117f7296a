// The threading policy, checked without a clock: a loop is split only when every thread's share holds at least
// min_work_per_thread() units of work. The pure decision (parallel_chunks / work_grain), the per-caller counts
// the executor reads for --profile, and whole sessions: a tiny fully connected model runs every layer on one
// thread even with --threads 4, a large convolution is split over all four, and both give the same bytes for
// 1..4 threads.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "kernels/neon/thread_pool.h"
#include "include/npurun/npurun.hpp"
#include "tools/modelwriter/model_writer.h"

namespace nn = npurun::kernels::neon;
namespace mw = npurun::modelwriter;
namespace fb = mw::fb;

namespace {

TEST(NeonThreadPolicy, SplitDecisionFollowsWorkPerThread) {
    ASSERT_EQ(nn::min_work_per_thread(), nn::kDefaultMinWorkPerThread);
    // Small layers: one thread whatever the pool size.
    EXPECT_EQ(nn::parallel_chunks(16, nn::work_grain(64), 4), 1u);          // a 64 -> 16 fully connected layer
    EXPECT_EQ(nn::parallel_chunks(8, nn::work_grain(8 * 128 * 9), 4), 1u);  // the 8 rows of an 8x8x128 3x3 depthwise
    EXPECT_EQ(nn::parallel_chunks(100, nn::work_grain(1), 4), 1u);
    // Just enough for two threads, not for three.
    const size_t item = 1024, items_for_one = nn::kDefaultMinWorkPerThread / item;
    EXPECT_EQ(nn::parallel_chunks(2 * items_for_one, nn::work_grain(item), 4), 2u);
    EXPECT_EQ(nn::parallel_chunks(3 * items_for_one - 1, nn::work_grain(item), 4), 2u);
    // Large layers: all threads, never more than the pool has or than there are items.
    EXPECT_EQ(nn::parallel_chunks(1000, nn::work_grain(nn::kDefaultMinWorkPerThread), 4), 4u);
    EXPECT_EQ(nn::parallel_chunks(3, nn::work_grain(size_t(1) << 30), 4), 3u);
    EXPECT_EQ(nn::parallel_chunks(1000, 1, 1), 1u);
    EXPECT_EQ(nn::parallel_chunks(0, 1, 4), 0u);
    // The test override splits everything; 0 restores the default.
    nn::set_min_work_per_thread(1);
    EXPECT_EQ(nn::parallel_chunks(4, nn::work_grain(1), 4), 4u);
    nn::set_min_work_per_thread(0);
    EXPECT_EQ(nn::min_work_per_thread(), nn::kDefaultMinWorkPerThread);
}

TEST(NeonThreadPolicy, StatsCountWhatTheCallerRan) {
    nn::set_num_threads(4);
    nn::reset_parallel_stats();
    nn::parallel_for(100, nn::work_grain(10), [](size_t, size_t) {});
    nn::ParallelStats s = nn::parallel_stats();
    EXPECT_EQ(s.calls, 1u);
    EXPECT_EQ(s.split_calls, 0u);
    EXPECT_EQ(s.max_threads, 1u);
    nn::parallel_for(100, nn::work_grain(nn::kDefaultMinWorkPerThread), [](size_t, size_t) {});
    nn::parallel_for(2, 1, [](size_t, size_t) {});
    s = nn::parallel_stats();
    EXPECT_EQ(s.calls, 3u);
    EXPECT_EQ(s.split_calls, 2u);
    EXPECT_EQ(s.max_threads, 4u);
    nn::reset_parallel_stats();
    EXPECT_EQ(nn::parallel_stats().calls, 0u);
    nn::set_num_threads(1);
}

std::vector<float> random_floats(std::mt19937& rng, size_t n) {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

// A tiny float MLP like the FC model: 1x64 -> 32 (ReLu) -> 10.
std::vector<uint8_t> tiny_fc_model() {
    std::mt19937 rng(16);
    mw::ModelWriter w;
    uint32_t x = w.add_input("x", mw::tensor({1, 64}), 0);
    x = w.add_fully_connected("fc1", x, mw::tensor({1, 32}), mw::const_f32({32, 64}, random_floats(rng, 32 * 64)),
                              mw::const_f32({32}, random_floats(rng, 32)), true);
    x = w.add_activation("relu", x, mw::tensor({1, 32}), fb::ActivationFunction::ReLu);
    x = w.add_fully_connected("fc2", x, mw::tensor({1, 10}), mw::const_f32({10, 32}, random_floats(rng, 320)),
                              mw::const_f32({10}, random_floats(rng, 10)), true);
    w.add_output("y", x, 0);
    return w.finish();
}

// One float 3x3 convolution, 1x48x48x32 -> 32 channels: 21 M multiply-adds, worth four threads.
std::vector<uint8_t> large_conv_model() {
    std::mt19937 rng(17);
    mw::ModelWriter w;
    uint32_t x = w.add_input("x", mw::tensor({1, 48, 48, 32}), 0);
    mw::Conv2dParams p;
    p.pad_left = p.pad_right = p.pad_top = p.pad_bottom = 1;
    x = w.add_convolution2d("conv", x, mw::tensor({1, 48, 48, 32}), p,
                            mw::const_f32({32, 3, 3, 32}, random_floats(rng, 32 * 9 * 32)),
                            mw::const_f32({32}, random_floats(rng, 32)));
    w.add_output("y", x, 0);
    return w.finish();
}

struct ModelRun {
    std::vector<uint8_t> output;
    std::vector<npurun::LayerProfile> profile;
};

ModelRun run_model(const std::vector<uint8_t>& file, unsigned threads) {
    auto model = npurun::Model::load_from_memory(file.data(), file.size(), "thread-policy");
    npurun::SessionOptions o;
    o.device = npurun::DeviceKind::Cpu;
    o.threads = threads;
    o.profile = true;
    npurun::Session session(model, o);
    std::mt19937 rng(5);
    auto& in = session.input(0);
    const std::vector<float> values = random_floats(rng, in.info.num_bytes() / sizeof(float));
    std::memcpy(in.data, values.data(), in.info.num_bytes());
    session.run();
    const auto& out = session.output(0);
    const uint8_t* p = static_cast<const uint8_t*>(out.data);
    ModelRun r{std::vector<uint8_t>(p, p + out.info.num_bytes()), session.profile()};
    nn::set_num_threads(1);
    return r;
}

// Runs `file` with 2..4 threads: the same bytes as with one, and every profiled layer used at most `expect(t)`
// threads (exactly that many, when `exact`).
void check_threads(const std::vector<uint8_t>& file, uint32_t (*expect)(unsigned), bool exact) {
    const ModelRun one = run_model(file, 1);
    for (unsigned t = 2; t <= 4; ++t) {
        const ModelRun r = run_model(file, t);
        EXPECT_EQ(r.output, one.output) << "threads " << t;
        ASSERT_FALSE(r.profile.empty());
        for (const auto& row : r.profile) {
            if (exact) {
                EXPECT_EQ(row.threads, expect(t)) << row.name << " with --threads " << t;
            } else {
                EXPECT_LE(row.threads, expect(t)) << row.name << " with --threads " << t;
            }
        }
    }
}

TEST(NeonThreadPolicy, TinyModelStaysOnOneThread) {
    check_threads(tiny_fc_model(), [](unsigned) { return 1u; }, false);
}

TEST(NeonThreadPolicy, LargeConvolutionUsesEveryThreadBitExactly) {
    check_threads(large_conv_model(), [](unsigned t) { return uint32_t(t); }, true);
}

}  // namespace
