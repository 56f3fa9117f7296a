// The generic DRM core ioctls npudrv issues on both NPU nodes (VERSION, GEM_CLOSE, PRIME import/export).
// These come from libdrm's <drm.h> (a stable, always-present header); the asserts pin the layouts and
// numbers the fake kernel and the driver rely on, so a surprising header is caught at compile time.
#pragma once

#include <cstddef>
#include <cstdint>

#include <fcntl.h>  // O_CLOEXEC / O_RDWR behind DRM_CLOEXEC / DRM_RDWR

#include <drm.h>

namespace npudrv::uapi {

// The numbers are taken before the aliases below exist: the macros spell "struct drm_version", which
// inside this namespace would otherwise name the alias.
constexpr unsigned long kDrmIoctlVersion = DRM_IOCTL_VERSION;
constexpr unsigned long kDrmIoctlGemClose = DRM_IOCTL_GEM_CLOSE;
constexpr unsigned long kDrmIoctlPrimeHandleToFd = DRM_IOCTL_PRIME_HANDLE_TO_FD;
constexpr unsigned long kDrmIoctlPrimeFdToHandle = DRM_IOCTL_PRIME_FD_TO_HANDLE;

using drm_version = ::drm_version;
using drm_gem_close = ::drm_gem_close;
using drm_prime_handle = ::drm_prime_handle;

// Driver-private ioctls start here (_IOC_NR 0x40 .. 0x9f).
constexpr unsigned kDrmCommandBase = DRM_COMMAND_BASE;
static_assert(kDrmCommandBase == 0x40, "DRM_COMMAND_BASE");
static_assert(DRM_IOCTL_BASE == 'd', "DRM ioctl type");

static_assert(sizeof(drm_gem_close) == 8, "drm_gem_close size");
static_assert(offsetof(drm_gem_close, handle) == 0 && offsetof(drm_gem_close, pad) == 4, "drm_gem_close");
static_assert(sizeof(drm_prime_handle) == 12, "drm_prime_handle size");
static_assert(offsetof(drm_prime_handle, handle) == 0 && offsetof(drm_prime_handle, flags) == 4 &&
                  offsetof(drm_prime_handle, fd) == 8,
              "drm_prime_handle offsets");
static_assert(kDrmIoctlGemClose == 0x40086409ul, "DRM_IOCTL_GEM_CLOSE");
static_assert(kDrmIoctlPrimeHandleToFd == 0xc00c642dul, "DRM_IOCTL_PRIME_HANDLE_TO_FD");
static_assert(kDrmIoctlPrimeFdToHandle == 0xc00c642eul, "DRM_IOCTL_PRIME_FD_TO_HANDLE");
#if defined(__LP64__)
// drm_version holds pointers and size_t, so its size (and the ioctl number) depends on the ABI.
static_assert(sizeof(drm_version) == 64, "drm_version size (LP64)");
static_assert(offsetof(drm_version, name_len) == 16 && offsetof(drm_version, name) == 24 &&
                  offsetof(drm_version, date_len) == 32 && offsetof(drm_version, desc) == 56,
              "drm_version offsets (LP64)");
static_assert(kDrmIoctlVersion == 0xc0406400ul, "DRM_IOCTL_VERSION (LP64)");
#endif

// Decoding helpers for an ioctl request number (the fake kernel dispatches on them as drm_ioctl does).
constexpr unsigned ioctl_nr(unsigned long request) { return static_cast<unsigned>(_IOC_NR(request)); }
constexpr unsigned ioctl_type(unsigned long request) { return static_cast<unsigned>(_IOC_TYPE(request)); }
constexpr unsigned ioctl_size(unsigned long request) { return static_cast<unsigned>(_IOC_SIZE(request)); }
constexpr unsigned ioctl_dir(unsigned long request) { return static_cast<unsigned>(_IOC_DIR(request)); }

}  // namespace npudrv::uapi
