// Finding and opening the NPU: scan /dev/accel/accel* and /dev/dri/renderD*, identify each node's kernel
// driver by its DRM_IOCTL_VERSION name ("rknpu", "rocket"), check the driver version, and open a Device.
// All through the system-call seam, so the fake kernel is discovered exactly like a board.
#pragma once

#include <memory>
#include <string>

#include "drv/device.h"
#include "drv/syscalls.h"

namespace npudrv {

// What DRM_IOCTL_VERSION reports for one node.
struct DrmIdentity {
    std::string name, date, desc;
    DriverVersion version;
};

// Runs the two-pass DRM_IOCTL_VERSION query (lengths, then strings) through the seam. Returns 0 or -errno.
int query_drm_identity(Syscalls& sys, int fd, DrmIdentity* out);

// Opens the NPU. An empty device_path scans the standard nodes; otherwise only that node is tried.
// Errors (DriverError, ErrorKind::Device): no device, permission denied (names the group and the udev
// rule board/udev/99-npurun.rules), unknown driver, unsupported driver version.
Device open_npu(std::shared_ptr<Syscalls> sys, const std::string& device_path = "");

// The udev rule shipped with npurun (installed from board/udev/).
constexpr const char* kUdevRule = "board/udev/99-npurun.rules";

}  // namespace npudrv
