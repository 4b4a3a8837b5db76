# Shared helpers for the harness scripts; source it, do not run it.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=$BUILD/linux

die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
warn() { printf '%s: warning: %s\n' "${0##*/}" "$*" >&2; }
say() { printf '==> %s\n' "$*" >&2; }

# The project's identity: author and committer of every commit the harness
# makes and of every patch in patches/.  It is no person: the .invalid
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
# off and return 1; return 0 silently when it can.  The rule (README,
# "Submitting the series"): a name and an address must be set; the address
# must not be in a reserved domain (example.com/.org/.net, the TLDs
# .example, .invalid, .localhost, .test, .local, .localdomain, a noreply
# host); neither may be a system account or a template (root, user,
# nobody, admin, "Your Name"...); and it must not be the project's own
# identity.  Names are not judged otherwise: "Ada Lovelace" passes.
identity_problem() {
	local name=$1 email=${2,,} lname=${1,,} domain local
	if [ -z "$name" ]; then echo "user.name is not set"; return 1; fi
	if [ -z "$email" ]; then echo "user.email is not set"; return 1; fi
	if [ "$lname" = "${PROJECT_NAME,,}" ] || [ "$email" = "${PROJECT_EMAIL,,}" ]; then
		echo "'$1 <$2>' is the project's identity, not a person"; return 1
	fi
	case $name in *[\<\>@]*) echo "name '$1' holds a mail address"; return 1 ;; esac
	[[ $email =~ ^[^@[:space:]\<\>]+@[^@[:space:]\<\>]+\.[a-z0-9-]+$ ]] ||
		{ echo "'$2' is not an address like name@host.tld"; return 1; }
	local=${email%@*} domain=${email#*@}
	case .$domain in
	*.example.com|*.example.org|*.example.net|*.example|*.invalid|*.localhost|\
	*.test|*.local|*.localdomain|*.noreply.*)
		echo "address '$2' is in the reserved or placeholder domain $domain"; return 1 ;;
	esac
	case $local in root|user|nobody|admin|noreply|no-reply)
		echo "address '$2' is a system account, not a person"; return 1 ;;
	esac
	case $lname in root|user|nobody|admin|name|"your name"|"firstname lastname"|unknown)
		echo "name '$1' is a system account or a template, not a person"; return 1 ;;
	esac
	return 0
}

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
