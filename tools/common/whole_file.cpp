#include "tools/common/whole_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace npurun::tools {

bool read_whole_file(const std::string& path, std::vector<uint8_t>* out, WholeFileError* error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *error = {WholeFileError::Step::Open, false, std::strerror(errno)};
        return false;
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        *error = {WholeFileError::Step::NotRegular, false, {}};
        return false;
    }
    std::vector<uint8_t> data(size_t(st.st_size));
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::read(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *error = {WholeFileError::Step::Read, n == 0, n < 0 ? std::strerror(errno) : ""};
            ::close(fd);
            return false;
        }
        done += size_t(n);
    }
    ::close(fd);
    *out = std::move(data);
    return true;
}

}  // namespace npurun::tools
