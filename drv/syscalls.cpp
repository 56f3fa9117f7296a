#include "drv/syscalls.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include <cerrno>

namespace npudrv {
namespace {

class RealSyscalls final : public Syscalls {
public:
    int open(const std::string& path, int flags) override {
        int fd = ::open(path.c_str(), flags | O_CLOEXEC);
        return fd >= 0 ? fd : -errno;
    }

    int close(int fd) override { return ::close(fd) == 0 ? 0 : -errno; }

    int ioctl(int fd, unsigned long request, void* arg) override {
        int ret = drmIoctl(fd, request, arg);
        return ret >= 0 ? ret : -errno;
    }

    void* mmap(size_t length, int prot, int flags, int fd, uint64_t offset, int* error) override {
        void* p = ::mmap(nullptr, length, prot, flags, fd, static_cast<off_t>(offset));
        if (p == MAP_FAILED) {
            *error = errno;
            return nullptr;
        }
        return p;
    }

    int munmap(void* address, size_t length) override { return ::munmap(address, length) == 0 ? 0 : -errno; }

    int poll_readable(int fd, int timeout_ms) override {
        pollfd p{fd, POLLIN, 0};
        for (;;) {
            int ret = ::poll(&p, 1, timeout_ms);
            if (ret >= 0) return ret > 0 ? 1 : 0;
            if (errno != EINTR) return -errno;
        }
    }

    std::vector<std::string> list_dir(const std::string& directory) override {
        std::vector<std::string> names;
        DIR* d = ::opendir(directory.c_str());
        if (!d) return names;
        while (const dirent* e = ::readdir(d)) {
            std::string name = e->d_name;
            if (name != "." && name != "..") names.push_back(name);
        }
        ::closedir(d);
        return names;
    }

    std::string node_group(const std::string& path) override {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) return {};
        group g {};
        group* result = nullptr;
        char buf[4096];
        if (::getgrgid_r(st.st_gid, &g, buf, sizeof buf, &result) != 0 || !result) return std::to_string(st.st_gid);
        return result->gr_name;
    }

    int64_t monotonic_ns() override {
        timespec ts {};
        ::clock_gettime(CLOCK_MONOTONIC, &ts);
        return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    }
};

}  // namespace

int restarting_ioctl(Syscalls& sys, int fd, unsigned long request, void* arg) {
    int ret = sys.ioctl(fd, request, arg);
    for (int i = 0; i < kMaxRestarts && (ret == -EINTR || ret == -EAGAIN); ++i) ret = sys.ioctl(fd, request, arg);
    return ret;
}

int restarting_poll(Syscalls& sys, int fd, int timeout_ms) {
    int ret = sys.poll_readable(fd, timeout_ms);
    for (int i = 0; i < kMaxRestarts && (ret == -EINTR || ret == -EAGAIN); ++i) ret = sys.poll_readable(fd, timeout_ms);
    return ret;
}

std::shared_ptr<Syscalls> real_syscalls() {
    static const std::shared_ptr<Syscalls> instance = std::make_shared<RealSyscalls>();
    return instance;
}

}  // namespace npudrv
