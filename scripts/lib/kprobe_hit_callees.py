#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The functions a kretprobe, rethook or fprobe hit can call, from a vmlinux.

Starting at the hit path's roots (config/kprobe-hit-roots), follow every
direct call and branch to another function in the disassembly
(``objdump -d``: x86_64 call/jmp/jcc, arm64 bl/b/b.cond/cbz/cbnz/tbz/tbnz),
transitively, through functions kprobes refuse as well (the blacklist
protects a function, not its callees), but not into the harmless ones
(config/kprobe-hit-harmless: each with its reason, which covers what it
calls; a root named harmless is still followed).  Out-of-line copies the
compiler emits (static inline functions not inlined, .constprop, .isra,
.part and .cold parts) are functions of their own in the symbol table
and are found like any other.

Each reached function gets the host's verdict, as the booted kernel's
blacklist would give it: refused when the _kprobe_blacklist table
(NOKPROBE_SYMBOL, between __start_ and __stop_kprobe_blacklist) names
it, it lies in __kprobes, noinstr or the arch's entry areas, or it is a
NAME.suffix part of a refused NAME (within_kprobe_blacklist()).

Not followed: indirect calls and jumps (x86 call/jmp *, retpoline
thunks; arm64 blr/br).  Each reached function that has them must be in
config/kprobe-hit-indirect, which says where they go (the probe's own
handlers, trampoline handlers that are roots themselves); one that is not
comes out as '# unreviewed-indirect', which the suite fails.  Static
keys: a jump label's site may be a NOP whose target block the compiler
put in another part of the function (NAME.cold): each __jump_table
entry whose site lies in a reached function is a branch to its target.
Static calls (x86 __SCT__ trampolines) are taken as indirect calls: the
kernel sets their targets at run time.
Alternatives: the replacement code of each .altinstructions entry whose
original lies in a reached function is disassembled as part of that
function (x86 .altinstr_replacement, arm64's replacements; arm64's
callback entries run only when the kernel patches itself, and are
skipped), as the kernel keeps a patched branch's target.

