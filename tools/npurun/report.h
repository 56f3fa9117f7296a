// What npurun prints: output summaries, the per-layer profile, latency statistics, the model summary.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"

namespace npurun::cli {

// Element `i` of a tensor as a real number (quantized values dequantized, Float16 widened).
double element_value(const TensorInfo& info, const void* data, size_t i);

// `labels`: names of the classes (already matched to this output's size), or nullptr.
void print_output_summary(std::FILE* out, size_t index, const TensorBinding& b,
                          const std::vector<std::string>* labels = nullptr);
// Whether print_output_summary prints a top-5 for this output, and over how many classes.
bool is_scores_output(const TensorInfo& info, size_t* classes);
void print_profile(std::FILE* out, const std::vector<LayerProfile>& rows);

struct Latency {
    double median_ms = 0, p90_ms = 0;
};
Latency latency_of(std::vector<double> run_ms);  // nearest-rank p90

// `stats`/`stats_note`: the memory plan, and why it lacks kernel scratch when the model is not runnable.
// `npurun --list-layers`: one row per layer type and data type with CPU support, NPU support ("-" until the
// NPU backend exists) and the reason when unsupported, generated from exec::cpu_support.
void print_layer_support(std::FILE* out);

void print_model_info(std::FILE* out, const Model& model, const MemoryPlanStats& stats, const std::string& stats_note);

}  // namespace npurun::cli
