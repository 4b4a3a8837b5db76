# SPDX-License-Identifier: GPL-2.0
# The project's own kretprobe cases (guest/modules/kretprobe_lifetime_kunit.c), a KUnit
# suite: kretprobes on a function that sleeps, unregistered while threads
# are inside it, and exhausted (maxactive below the threads inside).  Same
# results on the base and the patched kernel.
. /guest/tap.sh
ko=/guest/modules/kretprobe_lifetime_kunit.ko
if [ ! -e "$ko" ]; then
	tap_plan 1
	tap_fail kretprobe_lifetime "$ko missing: guest/modules did not build against this kernel (CONFIG_KRETPROBES?)"
	exit 0
fi
insmod "$ko" || echo "insmod $ko failed" >&2
kunit_ktap kretprobe_lifetime 1
# The module goes away after its kretprobes came and went with instances
# in flight; the suite pins it when threads stayed stuck inside it.
if out=$(rmmod kretprobe_lifetime_kunit 2>&1); then
	echo "ok 2 module_unload"
else
	echo "not ok 2 module_unload # rmmod kretprobe_lifetime_kunit: $out"
fi
