# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the harness scripts; source it, do not run it.
# Its variables are for the scripts that source it (SC2034).
# shellcheck shell=bash disable=SC2034

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# build/: what no base owns (guest userspace, make check's results); each
# base's tree and kernels are in its WORK directory (below).
BUILD=$TOP/build

# The defaults (DEFAULT_SERIES, DEFAULT_ARCH) and the flavors' roles
# (TEST_FLAVOR, SOAK_FLAVOR, BENCH_FLAVOR).
# shellcheck source=../../config/defaults.env
. "$TOP/config/defaults.env"

die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# Every script answers -h or --help (among its arguments before a "--")
# with its usage: the comment at its top, SPDX line left out.  Before
# anything else, so asking for help never builds, boots or writes.
script_help() {
	sed -n '2,/^[^#]/{/^#!/d;/SPDX-License-Identifier/d;/shellcheck/d;/^#/!d;s/^# \{0,1\}//;p}' "$1"
}
for _arg; do
	case $_arg in
	--) break ;;
	-h|--help) script_help "$0"; exit 0 ;;
	esac
done
unset _arg
warn() { printf '%s: warning: %s\n' "${0##*/}" "$*" >&2; }
say() { printf '==> %s\n' "$*" >&2; }

# The project's identity: author and committer of every commit the harness
# makes and of every patch in series-*/patches/.  It is no person: the .invalid
# domain is reserved (RFC 2606) and receives no mail.  A person's name and
# Signed-off-by go in only at 'make mail', from the sender's git config.
PROJECT_NAME="objpool series"
PROJECT_EMAIL="objpool-series@objpool.invalid"
export GIT_AUTHOR_NAME=$PROJECT_NAME GIT_AUTHOR_EMAIL=$PROJECT_EMAIL
export GIT_COMMITTER_NAME=$PROJECT_NAME GIT_COMMITTER_EMAIL=$PROJECT_EMAIL
# The sender of the mail gate's messages when the user has none configured
# (scripts/mail.sh, MAIL_TEST_SENDER=1): no person either.
MAIL_TEST_NAME="objpool mail check"
MAIL_TEST_EMAIL="mail-check@objpool.invalid"
# With a fixed date, an unchanged series exports byte-identical patches.
FIXED_DATE="2000-01-01T00:00:00+0000"

# git without the user's and the system's config (identity, format.signOff,
# am.messageId, diff.noprefix...): the repository's own config only.
git_plain() { GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git "$@"; }

# identity_problem NAME EMAIL: print why NAME <EMAIL> cannot sign patches
# off and return 1; return 0 silently when it can.  The rule (design.md,
# "Identity and Signed-off-by"): a name and an address must be set; the address
# must not be in a reserved domain (example.com/.org/.net, the TLDs
# .example, .invalid, .localhost, .test, .local, .localdomain, a noreply
# host); neither may be a system account or a template (root, user,
# nobody, admin, "Your Name"...); and it must not be the project's own
# identity.  Names are not judged otherwise: "Ada Lovelace" passes.
identity_problem() {
	local name=$1 email=${2,,} lname=${1,,} domain mailbox
	if [ -z "$name" ]; then echo "user.name is not set"; return 1; fi
	if [ -z "$email" ]; then echo "user.email is not set"; return 1; fi
	if [ "$lname" = "${PROJECT_NAME,,}" ] || [ "$email" = "${PROJECT_EMAIL,,}" ]; then
		echo "'$1 <$2>' is the project's identity, not a person"; return 1
	fi
	case $name in *[\<\>@]*) echo "name '$1' holds a mail address"; return 1 ;; esac
	[[ $email =~ ^[^@[:space:]\<\>]+@[^@[:space:]\<\>]+\.[a-z0-9-]+$ ]] ||
		{ echo "'$2' is not an address like name@host.tld"; return 1; }
	mailbox=${email%@*} domain=${email#*@}
	case .$domain in
	*.example.com|*.example.org|*.example.net|*.example|*.invalid|*.localhost|\
	*.test|*.local|*.localdomain|*.noreply.*)
		echo "address '$2' is in the reserved or placeholder domain $domain"; return 1 ;;
	esac
	case $mailbox in root|user|nobody|admin|noreply|no-reply)
		echo "address '$2' is a system account, not a person"; return 1 ;;
	esac
	case $lname in root|user|nobody|admin|name|"your name"|"firstname lastname"|unknown)
		echo "name '$1' is a system account or a template, not a person"; return 1 ;;
	esac
	return 0
}

