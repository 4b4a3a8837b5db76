# SPDX-License-Identifier: GPL-2.0
# objpool: the harness around the patch series (series-*/, one per base kernel).
# 'make help' lists the targets and the variables; README.md explains them.

# DEFAULT_SERIES, DEFAULT_ARCH, TEST_FLAVOR, SOAK_FLAVOR, BENCH_FLAVOR.
include $(dir $(lastword $(MAKEFILE_LIST)))config/defaults.env
SERIES ?= $(DEFAULT_SERIES)
SERIES_LIST ?=
ARCH ?= $(DEFAULT_ARCH)
ARCHES ?=
FLAVOR ?=
FLAVORS ?=
UNPATCHED ?=
CMD ?=
export SERIES SERIES_LIST ARCH ARCHES FLAVOR FLAVORS
# kernel and vm: UNPATCHED=1 is their third argument; unset or 0, none.
unpatched := $(if $(filter-out 0,$(UNPATCHED)),1)

S := scripts

.PHONY: help deps tree series check-series kernel vm check quick bench bench-promote soak clean record-unpatched check-bisect mail

##@ Targets
help: ## this list
	@$(S)/help.sh $(MAKEFILE_LIST)

deps: ## install the Debian packages and guest userspace the harness needs
	@$(S)/deps.sh

tree: deps ## import: unpack the base kernel and apply its patches (build/SERIES/linux)
	@$(S)/tree.sh

series: ## export: write the tree's commits back to the series' patches/ with the cover letter
	@$(S)/series.sh

check-series: ## check that the series' patches/ applies and matches the tree
	@$(S)/check-series.sh

kernel: tree ## build one kernel: ARCH, FLAVOR, UNPATCHED=1 for the base without the series
	@$(S)/kernel.sh $(ARCH) $(or $(FLAVOR),$(TEST_FLAVOR)) $(unpatched)

vm: ## boot that kernel under QEMU and run CMD in the guest (see scripts/vm.sh)
	@$(S)/vm.sh $(ARCH) $(or $(FLAVOR),$(TEST_FLAVOR)) $(unpatched) -- '$(CMD)'

check: ## every gate and guest suite of every series: SERIES_LIST, ARCHES, FLAVORS limit it
	@$(S)/check.sh

quick: deps ## the self-tests and every host gate of SERIES, no kernel built: minutes, before make check
	@$(S)/quick.sh

bench: ## the benchmarks of config/benches into build/bench/ (BENCHES limits them)
	@$(S)/bench.sh

bench-promote: ## copy the last make bench (build/bench/) into results/; then make series
	@$(S)/bench-promote.sh

soak: tree ## long stress runs of ARCH/FLAVOR (default DEFAULT_ARCH, SOAK_FLAVOR) into build/soak.md
	@$(S)/soak.sh

record-unpatched: deps tree ## record the unpatched kernel's suite results in the series' expect/
	@$(S)/record-unpatched.sh

check-bisect: tree ## build every prefix of the series on ARCHES
	@$(S)/check-bisect.sh

mail: tree ## b4-ready mails of the series, signed off by your git identity
	@$(S)/mail.sh

clean: ## remove every series' kernel builds, or SERIES_LIST's (keeps the trees and ccache)
	@$(S)/clean.sh $(SERIES_LIST)

##@ Variables (make VAR=value TARGET, or VAR=value make TARGET)
# SERIES       the series a target works on (series-*/series.env); default DEFAULT_SERIES of config/defaults.env
# SERIES_LIST  the series make check and make clean work on; default all
# ARCH         the arch of single-arch targets (config/arch/*.sh); default DEFAULT_ARCH
# ARCHES       the arches of multi-arch targets (check, check-bisect, record-unpatched); default all
# FLAVOR       the kernel flavor (config/flavors); default TEST_FLAVOR (soak: SOAK_FLAVOR)
# FLAVORS      the flavors make check runs; default the series' SERIES_CHECK_FLAVORS
# PRUNE=1      make check removes each series' kernel builds when its steps are done (CI's default)
# UNPATCHED=1  kernel, vm: the base without the series' patches (7.2-rfc: 7.2 with its fixes)
# CMD          the guest command of make vm
# BENCHES      the benchmarks make bench runs (names of config/benches)
# BISECT_FROM  check-bisect: start at patch N (default 1)
# BISECT_TREE BISECT_OBJ BISECT_PATCHES   check-bisect on another tree, object dir, patches (its control's)
# CCACHE_DIR CCACHE_MAXSIZE   the compiler cache of every kernel build (~/.cache/ccache, 20G)
# HERD7        the herd7 binary of the litmus checks (default: herd7 on PATH)
# KUNIT_DIR    the kunit_parser of scripts/lib/ktap.py (default: the series' tree's)
# MAIL_TEST_SENDER=1   make mail with a placeholder sender (the mail gate's own runs)
# MODEL_PIN=1 USERSPACE_PIN=1   rewrite expect/host-*.txt from a model or userspace run
# SOAK_SECONDS the length of each make soak stress (600)
# BENCH_US_SCENARIOS BENCH_US_PAIRS BENCH_US_SECONDS   the userspace benchmark's matrix
# SERIES_NMI_CONTROL=0   make check without the NMI control (a series whose series.env turns it on)
# NMI_CONTROL_TIMEOUT NMI_CONTROL_WAIT NMI_STALL_SECONDS   the NMI control's guest (scripts/lib/nmi-control.sh)
# POP_ORDER_CPUS POP_ORDER_SECONDS POP_ORDER_RUNS   the pop-order gate's userspace stress: threads, seconds a run, runs to catch a buggy side (6)
# MUTANT_CASES MUTANT_PASSES MUTANT_TIMEOUT   the objpool-userspace gate's mutants: cases, passes over them (5), seconds a run (30)
##@ make vm's guest (scripts/vm.sh)
# ICOUNT=1     one vCPU under QEMU icount (instructions, not time)
# VCPUS MAXCPUS MEM NODES   online and possible CPUs, memory, NUMA nodes
# TIMEOUT      seconds before QEMU is killed (900)
# ACCEL        kvm or tcg (default: kvm when it works)
# TCG_THREAD   multi or single: TCG's vCPUs on threads of their own or on one
# APPEND       extra kernel parameters
# PERF         auto, 1 or 0: append perf to the initramfs
# RESULTS      where the guest's /results lands
# V=1          the whole console
##@ Guest suites' settings (in CMD, e.g. CMD='FAULT_FULL=1 run-suites fault-inject')
# FAULT_AT_ONCE FAULT_FULL FAULT_STRIDE   fault-inject: groups side by side, every point, stride
# HOTPLUG_SECONDS   hotplug-load: seconds of CPU hotplug under load
# LIFECYCLE_SECONDS hotplug-lifecycle: seconds of CPU hotplug against pools made and ended
# NMI_MIN_LANDINGS   objpool-nmi-upstream: NMI landings the control needs
# ATTEMPTS     objpool-nmi-unfixed: runs of the unfixed case (and at least of each mutant's) before it gives up
# SUITE_TIMEOUT   run-suites: seconds each suite may run before it is killed and fails (600)
# GUEST_DIR RESULTS_DIR   run-suites: the guest scripts and the results (/guest, /results; the self-tests run it on the host)
