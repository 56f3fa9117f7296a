// open_sim_device() when the simulator is built: a fake kernel with one device, discovered and opened by
// the same code as a board. The Device keeps the fake kernel alive through its system-call seam.
#include <memory>

#include "drv/device_factory.h"
#include "drv/discovery.h"
#include "drv/sim/fake_kernel.h"

namespace npudrv {

Device open_sim_device(DriverKind driver, std::unique_ptr<sim::Hardware> hardware) {
    auto kernel = std::make_shared<sim::FakeKernel>(std::move(hardware));
    sim::FakeDeviceConfig config;
    config.driver = driver;
    kernel->add_device(config);
    return open_npu(kernel);
}

}  // namespace npudrv