# The three axes of a build: the series (series-NAME/series.env), the
# architecture (config/arch/NAME.sh) and the flavor (config/flavors).  Each
# is one file or one line; the lists below are read from them.
# series_env NAME: the settings file of series NAME, or of the benchmark's
# kernel NAME (bench-kernels/NAME/series.env, the same keys; not a series).
series_env() {
	if [ -f "$TOP/series-$1/series.env" ]; then echo "$TOP/series-$1/series.env"
	else echo "$TOP/bench-kernels/$1/series.env"; fi
}
# own_setting KEY: KEY's value as the series' own series.env sets it
# (KEY=value or KEY="value"), empty when it sets none: a series.env that
# sources another's (7.2-rfc and the 7.2 benchmarks' kernels source
# 7.2's) does not inherit it.  For settings that belong to one series'
# patches, not to its base.
own_setting() {
	sed -n "s/^$1=\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "$(series_env "$SERIES")" | tail -n 1
}
# series_work NAME: the build directory of another series.
series_work() { (. "$(series_env "$1")" && echo "$TOP/$SERIES_BUILD"); }
valid_series() {
	(cd "$TOP" && ls -d -- series-*/series.env bench-kernels/*/series.env 2>/dev/null) |
		sed -E 's,^(series-|bench-kernels/),,; s,/?series\.env$,,' | tr '\n' ' '
}
# checked_series: the series make check and make mail work on: all but a
# benchmark's kernel (SERIES_BENCH_ONLY=1, bench-kernels/7.2-nolock/series.env).
checked_series() {
	local b
	for b in $(valid_series); do
		grep -qx 'SERIES_BENCH_ONLY=1' "$(series_env "$b")" || printf '%s ' "$b"
	done
}
valid_arches() { (cd "$TOP/config/arch" && ls -- *.sh) | sed 's/\.sh$//' | tr '\n' ' '; }
valid_flavors() { flavor_table | awk '{ print $1 }' | tr '\n' ' '; }

# The series the scripts work on: SERIES (default DEFAULT_SERIES), a name of
# series_env; SERIES_LIST: the series make check and make clean work on
# (default all).  A script starts
# another for one series with that series as its first arguments,
# `--series NAME`, which wins over the environment; the script's own
# arguments follow.  The series' settings file says where its patches
# and builds live; every script sees them as PATCHES, COVER, EXPECT, WORK
# (its build directory), TREE (its kernel tree).
if [ "${1:-}" = --series ]; then
	[ -n "${2:-}" ] || die "--series needs a series name; valid: $(valid_series)"
	SERIES=$2
	shift 2
fi
SERIES=${SERIES:-$DEFAULT_SERIES}
SERIES_LIST=${SERIES_LIST:-}
export SERIES SERIES_LIST
[ -f "$(series_env "$SERIES")" ] ||
	die "unknown SERIES '$SERIES'; valid: $(valid_series)"
# shellcheck source=../../series-6.1/series.env
. "$(series_env "$SERIES")"
PATCHES=$TOP/$SERIES_PATCHES COVER=$TOP/$SERIES_COVER EXPECT=$TOP/$SERIES_EXPECT
WORK=$TOP/$SERIES_BUILD
TREE=$WORK/linux
# Upstream's pool, the peer of every series' (UPSTREAM_POOL_PKG, _TARBALL).
# shellcheck source=../../config/upstream-pool.env
. "$TOP/config/upstream-pool.env"
# The KTAP parser scripts/lib/ktap.py uses: KUNIT_DIR when the user sets
# it, else this series' tree's own.  KUNIT_DIR_OF_TREE marks the derived
# value, so that a script started for another series derives its own.
if [ -z "${KUNIT_DIR:-}" ] || [ "$KUNIT_DIR" = "$KUNIT_DIR_OF_TREE" ]; then
	KUNIT_DIR=$TREE/tools/testing/kunit KUNIT_DIR_OF_TREE=$TREE/tools/testing/kunit
fi
export KUNIT_DIR KUNIT_DIR_OF_TREE

# use_arch ARCH: check ARCH and load its facts (ARCH_* variables).
use_arch() {
	[ -f "$TOP/config/arch/$1.sh" ] || die "unknown ARCH '$1'; valid: $(valid_arches)"
	# shellcheck source=../../config/arch/x86_64.sh
	. "$TOP/config/arch/$1.sh"
}
# arch_fact ARCH KEY: one fact of ARCH (its ARCH_KEY), without loading it.
arch_fact() { (use_arch "$1" && v=ARCH_$2 && echo "${!v:-}"); }
# The cross compiler prefix of the loaded arch: none on a host of that arch.
arch_cross() { [ "$(uname -m)" = "$ARCH_UNAME" ] || echo "$ARCH_TRIPLET-"; }
arch_cc() { echo "$(arch_cross)gcc"; }

# kbuild_env: the one environment of every kernel build.  ccache hashes paths
# below the repository relative to it, so a fresh clone elsewhere (CI) hits
# the cache an earlier clone filled; the build stamp is fixed.
kbuild_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
	export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1
	export KBUILD_BUILD_TIMESTAMP="$FIXED_DATE" KBUILD_BUILD_USER=objpool KBUILD_BUILD_HOST=localhost
}
# kmake SRC OBJ ARGS...: the kernel's make for the loaded arch, SRC built
# into OBJ, through ccache.
kmake() {
	local src=$1 obj=$2; shift 2
	command -v "$(arch_cc)" >/dev/null || die "$(arch_cc) not found; run 'make deps'"
	kbuild_env
	make -C "$src" O="$obj" ARCH="$ARCH_KBUILD" CROSS_COMPILE="$(arch_cross)" \
		CC="ccache $(arch_cc)" "$@"
}

# The flavor table, comments and blank lines dropped, one flavor a line.
flavor_table() { grep -Ev '^[[:space:]]*(#|$)' "$TOP/config/flavors"; }
# flavor_field FLAVOR N: column N of FLAVOR's line (1 is the name), trimmed.
flavor_field() {
	local v
	v=$(flavor_table | awk -F'|' -v f="$1" -v n="$2" '
		{ name = $1; gsub(/[[:space:]]/, "", name) }
		name == f { v = $n; gsub(/^[[:space:]]+|[[:space:]]+$/, "", v); print v; exit }')
	[ "$v" = - ] || echo "$v"
}
check_flavor() {
	case " $(valid_flavors) " in *" $1 "*) ;; *)
		die "unknown FLAVOR '$1'; valid: $(valid_flavors)" ;; esac
	# A series may extend a flavor by a variable named after it.
	[[ $1 =~ ^[A-Za-z0-9_]+$ ]] ||
		die "flavor name '$1' (config/flavors) has characters a shell variable name cannot: use letters, digits and _"
}
# series_flavor_extra KIND FLAVOR: what the base kernel adds to FLAVOR, its
# SERIES_FLAVOR_<KIND>_<FLAVOR> (FRAGMENTS or SUITES; series-6.12/series.env).
series_flavor_extra() { local v="SERIES_FLAVOR_$1_$2"; echo "${!v:-}"; }
# shellcheck disable=SC2046 # word splitting joins the two lists
flavor_fragments() { echo $(flavor_field "$1" 2) $(series_flavor_extra FRAGMENTS "$1"); }
flavor_check_arches() { flavor_field "$1" 3; }
flavor_timeout() { flavor_field "$1" 4; }
flavor_memory() { flavor_field "$1" 5; }
# flavor_cpus FLAVOR: "VCPUS ONLINE", the guest's vCPUs and those online
# at boot (column 7, VCPUS/ONLINE; 2 2 when the column is absent or '-').
flavor_cpus() {
	local v
	v=$(flavor_field "$1" 7)
	[[ ${v:-2/2} =~ ^([0-9]+)/([0-9]+)$ ]] && [ "${BASH_REMATCH[2]}" -le "${BASH_REMATCH[1]}" ] ||
		die "flavor '$1': column 7 of config/flavors is '$v', not VCPUS/ONLINE with ONLINE <= VCPUS"
	echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
}
# flavor_tcg_thread FLAVOR: how TCG runs the guest's vCPUs (column 8):
# multi (a host thread each, the default) or single (all on one).
flavor_tcg_thread() {
	local v
	v=$(flavor_field "$1" 8)
	case ${v:-multi} in
	multi | single) echo "${v:-multi}" ;;
	*) die "flavor '$1': column 8 of config/flavors is '$v', not multi or single" ;;
	esac
}
# The guest suites make check runs on FLAVOR: the flavor's, then the
# base's, except that kmemleak, whose report covers every suite before it,
# stays last.
# shellcheck disable=SC2086 # word splitting joins the lists
suites() {
	local own extra
	own=$(flavor_field "$1" 6) extra=$(series_flavor_extra SUITES "$1")
	case " $own " in
	*" kmemleak ") echo ${own% kmemleak} $extra kmemleak ;;
	*) echo $own $extra ;;
	esac
}

# series_stamp: the tree's HEAD and the patches' content.  check-series and
# make series leave it in the tree's .git once the tree's commits are the
# patches; make tree then finds the tree current without exporting it
# again, as long as neither changed.
series_stamp() {
	echo "$(git -C "$TREE" rev-parse HEAD) $(cat "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | sha256sum)"
}

# vm_fact DIR KEY...: facts of the guest run whose results are in DIR
# (DIR/vm.json, written by vm.sh), comma-separated in the order asked, '-'
# for each one it lacks.  Each call starts Python (about 0.1 s here): ask
# for all the facts of a run at once.
vm_fact() {
	python3 -c 'import json, sys
try: facts = json.load(open(sys.argv[1] + "/vm.json"))
except OSError: facts = {}
print(",".join(str(facts.get(key, "-")) for key in sys.argv[2:]))' "$@"
}

# Output directory of one build: <work>/<arch>-<flavor>[-unpatched].
# A series on another series (SERIES_PARENT) has that series' patched
# kernels as its unpatched ones: its 'base' is the parent's head.
objdir() {
	if [ -n "${3:-}" ] && [ -n "${SERIES_PARENT:-}" ]; then
		echo "$(series_work "$SERIES_PARENT")/$1-$2"
	else
		echo "$WORK/$1-$2${3:+-unpatched}"
	fi
}

# The config fragments of ARCH and FLAVOR, in merge order (config/flavors).
fragments() {
	local arch=$1 flavor=$2 names f
	check_flavor "$flavor"
	names=$(flavor_fragments "$flavor")
	[ -n "$names" ] || die "flavor '$flavor' names no config fragment in config/flavors"
	for f in $names; do
		compgen -G "$TOP/config/$f.config" >/dev/null || compgen -G "$TOP/config/$f-*.config" >/dev/null ||
			die "config/flavors names '$f', but there is no config/$f.config or config/$f-<arch>.config"
		[ -f "$TOP/config/$f.config" ] && echo "$TOP/config/$f.config"
		[ -f "$TOP/config/$f-$arch.config" ] && echo "$TOP/config/$f-$arch.config"
	done
	return 0
}
# A short hash of those fragments: a build whose config was made from
# other fragments is reconfigured.
fragments_sum() { cat $(fragments "$1" "$2") | sha256sum | cut -c1-16; }
# unpatched SRC: SRC is a base kernel with no patch of its series on it.
unpatched() { [ "$(git -C "$1" rev-list --count base..HEAD 2>/dev/null)" = 0 ]; }
# config_stamp ARCH FLAVOR SRC: what a build's .config was made from; a
# build whose stamp differs is reconfigured.  An unpatched tree's config
# leaves out the options its series adds (kconfig.sh), so the first patch
# on it means a new config.
config_stamp() { echo "$(fragments_sum "$1" "$2")$(unpatched "$3" && echo -unpatched)"; }

# tap_added N NAME BASE NEW: TAP line N for NAME, "not ok" with the lines
# of NEW that BASE lacks (both sorted files) as diagnostics, if any.
tap_added() {
	local added
	added=$(comm -13 "$3" "$4")
	if [ -z "$added" ]; then
		echo "ok $1 $2"
	else
		echo "not ok $1 $2"
		echo "$added" | sed 's/^/# /'
		return 1
	fi
}

# find_herd7: where herd7 (herdtools7's memory-model simulator, which the
# LKMM litmus checks run on) is.  Looked for in $HERD7 (a path or a command
# name), else on PATH; nowhere outside the repository unless HERD7 names
# it.  Found: prints its absolute path, returns 0.  Not found:
# prints the reason, a litmus check's skip reason, and returns 1; HERD7 set
# to something that does not run: prints why and returns 2, a failure (a
# machine that names its herd7 must not skip).  Install it with opam
# (opam install herdtools7) or from https://github.com/herd/herdtools7.
find_herd7() {
	local p
	if [ -n "${HERD7:-}" ]; then
		p=$(command -v -- "$HERD7" 2>/dev/null) && [ -x "$p" ] &&
			{ echo "$p"; return 0; }
		echo "HERD7='$HERD7' is not an executable herd7; fix HERD7 or unset it"
		return 2
	fi
	p=$(command -v herd7 2>/dev/null) && { echo "$p"; return 0; }
	echo "no herd7 (HERD7 unset, none on PATH);" \
		"install herdtools7 (opam install herdtools7, or build it from" \
		"https://github.com/herd/herdtools7) or set HERD7"
	return 1
}

# tap_merge: one TAP stream from several on stdin, with bare "ok NAME" and
# "not ok NAME" lines among them: their version and plan lines dropped,
# every case numbered anew in order, diagnostics kept; prints its own
# version and plan first.
tap_merge() {
	local out
	out=$(grep -v '^TAP version\|^1\.\.')
	echo "TAP version 13"
	echo "1..$(grep -c '^\(not \)\{0,1\}ok ' <<<"$out")"
	awk '/^(not )?ok [0-9]+ / { n++; sub(/ [0-9]+ /, " " n " "); print; next }
		/^(not )?ok / { n++; sub(/ok /, "ok " n " "); print; next }
		{ print }' <<<"$out"
}

# tap_lines: TAP's plan and cases from a gate's own lines on stdin: "ok
# NAME..." and "FAIL NAME..." are cases, numbered in order ("FAIL" becomes
# "not ok"); any other line is a diagnostic.  The caller prints "TAP
# version 13" first.
tap_lines() {
	local out
	out=$(cat)
	echo "1..$(grep -c -E '^(ok  |FAIL) ' <<<"$out")"
	awk '
		/^ok   / { n++; sub(/^ok   /, "ok " n " "); print; next }
		/^FAIL / { n++; sub(/^FAIL /, "not ok " n " "); print; next }
		{ print "# " $0 }' <<<"$out"
}
