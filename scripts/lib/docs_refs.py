#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the docs and comments name only things that exist.

Usage: docs_refs.py [--root DIR] [--help-text FILE] FILE...

Reads each FILE (a document, or a script or config file of which only the
comment lines are read) and prints one TAP case per FILE:

  - every path of the repository it names (a word starting with one of
    TOP_DIRS, or a Markdown link target, whose #anchor must be a heading)
    exists, relative to the root or
    to the file's own directory; an upper-case segment (NAME, ARCH), a
    <placeholder>, {a,b} or * stands for any name and needs one match;
  - every 'make TARGET' names a target of the root's Makefile;
  - every VAR= written on a make command line is a variable 'make help'
    lists (the text of --help-text, or 'make -s help' run in the root);
  - every 'README, "Section"', 'harness.md, "Section"' or 'design.md,
    "Section"' names a heading of that document, also when a line break
    falls inside;
  - every benchmark named after "config/benches" is a line of it;
  - every settings file named by its name alone (NAME.env) is the name of
    a file of the repository;
  - every patch named by number names its series ("series-NAME patch N",
    "the NAME series' patch N"; in series-NAME/ itself, "patch N" alone),
    which has that patch; a kernel file named on the same line that the
    series touches is one that patch touches;
  - a series' README (series-NAME/README) that lists its patches, a
    numbered list (' N. ' items) after the paragraph that starts "The
    patches", has an item per patch of series-NAME/patches/, 1 to their
    count, in order;
  - every path under build/ starts with a series' build directory (the
    SERIES_BUILD of a series.env) or with what a script writes under $BUILD
    itself (guest-bin, bench...); a placeholder stands for any;
  - every environment variable a script reads with a default
    (${NAME:-...}, os.environ.get("NAME")) is one 'make help' lists, but
    a series' settings (SERIES_*), an arch's facts (ARCH_*) and the
    system's own (HOME, PATH, TMPDIR).

Exit status 0 when every case passes, 1 otherwise.
"""
import argparse
import fnmatch
import glob
import os
import re
import subprocess
import sys

TOP_DIRS = ("scripts/", "config/", "guest/", "patches/", "cover/", "expect/",
            "model/", "docs/", "results/", "series-", "bench-kernels/", "mutants/")
PATH_RE = re.compile(r"(?<![\w./-])((?:%s)[\w./<>*{},+\[\]-]*)" %
                     "|".join(re.escape(d) for d in TOP_DIRS))
LINK_RE = re.compile(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)")
# 'make TARGET' as a command: at the start of a line or a code span, in
# quotes, or after a shell separator: not the English verb.
MAKE_RE = re.compile(r"(?:^\s*(?:[#*/$>]+\s*)?|[`'\"(]|&&\s*|;\s*|\$\s+)"
                     r"(?:[A-Z][A-Z0-9_]*=\S+\s+)*make((?:\s+[A-Z][A-Z0-9_]*=\S*)*)\s+"
                     r"([a-z][a-z0-9-]*)\b((?:\s+[A-Z][A-Z0-9_]*=\S*)*)")
ENV_MAKE_RE = re.compile(r"((?:[A-Z][A-Z0-9_]*=\S+\s+)+)make\s+[a-z]")
VAR_RE = re.compile(r"([A-Z][A-Z0-9_]*)=")
SECTION_RE = re.compile(r"(README(?:\.md)?|harness\.md|design\.md)[,:]?\s+\"([^\"]+)\"")
SECTION_DOCS = {"README": "README.md", "harness.md": "docs/harness.md",
                "design.md": "docs/design.md"}
COMMENT_MARK = re.compile(r"^\s*(?:#+|//|/\*+|\*+)\s?")
BENCH_RE = re.compile(r"config/benches'?,?\s+(?:line\s+)?([a-z][a-z0-9.-]*-"
                      r"[a-z0-9.-]*[a-z0-9])")
BUILD_RE = re.compile(r"(?<![\w./<>$-])build/([\w.<>*{},+/-]*[\w>*}])")
PATCH_REF_RE = re.compile(r"(?:\bseries-(\d[\w.-]*\w) |\bthe (\d[\w.-]*\w) series' )?"
                          r"\b[Pp]atch (\d+)\b(?!/)")
KERNEL_FILE_RE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)+[\w.-]+\.(?:c|h|rst|S))\b")
ENV_FILE_RE = re.compile(r"(?<![\w./-])([\w.-]+\.env)\b")
READ_RE = re.compile(r"\$\{([A-Z][A-Z0-9_]*):?-|environ\.get\(\s*[\"']([A-Z][A-Z0-9_]*)")
INTERNAL_VARS = re.compile(r"^(SERIES_(?!LIST$)|ARCH_)|^(HOME|PATH|TMPDIR|PWD|CI)$")
COMMENT_FILES = (".sh", ".py", ".env", ".config", "Makefile", "Kbuild",
                 "gates", "benches", "flavors", "post-build-gates", "init",
                 "run-suites", ".c", ".h")
# Words of the make command lines in docs that are not this Makefile's:
# the kernel's own targets and tools run as 'make -C DIR ...'.
OTHER_MAKES = {"install", "all", "modules", "help", "run_tests", "defconfig",
               "htmldocs", "prepare", "olddefconfig"}
# The kernel tree's own scripts, which harness comments name by their path
# in the tree.
KERNEL_PATHS = {"scripts/checkpatch.pl", "scripts/kernel-doc",
                "scripts/get_maintainer.pl", "scripts/config",
                "scripts/kconfig/merge_config.sh", "scripts/decode_stacktrace.sh"}


def in_guest(path):
    """PATH is a file of guest/ (the guest's scripts, most without an
    extension), named relative to the root or not."""
    return "/guest/" in "/" + path.replace(os.sep, "/")


def text_of(path):
    """The text to read: a document whole, a source file's comments."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    if not path.endswith(COMMENT_FILES) and not in_guest(path):
        return lines
    out = []
    for line in lines:
        s = line.strip()
        if s.startswith(("#", "//", "/*", "*")) and not s.startswith("#!"):
            out.append(s)
        else:
            m = re.search(r"\s(#|//)\s.*", line)
            if m:
                out.append(m.group(0).strip())
    return out


