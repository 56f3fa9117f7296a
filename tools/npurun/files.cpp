#include "tools/npurun/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"
#include "tools/common/whole_file.h"
#include "runtime/util/npy.h"

namespace npurun::cli {
namespace {

std::string errno_text() { return std::strerror(errno); }

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string parent_dir(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

// Reads a whole file. `what` names the role of the file in messages ("input 0 'image'").
std::vector<uint8_t> slurp(const std::string& path, const std::string& what) {
    std::vector<uint8_t> data;
    tools::WholeFileError e;
    if (!tools::read_whole_file(path, &data, &e)) {
        switch (e.step) {
            case tools::WholeFileError::Step::Open:
                fail(ErrorKind::BadInput, what + ": cannot open '" + path + "': " + e.reason);
            case tools::WholeFileError::Step::NotRegular:
                fail(ErrorKind::BadInput, what + ": '" + path + "' is not a regular file");
            case tools::WholeFileError::Step::Read:
                fail(ErrorKind::BadInput, what + ": cannot read '" + path + "': " + (e.shrank ? "file shrank" : e.reason));
        }
    }
    return data;
}

}  // namespace

std::vector<uint8_t> read_input(const std::string& path, size_t index, const std::string& name,
                                const TensorInfo& expected) {
    const std::string what = "input " + std::to_string(index) + " '" + name + "'";
    std::vector<uint8_t> data = slurp(path, what);
    if (ends_with(path, ".npy")) {
        const npy::Header h = npy::parse_header(data.data(), data.size(), path);
        try {
            const size_t offset = npy::check_against(h, data.size(), expected, path);
            data.erase(data.begin(), data.begin() + std::ptrdiff_t(offset));
        } catch (const Error& e) {
            fail(e.kind(), what + ": " + e.what());
        }
        return data;
    }
    const size_t want = expected.num_bytes();
    if (data.size() != want)
        fail(ErrorKind::BadInput, what + ": file '" + path + "' has " + std::to_string(data.size()) +
                                      " bytes, expected " + std::to_string(want) + " bytes (" +
                                      expected.shape.str() + " " + to_string(expected.dtype) + ")");
    return data;
}

OutputTarget resolve_output(const std::string& out) {
    OutputTarget t;
    struct stat st{};
    const bool exists = ::stat(out.c_str(), &st) == 0;
    if (ends_with(out, "/") || (exists && S_ISDIR(st.st_mode))) {
        t.directory = true;
        t.path = out;
        while (t.path.size() > 1 && t.path.back() == '/') t.path.pop_back();
        if (!exists || !S_ISDIR(st.st_mode))
            fail(ErrorKind::BadInput, "output directory '" + out + "' does not exist");
        if (::access(t.path.c_str(), W_OK | X_OK) != 0)
            fail(ErrorKind::BadInput, "output directory '" + out + "' is not writable: " + errno_text());
        return t;
    }
    t.path = out;
    const std::string dir = parent_dir(out);
    struct stat dst{};
    if (::stat(dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode))
        fail(ErrorKind::BadInput, "cannot write output '" + out + "': directory '" + dir + "' does not exist");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        fail(ErrorKind::BadInput, "cannot write output '" + out + "': directory '" + dir + "' is not writable");
    if (exists && !S_ISREG(st.st_mode))
        fail(ErrorKind::BadInput, "cannot write output '" + out + "': it exists and is not a regular file");
    return t;
}

std::string sanitize_file_name(const std::string& binding_name) {
    std::string s;
    for (char c : binding_name) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                          c == '-' || c == '_';
        s += keep ? c : '_';
    }
    // Never a hidden file or a path component such as "..".
    if (!s.empty() && s[0] == '.') s[0] = '_';
    return s;
}

void write_files_atomically(const std::vector<PendingFile>& files) {
    std::vector<std::string> temps;
    auto cleanup = [&]() {
        for (const std::string& t : temps) ::unlink(t.c_str());
    };
    for (const PendingFile& f : files) {
        const std::string dir = parent_dir(f.path);
        const size_t slash = f.path.find_last_of('/');
        const std::string base = slash == std::string::npos ? f.path : f.path.substr(slash + 1);
        std::string tmpl = (dir == "." && slash == std::string::npos ? std::string() : dir + "/") + "." + base +
                           ".npurun-XXXXXX";
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back('\0');
        const int fd = ::mkstemp(buf.data());
        if (fd < 0) {
            const std::string why = errno_text();
            cleanup();
            fail(ErrorKind::BadInput, "cannot write output '" + f.path + "': " + why);
        }
        temps.emplace_back(buf.data());
        bool ok = true;
        std::string why;
        for (const auto& [ptr, len] : f.chunks) {
            const uint8_t* p = static_cast<const uint8_t*>(ptr);
            size_t done = 0;
            while (ok && done < len) {
                const ssize_t n = ::write(fd, p + done, len - done);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) {
                    ok = false;
                    why = n < 0 ? errno_text() : "short write";
                    break;
                }
                done += size_t(n);
            }
        }
        // mkstemp creates 0600; an output file gets the usual permissions (subject to umask).
        const mode_t mask = ::umask(0);
        ::umask(mask);
        if (ok && ::fchmod(fd, 0666 & ~mask) != 0) ok = false, why = errno_text();
        if (::close(fd) != 0 && ok) ok = false, why = errno_text();
        if (!ok) {
            cleanup();
            fail(ErrorKind::BadInput, "cannot write output '" + f.path + "': " + why);
        }
    }
    for (size_t i = 0; i < files.size(); ++i) {
        if (::rename(temps[i].c_str(), files[i].path.c_str()) != 0) {
            const std::string why = errno_text();
            for (size_t j = i; j < temps.size(); ++j) ::unlink(temps[j].c_str());
            fail(ErrorKind::BadInput, "cannot write output '" + files[i].path + "': " + why);
        }
    }
}

}  // namespace npurun::cli
