# objpool for Linux 6.1: the harness around the patch series in patches/.
# Entry points: 'make check' (tests) and 'make bench' (results/).  See README.md.

ARCH ?= x86_64
FLAVOR ?= test
BASE ?=
CMD ?=
export ARCH FLAVOR BASE

S := scripts

.PHONY: help deps tree series check-series kernel vm check bench soak clean record-base check-bisect mail

help:
	@sed -n 's/^## //p' README.md | head -40

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

series:
	@$(S)/series.sh

check-series:
	@$(S)/check-series.sh

kernel: tree
	@$(S)/kernel.sh $(ARCH) $(FLAVOR) $(BASE)

vm:
	@$(S)/vm.sh $(ARCH) $(FLAVOR) $(BASE) -- '$(CMD)'

check:
	@$(S)/check.sh

bench:
	@$(S)/bench.sh

soak: tree
	@$(S)/soak.sh

clean:
	rm -rf build/x86_64-* build/arm64-*

record-base: deps tree
	@$(S)/record-base.sh

check-bisect: tree
	@$(S)/check-bisect.sh

mail: tree
	@$(S)/mail.sh
