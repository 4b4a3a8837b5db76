#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the benchmarks of config/benches.  Builds the bench kernels
# they boot (unpatched and patched) if needed, runs each line, and writes
# build/bench/: NAME.csv per benchmark, then summary.md and the plots
# (scripts/lib/report.py), over a copy of results/ with this run's CSVs in
# place of theirs.  results/ and the cover letters, which quote it, are
# left alone: 'make bench-promote' copies build/bench/ into results/.
# BENCHES="NAME..." runs a subset; the other CSVs are results/' own.
. "$(dirname "$0")/lib/harness.sh"
"$TOP/scripts/deps.sh" || exit
"$TOP/scripts/tree.sh" || exit

# The table, comments dropped, fields trimmed, '|'-separated.
table() { grep -Ev '^[[:space:]]*(#|$)' "$TOP/config/benches" | sed -E 's/[[:space:]]*\|[[:space:]]*/|/g; s/[[:space:]]+$//'; }
all=$(table | cut -d'|' -f1 | uniq | tr '\n' ' ')
benches=${BENCHES:-$all}
for b in $benches; do
	case " $all " in *" $b "*) ;; *) die "unknown benchmark '$b'; valid: $all(config/benches)" ;; esac
done
selected() { case " $benches " in *" $1 "*) ;; *) return 1 ;; esac; }
# A kernel is 'unpatched' or 'patched' ('base' was unpatched's old name).
while IFS='|' read -r name _ kernels _; do
	for k in $kernels; do
		case $k in unpatched | patched | -) ;;
		*) die "config/benches, $name: unknown kernel '$k'; write unpatched, patched or both" ;;
		esac
	done
done < <(table)

# line_series SETTINGS: the series whose kernels a line boots (a SERIES=
# setting, or this run's).  line_flavor
# SETTINGS: the flavor of the kernels it boots (a FLAVOR= setting, or
# BENCH_FLAVOR).
line_series() { local s; for s in $1; do case $s in SERIES=*) echo "${s#*=}"; return ;; esac; done; echo "$SERIES"; }
line_flavor() { local s; for s in $1; do case $s in FLAVOR=*) echo "${s#*=}"; return ;; esac; done; echo "$BENCH_FLAVOR"; }

# The bench kernels the selected lines boot, with their series' trees.
while IFS='|' read -r name arches kernels _ settings _; do
	selected "$name" && [ "$arches" != host ] || continue
	for arch in $arches; do
		for kernel in $kernels; do echo "$(line_series "$settings") $(line_flavor "$settings") $arch $kernel"; done
	done
done < <(table) | sort -u | while read -r bk flavor arch kernel; do
	[ "$bk" = "$SERIES" ] || "$TOP/scripts/tree.sh" --series "$bk" || exit
	"$TOP/scripts/kernel.sh" --series "$bk" "$arch" "$flavor" $([ "$kernel" = unpatched ] && echo 1) || exit
done || exit

