#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TAP: the positive control of make check's prefix builds.  The real
# scripts/check-bisect.sh runs on small made-up trees (a git tree tagged
# 'base' with a few commits, whose Makefile compiles its C files with the
# compiler kbuild would use, through the same make command line), and
# must: pass a series whose every prefix builds; fail one whose middle
# patch does not build, naming that patch and its log, with the log
# holding the compiler's error, while the prefixes around it pass; build
# the prefixes with config/bisect.config's debug option and the test
# config without it (a patch broken only under the option fails, and only
# in the prefix builds, not in 'last', which builds the last patch with
# the test config alone); leave the tree on its branch and the object
# directory with the test config; build no prefix that changes only files
# kbuild does not read; in mode objects (arches without a guest), build
# the directories the last patch changes and fail on their errors.  A few
# seconds.
. "$(dirname "$0")/../lib/harness.sh"
tmp=$(mktemp -d)
# The made-up trees build with the default arch's compiler, as its test kernel.
a=$DEFAULT_ARCH
trap 'rm -rf "$tmp"' EXIT
n=0
tap() {	# tap OK NAME [DIAGNOSTICS-FILE]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && [ -f "$3" ] && sed 's/^/# /' "$3"
	fi
}

# A tree in the shape the script expects: Kconfig (the options it defines),
# a Makefile with kbuild's olddefconfig (drops the options Kconfig does not
# define, the last assignment of one wins) and all (each C file compiled
# into O= with the .config's options defined).
make_tree() {	# make_tree DIR: the base commit, tagged 'base'
	mkdir -p "$1"
	cat >"$1/Makefile" <<'EOF'
O ?= .
.PHONY: olddefconfig all prepare lib/
.NOTPARALLEL:
prepare:
	@true
lib/:
	sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$$/#define \1 1/p' $(O)/.config >$(O)/config.h
	for f in lib/*.c; do echo "  CC      $${f%.c}.o"; \
		$(CC) -include $(O)/config.h -c $$f -o $(O)/$$(basename $${f%.c}).o || exit; done
olddefconfig:
	awk 'NR == FNR { if ($$1 == "config") k["CONFIG_" $$2] = 1; next } \
	     /^CONFIG_/ { split($$0, a, "="); s = a[1] } \
	     /^# CONFIG_.* is not set$$/ { s = $$2 } \
	     s != "" && (s in k) { if (!(s in v)) o[++m] = s; v[s] = $$0 } { s = "" } \
	     END { for (i = 1; i <= m; i++) print v[o[i]] }' \
		$(wildcard Kconfig*) $(O)/.config >$(O)/.config.new && mv $(O)/.config.new $(O)/.config
all:
	sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$$/#define \1 1/p' $(O)/.config >$(O)/config.h
	for f in *.c; do echo "  CC      $${f%.c}.o"; \
		$(CC) -include $(O)/config.h -c $$f -o $(O)/$${f%.c}.o || exit; done
EOF
	printf 'config DEBUG_KERNEL\nconfig KPROBES\n' >"$1/Kconfig"
	echo 'int main(void) { return 0; }' >"$1/main.c"
	git -C "$1" init -q -b work
	git -C "$1" add -A
	git -C "$1" commit -q -m "the base"
	git -C "$1" tag base
}
commit() {	# commit DIR SUBJECT: commit what changed
	git -C "$1" add -A
	git -C "$1" commit -q -m "$2"
}
# run NAME: check-bisect.sh on tree NAME in its own object directory,
# with a test config that has the option DEBUG_KERNEL but not the debug
# option of config/bisect.config, stamped as kconfig.sh stamps it.
run() {
	local d=$tmp/$1 mode=${2:-all}
	rm -rf "$d/obj"
	mkdir -p "$d/obj"
	printf 'CONFIG_DEBUG_KERNEL=y\nCONFIG_KPROBES=y\n' >"$d/obj/.config"
	config_stamp "$a" "$TEST_FLAVOR" "$d/src" >"$d/obj/.fragments"
	cp "$d/obj/.config" "$d/test.config"
	BISECT_TREE=$d/src BISECT_OBJ=$d/obj BISECT_PATCHES=$d/none \
		"$TOP/scripts/check-bisect.sh" "$a" "$mode" >"$d/out" 2>&1
}
# restored NAME: the tree back on its branch at its head, clean, and the
# object directory with the test config and its stamp.
restored() {
	local d=$tmp/$1
	[ "$(git -C "$d/src" symbolic-ref -q --short HEAD)" = work ] &&
	[ -z "$(git -C "$d/src" status --porcelain --untracked-files=no)" ] &&
	cmp -s "$d/obj/.config" "$d/test.config" &&
	[ "$(cat "$d/obj/.fragments")" = "$(config_stamp "$a" "$TEST_FLAVOR" "$d/src")" ]
}

# The debug option config/bisect.config adds, as its trees define it.
opt=$(grep -m1 -E '^CONFIG_[A-Z0-9_]+=y' "$TOP/config/bisect.config" | sed 's/^CONFIG_//; s/=y$//')
[ -n "$opt" ] || { echo "1..1"; echo "not ok 1 - config/bisect.config sets no option =y"; exit 1; }

# good: four patches, each builds (the second adds the debug option, the
# third only documentation, which kbuild does not read).
s=$tmp/good/src
make_tree "$s"
echo 'int one(void) { return 1; }' >"$s/one.c"; commit "$s" "lib: add one"
printf 'config %s\n' "$opt" >>"$s/Kconfig"
printf '#ifdef CONFIG_%s\nint dbg(void) { return 2; }\n#endif\n' "$opt" >"$s/dbg.c"; commit "$s" "lib: add a debug option"
mkdir -p "$s/Documentation"; echo 'One' >"$s/Documentation/one.rst"; echo 'ONE' >"$s/MAINTAINERS"
commit "$s" "Documentation: add one"
echo 'int two(void) { return 2; }' >"$s/two.c"; commit "$s" "lib: add two"

# broken: the second of three patches does not compile, the third repairs it.
s=$tmp/broken/src
make_tree "$s"
echo 'int one(void) { return 1; }' >"$s/one.c"; commit "$s" "lib: add one"
echo 'int two(void) { return undefined_name; }' >"$s/two.c"; commit "$s" "lib: add two, broken"
echo 'int two(void) { return 2; }' >"$s/two.c"; commit "$s" "lib: repair two"

# debug: the second patch compiles without the debug option, not with it.
s=$tmp/debug/src
make_tree "$s"
printf 'config %s\n' "$opt" >>"$s/Kconfig"; commit "$s" "lib: add a debug option"
printf '#ifdef CONFIG_%s\nint dbg(void) { return undefined_name; }\n#endif\n' "$opt" >"$s/dbg.c"
commit "$s" "lib: add code broken under the debug option"

# objects: the last patch adds a file that does not compile to lib/, the
# only directory the series changes: mode 'objects' must build it and fail.
s=$tmp/objects/src
make_tree "$s"
mkdir -p "$s/lib"; echo 'int one(void) { return 1; }' >"$s/lib/one.c"; commit "$s" "lib: add one"
echo 'int two(void) { return undefined_name; }' >"$s/lib/two.c"; commit "$s" "lib: add two, broken"

echo "1..13"
run good; rc=$?
tap "$rc" "every prefix builds: exit 0" "$tmp/good/out"
grep -q "^ok   $a 4/4 patch 4/4 \"lib: add two\"" "$tmp/good/out" &&
	[ "$(grep -c "^ok   $a [0-9]/4 " "$tmp/good/out")" = 5 ]
tap $? "every prefix builds: four ok lines and the test config's build of the last" "$tmp/good/out"
grep -q "^ok   $a 3/4 patch 3/4 \"Documentation: add one\": changes no file kbuild reads .*the build of 2/4 stands" "$tmp/good/out" &&
	[ ! -f "$tmp/good/obj/bisect/03.log" ] && [ -f "$tmp/good/obj/bisect/04.log" ]
tap $? "a patch of documentation and MAINTAINERS only: no build, the one before stands" "$tmp/good/out"
restored good; tap $? "every prefix builds: tree on its branch, test config back" "$tmp/good/out"

run broken; rc=$?
[ "$rc" != 0 ]; tap $? "a prefix that does not build: exit $rc, not 0" "$tmp/broken/out"
line=$(grep '^FAIL ' "$tmp/broken/out")
log=$tmp/broken/obj/bisect/02.log
[ "$(grep -c '^FAIL ' "$tmp/broken/out")" = 1 ] &&
	case $line in "FAIL $a 2/3 patch 2/3 \"lib: add two, broken\": does not build (log: $log)") true ;; *) false ;; esac &&
	grep -q 'undefined_name' "$log"
tap $? "a prefix that does not build: one FAIL naming patch 2/3 and its log, which has the error" "$tmp/broken/out"
grep -q "^ok   $a 1/3 " "$tmp/broken/out" && grep -q "^ok   $a 3/3 " "$tmp/broken/out"
tap $? "a prefix that does not build: the prefixes before and after it build" "$tmp/broken/out"
restored broken; tap $? "a prefix that does not build: tree on its branch, test config back" "$tmp/broken/out"

run debug; rc=$?
[ "$rc" != 0 ] && grep -q "^FAIL $a 2/2 patch 2/2 \"lib: add code broken under the debug option\"" "$tmp/debug/out"
tap $? "a patch broken only with CONFIG_$opt fails its prefix build" "$tmp/debug/out"
grep -q "^ok   $a 2/2 patch 2/2 with the $TEST_FLAVOR flavor's config" "$tmp/debug/out" && restored debug
tap $? "the test config (without CONFIG_$opt) is built last and left in place" "$tmp/debug/out"

run debug last; rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^ok ' "$tmp/debug/out")" = 1 ] &&
	grep -q "^ok   $a 2/2 patch 2/2 " "$tmp/debug/out" && ! grep -q '^FAIL' "$tmp/debug/out" && restored debug
tap $? "last (ARCH_BISECT=last): only the last patch, with the test config alone" "$tmp/debug/out"

run objects objects; rc=$?
[ "$rc" != 0 ] && grep -q "^FAIL $a 2/2 patch 2/2 \"lib: add two, broken\"" "$tmp/objects/out" &&
	grep -q undefined_name "$tmp/objects/obj/bisect/02.log" && [ "$(grep -c '^ok ' "$tmp/objects/out")" = 0 ]
tap $? "objects (an arch without a guest): the last patch's directory is built, its error fails the step" "$tmp/objects/out"
echo 'int two(void) { return 2; }' >"$tmp/objects/src/lib/two.c"; commit "$tmp/objects/src" "lib: repair two"
run objects objects; rc=$?
[ "$rc" = 0 ] && grep -q "^ok   $a 3/3 " "$tmp/objects/out" && restored objects
tap $? "objects: a series whose directories build passes, tree and config restored" "$tmp/objects/out"
