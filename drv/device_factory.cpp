#include "drv/device_factory.h"

#include "drv/discovery.h"
#include "drv/syscalls.h"

namespace npudrv {

bool parse_driver_kind(const std::string& text, DriverKind* out) {
    if (text == "rknpu") *out = DriverKind::Rknpu;
    else if (text == "rocket") *out = DriverKind::Rocket;
    else return false;
    return true;
}

Device open_device(DeviceRequest request) {
    switch (request.kind) {
        case DeviceKind::Npu: return open_npu(real_syscalls(), request.device_path);
        case DeviceKind::Sim:
            if (!request.hardware) raise(ErrorKind::Internal, "sim device requested without a Hardware");
            return open_sim_device(request.sim_driver, std::move(request.hardware));
        case DeviceKind::Auto:
            try {
                return open_npu(real_syscalls(), request.device_path);
            } catch (const DriverError& e) {
                // Only "nothing there" falls back; a board with a broken setup (permissions, versions) must
                // be reported, not silently replaced by the simulator.
                if (e.error_number() != ENODEV || !request.hardware || !request.device_path.empty()) throw;
                return open_sim_device(request.sim_driver, std::move(request.hardware));
            }
    }
    raise(ErrorKind::Internal, "unknown device kind");
}

}  // namespace npudrv
