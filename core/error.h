// One error type for the whole runtime. Every failure the user can cause (bad model, bad input, bad flag,
// missing device) is reported as a single line through this type; the CLI maps the kind to an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace npurun {

enum class ErrorKind {
    BadModel,     // the model file is malformed or inconsistent          -> exit 2
    BadInput,     // an input file or a command-line value is wrong       -> exit 2
    Unsupported,  // well-formed, but this build cannot run it (StandIn)  -> exit 2
    Device,       // device missing, permission denied, driver mismatch   -> exit 1
    Runtime,      // failure while running (driver error, timeout)        -> exit 1
    Internal,     // a broken invariant of npurun itself                  -> exit 1
};

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const { return kind_; }

private:
    ErrorKind kind_;
};

[[noreturn]] inline void fail(ErrorKind kind, const std::string& message) { throw Error(kind, message); }

// Exit code the CLI tools use for an error kind (documented in the README).
inline int exit_code(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::BadModel:
        case ErrorKind::BadInput:
        case ErrorKind::Unsupported:
            return 2;
        default:
            return 1;
    }
}

}  // namespace npurun
