# Thin front over meson. Every target that builds first installs the Debian packages it needs
# (tools/ci/install-deps.sh: apt-get when root and missing, otherwise it prints the apt line).
BUILD      ?= build
# make asan and make fuzz share one tree: clang, the whole project instrumented with ASan and UBSan, the
# layer libraries also with libFuzzer's coverage (-fsanitize=fuzzer-no-link). make asan runs the test
# suite in it; make fuzz links the fuzz targets against the libraries already built there. One sanitizer
# build instead of two (a gcc ASan tree and a clang fuzz tree) saves a whole compile of the libraries in CI.
ASAN_BUILD ?= build-asan
FUZZ_BUILD   ?= $(ASAN_BUILD)
FUZZ_SECONDS ?= 60
PREFIX     ?= /usr/local
# The native and sanitizer trees link with lld when it is installed (install-deps' build group has it): 4-5x
# faster than ld.bfd on the ~60 test executables of a tree (an ASan conformance-npu link: 4.8 s -> 1.0 s). Set
# at meson setup through meson's CC_LD/CXX_LD. Not the aarch64 tree: Debian's cross gcc finds no ld.lld of its
# own (-fuse-ld=lld: "cannot find ld"). Packaging builds choose their own linker.
LINK_ENV    = env $$(command -v ld.lld >/dev/null && echo CC_LD=lld CXX_LD=lld)
DEPS        = tools/ci/install-deps.sh
EXAMPLE_DIR = $(BUILD)/example
# aarch64 (the board) cross build; its tests run under qemu-aarch64 with the arm64 sysroot.
CROSS_BUILD ?= build-aarch64
SYSROOT     ?= $(CURDIR)/sysroot-aarch64
CROSS_FILE   = tools/cross/aarch64-linux-gnu.ini
# make bench only: Arm NN 20.08 for arm64 (CpuAcc, CpuRef) in a sysroot of its own, and armnn-bench built against it.
ARMNN_SYSROOT ?= $(CURDIR)/sysroot-aarch64-armnn
ARMNN_CROSS   ?= $(CROSS_BUILD)-armnn

.PHONY: all deps build run test asan fuzz install bench bench-threads clean cross test-aarch64

all: build

deps:
	@$(DEPS) build test

$(BUILD)/build.ninja:
	@$(DEPS) build test
	$(LINK_ENV) meson setup $(BUILD) --prefix=$(PREFIX)

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

# The main job on the bundled example: an edge-detection network (hand-set Sobel weights) applied to a
# generated test image. The model and the image are written by the project's own code. It runs twice: on
# the CPU, and on the NPU path against the simulator (--device sim; --fp16 puts the float convolutions on
# the NPU), after the placement table that says which layer runs where and why; then input, CPU result and
# NPU result side by side, with the largest difference. A trace of the NPU run is left in the example dir.
NPURUN = $(BUILD)/tools/npurun/npurun
run: build
	@mkdir -p $(EXAMPLE_DIR)
	@$(BUILD)/tools/make-example/npurun-make-example $(EXAMPLE_DIR)
	@echo; echo "== placement on the NPU path: npurun --device sim --fp16 --explain"
	@$(NPURUN) --device sim --fp16 --explain $(EXAMPLE_DIR)/edges.armnn
	@echo; echo "== CPU: npurun --device cpu"
	@$(NPURUN) --device cpu $(EXAMPLE_DIR)/edges.armnn $(EXAMPLE_DIR)/image.bin -o $(EXAMPLE_DIR)/edges.out.bin
	@echo; echo "== simulated NPU: npurun --device sim --fp16 --compare cpu --trace $(EXAMPLE_DIR)/trace.json"
	@$(NPURUN) --device sim --fp16 $(EXAMPLE_DIR)/edges.armnn $(EXAMPLE_DIR)/image.bin -o $(EXAMPLE_DIR)/edges.sim.bin \
	  --compare cpu --trace $(EXAMPLE_DIR)/trace.json
	@echo
	@$(BUILD)/tools/make-example/npurun-make-example --show $(EXAMPLE_DIR) "cpu=edges.out.bin" "simulated NPU (fp16)=edges.sim.bin"
	@echo; echo "trace of the NPU run: $(EXAMPLE_DIR)/trace.json (chrome://tracing, ui.perfetto.dev, or"
	@echo "  python3 tools/npurun/trace_to_html.py $(EXAMPLE_DIR)/trace.json $(EXAMPLE_DIR)/trace.html)"

test: build
	meson test -C $(BUILD) --print-errorlogs --num-processes 2
	@python3 tools/ci/summarize-tests.py $(BUILD)/meson-logs/testlog.junit.xml

