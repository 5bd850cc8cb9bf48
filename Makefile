# SPDX-License-Identifier: MIT
#
# tplan - userspace build, tests and benchmarks.  The kernel module is built
# by Kbuild (see the Kbuild file), which the kernel's make reads instead of
# this file.
#
#   make          libtplan (static and shared) and tplanctl, in build/;
#                 builds only (gcc or CC=clang, make and libc6-dev needed)
#   make deps     install the Debian packages make needs, if missing
#   make run      the main job: boot a UML kernel, load tplan.ko, show the
#                 device and submit an example table through its accel
#                 node (/dev/accel/accelN)
#   make run-qemu the same on Debian's own SMP kernel in QEMU (4 vCPUs,
#                 VT-d), with the module built against its headers
#   make check    every test; the last line is "N passed, N failed"
#   make bench    every strategy on every bench table, side by side
#   make fuzz     the ioctl fuzzer, 10^6 calls under a KASAN kernel
#   make fuzz-stress  8 processes x 10^4 submit/mmap/touch/release cycles
#   make fuzz-planner the CSV reader and planner under libFuzzer, 10 minutes
#   make install  libtplan, its headers (include/tplan/) and tplan.pc,
#                 tplanctl, tplan-import, tplan-run, man pages, the udev
#                 rule, the licences and the module's sources for DKMS
#                 (PREFIX, DESTDIR, LIBDIR, UDEVRULESDIR...); make
#                 uninstall removes them
#   make dkms-install  the module's sources to /usr/src, then dkms add, build
#                 and install (dkms-uninstall undoes it)
#
# make run, check, bench and the fuzz targets first install the Debian
# packages they need when they are missing (scripts/install-deps.sh); the UML
# kernels (a test one and a KASAN one) are built once from Debian's
# linux-source-6.12 and cached in ~/.cache/tplan (scripts/uml/build-kernel.sh).
#
# The usual variables are honoured: CC, CFLAGS (default -O2 -g), CPPFLAGS,
# LDFLAGS, LDLIBS, AR are on every compile and link line.  The project's own
# flags are kept apart and come first, so the user's override them, except
# the test programs' -O level and sanitizers.  WERROR=0 drops -Werror.

BUILD	?= build
# The tables the tests and the bench read: tests/data (real/, minimalloc/,
# idealloc/, with their provenance).  New data arrives in ../shared/bench:
# DATA=../shared/bench runs the suites and the bench on it.
DATA	?= tests/data
VERSION	:= 0.2.0

CC	?= gcc
CFLAGS	?= -O2 -g
WERROR	?= 1
WARN	:= -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes \
	   -Wmissing-prototypes $(if $(filter-out 0,$(WERROR)),-Werror)
CPPFLAGS_TPLAN := -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Iplanner \
	   -Iuserspace/lib/include -Iuapi -Itests/common \
	   -DTPLAN_VERSION='"$(VERSION)"'
SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer

DEBIAN_PACKAGES := gcc make libc6-dev
# make check also compiles the module against Debian's distro kernel headers,
# renders tplanctl show's pictures in a headless browser, imports models
# with Debian's onnx and torch, and installs the Python package with pip.
CHECK_PACKAGES := $(DEBIAN_PACKAGES) linux-headers-6.12-amd64 sparse clang g++ \
		  libclang-rt-14-dev groff-base man-db mandoc dkms pkgconf \
		  chromium python3 python3-onnx python3-torch python3-torchvision \
		  python3-numpy python3-pip python3-setuptools python3-wheel
# The QEMU rig (scripts/qemu): the emulator, a static busybox for its
# initramfs, and Debian's stock kernel with its headers.
QEMU_PACKAGES := qemu-system-x86 busybox-static linux-image-6.12-amd64 \
		 linux-headers-6.12-amd64 kmod
CHECK_PACKAGES += $(QEMU_PACKAGES)
# The goals that install packages first: every compile and link waits for
# them (an order-only prerequisite), even under make -j.
INSTALL_FIRST := $(if $(filter check check-deps fuzz-planner,$(MAKECMDGOALS)),\
	check-deps,$(if $(filter deps run run-qemu bench fuzz fuzz-stress,$(MAKECMDGOALS)),deps))
EXAMPLE	?= examples/shufflenet_v2_x1_0_b1.csv