Output (stdout), one reached function a line, what guest/suites/
kprobe-safety.sh reads: NAME OFFSET VERDICT VIA, OFFSET from _text (so
that the guest finds the very copy, names repeat), VERDICT refused or
probeable, VIA the call chain from a root.  Harmless ones come as
comments.  --check: exit 1 when a probeable one is not harmless, or an
indirect call is not reviewed.
"""

import argparse
import bisect
import fnmatch
import os
import re
import subprocess
import sys

# Address ranges kprobes refuse, by arch: the generic ones
# (populate_kprobe_blacklist(): __kprobes, noinstr) and
# arch_populate_kprobe_blacklist()'s, as START_END pairs of symbols.
AREAS = {
    "x86_64": ["kprobes", "noinstr", "entry"],
    "arm64": ["kprobes", "noinstr", "entry", "irqentry", "idmap", "hyp",
              "hyp_idmap"],
}
DIRECT = {
    "x86_64": re.compile(r"^(call|jmp|j[a-z]{1,3})$"),
    "arm64": re.compile(r"^(bl|b|b\.[a-z]{2}|cbn?z|tbn?z)$"),
}
INDIRECT = {
    "x86_64": re.compile(r"^(call|jmp)$"),
    "arm64": re.compile(r"^(blr|br|blraa|blrab|braa|brab)$"),
}
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")
TARGET = re.compile(r"\b([0-9a-f]+) <([^>]+)>")
# x86 prefixes objdump prints before the mnemonic.
PREFIXES = {"notrack", "bnd", "cs", "ds", "lock", "rep", "repz", "repnz"}


def fail(msg):
    sys.exit("kprobe_hit_callees.py: error: " + msg)


def branches(lines, arch):
    """Yield ('direct', address) or ('indirect', text) per branch insn."""
    for line in lines:
        m = INSN.match(line)
        if not m:
            continue
        words = m.group(2).split()
        while words and words[0] in PREFIXES:
            words = words[1:]
        if not words:
            continue
        op, rest = words[0], " ".join(words[1:])
        t = TARGET.search(rest)
        if DIRECT[arch].match(op) and t and "*" not in rest:
            if t.group(2).startswith(("__x86_indirect_thunk_", "__SCT__")):
                yield "indirect", rest
            else:
                yield "direct", int(t.group(1), 16)
        elif INDIRECT[arch].match(op) and (arch == "arm64" or "*" in rest):
            yield "indirect", rest


class Symbols:
    """Text symbols of a vmlinux by address (nm -n -S)."""

    def __init__(self, nm_lines):
        self.funcs = []          # (start, size, name), sorted
        self.by_name = {}        # name -> [start, ...] in address order
        self.names = {}          # start -> every name there (aliases)
        self.addr = {}           # any symbol name -> its first address
        for line in nm_lines:
            f = line.split()
            if len(f) == 4 and f[2] in "tTwW":
                start, size = int(f[0], 16), int(f[1], 16)
                if size:
                    self.funcs.append((start, size, f[3]))
                    self.by_name.setdefault(f[3], []).append(start)
                    self.names.setdefault(start, []).append(f[3])
            if len(f) >= 3:
                self.addr.setdefault(f[-1], int(f[0], 16))
        self.funcs.sort()
        self.starts = [s for s, _, _ in self.funcs]

    def at(self, addr):
        """The function containing addr, or None."""
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0 and addr < self.funcs[i][0] + self.funcs[i][1]:
            return self.funcs[i]
        return None


def blacklist(syms, arch, listed):
    """Start addresses of the functions kprobes refuse."""
    refused = set()
    for a in listed:
        f = syms.at(a)
        if f:
            refused.add(f[0])
    for area in AREAS[arch]:
        lo = syms.addr.get("__%s_text_start" % area)
        hi = syms.addr.get("__%s_text_end" % area)
        if lo is None or hi is None:
            continue
        for start, _, _ in syms.funcs:
            if lo <= start < hi:
                refused.add(start)
    # within_kprobe_blacklist(): NAME.suffix goes with NAME's first copy.
    for start, _, name in syms.funcs:
        base = name.split(".")[0]
        if base != name and base in syms.by_name and \
                syms.by_name[base][0] in refused:
            refused.add(start)
    return refused


def jump_labels(base, data):
    """[(site, target)] of a __jump_table dump: struct jump_entry is
    s32 code, s32 target (each relative to itself), long key."""
    out = []
    for i in range(0, len(data) - 15, 16):
        e = data[i:i + 16]
        out.append((base + i + int.from_bytes(e[0:4], "little", signed=True),
                    base + i + 4 + int.from_bytes(e[4:8], "little",
                                                  signed=True)))
    return out


def dump_bytes(dump):
    """(start address, bytes) of an 'objdump -s' dump."""
    start, hexes = None, ""
    for line in dump:
        m = re.match(r"^ ([0-9a-f]+) ((?:[0-9a-f]{2,8} ?){1,4})", line)
        if m:
            if start is None:
                start = int(m.group(1), 16)
            hexes += m.group(2).replace(" ", "")
    return start, bytes.fromhex(hexes)


def le64(data):
    """The little-endian 64-bit words of data."""
    return [int.from_bytes(data[i:i + 8], "little")
            for i in range(0, len(data) - 7, 8)]


def read_table(path, ncols):
    """Lines of FIELD... REASON (first ncols fields, then the reason)."""
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            f = line.split(None, ncols)
            if len(f) <= ncols:
                fail("%s:%d: want %d fields and a reason: %s"
                     % (path, n, ncols, line))
            rows.append(f)
    return rows


def config_holds(config, conds):
    for c in conds.split(","):
        want = not c.startswith("!")
        if (config.get(c.lstrip("!")) in ("y", "m")) != want:
            return False
    return True


def roots_for(rows, series, config):
    """[(name, required)]: rows of config/kprobe-hit-roots that apply."""
    out = []
    for name, rseries, conds, _ in rows:
        if series in rseries.split(","):
            out.append((name, config_holds(config, conds)))
    return out


def walk(roots, callees, boundary):
    """{function start: via} reached from roots; boundaries not expanded."""
    via = {r: None for r in roots}
    todo = list(roots)
    while todo:
        f = todo.pop()
        if f not in roots and boundary(f):
            continue
        for c in callees(f):
            if c not in via:
                via[c] = f
                todo.append(c)
    return via


# struct alt_instr: s32 original, s32 replacement (both relative to the
# field), the feature (u16, x86 since 6.3 u32), u8 original and u8
# replacement length.  arm64 marks a callback entry with bit 15 of its
# feature: its "replacement" is a function run at patch time.
ALT_STRIDES = (12, 14)
ARM64_CB_BIT = 1 << 15


def alternatives(base, data, arch, in_text):
    """[(original, replacement, length)] of an .altinstructions dump."""
    for stride in ALT_STRIDES:
        if len(data) % stride:
            continue
        out = []
        for i in range(0, len(data), stride):
            e = data[i:i + stride]
            orig = base + i + int.from_bytes(e[0:4], "little", signed=True)
            repl = base + i + 4 + int.from_bytes(e[4:8], "little",
                                                 signed=True)
            feature = int.from_bytes(e[8:stride - 2], "little")
            if not in_text(orig):
                break
            if arch == "arm64" and feature & ARM64_CB_BIT:
                continue
            if e[stride - 1]:
                out.append((orig, repl, e[stride - 1]))
        else:
            return out
    fail("cannot read .altinstructions (%d bytes) as %s entries of %s "
         "bytes: struct alt_instr changed? Teach the tool"
         % (len(data), arch, " or ".join(map(str, ALT_STRIDES))))


class Image:
    def __init__(self, vmlinux, arch, objdump, nm):
        self.vmlinux, self.arch, self.objdump = vmlinux, arch, objdump
        self.syms = Symbols(run([nm, "-n", "-S", "--defined-only", vmlinux]))
        if "_text" not in self.syms.addr:
            fail("%s has no _text symbol: not a vmlinux?" % vmlinux)
        # NOKPROBE_SYMBOL()'s addresses, in .init.data in a vmlinux.
        _, table = self.section_range("__start_kprobe_blacklist",
                                      "__stop_kprobe_blacklist")
        self.refused = blacklist(self.syms, arch, le64(table))
        self.indirect = {}
        self.jumps = sorted(jump_labels(*self.section_range(
            "__start___jump_table", "__stop___jump_table")))
        funcs = self.syms.funcs
        lo, hi = funcs[0][0], funcs[-1][0] + funcs[-1][1]
        base, data = dump_bytes(run([objdump, "-s", "-j", ".altinstructions",
                                     vmlinux], check=False))
        self.alts = sorted(alternatives(base, data, arch,
                                        lambda a: lo <= a < hi)) \
            if data else []

    def section_range(self, first, last):
        """(address, bytes) between the symbols first and last."""
        lo, hi = self.syms.addr.get(first), self.syms.addr.get(last)
        if lo is None or hi is None:
            fail("%s has no %s and %s: built without CONFIG_KPROBES?"
                 % (self.vmlinux, first, last))
        if hi <= lo:
            return lo, b""
        return lo, dump_bytes(run([self.objdump, "-s",
                                   "--start-address=%#x" % lo,
                                   "--stop-address=%#x" % hi,
                                   self.vmlinux]))[1]

    def disassemble(self, start, stop):
        return run([self.objdump, "-d", "--no-show-raw-insn",
                    "--start-address=%#x" % start,
                    "--stop-address=%#x" % stop, self.vmlinux])

    def callees(self, start):
        """Functions start branches to: its code's direct branches, its
        alternatives' replacements' and its jump labels' targets."""
        f = self.syms.at(start)
        out = self.disassemble(f[0], f[0] + f[1])
        repls = []
        i = bisect.bisect_left(self.alts, (f[0],))
        while i < len(self.alts) and self.alts[i][0] < f[0] + f[1]:
            _, repl, size = self.alts[i]
            out += self.disassemble(repl, repl + size)
            repls.append((repl, repl + size))
            i += 1
        targets = []
        for kind, x in branches(out, self.arch):
            if kind == "indirect":
                self.indirect.setdefault(start, []).append(x)
            elif not any(a <= x < b for a, b in repls):
                targets.append(x)
        i = bisect.bisect_left(self.jumps, (f[0],))
        while i < len(self.jumps) and self.jumps[i][0] < f[0] + f[1]:
            targets.append(self.jumps[i][1])
            i += 1
        found = []
        for x in targets:
            g = self.syms.at(x)
            if g is None:
                fail("%s branches to %#x, in no function symbol with a "
                     "size: an assembler function without .size? Give it "
                     "SYM_FUNC_END() or teach the tool" % (f[2], x))
            if g[0] != start and g[0] not in found:
                found.append(g[0])
        return found


