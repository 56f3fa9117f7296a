#include "drv/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace npudrv {

std::string describe_errno(int e) {
    const char* name = nullptr;
    switch (e) {
        case EPERM: name = "EPERM"; break;
        case ENOENT: name = "ENOENT"; break;
        case EINTR: name = "EINTR"; break;
        case EIO: name = "EIO"; break;
        case EBADF: name = "EBADF"; break;
        case EAGAIN: name = "EAGAIN"; break;
        case ENOMEM: name = "ENOMEM"; break;
        case EACCES: name = "EACCES"; break;
        case EFAULT: name = "EFAULT"; break;
        case EBUSY: name = "EBUSY"; break;
        case ENODEV: name = "ENODEV"; break;
        case EINVAL: name = "EINVAL"; break;
        case ENOTTY: name = "ENOTTY"; break;
        case ENOSPC: name = "ENOSPC"; break;
        case ETIMEDOUT: name = "ETIMEDOUT"; break;
        case ECANCELED: name = "ECANCELED"; break;
        default: break;
    }
    std::string text = name ? name : "errno " + std::to_string(e);
    return text + " (" + std::strerror(e) + ")";
}

}  // namespace npudrv
