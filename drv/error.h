// Errors of the NPU driver layer. They are npurun::Error (so the CLI maps them to exit codes like every
// other failure) and additionally carry the errno the kernel returned, if any, for tests and logs.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"

namespace npudrv {

using npurun::ErrorKind;

class DriverError : public npurun::Error {
public:
    DriverError(ErrorKind kind, const std::string& message, int error_number = 0)
        : npurun::Error(kind, message), errno_(error_number) {}
    // Positive errno from the kernel (ENOMEM, ETIMEDOUT, ...), 0 when the driver refused before any call.
    int error_number() const { return errno_; }

private:
    int errno_;
};

// "ENOMEM (Cannot allocate memory)" for a positive errno; stable across libc versions for the ones we name.
std::string describe_errno(int error_number);

// "0x1f" (for messages).
std::string hex(uint64_t value);

[[noreturn]] inline void raise(ErrorKind kind, const std::string& message, int error_number = 0) {
    throw DriverError(kind, message, error_number);
}

}  // namespace npudrv
