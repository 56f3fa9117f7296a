// Counts every operator-new allocation in the test program that links allocation_counter.cpp, so a test
// can assert that a code path (Session::run) allocates nothing.
#pragma once

#include <cstddef>

size_t allocation_count();
