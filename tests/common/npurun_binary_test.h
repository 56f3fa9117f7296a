// The fixture of the tests that run the npurun binary as a user does: its path (NPURUN_BIN, set by the
// meson test definition), a scratch folder of the test's own that is removed after, and a run without a
// shell that keeps stdout and stderr apart.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/common/run_command.h"
#include "tests/common/test_files.h"

namespace npurun::testing {

class NpurunBinaryTest : public ::testing::Test {
protected:
    // The scratch folder is made in `parent` with a name starting `prefix`.
    NpurunBinaryTest(std::string parent, std::string prefix) : parent_(std::move(parent)), prefix_(std::move(prefix)) {}

    // A fixture adding to SetUp calls this first and returns when it failed (HasFatalFailure()).
    void SetUp() override {
        const char* bin = std::getenv("NPURUN_BIN");
        ASSERT_NE(bin, nullptr) << "NPURUN_BIN is set by the meson test definition";
        bin_ = bin;
        dir_ = make_temp_dir(parent_, prefix_);
        ASSERT_FALSE(dir_.empty());
    }
    void TearDown() override { remove_tree(dir_); }

    std::string path(const std::string& name) const { return dir_ + "/" + name; }

    SpawnResult run(const std::vector<std::string>& args) {
        const SpawnResult s = spawn_captured(bin_, args, dir_);
        if (s.exit_code == -1) ADD_FAILURE() << "cannot start " << bin_ << ": " << s.start_error;
        return s;
    }

    std::string bin_, dir_;

private:
    std::string parent_, prefix_;
};

}  // namespace npurun::testing
