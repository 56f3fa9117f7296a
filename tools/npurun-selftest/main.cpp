// npurun-selftest: the bring-up self-test (see selftest_cli.cpp for the options, man/npurun-selftest.1).
#include <string>
#include <vector>

#include "tools/npurun-selftest/selftest_cli.h"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return npurun::selftest::selftest_main(args, "npurun-selftest");
}