include planner/sources.mk
PLANNER_SRC := $(addprefix planner/,$(TPLAN_PLANNER_SRC))
LIB_SRC	:= $(PLANNER_SRC) userspace/lib/port.c userspace/lib/libtplan.c \
	   $(addprefix userspace/lib/table_csv_,line.c header.c record.c \
	   minimalloc.c row.c ids.c read.c write.c) \
	   userspace/lib/table_models.c userspace/lib/table_columns.c \
	   userspace/lib/device.c \
	   userspace/lib/device_find.c
CTL_SRC	:= $(sort $(wildcard userspace/tplanctl/*.c))
GEN_SRC	:= tests/common/gen.c tests/common/gen_core.c
TEST_SRC := tests/unit/run_tests.c $(sort $(wildcard tests/unit/test_*.c)) \
	    $(GEN_SRC) tests/common/planner_cases.c tests/common/constrained_cases.c \
	    tests/common/spill_exec.c
BENCH_SRC := tests/bench/bench.c tests/bench/bench_spill.c \
	     tests/bench/bench_constrained.c tests/bench/bench_large.c \
	     tests/bench/bench_random.c tests/bench/bench_units.c $(GEN_SRC) \
	     tests/common/spill_exec.c
HEADERS	:= $(wildcard planner/*.h planner/*/*.h \
	   userspace/lib/*.h userspace/lib/include/*.h userspace/tplanctl/*.h tests/*/*.h \
	   uapi/linux/*.h)

LIB_OBJ	:= $(LIB_SRC:%.c=$(BUILD)/pic/%.o)

.PHONY: all deps check-deps run run-qemu qemu-deps check bench fuzz fuzz-stress fuzz-planner clean

all: $(BUILD)/libtplan.a $(BUILD)/libtplan.so $(BUILD)/tplanctl

deps:
	@scripts/install-deps.sh $(DEBIAN_PACKAGES)

check-deps:
	@scripts/install-deps.sh $(CHECK_PACKAGES)

run: deps all
	@scripts/run-example.sh $(BUILD) $(BUILD)/tplanctl $(EXAMPLE)

run-qemu: deps qemu-deps all
	@scripts/run-example.sh $(BUILD) $(BUILD)/tplanctl $(EXAMPLE) qemu

qemu-deps:
	@scripts/install-deps.sh $(QEMU_PACKAGES)

$(BUILD)/pic/%.o: %.c $(HEADERS) | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) -fPIC $(CFLAGS) -c $< -o $@

$(BUILD)/libtplan.a: $(LIB_OBJ) | $(STAGED_HEADERS)
	rm -f $@
	$(AR) rcs $@ $^

# The public headers as make install lays them out: <tplan/libtplan.h>,
# beside it the planner's types <tplan/tplan_types.h>, and the device's ABI
# <linux/tplan.h> with the jobs' <linux/tplan_edu.h>.  Made with the libraries, so that tplanctl and the
# examples in the tree build against them as a program does against an
# installation (-I$(BUILD)/include, no -Iplanner).
PUBLIC_HEADERS	:= userspace/lib/include/libtplan.h planner/tplan_types.h
UAPI_HEADER	:= uapi/linux/tplan.h uapi/linux/tplan_edu.h
STAGED_HEADERS	:= $(addprefix $(BUILD)/include/tplan/,$(notdir $(PUBLIC_HEADERS))) \
		   $(addprefix $(BUILD)/include/linux/,$(notdir $(UAPI_HEADER)))
$(BUILD)/include/tplan/libtplan.h: $(filter %/libtplan.h,$(PUBLIC_HEADERS))
$(BUILD)/include/tplan/tplan_types.h: $(filter %/tplan_types.h,$(PUBLIC_HEADERS))
$(BUILD)/include/linux/tplan.h: $(filter %/tplan.h,$(UAPI_HEADER))
$(BUILD)/include/linux/tplan_edu.h: $(filter %/tplan_edu.h,$(UAPI_HEADER))
$(STAGED_HEADERS):
	@mkdir -p $(dir $@)
	cp $< $@

# The shared library exports only the API the version script lists.
LIB_MAP	:= userspace/lib/libtplan.map

# libtplan.so.VERSION, its soname libtplan.so.MAJOR, and libtplan.so to link.
SONAME	:= libtplan.so.$(firstword $(subst ., ,$(VERSION)))

$(BUILD)/libtplan.so.$(VERSION): $(LIB_OBJ) $(LIB_MAP) | $(STAGED_HEADERS)
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=$(LIB_MAP) \
		$(CFLAGS) $(LDFLAGS) -o $@ $(LIB_OBJ) $(LDLIBS)

$(BUILD)/$(SONAME): $(BUILD)/libtplan.so.$(VERSION)
	ln -sf libtplan.so.$(VERSION) $@

$(BUILD)/libtplan.so: $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

# tplanctl sees libtplan's public headers only, as installed (tests/lib/
# lib_test.sh checks it calls only what libtplan.so exports).
CTL_CPPFLAGS := -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
		-I$(BUILD)/include/tplan -I$(BUILD)/include
$(BUILD)/tplanctl: $(CTL_SRC) $(BUILD)/libtplan.a $(STAGED_HEADERS) $(HEADERS) | $(INSTALL_FIRST)
	$(CC) $(CTL_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ \
		$(CTL_SRC) $(BUILD)/libtplan.a $(LDLIBS)

# Tests and the tool they drive are built again with ASan and UBSan.  The
# test programs keep their own -O level and sanitizers after the user's
# CFLAGS (which give everything else: -m, hardening, ...).
$(BUILD)/san/run_tests: $(TEST_SRC) $(LIB_SRC) $(HEADERS) | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O1 -g $(SAN) \
		$(LDFLAGS) -o $@ $(TEST_SRC) $(LIB_SRC) $(LDLIBS)

# The sanitized tplanctl, like the other, sees only the installed headers:
# its library is compiled apart (san/lib) and linked in as objects.
SAN_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/san/lib/%.o)
$(BUILD)/san/lib/%.o: %.c $(HEADERS) | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O1 -g $(SAN) \
		-c $< -o $@

$(BUILD)/san/tplanctl: $(CTL_SRC) $(SAN_LIB_OBJ) $(STAGED_HEADERS) $(HEADERS) | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CTL_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) -O1 -g $(SAN) \
		$(LDFLAGS) -o $@ $(CTL_SRC) $(SAN_LIB_OBJ) $(LDLIBS)

# Runs inside UML: no sanitizers (their shadow mappings need a host kernel).
# The raw-ioctl programs find the device as libtplan does, with its file.
DEVICE_FIND := userspace/lib/device_find.c
$(BUILD)/ioctl_e2e: tests/e2e/ioctl_e2e.c $(DEVICE_FIND) $(HEADERS) tests/e2e/e2e_util.h | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O2 -g $(LDFLAGS) \
		-o $@ tests/e2e/ioctl_e2e.c $(DEVICE_FIND) $(LDLIBS)

$(BUILD)/spill_e2e: tests/e2e/spill_e2e.c $(DEVICE_FIND) $(HEADERS) tests/e2e/e2e_util.h | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O2 -g $(LDFLAGS) \
		-o $@ tests/e2e/spill_e2e.c $(DEVICE_FIND) $(LDLIBS)

$(BUILD)/dmabuf_e2e: tests/e2e/dmabuf_e2e.c $(DEVICE_FIND) $(HEADERS) tests/e2e/e2e_util.h | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O2 -g $(LDFLAGS) \
		-o $@ tests/e2e/dmabuf_e2e.c $(DEVICE_FIND) $(LDLIBS)

# The race suite's workers are threads and processes.
$(BUILD)/race_e2e: tests/e2e/race_e2e.c $(DEVICE_FIND) $(HEADERS) tests/e2e/e2e_util.h | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O2 -g -pthread $(LDFLAGS) \
		-o $@ tests/e2e/race_e2e.c $(DEVICE_FIND) $(LDLIBS)

# tplan_edu's jobs on QEMU's edu device (tests/qemu/edu-guest.sh).
$(BUILD)/edu_e2e: tests/qemu/edu_e2e.c $(HEADERS) | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O2 -g $(LDFLAGS) \
		-o $@ tests/qemu/edu_e2e.c $(LDLIBS)

$(BUILD)/hardening_e2e: tests/e2e/hardening_e2e.c $(DEVICE_FIND) $(HEADERS) tests/e2e/e2e_util.h | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O2 -g $(LDFLAGS) \
		-o $@ tests/e2e/hardening_e2e.c $(DEVICE_FIND) $(LDLIBS)

$(BUILD)/tplan-bench: $(BENCH_SRC) $(BUILD)/libtplan.a $(HEADERS) | $(INSTALL_FIRST)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O2 -g $(LDFLAGS) \
		-o $@ $(BENCH_SRC) $(BUILD)/libtplan.a $(LDLIBS)

check: check-deps $(BUILD)/san/run_tests $(BUILD)/san/tplanctl \
		$(BUILD)/tplanctl $(BUILD)/ioctl_e2e $(BUILD)/hardening_e2e \
		$(BUILD)/spill_e2e $(BUILD)/dmabuf_e2e $(BUILD)/race_e2e \
		$(BUILD)/edu_e2e \
		$(BUILD)/ioctl_fuzz $(BUILD)/planner_fuzz $(BUILD)/libtplan.a \
		$(BUILD)/libtplan.so
	@scripts/prefetch-kernels.sh $(BUILD)
	@scripts/run-suites.sh \
		"unit: $(BUILD)/san/run_tests" \
		"lib: tests/lib/lib_test.sh $(BUILD) $(DATA)" \
		"install: tests/lib/install_test.sh $(BUILD) $(DATA)" \
		"build: tests/lib/build_test.sh" \
		"python: tests/python/python_test.sh $(BUILD) $(DATA)" \
		"cli: tests/cli/cli_test.sh $(BUILD)/san/tplanctl $(DATA)" \
		"show: tests/cli/show_test.sh $(BUILD)/san/tplanctl $(DATA)" \
		"spill: tests/cli/spill_test.sh $(BUILD)/san/tplanctl $(DATA)" \
		"golden: tests/cli/golden_plans.sh $(BUILD)/tplanctl $(DATA)" \
		"importer: tests/python/importer_test.sh $(BUILD) $(DATA)" \
		"man: tests/man/man_lint.sh docs/man $(BUILD)/tplanctl" \
		"clone: tests/clone/clone_test.sh" \
		"kmod: tests/kmod/kmod_distro_check.sh $(BUILD)" \
		"dkms: tests/kmod/dkms_build.sh $(BUILD)" \
		"lint: tests/lint/lint.sh $(BUILD)" \
		"uml: tests/uml/kernel-tests.sh $(BUILD) $(DATA) $(BUILD)/tplanctl $(BUILD)/ioctl_e2e" \
		"uml-kasan: tests/uml/kasan-tests.sh $(BUILD) $(BUILD)/dmabuf_e2e" \
		"planner-fuzz: tests/fuzz/planner-fuzz.sh $(BUILD) 30 $(DATA)" \
		"fuzz: tests/fuzz/check-slice.sh $(BUILD)" \
		"qemu: tests/qemu/qemu-tests.sh $(BUILD) $(DATA) $(BUILD)/tplanctl $(BUILD)/ioctl_e2e"

# The module's sources for DKMS (scripts/dkms-tree.sh) in /usr/src, where DKMS
# looks whatever PREFIX is; without DESTDIR also built and installed for the
# running kernel, and rebuilt by DKMS for every kernel installed later.
DKMS_DIR = $(DESTDIR)/usr/src/tplan-$(VERSION)
.PHONY: dkms-install dkms-uninstall
dkms-install:
	scripts/dkms-tree.sh $(DKMS_DIR) $(VERSION)
ifeq ($(DESTDIR),)
	dkms status -m tplan -v $(VERSION) | grep -q . || dkms add -m tplan -v $(VERSION)
	dkms build -m tplan -v $(VERSION) --force
	dkms install -m tplan -v $(VERSION) --force
endif

dkms-uninstall:
ifeq ($(DESTDIR),)
	-dkms remove -m tplan -v $(VERSION) --all
endif
	rm -rf $(DKMS_DIR)

# make install / uninstall: the library, its headers, tplan.pc, tplanctl,
# tplan-import and the Python package (PYTHONDIR), the man pages, the udev rule,
# the modprobe.d example and the licences (DOCDIR) and the module's sources
# for DKMS.  Everything goes
# under DESTDIR; /usr/src is where DKMS looks, whatever PREFIX is.  The udev
# rule goes where udev looks: /usr/lib/udev/rules.d for PREFIX=/usr (where
# Debian's packages put theirs), else /etc/udev/rules.d (udev never reads
# /usr/local/lib/udev); UDEVRULESDIR chooses.
PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
DOCDIR		?= $(PREFIX)/share/doc/tplan
UDEVRULESDIR	?= $(if $(filter /usr /usr/,$(PREFIX)),/usr/lib,/etc)/udev/rules.d
MAN_SECTIONS	:= 1 3 4
# Debian's python3 looks in /usr/local/lib/python3/dist-packages.
PYTHONDIR	?= $(PREFIX)/lib/python3/dist-packages
PY_SRC		:= $(wildcard userspace/python/tplan/*.py \
		     userspace/python/tplan/*/*.py)

# Made again on every install: it holds PREFIX and LIBDIR, which may change.
.PHONY: $(BUILD)/tplan.pc
$(BUILD)/tplan.pc: userspace/lib/tplan.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    $< >$@

.PHONY: install uninstall
# Installing for this system (no DESTDIR) as root refreshes the dynamic
# linker's cache, so that programs find libtplan.so.0 in LIBDIR at once; a
# packager's DESTDIR install leaves that to the package.
LDCONFIG = $(if $(DESTDIR),,@[ "$$(id -u)" != 0 ] || ldconfig)

install: all $(BUILD)/tplan.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/tplan $(DESTDIR)$(INCLUDEDIR)/linux \
		$(DESTDIR)$(UDEVRULESDIR) \
		$(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR)/LICENSES \
		$(MAN_SECTIONS:%=$(DESTDIR)$(MANDIR)/man%)
	install -m 0755 $(BUILD)/tplanctl $(DESTDIR)$(BINDIR)/
	install -m 0755 userspace/python/bin/tplan-import \
		userspace/python/bin/tplan-run $(DESTDIR)$(BINDIR)/
	install -m 0755 $(BUILD)/libtplan.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libtplan.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtplan.so
	install -m 0644 $(BUILD)/libtplan.a $(DESTDIR)$(LIBDIR)/
	install -m 0644 $(BUILD)/tplan.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 0644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/tplan/
	install -m 0644 $(UAPI_HEADER) $(DESTDIR)$(INCLUDEDIR)/linux/
	$(foreach n,$(MAN_SECTIONS),install -m 0644 docs/man/*.$(n) \
		$(DESTDIR)$(MANDIR)/man$(n)/ &&) true
	install -m 0644 driver/60-tplan.rules $(DESTDIR)$(UDEVRULESDIR)/
	install -m 0644 driver/tplan.conf $(DESTDIR)$(DOCDIR)/examples/
	install -m 0644 LICENSE $(DESTDIR)$(DOCDIR)/
	install -m 0644 LICENSES/* $(DESTDIR)$(DOCDIR)/LICENSES/
	scripts/dkms-tree.sh $(DKMS_DIR) $(VERSION)
	$(foreach f,$(PY_SRC),install -D -m 0644 $(f) \
		$(DESTDIR)$(PYTHONDIR)/$(f:userspace/python/%=%) &&) true
	$(LDCONFIG)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tplanctl $(DESTDIR)$(BINDIR)/tplan-import \
	      $(DESTDIR)$(BINDIR)/tplan-run \
	      $(DESTDIR)$(LIBDIR)/libtplan.so.$(VERSION) \
	      $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libtplan.so \
	      $(DESTDIR)$(LIBDIR)/libtplan.a \
	      $(DESTDIR)$(LIBDIR)/pkgconfig/tplan.pc \
	      $(addprefix $(DESTDIR)$(INCLUDEDIR)/tplan/,$(notdir $(PUBLIC_HEADERS))) \
	      $(addprefix $(DESTDIR)$(INCLUDEDIR)/linux/,$(notdir $(UAPI_HEADER))) \
	      $(foreach p,$(wildcard docs/man/*.[134]),\
		$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(notdir $(p))) \
	      $(DESTDIR)$(UDEVRULESDIR)/60-tplan.rules \
	      $(DESTDIR)$(DOCDIR)/examples/tplan.conf $(DESTDIR)$(DOCDIR)/LICENSE
	rm -rf $(DKMS_DIR) $(DESTDIR)$(PYTHONDIR)/tplan $(DESTDIR)$(DOCDIR)/LICENSES
	-rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) \
	       $(DESTDIR)$(INCLUDEDIR)/tplan 2>/dev/null
	$(LDCONFIG)

bench: deps $(BUILD)/tplan-bench $(BUILD)/libtplan.so
	$(BUILD)/tplan-bench $(DATA) tests/bench/training
	PYTHONPATH=userspace/python:tests/python \
		TPLAN_LIBRARY=$(BUILD)/libtplan.so TPLAN_BUILD=$(BUILD) \
		/usr/bin/python3 tests/bench/executor_bench.py

# And what pip leaves in userspace/python (pip install ./userspace/python)
# and Python's bytecode caches: a clean tree is a fresh clone's.
clean:
	rm -rf $(BUILD) userspace/python/build userspace/python/*.egg-info
	find userspace tests examples -name __pycache__ -prune -exec rm -rf {} +

# The ioctl fuzzer and stress run (tests/fuzz/): run inside UML by
# tests/fuzz/run-fuzz.sh, against the KASAN kernel (FUZZ_FLAVOUR=default for
# the plain one).  `make fuzz` makes FUZZ_ITERS calls from FUZZ_PROCS
# processes; `make fuzz-stress` runs 8 processes x STRESS_CYCLES cycles.
# FUZZ_SEED repeats a run.  The last line is "N calls, N processes, N reports".
# Beside the workers a process sleeps 1 ms at a time: a wake-up later than
# FUZZ_MAX_LATENCY_MS fails the run (a kernel loop a caller sizes that does
# not yield; docs/DRIVER.md, "Security model").
FUZZ_ITERS	?= 1000000
FUZZ_MAX_LATENCY_MS ?= 500
FUZZ_PROCS	?= 4
FUZZ_FLAVOUR	?= kasan
STRESS_CYCLES	?= 10000
FUZZ_SEED	?=
FUZZ_SEED_ARG	= $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

# The fuzzer's sources: tests/fuzz/ioctl_*.c (main() in ioctl_fuzz.c) and
# their private header tests/fuzz/ioctl_fuzz.h (in HEADERS).
IOCTL_FUZZ_SRC := $(sort $(wildcard tests/fuzz/ioctl_*.c))
$(BUILD)/ioctl_fuzz: $(IOCTL_FUZZ_SRC) $(DEVICE_FIND) $(HEADERS) | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O2 -g $(LDFLAGS) \
		-o $@ $(IOCTL_FUZZ_SRC) $(DEVICE_FIND) $(LDLIBS)

# libFuzzer (clang, whatever CC is) with ASan and UBSan: the CSV reader and
# the planner, the validator as oracle.  make fuzz-planner runs it for
# FUZZ_SECONDS.
FUZZ_SECONDS	?= 600
$(BUILD)/planner_fuzz: tests/fuzz/planner_fuzz.c $(LIB_SRC) $(HEADERS) | $(INSTALL_FIRST)
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS_TPLAN) $(CPPFLAGS) $(WARN) $(CFLAGS) -O1 -g \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(LDFLAGS) -o $@ tests/fuzz/planner_fuzz.c $(LIB_SRC) $(LDLIBS)

fuzz-planner: check-deps $(BUILD)/planner_fuzz
	@tests/fuzz/planner-fuzz.sh $(BUILD) $(FUZZ_SECONDS) $(DATA)

fuzz: deps $(BUILD)/ioctl_fuzz
	@tests/fuzz/run-fuzz.sh $(BUILD) $(FUZZ_FLAVOUR) --iters $(FUZZ_ITERS) \
		--procs $(FUZZ_PROCS) --max-latency-ms $(FUZZ_MAX_LATENCY_MS) \
		$(FUZZ_SEED_ARG)

fuzz-stress: deps $(BUILD)/ioctl_fuzz
	@tests/fuzz/run-fuzz.sh $(BUILD) $(FUZZ_FLAVOUR) --stress --procs 8 \
		--cycles $(STRESS_CYCLES) --max-latency-ms $(FUZZ_MAX_LATENCY_MS) \
		$(FUZZ_SEED_ARG)
