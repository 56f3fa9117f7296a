#include "runtime/npu/npu_context.h"

#include "drv/device_factory.h"
#include "drv/error.h"
#include "core/error.h"
#include "runtime/npu/simulator_factory.h"

namespace npurun::npu {

std::unique_ptr<NpuContext> open_npu_context() {
    try {
        npudrv::DeviceRequest r;
        r.kind = npudrv::DeviceKind::Npu;
        return std::unique_ptr<NpuContext>(new NpuContext{npudrv::open_device(std::move(r)), nullptr});
    } catch (const std::exception& e) {
        fail(ErrorKind::Device, std::string("device 'npu' is not available: ") + e.what());
    }
}

std::unique_ptr<NpuContext> open_sim_context() {
    npudrv::sim::NpuSimulator* sim = nullptr;
    std::unique_ptr<npudrv::sim::Hardware> hw = make_simulator(&sim);
    if (!hw) fail(ErrorKind::Device, "device 'sim' is not available: npurun was built without the simulator (-Dsimulator=false)");
    try {
        npudrv::DeviceRequest r;
        r.kind = npudrv::DeviceKind::Sim;
        r.hardware = std::move(hw);
        return std::unique_ptr<NpuContext>(new NpuContext{npudrv::open_device(std::move(r)), sim});
    } catch (const std::exception& e) {
        fail(ErrorKind::Device, std::string("cannot open the simulated NPU: ") + e.what());
    }
}

}  // namespace npurun::npu
