#!/usr/bin/env bash
# make bench: build the bench kernels (patched and base) if needed, run the
# benchmarks of config/benches, write results/ (CSV, PNG, summary.md).
# Results are assembled in build/ and replace results/ only when complete.
# BENCHES=... runs a subset.
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" bench || exit
"$TOP/scripts/tree.sh" || exit
benches=${BENCHES:-$(grep -v '^#' "$TOP/config/benches" | awk '{ print $1 }')}
host_only=$(grep -v '^#' "$TOP/config/benches" | awk '$2 == "host" { print $1 }')
need_kernels=
for b in $benches; do
	[ -x "$TOP/scripts/bench/$b.sh" ] || die "unknown benchmark '$b'; valid: $(cd "$TOP/scripts/bench" && ls | sed 's/\.sh$//' | tr '\n' ' ')"
	echo "$host_only" | grep -qx "$b" || need_kernels=1
done
if [ -n "$need_kernels" ]; then
	"$TOP/scripts/kernel.sh" x86_64 bench || exit
	"$TOP/scripts/kernel.sh" x86_64 bench 1 || exit
fi
out=$BUILD/bench-out
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