# -O1 keeps the instrumented tests and fuzzers fast and compiles ~10% quicker than -O2 -g; line tables
# (-gline-tables-only) are all a sanitizer report needs for function, file and line. libFuzzer's coverage
# goes on the layer libraries only (-Dfuzz_coverage, meson.build).
$(sort $(ASAN_BUILD)/build.ninja $(FUZZ_BUILD)/build.ninja):
	@$(DEPS) build test fuzz
	CC=clang CXX=clang++ $(LINK_ENV) meson setup $(@D) -Doptimization=1 -Ddebug=false -Dcpp_args=-gline-tables-only \
	  -Db_sanitize=address,undefined -Db_lundef=false -Dfuzz_coverage=true

asan: $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  meson test -C $(ASAN_BUILD) --print-errorlogs --num-processes 2 --timeout-multiplier 4
	@python3 tools/ci/summarize-tests.py $(ASAN_BUILD)/meson-logs/testlog.junit.xml

# Every fuzz target (tests/fuzz/meson.build) for FUZZ_SECONDS each, seeded from ../shared and generated
# models; exits non-zero on any finding (crash, sanitizer report, timeout, leak). See tests/fuzz/README.md.
fuzz: $(FUZZ_BUILD)/build.ninja
	tests/fuzz/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# The sysroot (arm64 libc, libstdc++, libdrm, flatbuffers, gtest) is fetched from Debian without adding
# the arm64 dpkg architecture (see tools/cross/make-sysroot.sh). The cross file takes the sysroot's
# absolute path as a meson constant from a one-line file written next to it.
$(SYSROOT)/.npurun-sysroot:
	@$(DEPS) build cross
	tools/cross/make-sysroot.sh $(SYSROOT)

$(CROSS_BUILD)/build.ninja: $(SYSROOT)/.npurun-sysroot
	printf "[constants]\nsysroot = '%s'\n" "$(SYSROOT)" > $(SYSROOT)/cross-constants.ini
	meson setup $(CROSS_BUILD) --cross-file $(SYSROOT)/cross-constants.ini --cross-file $(CROSS_FILE) \
	  -Dstatic_stdlibcpp=true

# Board binaries: libstdc++/libgcc are linked statically (static_stdlibcpp), so the board needs only
# libc, libm and libdrm; check-needed.sh fails the build if anything else creeps in.
cross: $(CROSS_BUILD)/build.ninja
	ninja -C $(CROSS_BUILD) -j2
	tools/cross/check-needed.sh $(CROSS_BUILD)

# The whole test suite, each test binary run through the cross file's exe_wrapper (qemu-aarch64 -L).
# qemu is 5-20x slower than native: the timeouts are scaled accordingly.
test-aarch64: cross
	meson test -C $(CROSS_BUILD) --print-errorlogs --num-processes 2 --timeout-multiplier 8
	@python3 tools/ci/summarize-tests.py $(CROSS_BUILD)/meson-logs/testlog.junit.xml

# Benchmarks (never part of make test): see tools/bench/run-bench.sh for what is measured. The qemu
# instruction counts need the board build of npurun (only that binary is built here) and the arm64 Arm NN.
bench: build $(CROSS_BUILD)/build.ninja
	@$(DEPS) bench test cross
	ninja -C $(BUILD) tools/bench/npurun-kernel-bench tools/bench/armnn-bench tools/bench/make-float-mobilenet tools/bench/make-mobilenet-v2 \
	  tools/bench/make-ssd-v3
	ninja -C $(CROSS_BUILD) -j2 tools/npurun/npurun
	tools/bench/build-armnn-aarch64.sh $(ARMNN_SYSROOT) $(ARMNN_CROSS)
	tools/bench/run-bench.sh $(BUILD) $(CROSS_BUILD) $(SYSROOT) $(ARMNN_SYSROOT) $(ARMNN_CROSS)

# The threads table alone (issue 16: more threads never slower): every real model in ../shared/models, the
# MobileNetV2-shaped int8 net and the float SSD-style net at --threads 1, 2, 4. Meaningful on a quiet machine
# with >= 4 cores (the board); the split column is deterministic anywhere. ITER=N runs per cell (default 20).
bench-threads: build
	ninja -C $(BUILD) tools/bench/make-mobilenet-v2 tools/bench/make-ssd-v3
	mkdir -p $(BUILD)/benchdata
	$(BUILD)/tools/bench/make-mobilenet-v2 $(BUILD)/benchdata/mnv2.armnn $(BUILD)/benchdata/mnv2_input.bin
	$(BUILD)/tools/bench/make-ssd-v3 $(BUILD)/benchdata/ssd_v3_320.armnn $(BUILD)/benchdata/ssd_input.bin 320
	tools/bench/threads-bench.sh $(BUILD) $(BUILD)/benchdata $(BUILD)/benchdata/mnv2.armnn $(BUILD)/benchdata/mnv2_input.bin \
	  $(BUILD)/benchdata/ssd_v3_320.armnn $(BUILD)/benchdata/ssd_input.bin

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(CROSS_BUILD) $(ARMNN_CROSS)
