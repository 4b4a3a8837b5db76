# objpool: the harness around the patch series (patches/ for Linux 6.1).
# 'make help' lists the targets and the variables; README.md explains them.

BASE_KERNEL ?= 6.1
BASES ?=
ARCH ?= x86_64
ARCHES ?=
FLAVOR ?=
FLAVORS ?=
BASE ?=
CMD ?=
export BASE_KERNEL BASES ARCH ARCHES FLAVOR FLAVORS BASE

S := scripts

.PHONY: help deps tree series check-series kernel vm check bench soak clean record-base check-bisect mail

##@ Targets
help: ## this list
	@$(S)/help.sh $(MAKEFILE_LIST)

deps: ## install the Debian packages and guest userspace the harness needs
	@$(S)/deps.sh

tree: deps ## import: unpack the base kernel and apply its patches (build/linux)
	@$(S)/tree.sh

series: ## export: write the tree's commits back to patches/ with the cover letter
	@$(S)/series.sh

check-series: ## check that patches/ applies and matches the tree
	@$(S)/check-series.sh

kernel: tree ## build one kernel: ARCH, FLAVOR, BASE=1 for the unpatched base
	@$(S)/kernel.sh $(ARCH) $(or $(FLAVOR),test) $(BASE)

vm: ## boot that kernel under QEMU and run CMD in the guest (see scripts/vm.sh)
	@$(S)/vm.sh $(ARCH) $(or $(FLAVOR),test) $(BASE) -- '$(CMD)'

check: ## every gate and guest suite of every base: BASES, ARCHES, FLAVORS limit it
	@$(S)/check.sh

bench: ## the benchmarks of config/benches into results/ (BENCHES limits them)
	@$(S)/bench.sh

soak: tree ## long stress runs of ARCH/FLAVOR (default x86_64 debug), results/soak.md
	@$(S)/soak.sh

record-base: deps tree ## record the unpatched base's suite results in expect/
	@$(S)/record-base.sh

check-bisect: tree ## build every prefix of the series on ARCHES
	@$(S)/check-bisect.sh

mail: tree ## b4-ready mails of the series, signed off by your git identity
	@$(S)/mail.sh

clean: ## remove the kernel builds (keeps the trees and ccache)
	rm -rf build/*-test build/*-debug build/*-kcsan build/*-bench build/*-base build/bisect-*

##@ Variables (make VAR=value TARGET)
# BASE_KERNEL  the base kernel and its series (config/base/*.env); default 6.1
# ARCH         the arch of single-arch targets (config/arch/*.sh); default x86_64
# ARCHES       the arches of multi-arch targets (check, check-bisect, record-base); default all
# FLAVOR       the kernel flavor (config/flavors); default test (soak: debug)
# BASES        the base kernels make check runs, one series each; default all
# FLAVORS      the flavors make check runs; default the base's BASE_CHECK_FLAVORS
# BASE=1       the unpatched base kernel instead of the series (kernel, vm)
# CMD          the guest command of make vm
# BENCHES      the benchmarks make bench runs (names of config/benches)
# ICOUNT=1     make vm: one vCPU under QEMU icount (instructions, not time)
# VCPUS MAXCPUS MEM TIMEOUT NODES ACCEL PERF V=1   make vm's guest (scripts/vm.sh)
