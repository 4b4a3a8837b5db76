#!/usr/bin/env bash
# make bench: build the bench kernels (patched and base) if needed, run the
# benchmarks of config/benches, write results/ (CSV, PNG, summary.md).
# Results are assembled in build/ and replace results/ only when complete.
# BENCHES=... runs a subset.
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" bench || exit
"$TOP/scripts/tree.sh" || exit
benches=${BENCHES:-$(grep -v '^#' "$TOP/config/benches" | awk '{ print $1 }')}
# The arches whose bench kernels (patched and base) a benchmark needs:
# the words after its name in config/benches, x86_64 when there are none,
# none for "host".
kernel_arches() {
	awk -v b="$1" '$1 == b { if (NF == 1) print "x86_64"; else for (i = 2; i <= NF; i++) if ($i != "host") print $i }' \
		"$TOP/config/benches"
}
need_arches=
for b in $benches; do
	[ -x "$TOP/scripts/bench/$b.sh" ] || die "unknown benchmark '$b'; valid: $(cd "$TOP/scripts/bench" && ls | sed 's/\.sh$//' | tr '\n' ' ')"
	grep -v '^#' "$TOP/config/benches" | awk '{ print $1 }' | grep -qx "$b" ||
		die "benchmark '$b' has no line in config/benches; add one (its name, then 'host' or the arches it boots)"
	need_arches="$need_arches $(kernel_arches "$b")"
done
for arch in $(echo "$need_arches" | tr ' ' '\n' | sort -u); do
	check_arch "$arch"
	"$TOP/scripts/kernel.sh" "$arch" bench || exit
	"$TOP/scripts/kernel.sh" "$arch" bench 1 || exit
done
out=$WORK/bench-out
rm -rf "$out" && mkdir -p "$out"
for b in $benches; do
	say "benchmark $b"
	t0=$(date +%s)
	"$TOP/scripts/bench/$b.sh" "$out" || die "benchmark $b failed; results/ left as it was"
	say "benchmark $b done in $(( $(date +%s) - t0 ))s"
done
"$TOP/scripts/report.py" "$out" || die "report failed; results/ left as it was"
mkdir -p "$TOP/results"
# Keep results of benchmarks not run this time.
cp "$out"/* "$TOP/results/"
"$TOP/scripts/report.py" "$TOP/results"
say "results/summary.md written"
