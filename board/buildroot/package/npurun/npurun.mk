################################################################################
#
# npurun
#
################################################################################

# This external tree lives inside the npurun repository (board/buildroot), so
# by default it builds the checkout it belongs to. To build a release instead,
# set NPURUN_SITE to its git URL, NPURUN_SITE_METHOD = git and NPURUN_VERSION
# to the tag, and add a npurun.hash file.
NPURUN_VERSION = 0.1.0
NPURUN_SITE = $(realpath $(BR2_EXTERNAL_NPURUN_PATH)/../..)
NPURUN_SITE_METHOD = local
NPURUN_LICENSE = MIT
NPURUN_LICENSE_FILES = LICENSE
NPURUN_INSTALL_STAGING = YES
# flatc (host-flatbuffers) generates the Arm NN schema reader at build time;
# the generated code needs the target flatbuffers headers of the same version.
NPURUN_DEPENDENCIES = host-pkgconf host-flatbuffers flatbuffers libdrm jpeg libpng

# No tests or benchmarks on the target (they need GoogleTest and the shared
# models); -Dwerror=false because the project's -Werror is for its own CI, not
# for whatever compiler version a Buildroot toolchain brings.
NPURUN_CONF_OPTS = \
	-Dtests=false \
	-Dinstall_tests=false \
	-Dconformance=disabled \
	-Dwerror=false

ifeq ($(BR2_PACKAGE_NPURUN_SIMULATOR),y)
NPURUN_CONF_OPTS += -Dsimulator=true
else
NPURUN_CONF_OPTS += -Dsimulator=false
endif

ifeq ($(BR2_PACKAGE_NPURUN_STATIC_LIBSTDCPP),y)
NPURUN_CONF_OPTS += -Dstatic_stdlibcpp=true
else
NPURUN_CONF_OPTS += -Dstatic_stdlibcpp=false
endif

ifeq ($(BR2_PACKAGE_NPURUN_UDEV_RULES),y)
# The rule names the render group, which Buildroot's eudev and systemd packages
# already create (EUDEV_USERS / SYSTEMD_USERS).
define NPURUN_INSTALL_UDEV_RULES
	$(INSTALL) -D -m 0644 $(@D)/board/udev/99-npurun.rules \
		$(TARGET_DIR)/lib/udev/rules.d/99-npurun.rules
endef
NPURUN_POST_INSTALL_TARGET_HOOKS += NPURUN_INSTALL_UDEV_RULES
endif

$(eval $(meson-package))
