# Shared helpers for the harness scripts; source it, do not run it.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=$BUILD/linux

die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
warn() { printf '%s: warning: %s\n' "${0##*/}" "$*" >&2; }
say() { printf '==> %s\n' "$*" >&2; }

# Fixed identity and date for every commit the harness makes, so that an
# unchanged series exports byte-identical patches.
export GIT_AUTHOR_NAME="objpool series" GIT_AUTHOR_EMAIL="objpool@localhost"
export GIT_COMMITTER_NAME="objpool series" GIT_COMMITTER_EMAIL="objpool@localhost"
FIXED_DATE="2000-01-01T00:00:00+0000"

valid_arches="x86_64 arm64"
valid_flavors="test debug kcsan bench"

check_arch() {
	case " $valid_arches " in *" $1 "*) ;; *)
		die "unknown ARCH '$1'; valid: $valid_arches" ;; esac
}
check_flavor() {
	case " $valid_flavors " in *" $1 "*) ;; *)
		die "unknown FLAVOR '$1'; valid: $valid_flavors" ;; esac
}

# kbuild's name for an arch and its cross compiler prefix.
karch() { case $1 in x86_64) echo x86 ;; arm64) echo arm64 ;; esac; }
cross_prefix() {
	case $1 in arm64) [ "$(uname -m)" = aarch64 ] || echo aarch64-linux-gnu- ;; esac
}
# Where kbuild leaves the bootable image.
kimage() { case $1 in x86_64) echo arch/x86/boot/bzImage ;; arm64) echo arch/arm64/boot/Image ;; esac; }

# Output directory of one build: build/<arch>-<flavor>[-base].
objdir() { echo "$BUILD/$1-$2${3:+-base}"; }

# The config fragments of ARCH and FLAVOR, in merge order (config/flavors).
fragments() {
	local arch=$1 flavor=$2 names f
	names=$(sed -n "s/^$flavor:[[:space:]]*//p" "$TOP/config/flavors")
	[ -n "$names" ] || die "no line for flavor '$flavor' in config/flavors"
	for f in $names; do
		echo "$TOP/config/$f.config"
		[ -f "$TOP/config/$f-$arch.config" ] && echo "$TOP/config/$f-$arch.config"
	done
	return 0
}
# A short hash of those fragments: a build whose config was made from
# other fragments is reconfigured.
fragments_sum() { cat $(fragments "$1" "$2") | sha256sum | cut -c1-16; }
# The guest suites make check runs on FLAVOR (config/suites).
suites() { sed -n "s/^$1:[[:space:]]*//p" "$TOP/config/suites"; }

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