out=$WORK/bench-out
rm -rf "$out" && mkdir -p "$out"
# boot_bench RES ARCH UNPATCHED SETTINGS CMD: one boot of the bench kernel running
# CMD, results in RES.  A guest that fails is booted again, up to 3 boots,
# the failed boots' results kept in RES.first and RES.second: a benchmark
# wants numbers, and TCG guests on this 2-core host have crashed for
# reasons of their own (config/benches, memory-7.2-rfc).  Tests never retry.
boot_bench() {
	local res=$1 arch=$2 unpatched=$3 settings=$4 cmd=$5 try keep
	rm -rf "$res" "$res.first" "$res.second"
	for try in first second third; do
		# shellcheck disable=SC2086
		env $settings RESULTS="$res" "$TOP/scripts/vm.sh" "$arch" "$(line_flavor "$settings")" $unpatched -- \
			"$cmd >/results/bench.csv" </dev/null && return
		[ "$try" = third ] && return 1
		keep=$res.$try
		say "the guest failed; booting it again (its results and console in $keep)"
		mv "$res" "$keep"
		cp "$TOP/$(vm_fact "$keep" console)" "$keep/" 2>/dev/null
	done
}
# run_line NAME ARCHES KERNELS BOOTS SETTINGS CONTEXT CMD: boot each arch and
# kernel BOOTS times with SETTINGS, run CMD, and append its CSV rows to
# OUT/NAME.csv after the CONTEXT columns (the header once per benchmark).
run_line() {
	local name=$1 arches=$2 kernels=$3 boots=$4 settings=$5 context=$6 cmd=$7
	local csv=$out/$name.csv arch kernel run res unpatched facts
	[ "$settings" = - ] && settings=
	for arch in $arches; do
		for kernel in $kernels; do
			unpatched=; [ "$kernel" = unpatched ] && unpatched=1
			for run in $(seq "$boots"); do
				res=$WORK/results/bench-$name-$arch-$kernel-$run
				boot_bench "$res" "$arch" "$unpatched" "$settings" "$cmd" ||
					die "$name: the $arch $kernel guest failed 3 times (run $run, $settings); see $(vm_fact "$res" console), $res.first/ and $res.second/"
				[ "$(wc -l <"$res/bench.csv")" -ge 2 ] ||
					die "$name: the $arch $kernel guest printed no rows; see $res/bench.csv and $(vm_fact "$res" console)"
				facts=$(vm_fact "$res" accel online_cpus possible_cpus)
				case " $settings " in *" ICOUNT=1 "*)
					[ "${facts%%,*}" = tcg-icount ] ||
						die "$name: the $arch guest ran under ${facts%%,*}, not tcg-icount" ;;
				esac
				bench_rows "$res" "$arch" "$kernel" "$run" "$facts" "$context" "$csv"
			done
		done
	done
}
# series_state NAME: the state of the series a SERIES=NAME kernel is
# built from, for the 'series' context column: NAME@COMMIT per series (its
# own, then its SERIES_PARENT's), COMMIT the repository's last commit of its
# patches, '+dirty' when they differ from it.
series_state() {
	local b=$1 dir st=
	while [ -n "$b" ]; do
		dir=$(. "$(series_env "$b")" && echo "$SERIES_PATCHES")
		st+="${st:++}$b@$(git -C "$TOP" log -1 --format=%h -- "$dir")"
		[ -z "$(git -C "$TOP" status --porcelain -- "$dir")" ] || st+=-dirty
		b=$(. "$(series_env "$b")" && echo "${SERIES_PARENT:-}")
	done
	echo "$st"
}
# bench_rows RES ARCH KERNEL RUN FACTS CONTEXT CSV: RES/bench.csv's rows
# after the values of the CONTEXT columns (FACTS: the run's accelerator,
# online and possible CPUs, comma-separated); the header first when CSV is
# new.
bench_rows() {
	local res=$1 arch=$2 kernel=$3 run=$4 context=$6 csv=$7 values= c
	local accel online possible
	IFS=, read -r accel online possible <<<"$5"
	for c in ${context//,/ }; do
		case $c in
		arch) values+="$arch," ;;
		kernel) values+="$kernel," ;;
		run) values+="$run," ;;
		accel) values+="$accel," ;;
		vcpus) values+="$online," ;;
		possible) values+="$possible," ;;
		host_cpus) values+="$(nproc)," ;;
		series) values+="$(series_state "$(vm_fact "$res" series)")," ;;
		*) die "config/benches: unknown context column '$c'" ;;
		esac
	done
	if [ ! -f "$csv" ]; then
		echo "$context,$(head -n 1 "$res/bench.csv")" >"$csv"
	elif [ "$(head -n 1 "$csv")" != "$context,$(head -n 1 "$res/bench.csv")" ]; then
		die "$(basename "$csv"): the lines of one benchmark must give the same columns"
	fi
	tail -n +2 "$res/bench.csv" | sed "s/^/$values/" >>"$csv"
}

while IFS='|' read -r name arches kernels boots settings context cmd; do
	selected "$name" || continue
	say "benchmark $name${settings:+ ($settings)}"
	t0=$(date +%s)
	if [ "$arches" = host ]; then
		"$TOP/scripts/host-bench/$name.sh" "$out" || die "benchmark $name failed; nothing written to build/bench"
	else
		run_line "$name" "$arches" "$kernels" "$boots" "$settings" "$context" "$cmd"
	fi
	say "benchmark $name done in $(( $(date +%s) - t0 ))s"
done < <(table)

# One render, over results/ with this run's CSVs in place of theirs.
report=$WORK/bench-report
rm -rf "$report" && mkdir -p "$report"
cp -r "$TOP/results/." "$report/" 2>/dev/null
cp "$out"/*.csv "$report/"
# The report's plots need matplotlib, which make deps installs for the
# system's python3: the first python3 on PATH may be another (pyenv, venv).
py=
for p in python3 /usr/bin/python3; do
	"$p" -c 'import matplotlib' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || die "no python3 with matplotlib for the report's plots: run 'make deps' (python3-matplotlib) or pip install matplotlib; this run's CSVs are in ${out#$TOP/}"
"$py" "$TOP/scripts/lib/report.py" "$report" || die "report failed; build/bench left as it was"
rm -rf "$BUILD/bench" && mkdir -p "$BUILD/bench"
cp "$out"/*.csv "$report"/summary.md "$report"/*.png "$BUILD/bench/" 2>/dev/null
say "build/bench/summary.md written; 'make bench-promote' copies it and this run's CSVs and plots into results/"
