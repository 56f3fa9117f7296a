# Thin front over meson. Every target that builds first installs the Debian packages it needs
# (tools/ci/install-deps.sh: apt-get when root and missing, otherwise it prints the apt line).
BUILD      ?= build
ASAN_BUILD ?= build-asan
PREFIX     ?= /usr/local
DEPS        = tools/ci/install-deps.sh
EXAMPLE_DIR = $(BUILD)/example

.PHONY: all deps build run test asan install bench clean

all: build

deps:
	@$(DEPS) build test

$(BUILD)/build.ninja:
	@$(DEPS) build test
	meson setup $(BUILD) --prefix=$(PREFIX)

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

# The main job on the bundled example: an edge-detection network (hand-set Sobel weights) applied to a
# generated test image. The model and the image are written by the project's own code.
run: build
	@mkdir -p $(EXAMPLE_DIR)
	$(BUILD)/tools/make-example/npurun-make-example $(EXAMPLE_DIR)
	$(BUILD)/tools/npurun/npurun $(EXAMPLE_DIR)/edges.armnn $(EXAMPLE_DIR)/image.bin -o $(EXAMPLE_DIR)/edges.out.bin
	$(BUILD)/tools/make-example/npurun-make-example --show $(EXAMPLE_DIR)

test: build
	meson test -C $(BUILD) --print-errorlogs --num-processes 2
	@python3 tools/ci/summarize-tests.py $(BUILD)/meson-logs/testlog.junit.xml

$(ASAN_BUILD)/build.ninja:
	@$(DEPS) build test
	meson setup $(ASAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

asan: $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  meson test -C $(ASAN_BUILD) --print-errorlogs --num-processes 2 --timeout-multiplier 4
	@python3 tools/ci/summarize-tests.py $(ASAN_BUILD)/meson-logs/testlog.junit.xml

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
