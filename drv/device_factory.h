// The one entry point the runtime uses to get a Device: a real NPU, the fake kernel (`sim`), or `auto`.
#pragma once

#include <memory>
#include <string>

#include "drv/device.h"
#include "drv/sim/hardware.h"

namespace npudrv {

enum class DeviceKind {
    Auto,  // a real NPU if one is found; otherwise the simulator when a Hardware was supplied
    Npu,   // a real NPU only (discovery or device_path)
    Sim,   // the fake kernel with the supplied Hardware (the functional simulator, or a test double)
};

struct DeviceRequest {
    DeviceKind kind = DeviceKind::Auto;
    std::string device_path;                      // Npu/Auto: open exactly this node
    DriverKind sim_driver = DriverKind::Rknpu;    // Sim: which kernel driver the fake kernel plays
    std::unique_ptr<sim::Hardware> hardware;      // Sim/Auto: what executes the tasks
};

Device open_device(DeviceRequest request);

// The fake kernel with one device of the given driver, opened through the normal discovery path.
// Throws ErrorKind::Unsupported when npurun was built without the simulator (-Dsimulator=false).
Device open_sim_device(DriverKind driver, std::unique_ptr<sim::Hardware> hardware);

// "rknpu" / "rocket" -> DriverKind; false if unknown.
bool parse_driver_kind(const std::string& text, DriverKind* out);

}  // namespace npudrv
