# SPDX-License-Identifier: GPL-2.0
# The positive control of run-suites' time limit (SUITE_TIMEOUT): one case
# passes, then the suite and a child of it wait forever, as a hung suite
# does.  In no flavor: it runs only when named, e.g.
# make vm CMD='SUITE_TIMEOUT=30 run-suites samples hang-on-purpose kprobe-safety',
# which must report hang-on-purpose timed out and keep the other two suites'
# results; scripts/tests/test_run_suites.py runs it on the host.
. "$(dirname "$0")/../tap.sh"
tap_plan 2
tap_ok started
# A child that outlives its parent unless run-suites kills the whole session.
mkfifo /tmp/hang-on-purpose.$$ && exec 9<>/tmp/hang-on-purpose.$$ && rm -f /tmp/hang-on-purpose.$$
(read -r -u 9 _) &
echo "child $!" >&2
read -r -u 9 _
tap_ok never_reached
