// npu-info: which NPU this machine has and whether buffers work on it.
//
//   npu-info                       discover the NPU (/dev/accel/accel*, /dev/dri/renderD*)
//   npu-info --device-path PATH    use exactly this node
//   npu-info --device sim[:rknpu|:rocket]   the fake kernel of drv/sim (no hardware is computed on)
//
// Prints the device node, driver name and version, hardware version, cores, IOMMU, then a smoke test
// that allocates, maps, writes, syncs, reads back and frees a buffer. Exit codes: 0 ok, 1 device or
// driver failure, 2 bad command line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

#include "drv/device.h"
#include "drv/device_factory.h"
#include "drv/discovery.h"
#include "drv/sim/recording_hardware.h"
#include "drv/syscalls.h"

namespace {

constexpr const char* kUsage =
    "usage: npu-info [--device npu|sim|sim:rknpu|sim:rocket] [--device-path PATH] [--help]\n"
    "  --device npu          a real NPU (default): scans /dev/accel/accel* and /dev/dri/renderD*\n"
    "  --device sim[:DRV]    the fake kernel playing the rknpu (default) or rocket driver; nothing is\n"
    "                        computed, only the driver path is exercised\n"
    "  --device-path PATH    open exactly this device node (implies --device npu)\n"
    "Exit codes: 0 ok, 1 device or driver failure, 2 bad command line.\n";

struct Options {
    bool sim = false;
    npudrv::DriverKind sim_driver = npudrv::DriverKind::Rknpu;
    std::string device_path;
};

[[noreturn]] void usage_error(const std::string& message) {
    std::fprintf(stderr, "npu-info: %s (see --help)\n", message.c_str());
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    bool device_given = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const std::string& name) -> std::string {
            const std::string prefix = name + "=";
            if (arg.compare(0, prefix.size(), prefix) == 0) return arg.substr(prefix.size());
            if (i + 1 >= argc) usage_error(name + " needs a value");
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else if (arg == "--device" || arg.compare(0, 9, "--device=") == 0) {
            const std::string v = value("--device");
            device_given = true;
            if (v == "npu") {
                o.sim = false;
            } else if (v == "sim") {
                o.sim = true;
            } else if (v.compare(0, 4, "sim:") == 0) {
                o.sim = true;
                if (!npudrv::parse_driver_kind(v.substr(4), &o.sim_driver)) {
                    usage_error("unknown simulated driver '" + v.substr(4) + "' (use rknpu or rocket)");
                }
            } else {
                usage_error("unknown device '" + v + "' (use npu, sim, sim:rknpu or sim:rocket)");
            }
        } else if (arg == "--device-path" || arg.compare(0, 14, "--device-path=") == 0) {
            o.device_path = value("--device-path");
            if (o.device_path.empty()) usage_error("--device-path needs a non-empty path");
        } else {
            usage_error("unknown argument '" + arg + "'");
        }
    }
    if (o.sim && !o.device_path.empty()) usage_error("--device-path names a real node; it cannot be used with --device sim");
    (void)device_given;
    return o;
}

// Allocate, map, write, sync both ways, read back, free: the whole buffer path of the driver.
std::string smoke_test(npudrv::Device& device) {
    constexpr uint64_t kSize = 64 * 1024;
    npudrv::Buffer buffer = device.create_buffer(kSize, npudrv::kBufferCacheable | npudrv::kBufferZeroed);
    const uint64_t dma = buffer.dma_addr();
    const uint64_t size = buffer.size();
    uint8_t* p = buffer.map();
    for (uint64_t i = 0; i < size; ++i) p[i] = static_cast<uint8_t>(i * 7 + 3);
    buffer.sync_to_device();
    buffer.sync_from_device();
    for (uint64_t i = 0; i < size; ++i) {
        if (p[i] != static_cast<uint8_t>(i * 7 + 3)) {
            throw npudrv::DriverError(npudrv::ErrorKind::Runtime,
                                      "smoke test: byte " + std::to_string(i) + " of the mapped buffer changed");
        }
    }
    buffer.unmap();
    buffer.destroy();
    return "ok (" + std::to_string(size) + "-byte buffer at NPU address " + npudrv::hex(dma) +
           ": allocated, mapped, written, synced to and from the device, read back, freed)";
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    try {
        npudrv::DeviceRequest request;
        request.device_path = options.device_path;
        if (options.sim) {
            request.kind = npudrv::DeviceKind::Sim;
            request.sim_driver = options.sim_driver;
            request.hardware = std::make_unique<npudrv::sim::RecordingHardware>();
        } else {
            request.kind = npudrv::DeviceKind::Npu;
        }
        npudrv::Device device = npudrv::open_device(std::move(request));
        const npudrv::DeviceInfo& info = device.info();

        std::printf("device:        %s%s\n", info.node.c_str(),
                    info.fake_kernel ? " (fake kernel of drv/sim: no NPU hardware, nothing is computed)" : "");
        std::printf("driver:        %s %s (%s, date %s)\n", info.driver_name.c_str(), info.version.text().c_str(),
                    info.driver_desc.c_str(), info.driver_date.c_str());
        if (info.hw_version) {
            std::printf("hardware:      %s\n", npudrv::hex(*info.hw_version).c_str());
        } else {
            std::printf("hardware:      not reported (the %s driver has no version query)\n", info.driver_name.c_str());
        }
        std::printf("cores:         %u (RK3588; neither driver reports a count)\n", info.cores);
        if (info.iommu) {
            std::printf("iommu:         %s\n", *info.iommu ? "enabled" : "disabled");
        } else {
            std::printf("iommu:         unknown\n");
        }
        std::printf("address space: %s\n", info.address_space.c_str());
        std::printf("smoke test:    %s\n", smoke_test(device).c_str());
        return 0;
    } catch (const npurun::Error& e) {
        std::fprintf(stderr, "npu-info: %s\n", e.what());
        return npurun::exit_code(e.kind());  // 1 for device/driver failures; 2 for "sim not built"
    } catch (const std::exception& e) {
        std::fprintf(stderr, "npu-info: internal error: %s\n", e.what());
        return 1;
    }
}
