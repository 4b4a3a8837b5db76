# The in-tree fprobe KUnit suite (CONFIG_FPROBE_SANITY_TEST=y runs it at boot).
cat /sys/kernel/debug/kunit/fprobe_test/results
