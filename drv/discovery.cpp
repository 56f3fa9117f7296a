#include "drv/syscalls.h"
#include "drv/discovery.h"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <vector>

#include "drv/backend.h"
#include "drv/uapi/drm_core.h"
#include "drv/uapi/rocket.h"

namespace npudrv {

Device make_device(std::shared_ptr<detail::Backend> backend);

namespace {

struct Candidate {
    std::string path;
};

// Node names sorted by their number (renderD128 < renderD129 < renderD1000), accel* first: a rocket node
// is always the NPU, while render nodes also belong to the GPU and the display controller.
std::vector<std::string> candidate_nodes(Syscalls& sys) {
    std::vector<std::string> result;
    auto scan = [&](const std::string& dir, const std::string& prefix) {
        std::vector<std::pair<long, std::string>> found;
        for (const auto& name : sys.list_dir(dir)) {
            if (name.compare(0, prefix.size(), prefix) != 0 || name.size() == prefix.size()) continue;
            const std::string digits = name.substr(prefix.size());
            if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
            found.emplace_back(std::strtol(digits.c_str(), nullptr, 10), dir + "/" + name);
        }
        std::sort(found.begin(), found.end());
        for (auto& f : found) result.push_back(f.second);
    };
    scan("/dev/accel", "accel");
    scan("/dev/dri", "renderD");
    return result;
}

[[noreturn]] void permission_denied(Syscalls& sys, const std::string& path) {
    std::string group = sys.node_group(path);
    std::string who = group.empty() ? "" : " (owned by group '" + group + "')";
    std::string fix = group.empty() ? "add your user to the node's group"
                                    : "add your user to group '" + group + "' (sudo usermod -aG " + group +
                                          " $USER, then log in again)";
    raise(ErrorKind::Device, "permission denied opening " + path + who + ": " + fix + ", or install the udev rule " +
                                kUdevRule,
         EACCES);
}

bool is_supported_name(const std::string& name) { return name == "rknpu" || name == "rocket"; }

// rknpu: the UAPI npudrv speaks is that of 0.9.x (submit/task sizes never changed; the 48-byte MEM_CREATE
// is accepted by older 0.9 kernels through drm_ioctl's size handling). Older drivers predate the
// documented headers (other meaning of mem flag bit 7, different power handling); 1.x is unknown.
void check_rknpu_version(const DrmIdentity& id, const std::string& path) {
    if (id.version.major != 0 || id.version.minor != 9) {
        raise(ErrorKind::Device, "unsupported rknpu driver version " + id.version.text() + " on " + path +
                                    ": npurun supports rknpu 0.9.x (tested ABI: 0.9.6 .. 0.9.8)");
    }
}

// rocket reports version 0.0.0, so the only ABI difference (an early merge state without PREP_BO/FINI_BO)
// is probed: FINI_BO on handle 0 answers ENOENT when the ioctl exists, EINVAL (unknown ioctl) when not.
void check_rocket_abi(Syscalls& sys, int fd, const std::string& path) {
    uapi::drm_rocket_fini_bo probe{};
    int ret = restarting_ioctl(sys, fd, uapi::kRocketIoctlFiniBo, &probe);
    if (ret == -ENOENT || ret == 0) return;
    raise(ErrorKind::Device, "unsupported rocket driver on " + path + ": FINI_BO/PREP_BO are missing (" +
                                describe_errno(-ret) + "); npurun needs the Linux 6.18 rocket UAPI");
}

Device open_identified(std::shared_ptr<Syscalls> sys, int fd, const std::string& path, const DrmIdentity& id) {
    DeviceInfo info;
    info.node = path;
    info.driver_name = id.name;
    info.driver_desc = id.desc;
    info.driver_date = id.date;
    info.version = id.version;
    info.fake_kernel = sys->is_fake();
    try {
        if (id.name == "rknpu") {
            check_rknpu_version(id, path);
            info.driver = DriverKind::Rknpu;
            return make_device(detail::open_rknpu_backend(sys, fd, info));
        }
        check_rocket_abi(*sys, fd, path);
        info.driver = DriverKind::Rocket;
        return make_device(detail::open_rocket_backend(sys, fd, info));
    } catch (...) {
        sys->close(fd);
        throw;
    }
}

}  // namespace

int query_drm_identity(Syscalls& sys, int fd, DrmIdentity* out) {
    uapi::drm_version v{};
    int ret = restarting_ioctl(sys, fd, uapi::kDrmIoctlVersion, &v);  // pass 1: the string lengths
    if (ret < 0) return ret;
    // Bound the lengths: a confused node must not make us allocate gigabytes.
    constexpr size_t kMax = 4096;
    std::string name(std::min(v.name_len, kMax), '\0'), date(std::min(v.date_len, kMax), '\0'),
        desc(std::min(v.desc_len, kMax), '\0');
    uapi::drm_version w{};
    w.name_len = name.size();
    w.name = name.data();
    w.date_len = date.size();
    w.date = date.data();
    w.desc_len = desc.size();
    w.desc = desc.data();
    ret = restarting_ioctl(sys, fd, uapi::kDrmIoctlVersion, &w);  // pass 2: the strings
    if (ret < 0) return ret;
    name.resize(std::min(name.size(), w.name_len));
    date.resize(std::min(date.size(), w.date_len));
    desc.resize(std::min(desc.size(), w.desc_len));
    out->name = name;
    out->date = date;
    out->desc = desc;
    out->version = {w.version_major, w.version_minor, w.version_patchlevel};
    return 0;
}

Device open_npu(std::shared_ptr<Syscalls> sys, const std::string& device_path) {
    if (!device_path.empty()) {
        int fd = sys->open(device_path, O_RDWR);
        if (fd == -EACCES || fd == -EPERM) permission_denied(*sys, device_path);
        if (fd == -ENOENT) raise(ErrorKind::Device, "no such device node " + device_path, ENOENT);
        if (fd < 0) raise(ErrorKind::Device, "cannot open " + device_path + ": " + describe_errno(-fd), -fd);
        DrmIdentity id;
        int ret = query_drm_identity(*sys, fd, &id);
        if (ret < 0) {
            sys->close(fd);
            raise(ErrorKind::Device, device_path + " is not a DRM device (DRM_IOCTL_VERSION: " + describe_errno(-ret) + ")", -ret);
        }
        if (!is_supported_name(id.name)) {
            sys->close(fd);
            raise(ErrorKind::Device, "unknown driver '" + id.name + "' on " + device_path +
                                        ": npurun supports the rknpu and rocket NPU drivers");
        }
        return open_identified(sys, fd, device_path, id);
    }

    const auto nodes = candidate_nodes(*sys);
    std::vector<std::string> denied, others;
    for (const auto& path : nodes) {
        int fd = sys->open(path, O_RDWR);
        if (fd == -EACCES || fd == -EPERM) {
            denied.push_back(path);
            continue;
        }
        if (fd < 0) continue;
        DrmIdentity id;
        if (query_drm_identity(*sys, fd, &id) == 0 && is_supported_name(id.name)) {
            return open_identified(sys, fd, path, id);
        }
        others.push_back(id.name.empty() ? path : id.name + " (" + path + ")");
        sys->close(fd);
    }
    if (!denied.empty()) permission_denied(*sys, denied.front());
    if (nodes.empty()) {
        raise(ErrorKind::Device, "no NPU device found: no /dev/accel/accel* or /dev/dri/renderD* node (is the rknpu "
                                "or rocket kernel driver loaded?)", ENODEV);
    }
    std::string seen;
    for (const auto& o : others) seen += (seen.empty() ? "" : ", ") + o;
    raise(ErrorKind::Device, "no NPU device found: no rknpu or rocket driver among " + seen +
                                " (use --device-path to name the node)", ENODEV);
}

}  // namespace npudrv
