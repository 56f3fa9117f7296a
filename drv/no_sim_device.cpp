// open_sim_device() in a build without the simulator (-Dsimulator=false).
#include "drv/device_factory.h"

namespace npudrv {

Device open_sim_device(DriverKind, std::unique_ptr<sim::Hardware>) {
    raise(ErrorKind::Unsupported, "this npurun was built without the simulator (-Dsimulator=false): no sim device");
}

}  // namespace npudrv
