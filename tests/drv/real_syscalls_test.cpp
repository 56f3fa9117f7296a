// The production system-call seam, on what every machine has (no NPU needed): error conventions,
// directory scan, group lookup, clock, and discovery's "not a DRM device" path on /dev/null.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>

#include "drv/device_factory.h"
#include "drv/discovery.h"
#include "drv/sim/recording_hardware.h"
#include "drv/syscalls.h"
#include "fake_env.h"

namespace npudrv::test {
namespace {

TEST(RealSyscalls, ErrorsAreNegativeErrno) {
    auto sys = real_syscalls();
    EXPECT_EQ(sys->open("/nonexistent/renderD129", O_RDWR), -ENOENT);
    EXPECT_EQ(sys->close(-1), -EBADF);
    int fd = sys->open("/dev/null", O_RDWR);
    ASSERT_GE(fd, 0);
    int dummy = 0;
    // A DRM ioctl on /dev/null: the kernel answers ENOTTY; qemu-user (make test-aarch64) does not forward
    // ioctls it does not know and answers ENOSYS itself. Either way the seam must return -errno.
    const int r = sys->ioctl(fd, 0xc0086440ul, &dummy);
    EXPECT_TRUE(r == -ENOTTY || r == -ENOSYS) << r;
    int err = 0;
    EXPECT_EQ(sys->mmap(4096, PROT_READ, MAP_SHARED, -1, 0, &err), nullptr);
    EXPECT_EQ(err, EBADF);
    EXPECT_EQ(sys->close(fd), 0);
    EXPECT_FALSE(sys->is_fake());
}

TEST(RealSyscalls, DirectoryGroupAndClock) {
    auto sys = real_syscalls();
    EXPECT_TRUE(sys->list_dir("/nonexistent").empty());
    auto dev = sys->list_dir("/dev");
    EXPECT_NE(std::find(dev.begin(), dev.end(), "null"), dev.end());
    EXPECT_FALSE(sys->node_group("/dev/null").empty());
    EXPECT_EQ(sys->node_group("/nonexistent"), "");
    const int64_t a = sys->monotonic_ns();
    EXPECT_GE(sys->monotonic_ns(), a);
}

TEST(RealSyscalls, DevNullIsNotAnNpu) {
    expect_error([] { open_npu(real_syscalls(), "/dev/null"); }, "/dev/null is not a DRM device");
}

TEST(Factory, AutoFallsBackToSimOnlyWithoutAnyNode) {
    if (!real_syscalls()->list_dir("/dev/dri").empty() || !real_syscalls()->list_dir("/dev/accel").empty()) {
        GTEST_SKIP() << "this machine has DRM/accel nodes; the fallback is only observable without them";
    }
    DeviceRequest r;
    r.kind = DeviceKind::Auto;
    r.hardware = std::make_unique<sim::RecordingHardware>();
    Device dev = open_device(std::move(r));
    EXPECT_TRUE(dev.info().fake_kernel);
    DeviceRequest npu;
    npu.kind = DeviceKind::Npu;
    expect_error([&] { open_device(std::move(npu)); }, "no NPU device found");
}

}  // namespace
}  // namespace npudrv::test
