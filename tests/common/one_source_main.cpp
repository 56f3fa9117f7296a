// main() of the per-directory test executables (tests/meson.build, "Test groups"). Several test sources
// are linked (and compiled as a few unity translation units) into one binary, which saves most of the test
// suite's compile and link time; each meson test() still runs one source's tests, under its own name,
// environment and timeout, by passing --source=FILE: only tests whose TEST() line is in a file named FILE
// run. Without --source the binary runs everything, like any gtest binary (--gtest_filter works as usual).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

// True when `path` (a TEST()'s __FILE__) names the file `name`: equal, or ending in "/name".
bool names_file(const std::string& path, const std::string& name) {
    if (path.size() < name.size() || path.compare(path.size() - name.size(), name.size(), name) != 0) return false;
    return path.size() == name.size() || path[path.size() - name.size() - 1] == '/';
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);  // removes the --gtest_* flags it recognises

    std::string source;
    for (int i = 1; i < argc; ++i) {
        const char* prefix = "--source=";
        if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0 && argv[i][std::strlen(prefix)] != '\0') {
            source = argv[i] + std::strlen(prefix);
        } else {
            std::fprintf(stderr, "%s: unknown argument '%s' (expected --source=FILE or --gtest_* flags)\n", argv[0],
                         argv[i]);
            return 2;
        }
    }
    if (!source.empty()) {
        if (GTEST_FLAG_GET(filter) != "*") {
            std::fprintf(stderr,
                         "%s: --source and --gtest_filter do not combine; run the binary with --gtest_filter alone\n",
                         argv[0]);
            return 2;
        }
        const ::testing::UnitTest& all = *::testing::UnitTest::GetInstance();
        std::string filter;
        for (int s = 0; s < all.total_test_suite_count(); ++s) {
            const ::testing::TestSuite& suite = *all.GetTestSuite(s);
            for (int t = 0; t < suite.total_test_count(); ++t) {
                const ::testing::TestInfo& info = *suite.GetTestInfo(t);
                if (!names_file(info.file(), source)) continue;
                if (!filter.empty()) filter += ':';
                filter += std::string(info.test_suite_name()) + "." + info.name();
            }
        }
        if (filter.empty()) {
            std::fprintf(stderr, "%s: no test is defined in a file named '%s'\n", argv[0], source.c_str());
            return 2;
        }
        GTEST_FLAG_SET(filter, filter);
    }
    return RUN_ALL_TESTS();
}
