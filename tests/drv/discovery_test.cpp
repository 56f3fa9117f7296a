// Device discovery and identification through the seam: scan order, the --device-path override and the
// one-line errors for no device, permission denied, unknown driver and unsupported driver version.
#include <gtest/gtest.h>

#include <cerrno>

#include "drv/device_factory.h"
#include "fake_env.h"

namespace npudrv::test {
namespace {

sim::FakeDeviceConfig node(const std::string& path, const std::string& name, DriverKind driver = DriverKind::Rknpu) {
    sim::FakeDeviceConfig c;
    c.driver = driver;
    c.node = path;
    c.name = name;
    return c;
}

TEST(Discovery, NoNodesAtAll) {
    FakeEnv env;
    auto e = expect_error([&] { env.open(); }, "no NPU device found: no /dev/accel/accel* or /dev/dri/renderD* node");
    EXPECT_EQ(e.kind(), ErrorKind::Device);
    EXPECT_EQ(e.error_number(), ENODEV);
}

TEST(Discovery, OnlyForeignDrivers) {
    FakeEnv env;
    env.add(node("/dev/dri/renderD128", "rockchip"));
    env.add(node("/dev/dri/renderD130", "panthor"));
    expect_error([&] { env.open(); },
                 "no rknpu or rocket driver among rockchip (/dev/dri/renderD128), panthor (/dev/dri/renderD130)");
    EXPECT_EQ(env.kernel->counts().open_fds, 0u);  // every probed node was closed again
}

TEST(Discovery, PicksTheNpuAmongRenderNodes) {
    FakeEnv env;
    env.add(node("/dev/dri/renderD128", "rockchip"));
    env.add(node("/dev/dri/renderD129", "rknpu"));
    Device dev = env.open();
    EXPECT_EQ(dev.info().node, "/dev/dri/renderD129");
    EXPECT_EQ(env.kernel->counts().open_fds, 1u);
}

TEST(Discovery, NumericOrderAndAccelFirst) {
    FakeEnv env;
    env.add(node("/dev/dri/renderD1000", "rknpu"));
    env.add(node("/dev/dri/renderD200", "rknpu"));
    EXPECT_EQ(env.open().info().node, "/dev/dri/renderD200");
    env.add(node("/dev/accel/accel3", "rocket", DriverKind::Rocket));
    EXPECT_EQ(env.open().info().node, "/dev/accel/accel3");
}

TEST(Discovery, PermissionDeniedNamesGroupAndUdevRule) {
    FakeEnv env;
    auto c = node("/dev/dri/renderD129", "rknpu");
    c.accessible = false;
    c.group = "render";
    env.add(c);
    auto e = expect_error([&] { env.open(); }, "permission denied opening /dev/dri/renderD129 (owned by group 'render')");
    EXPECT_NE(std::string(e.what()).find("usermod -aG render"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("board/udev/99-npurun.rules"), std::string::npos);
    EXPECT_EQ(e.error_number(), EACCES);
    expect_error([&] { env.open("/dev/dri/renderD129"); }, "permission denied");
}

TEST(Discovery, DevicePathOverride) {
    FakeEnv env;
    env.add(node("/dev/dri/renderD128", "rockchip"));
    env.add(node("/dev/dri/renderD129", "rknpu"));
    env.add(node("/dev/dri/renderD131", "rknpu"));
    EXPECT_EQ(env.open("/dev/dri/renderD131").info().node, "/dev/dri/renderD131");
    expect_error([&] { env.open("/dev/dri/renderD128"); },
                 "unknown driver 'rockchip' on /dev/dri/renderD128: npurun supports the rknpu and rocket NPU drivers");
    expect_error([&] { env.open("/dev/dri/renderD140"); }, "no such device node /dev/dri/renderD140");
    EXPECT_EQ(env.kernel->counts().open_fds, 0u);
}

TEST(Discovery, UnsupportedRknpuVersions) {
    for (auto v : {std::array<int, 3>{0, 8, 2}, std::array<int, 3>{1, 0, 0}}) {
        FakeEnv env;
        auto c = node("/dev/dri/renderD129", "rknpu");
        c.major = v[0];
        c.minor = v[1];
        c.patch = v[2];
        env.add(c);
        const std::string text = std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
        expect_error([&] { env.open(); }, "unsupported rknpu driver version " + text + " on /dev/dri/renderD129");
        EXPECT_EQ(env.kernel->counts().open_fds, 0u);
    }
    FakeEnv env;
    auto c = node("/dev/dri/renderD129", "rknpu");
    c.major = 0;
    c.minor = 9;
    c.patch = 6;
    env.add(c);
    EXPECT_EQ(env.open().info().version.text(), "0.9.6");
}

TEST(Discovery, EarlyRocketUapiIsUnsupported) {
    FakeEnv env;
    auto c = node("/dev/accel/accel0", "rocket", DriverKind::Rocket);
    c.rocket_prep_fini = false;
    env.add(c);
    expect_error([&] { env.open(); }, "unsupported rocket driver on /dev/accel/accel0: FINI_BO/PREP_BO are missing");
}

TEST(Discovery, IdentityQuery) {
    FakeEnv env;
    int fd = env.open_fd(env.add(DriverKind::Rknpu));
    DrmIdentity id;
    ASSERT_EQ(query_drm_identity(*env.kernel, fd, &id), 0);
    EXPECT_EQ(id.name, "rknpu");
    EXPECT_EQ(id.desc, "RKNPU driver");
    EXPECT_EQ(id.date, "20240828");
    EXPECT_EQ(id.version.text(), "0.9.8");
    env.kernel->close(fd);
}

TEST(Factory, SimDevicesForBothDrivers) {
    for (DriverKind k : {DriverKind::Rknpu, DriverKind::Rocket}) {
        DeviceRequest r;
        r.kind = DeviceKind::Sim;
        r.sim_driver = k;
        r.hardware = std::make_unique<sim::RecordingHardware>();
        Device dev = open_device(std::move(r));
        EXPECT_EQ(dev.info().driver, k);
        EXPECT_TRUE(dev.info().fake_kernel);
        EXPECT_TRUE(dev.syscalls().is_fake());
        Buffer b = dev.create_buffer(4096, kBufferCacheable);
        b.map()[0] = 1;
        b.sync_to_device();
    }
    DeviceRequest bad;
    bad.kind = DeviceKind::Sim;
    expect_error([&] { open_device(std::move(bad)); }, "without a Hardware");
}

TEST(Factory, ParseDriverKind) {
    DriverKind k{};
    EXPECT_TRUE(parse_driver_kind("rocket", &k));
    EXPECT_EQ(k, DriverKind::Rocket);
    EXPECT_FALSE(parse_driver_kind("rknn", &k));
}

}  // namespace
}  // namespace npudrv::test
