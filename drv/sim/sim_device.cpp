// open_sim_device() when the simulator is built: a fake kernel with one device, discovered and opened by
// the same code as a board. The Device keeps the fake kernel alive through its system-call seam.
#include <memory>

#include "drv/device_factory.h"
#include "drv/discovery.h"
#include "drv/sim/fake_kernel.h"
#include "drv/sim/fake_kernel_faults.h"

namespace npudrv {

Device open_sim_device(DriverKind driver, std::unique_ptr<sim::Hardware> hardware) {
    const sim::SimDeviceOverride o = sim::sim_device_override();  // tests: driver choice, fault injection
    if (o.hardware) hardware = o.hardware(std::move(hardware));
    auto kernel = std::make_shared<sim::FakeKernel>(std::move(hardware));
    sim::FakeDeviceConfig config;
    config.driver = o.driver.value_or(driver);
    kernel->add_device(config);
    if (o.created) o.created(kernel);
    if (o.seam) return open_npu(o.seam(kernel));
    return open_npu(kernel);
}

}  // namespace npudrv