def run(cmd, check=True):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        fail("%s not found: run 'make deps' (binutils, the arch's cross "
             "binutils)" % cmd[0])
    if check and p.returncode:
        fail("%s failed: %s" % (" ".join(cmd), p.stderr.strip()))
    return p.stdout.splitlines()


def read_config(path):
    config = {}
    try:
        with open(path) as f:
            for line in f:
                k, eq, v = line.strip().partition("=")
                if eq and not k.startswith("#"):
                    config[k] = v
    except OSError:
        fail("cannot read %s: give --config the build's .config" % path)
    return config


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("vmlinux")
    ap.add_argument("--arch", required=True, choices=sorted(AREAS))
    ap.add_argument("--series", required=True)
    ap.add_argument("--roots", required=True)
    ap.add_argument("--harmless", required=True)
    ap.add_argument("--indirect", required=True)
    ap.add_argument("--config", help="the build's .config (VMLINUX's dir)")
    ap.add_argument("--objdump", default="objdump")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a reached function is probeable "
                    "and not harmless")
    a = ap.parse_args(argv)
    config = read_config(a.config or os.path.join(
        os.path.dirname(a.vmlinux), ".config"))
    img = Image(a.vmlinux, a.arch, a.objdump, a.nm)
    syms = img.syms
    harmless = read_table(a.harmless, 1)
    indirect = read_table(a.indirect, 1)

    def why(table, start):
        for pat, reason in table:
            for name in syms.names[start]:
                if fnmatch.fnmatchcase(name, pat):
                    return reason
        return None

    def why_harmless(start):
        return why(harmless, start)

    roots = []
    for name, required in roots_for(read_table(a.roots, 3), a.series,
                                    config):
        if name in syms.by_name:
            roots.extend(syms.by_name[name])
        elif required:
            fail("root %s of series %s is not a function of %s although "
                 "its config holds: renamed or inlined? Correct %s"
                 % (name, a.series, a.vmlinux, a.roots))
    if not roots:
        fail("no root of series %s in %s: is it that series' kernel, "
             "with CONFIG_KRETPROBES?" % (a.series, a.vmlinux))
    via = walk(roots, img.callees, lambda f: why_harmless(f) is not None)

    def chain(f):
        names = []
        while f is not None:
            names.append(syms.at(f)[2])
            f = via[f]
        return ">".join(reversed(names))

    text = syms.addr["_text"]
    bad = []
    print("# %s: the functions a kretprobe/rethook/fprobe hit can call "
          "(scripts/lib/kprobe_hit_callees.py)" % a.vmlinux)
    print("# NAME OFFSET-FROM-_text VERDICT VIA")
    for f in sorted(via, key=lambda f: syms.at(f)[2]):
        name = syms.at(f)[2]
        reason = why_harmless(f)
        if reason:
            print("# harmless %s %#x via %s: %s"
                  % (name, f - text, chain(f), reason))
            continue
        verdict = "refused" if f in img.refused else "probeable"
        if verdict == "probeable":
            bad.append(name)
        print("%s %#x %s %s" % (name, f - text, verdict, chain(f)))
    unreviewed = []
    for f, calls in sorted(img.indirect.items(),
                           key=lambda x: syms.at(x[0])[2]):
        if why_harmless(f):
            continue
        name, reason = syms.at(f)[2], why(indirect, f)
        sites = "%d site(s) (%s)" % (len(calls), "; ".join(sorted(set(calls))))
        if reason:
            print("# indirect %s: %s: %s" % (name, sites, reason))
        else:
            print("# unreviewed-indirect %s: %s" % (name, sites))
            unreviewed.append(name)
    if bad:
        print("kprobe_hit_callees.py: %d reached function(s) kprobes accept: "
              "%s; make each refuse kprobes (NOKPROBE_SYMBOL, "
              "__always_inline) or add it with its reason to %s"
              % (len(bad), " ".join(bad), a.harmless), file=sys.stderr)
    if unreviewed:
        print("kprobe_hit_callees.py: indirect calls in %s: say where they "
              "go in %s" % (" ".join(unreviewed), a.indirect),
              file=sys.stderr)
    return 1 if (bad or unreviewed) and a.check else 0


if __name__ == "__main__":
    sys.exit(main())