def as_glob(word):
    segs = []
    for seg in word.split("/"):
        seg = re.sub(r"<[^>]*>", "*", seg)
        seg = re.sub(r"\{[^}]*\}", "*", seg)
        seg = re.sub(r"(?<![a-z])[A-Z][A-Z0-9_]*(?![a-z])", "*", seg)
        segs.append(seg)
    return "/".join(segs)


def path_exists(word, root, here):
    if not word or word.startswith("build/") or word in KERNEL_PATHS:
        return True
    if word.endswith(".ko"):    # a module built from NAME.c or NAME_main.c
        stem = word[:-3]
        return any(os.path.exists(os.path.join(root, stem + s))
                   for s in (".c", "_main.c"))
    if word.endswith(("-", "/*")) and "/" not in word.rstrip("/*-"):
        return True
    for base in (root, here):
        pattern = os.path.join(base, as_glob(word))
        if glob.glob(pattern) or glob.glob(pattern.rstrip("/")):
            return True
    return False


def headings(path):
    try:
        with open(path, encoding="utf-8") as f:
            return {re.sub(r"^#+\s*", "", l).strip()
                    for l in f if l.startswith("#")}
    except OSError:
        return set()


def slug(heading):
    """The anchor GitHub gives a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def targets(root):
    out = set()
    with open(os.path.join(root, "Makefile"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([a-z][a-z0-9-]*)\s*:", line)
            if m:
                out.add(m.group(1))
    return out


def benches(root):
    out = set()
    with open(os.path.join(root, "config/benches"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.lstrip().startswith("#"):
                out.add(line.split("|")[0].strip())
    return out


def build_entries(root):
    """What may follow build/: each series' build directory (SERIES_BUILD of
    series-*/series.env and bench-kernels/*/series.env) and what the scripts
    write under $BUILD themselves, as shell glob patterns."""
    out = set()
    for env in glob.glob(os.path.join(root, "series-*", "series.env")) + \
            glob.glob(os.path.join(root, "bench-kernels", "*", "series.env")):
        with open(env, encoding="utf-8") as f:
            m = re.search(r"^SERIES_BUILD=build/([^/\s]+)", f.read(), re.M)
            if m:
                out.add(m.group(1))
    for script in glob.glob(os.path.join(root, "scripts", "**", "*.sh"), recursive=True):
        with open(script, encoding="utf-8", errors="replace") as f:
            for m in re.finditer(r"\$BUILD/([\w.${}-]+)", f.read()):
                out.add(re.sub(r"\$\{?\w+\}?", "*", m.group(1)))
    return out


def build_path_exists(seg, entries):
    """SEG, the first segment after build/, is one of ENTRIES, or a
    placeholder (SERIES, <name>, *) that may be one: 'ARCH-test' may not."""
    pattern = as_glob(seg)
    return any(fnmatch.fnmatchcase(e, pattern) or fnmatch.fnmatchcase(seg, e) or e == pattern
               for e in entries)


def series_patches(root):
    """{series: [the files each patch touches]}, from series-NAME/patches/."""
    out = {}
    for d in glob.glob(os.path.join(root, "series-*", "patches")):
        files = []
        for patch in sorted(glob.glob(os.path.join(d, "[0-9][0-9][0-9][0-9]-*.patch"))):
            if os.path.basename(patch).startswith("0000-"):
                continue
            with open(patch, encoding="utf-8", errors="replace") as f:
                files.append(set(re.findall(r"^diff --git a/(\S+) b/", f.read(), re.M)))
        out[os.path.basename(os.path.dirname(d))[len("series-"):]] = files
    return out


def patch_ref_problems(line, own, patches):
    """What is wrong with the patch numbers LINE names (OWN: the series of
    the file it is in, or None)."""
    problems = []
    for m in PATCH_REF_RE.finditer(line):
        name, n = m.group(1) or m.group(2) or own, int(m.group(3))
        if name is None:
            problems.append("patch %d of which series? write series-NAME patch %d" % (n, n))
            continue
        files = patches.get(name)
        if files is None:
            problems.append("patch %d: there is no series-%s/patches/" % (n, name))
            continue
        if not 1 <= n <= len(files):
            problems.append("series-%s has %d patches: no patch %d" % (name, len(files), n))
            continue
        touched = set().union(*files)
        for f in KERNEL_FILE_RE.findall(line):
            if f in touched and f not in files[n - 1]:
                by = [str(i + 1) for i, s in enumerate(files) if f in s]
                problems.append("series-%s patch %d does not touch %s (patch %s does)" %
                                (name, n, f, ", ".join(by)))
    return problems


LIST_ITEM_RE = re.compile(r"^ {0,2}(\d+)\. ")


def patch_list_problems(lines, name, patches):
    """What is wrong with the list of patches of series NAME's README
    (LINES): the numbered list after the paragraph that starts "The
    patches" must number that series' patches, one item each, in order."""
    start = next((i for i, l in enumerate(lines) if l.startswith("The patches")), None)
    if start is None or name not in patches:
        return []
    i = start
    while i < len(lines) and lines[i].strip():      # the paragraph
        i += 1
    while i < len(lines) and not lines[i].strip():  # the blank lines after it
        i += 1
    items = []
    while i < len(lines) and lines[i].strip():      # the list
        m = LIST_ITEM_RE.match(lines[i])
        if m:
            items.append(int(m.group(1)))
        i += 1
    count = len(patches[name])
    if items == list(range(1, count + 1)):
        return []
    return ["line %d: its list of the patches has items %s, series-%s has %d patches: "
            "an item per patch, 1 to %d, in order" %
            (start + 1, ", ".join(map(str, items)) or "none", name, count, count)]


def env_files(root):
    """The names of the repository's settings files (*.env)."""
    names = set()
    for top, dirs, files in os.walk(root):
        # build/ holds kernel trees, not the repository's files: not walked.
        dirs[:] = [d for d in dirs if d not in ("build", ".git")]
        names.update(f for f in files if f.endswith(".env"))
    return names


def check_file(path, root, tgts, helptext, bench_names, env_names=None, build_names=None,
               patches=None):
    problems = []
    here = os.path.dirname(path)
    own = re.match(r"series-([^/]+)/", os.path.relpath(os.path.abspath(path), root))
    for n, line in enumerate(text_of(path), 1):
        where = "line %d" % n if not path.endswith(COMMENT_FILES) else "comment"
        if patches is not None:
            problems += ["%s: %s" % (where, p)
                         for p in patch_ref_problems(line, own and own.group(1), patches)]
        for m in PATH_RE.finditer(line):
            word = m.group(1).rstrip(".,:;'`)")
            while word.endswith("]") and word.count("]") > word.count("["):
                word = word[:-1].rstrip(".,:;'`)")
            if not path_exists(word, root, here):
                problems.append("%s: path %s does not exist" % (where, word))
        for m in BUILD_RE.finditer(line):
            seg = m.group(1).split("/")[0].rstrip(".,:;'`)")
            if build_names is not None and seg and not build_path_exists(seg, build_names):
                problems.append("%s: path build/%s is no build directory: build/ holds "
                                "a series' (SERIES_BUILD of its series.env) or what the "
                                "scripts write under $BUILD: %s" %
                                (where, m.group(1).rstrip(".,:;'`)"), " ".join(sorted(build_names))))
        for m in LINK_RE.finditer(line):
            t, anchor = m.group(1), m.group(2)
            if "://" in t or t.startswith("mailto:"):
                continue
            target = os.path.join(here, t) if t else path
            if not os.path.exists(target):
                problems.append("%s: link %s does not resolve" % (where, t))
            elif anchor and target.endswith(".md") and \
                    anchor not in {slug(h) for h in headings(target)}:
                problems.append("%s: link %s#%s: no such heading" % (where, t, anchor))
        for m in MAKE_RE.finditer(line):
            if line[max(0, m.start() - 1):m.start()] == "-" or \
                    re.match(r"\s+-C", line[m.end(1):]):
                continue
            t = m.group(2)
            if t in OTHER_MAKES:
                continue
            if t not in tgts:
                problems.append("%s: 'make %s' is no target" % (where, t))
            for v in VAR_RE.findall(m.group(1) + m.group(3)):
                if not re.search(r"\b%s\b" % v, helptext):
                    problems.append("%s: %s= is not in make help" % (where, v))
        for m in ENV_MAKE_RE.finditer(line):
            for v in VAR_RE.findall(m.group(1)):
                if not re.search(r"\b%s\b" % v, helptext):
                    problems.append("%s: %s= is not in make help" % (where, v))
        for m in BENCH_RE.finditer(line):
            if m.group(1) not in bench_names:
                problems.append("%s: benchmark %s is not in config/benches" %
                                (where, m.group(1)))
        for m in ENV_FILE_RE.finditer(line):
            if env_names is not None and m.group(1) not in env_names:
                problems.append("%s: settings file %s does not exist" % (where, m.group(1)))
    readme = re.search(r"(?:^|/)series-([^/]+)/README$", path.replace(os.sep, "/"))
    if readme and patches is not None:
        problems += patch_list_problems(text_of(path), readme.group(1), patches)
    # A section may be cited across a wrapped line: read the text whole.
    whole = " ".join(COMMENT_MARK.sub("", line) for line in text_of(path))
    for m in SECTION_RE.finditer(re.sub(r"\s+", " ", whole)):
        doc = os.path.join(root, SECTION_DOCS[m.group(1).replace(".md", "")
                                              if m.group(1).startswith("README") else m.group(1)])
        if m.group(2) not in headings(doc):
            problems.append('%s has no section "%s"' % (os.path.relpath(doc, root), m.group(2)))
    if (path.endswith((".sh", ".py")) or in_guest(path)) and \
            os.path.abspath(path) != os.path.abspath(__file__):
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read()
        for m in READ_RE.finditer(src):
            v = m.group(1) or m.group(2)
            if not INTERNAL_VARS.search(v) and not re.search(r"\b%s\b" % v, helptext):
                problems.append("reads %s, which make help does not list" % v)
    return sorted(set(problems), key=problems.index)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--help-text", help="make help's output (default: run it)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    if a.help_text:
        with open(a.help_text, encoding="utf-8") as f:
            helptext = f.read()
    else:
        helptext = subprocess.run(["make", "-s", "-C", root, "help"],
                                  capture_output=True, text=True).stdout
    tgts, bench_names, env_names = targets(root), benches(root), env_files(root)
    build_names, patches = build_entries(root), series_patches(root)
    print("TAP version 13")
    print("1..%d" % len(a.files))
    status = 0
    for i, path in enumerate(a.files, 1):
        rel = os.path.relpath(path, root)
        problems = check_file(path, root, tgts, helptext, bench_names, env_names, build_names,
                              patches)
        if problems:
            status = 1
            print("not ok %d - %s" % (i, rel))
            for p in problems:
                print("# %s: %s" % (rel, p))
        else:
            print("ok %d - %s" % (i, rel))
    return status


if __name__ == "__main__":
    sys.exit(main())
