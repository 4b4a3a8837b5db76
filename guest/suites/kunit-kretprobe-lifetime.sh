# The project's own kretprobe cases (guest/modules/krp_sleep.c), a KUnit
# suite: kretprobes on a function that sleeps, unregistered while threads
# are inside it, and exhausted (maxactive below the threads inside).  Same
# results on the base and the patched kernel.
. /guest/tap.sh
ko=/guest/modules/krp_sleep.ko
if [ ! -e "$ko" ]; then
	tap_plan 1
	tap_fail kretprobe_lifetime "$ko missing: guest/modules did not build against this kernel (CONFIG_KRETPROBES?)"
	exit 0
fi
insmod "$ko" || echo "insmod $ko failed" >&2
kunit_ktap kretprobe_lifetime
# Pinned when threads stayed stuck inside it (the suite says so).
rmmod krp_sleep || echo "krp_sleep stays loaded" >&2
