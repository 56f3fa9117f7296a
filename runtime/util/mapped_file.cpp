#include "runtime/util/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace npurun {

namespace {

// Closes the descriptor on every path out of the constructor; the mapping stays valid without it.
struct FdGuard {
    int fd;
    ~FdGuard() {
        if (fd >= 0) ::close(fd);
    }
};

[[noreturn]] void fail_open(const std::string& path, const std::string& why) {
    fail(ErrorKind::BadInput, "cannot open '" + path + "': " + why);
}

}  // namespace

MappedFile::MappedFile(const std::string& path) : path_(path) {
    int fd = -1;
    do {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT) fail_open(path, "no such file");
        if (err == EACCES || err == EPERM) fail_open(path, "permission denied");
        fail_open(path, std::strerror(err));
    }
    FdGuard guard{fd};

    struct stat st {};
    if (::fstat(fd, &st) != 0) fail_open(path, std::strerror(errno));
    if (S_ISDIR(st.st_mode)) fail_open(path, "is a directory, not a file");
    if (!S_ISREG(st.st_mode)) fail_open(path, "not a regular file");
    if (st.st_size <= 0) fail_open(path, "the file is empty");
    if (static_cast<unsigned long long>(st.st_size) > static_cast<unsigned long long>(SIZE_MAX))
        fail_open(path, "the file is too large to map");

    size_ = static_cast<size_t>(st.st_size);
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) fail_open(path, std::string("mmap failed: ") + std::strerror(errno));
    data_ = static_cast<const uint8_t*>(p);
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace npurun
