#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Ties the pool's ordering operations to the litmus tests that prove them.

Usage: barrier_tags.py check SRC LITMUS   (SRC: a kernel tree or a copy
                                           holding lib/objpool.c and
                                           include/linux/objpool.h)
       barrier_tags.py controls SRC LITMUS
       barrier_tags.py --self-test

A tag "[litmus: T+V]" in the comment just above a statement of the pool
says: litmus test T (LITMUS/T.litmus, "Result: Never") forbids its
outcome with this operation as it is, and T+V ("Variant of: T",
"Result: Sometimes") is T with this one operation weakened or removed.
'check' prints one line per finding, "ok   NAME: ..." or "FAIL NAME: ...":

  tag/T+V        the variant exists, names T, differs from it in one line,
                 and the statement after the tag still has what that
                 line of T has (the acquire, the fully ordered cmpxchg,
                 the release, the barrier, the re-read of @head, or the
                 slot's address dependency on @head)
  untagged       every ordering operation of the two files (acquire,
                 release, smp_mb*(), cmpxchg, xchg) is under a tag
  cited/T        every litmus test is cited: a variant by a tag, a Never
                 test through at least one cited Sometimes variant

herd7's verdicts (T Never, T+V Sometimes) are litmus/check.sh's job; the
gate (scripts/gates/barriers.sh) runs both.

'controls' applies, to a copy of SRC, each tagged operation's weakening
(the code as its variant is) and the three mutants an audit found
surviving every other check, one at a time, and reruns 'check' on the
copy: each must fail by the named finding. It prints "ok   control/NAME"
when it does, "FAIL control/NAME" when the copy passes.
"""
import os
import re
import shutil
import sys
import tempfile

FILES = ("include/linux/objpool.h", "lib/objpool.c")
TAG = re.compile(r"\[litmus: ([a-z0-9][a-z0-9_.+-]*)\]")
# Operations that order memory: each must be under a tag.
ORDERING = re.compile(
    r"\b(smp_load_acquire|smp_store_release|smp_mb\w*|smp_[rw]mb|"
    r"\w*cmpxchg\w*|xchg\w*|\w+_acquire|\w+_release)\s*\(")
# Litmus variable -> the code's operand.
OPERAND = {"head": r"ring->head", "tail": r"ring->tail",
           "slot": r"ring->slots\[", "avail": r"pool->avail"}


def litmus_code(path):
    """The test's code lines: no name line, comments, indentation."""
    out, skip = [], False
    with open(path) as f:
        lines = f.read().split("\n")[1:]
    for line in lines:
        if line.startswith("(*"):
            skip = True
        if skip:
            if "*)" in line:
                skip = False
            continue
        line = re.sub(r"/\*.*\*/", "", line).strip()
        if line:
            out.append(line)
    return out


def litmus_field(path, field):
    with open(path) as f:
        m = re.search(r"^ \* %s: (\S+)" % field, f.read(), re.M)
    return m.group(1) if m else None


def one_change(litmus, variant):
    """(parent, old line of the parent) of a variant, or raises ValueError."""
    path = os.path.join(litmus, variant + ".litmus")
    if not os.path.isfile(path):
        raise ValueError("no %s.litmus" % variant)
    parent = litmus_field(path, "Variant of")
    if not parent:
        raise ValueError("%s has no \"Variant of:\" line" % variant)
    ppath = os.path.join(litmus, parent + ".litmus")
    if not os.path.isfile(ppath):
        raise ValueError("%s is a variant of %s, which does not exist" % (variant, parent))
    a, b = litmus_code(ppath), litmus_code(path)
    import difflib
    old = [l[1:] for l in difflib.ndiff(a, b) if l.startswith("- ")]
    new = [l[1:] for l in difflib.ndiff(a, b) if l.startswith("+ ")]
    if len(old) != 1 or len(new) > 1:
        raise ValueError("%s differs from %s in %d lines removed and %d added, not one operation"
                         % (variant, parent, len(old), len(new)))
    if litmus_field(ppath, "Result") != "Never":
        raise ValueError("%s, which %s weakens, does not say \"Result: Never\"" % (parent, variant))
    if litmus_field(path, "Result") != "Sometimes":
        raise ValueError("%s does not say \"Result: Sometimes\": it guards nothing" % variant)
    return parent, old[0].strip(), (new[0].strip() if new else None), a


def requirement(old, parent_code):
    """What the code must have for the line OLD of a test: (regex, words)."""
    regs = dict(re.findall(r"\b(r\d+) = (\w+)\b", " ".join(parent_code)))

    def operand(arg):
        arg = arg.strip().lstrip("*&")
        arg = regs.get(arg, arg)
        return OPERAND.get(arg, re.escape(arg))
    m = re.search(r"\b(smp_load_acquire|smp_store_release|cmpxchg|cmpxchg_release)\(([^,)]*)", old)
    if m:
        op, arg = m.groups()
        if op == "cmpxchg":
            return (r"\b(try_)?cmpxchg\(&?%s" % operand(arg), "a fully ordered cmpxchg of %s" % arg)
        if op == "cmpxchg_release":
            # A release or a fully ordered cmpxchg: both are at least it.
            return (r"\b(try_)?cmpxchg(_release)?\(&?%s" % operand(arg),
                    "a cmpxchg of %s with release or stronger" % arg)
        return (r"\b%s\(&?%s" % (op, operand(arg)), "%s() of %s" % (op, arg))
    if re.search(r"\bsmp_mb__after_atomic\(\)", old):
        return (r"\bsmp_mb__after_atomic\(\)", "smp_mb__after_atomic()")
    m = re.search(r"\bREAD_ONCE\(\*?(\w+)\)", old)
    if m:
        return (r"\bREAD_ONCE\(%s\)" % operand(m.group(1)), "a read of %s" % m.group(1))
    m = re.search(r"\b(\w+) \+ \((r\d+) & 0\)", old)
    if m:
        # The slot's address computed from the value of a read of @head.
        return (r"%shead\b" % operand(m.group(1)), "the %s's address dependency on @head" % m.group(1))
    raise ValueError("no rule for the line \"%s\"" % old)


def comment_spans(text):
    return [(m.start(), m.end()) for m in re.finditer(r"/\*.*?\*/", text, re.S)]


def tagged_statements(text):
    """(line, tags, start, end, statement) for each comment with tags."""
    out = []
    for m in re.finditer(r"/\*.*?\*/", text, re.S):
        tags = TAG.findall(m.group(0))
        if not tags:
            continue
        end = text.find(";", m.end())
        out.append((text.count("\n", 0, m.start()) + 1, tags, m.end(), end + 1,
                    text[m.end():end + 1]))
    return out


def check(src, litmus):
    """The findings, as (ok, name, text)."""
    res = []
    cited = set()
    texts = {}
    for rel in FILES:
        with open(os.path.join(src, rel)) as f:
            texts[rel] = f.read()
    spans = {rel: [] for rel in FILES}
    for rel, text in texts.items():
        for line, tags, start, end, stmt in tagged_statements(text):
            spans[rel].append((start, end))
            code = " ".join(stmt.split())
            for t in tags:
                cited.add(t)
                try:
                    parent, old, new, pcode = one_change(litmus, t)
                    cited.add(parent)
                    regex, words = requirement(old, pcode)
                except ValueError as e:
                    res.append((False, "tag/" + t, "%s:%d: %s" % (rel, line, e)))
                    continue
                if re.search(regex, code):
                    res.append((True, "tag/" + t, "%s:%d: \"%s\" has %s, the line \"%s\" of %s that %s %s"
                                % (rel, line, code, words, old, parent, t,
                                   "turns into \"%s\"" % new if new else "removes")))
                else:
                    res.append((False, "tag/" + t, "%s:%d: the statement after the tag, \"%s\", lacks %s (\"%s\" in %s): weakened or moved away from its tag"
                                % (rel, line, code, words, old, parent)))
    untagged = []
    for rel, text in texts.items():
        comments = comment_spans(text)
        for m in ORDERING.finditer(text):
            p = m.start()
            if any(a <= p < b for a, b in comments):
                continue
            if text[:p].rstrip().endswith("#define") or re.match(r"\w+\s*\(", text[p:]) and \
               re.search(r"^\s*(static|void|int|bool)\b[^;{]*$", text[text.rfind("\n", 0, p) + 1:p]):
                continue
            if not any(a <= p < b for a, b in spans[rel]):
                untagged.append("%s:%d %s()" % (rel, text.count("\n", 0, p) + 1, m.group(1)))
    if untagged:
        res.append((False, "untagged", "ordering operations under no [litmus: ...] tag: " + ", ".join(untagged)))
    else:
        res.append((True, "untagged", "every ordering operation of %s is under a tag" % " and ".join(FILES)))
    tests = sorted(f[:-len(".litmus")] for f in os.listdir(litmus) if f.endswith(".litmus"))
    for t in tests:
        if t in cited:
            res.append((True, "cited/" + t, "cited by a tag" if "+" in t else "its variants are cited"))
        elif "+" in t:
            res.append((False, "cited/" + t, "no operation's tag names it: tag the operation it weakens, or remove it"))
        else:
            res.append((False, "cited/" + t, "no tag names a variant of it: it guards no operation of the code"))
    return res


def print_findings(res):
    for ok, name, text in res:
        print("%s %s: %s" % ("ok  " if ok else "FAIL", name, text))
    return all(ok for ok, _, _ in res)


# Each tagged operation weakened as its variant is: (regex, replacement).
WEAKEN = [
    (r"smp_load_acquire\(&(ring->slots\[)", r"READ_ONCE(\1"),
    (r"try_cmpxchg\(", r"try_cmpxchg_relaxed("),
    (r"try_cmpxchg_release\(", r"try_cmpxchg_relaxed("),
    (r"smp_store_release\(&", r"WRITE_ONCE("),
    (r"\n\s*smp_mb__after_atomic\(\);", ""),
    (r"ring->slots\[head & ring->mask\]", r"ring->slots[READ_ONCE(ring->tail) & ring->mask]"),
]
# The mutants an audit found surviving every gate: (name, file, old, new,
# the finding that must fail, why).
SURVIVORS = [
    ("head-acquire-once", "include/linux/objpool.h",
     "head = smp_load_acquire(&ring->head);", "head = READ_ONCE(ring->head);", None,
     "not a bug: the code reads @head with READ_ONCE(), as herd7 proves enough "
     "(objpool-head: Never, with the slot's address dependency on @head); "
     "what the read relies on is the dependency, tag/objpool-head+no-dep"),
    ("thief-no-mb", "lib/objpool.c",
     "\tsmp_mb__after_atomic();\n", "", "tag/objpool-avail+no-mb",
     "herd7 only: on x86 clear_bit() is a full barrier, so no run can show it; "
     "objpool-avail+no-mb is Sometimes"),
    ("empty-no-reread", "include/linux/objpool.h",
     "\t\tnext = READ_ONCE(ring->head);\n\t\tif (next == head)\n\t\t\treturn NULL;\n\t\thead = next;\n",
     "\t\treturn NULL;\n", "tag/objpool-empty+no-reread",
     "also herd7 (objpool-empty+no-reread: Sometimes) and the spin model"),
]


def copy_src(src, dst):
    for rel in FILES:
        os.makedirs(os.path.join(dst, os.path.dirname(rel)), exist_ok=True)
        shutil.copy(os.path.join(src, rel), os.path.join(dst, rel))


def run_control(src, litmus, name, edit, want):
    """Applies EDIT to a copy, checks it; the line saying whether WANT failed."""
    with tempfile.TemporaryDirectory() as tmp:
        copy_src(src, tmp)
        if not edit(tmp):
            return False, "control/%s: the mutant does not apply to the code" % name
        bad = [n for ok, n, _ in check(tmp, litmus) if not ok]
    if want in bad:
        return True, "control/%s: caught by %s" % (name, want)
    return False, "control/%s: the mutated copy passed %s (failed: %s)" % (name, want, ", ".join(bad) or "nothing")


def controls(src, litmus):
    ok_all = True
    out = []
    for rel in FILES:
        with open(os.path.join(src, rel)) as f:
            text = f.read()
        for line, tags, start, end, stmt in tagged_statements(text):
            for t in tags:
                for regex, repl in WEAKEN:
                    new = re.sub(regex, repl, stmt, count=1)
                    if new != stmt:
                        try:
                            r, _ = requirement(one_change(litmus, t)[1], one_change(litmus, t)[3])
                        except ValueError:
                            continue
                        if re.search(r, " ".join(new.split())):
                            continue  # this weakening is another tag's
                        break
                else:
                    if t == "objpool-empty+no-reread":
                        continue  # its control is the survivor below
                    out.append((False, "control/%s: no weakening of \"%s\" known" % (t, " ".join(stmt.split()))))
                    continue

                def edit(tmp, rel=rel, start=start, end=end, new=new):
                    p = os.path.join(tmp, rel)
                    with open(p) as f:
                        s = f.read()
                    with open(p, "w") as f:
                        f.write(s[:start] + new + s[end:])
                    return True
                out.append(run_control(src, litmus, t, edit, "tag/" + t))
    for name, rel, old, new, want, why in SURVIVORS:
        if want is None:
            with open(os.path.join(src, rel)) as f:
                has = new in f.read()
            out.append((has, "control/%s: %s" % (name, why) if has else
                        "control/%s: the code no longer reads @head with READ_ONCE(): re-check objpool-head" % name))
            continue

        def edit(tmp, rel=rel, old=old, new=new):
            p = os.path.join(tmp, rel)
            with open(p) as f:
                s = f.read()
            if old not in s:
                return False
            with open(p, "w") as f:
                f.write(s.replace(old, new, 1))
            return True
        ok, line = run_control(src, litmus, name, edit, want)
        out.append((ok, line + ("; " + why if ok else "")))
    # An untagged barrier is refused; an uncited test is refused.

    def untag(tmp):
        p = os.path.join(tmp, "lib/objpool.c")
        with open(p) as f:
            s = f.read()
        with open(p, "w") as f:
            f.write(s.replace("\tclear_bit(cpu, pool->avail);\n", "\tsmp_rmb();\n\tclear_bit(cpu, pool->avail);\n", 1))
        return True
    out.append(run_control(src, litmus, "untagged-barrier", untag, "untagged"))
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(litmus, tmp + "/litmus")
        with open(tmp + "/litmus/objpool-extra.litmus", "w") as f:
            f.write("C objpool-extra\n\n(*\n * Result: Never\n *)\n")
        bad = [n for ok, n, _ in check(src, tmp + "/litmus") if not ok]
        out.append(("cited/objpool-extra" in bad, "control/uncited-test: %s" %
                    ("caught by cited/objpool-extra" if "cited/objpool-extra" in bad else "an uncited test passed")))
    for ok, line in out:
        print("%s %s" % ("ok  " if ok else "FAIL", line))
        ok_all &= ok
    return ok_all


def self_test():
    assert requirement("r1 = smp_load_acquire(r7);", ["r7 = slot + (r0 & 0);"])[0] == r"\bsmp_load_acquire\(&?ring->slots\["
    assert requirement("r0 = cmpxchg(tail, 0, 1);", [])[0] == r"\b(try_)?cmpxchg\(&?ring->tail"
    assert re.search(requirement("r1 = cmpxchg_release(head, 0, 1);", [])[0],
                     "try_cmpxchg_release(&ring->head, &head, head + 1)")
    assert not re.search(requirement("r1 = cmpxchg_release(head, 0, 1);", [])[0],
                         "try_cmpxchg_relaxed(&ring->head, &head, head + 1)")
    assert requirement("r4 = slot + (r2 & 0);", [])[0] == r"ring->slots\[head\b"
    assert requirement("smp_mb__after_atomic();", [])[1] == "smp_mb__after_atomic()"
    assert re.search(requirement("r2 = READ_ONCE(*head);", [])[0], "next = READ_ONCE(ring->head);")
    print("ok   barrier_tags self-test")
    return True


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        sys.stdout.write(__doc__)
        return 0
    if len(argv) == 2 and argv[1] == "--self-test":
        return 0 if self_test() else 1
    if len(argv) != 4 or argv[1] not in ("check", "controls"):
        sys.stderr.write(__doc__)
        return 2
    src, litmus = argv[2], argv[3]
    if argv[1] == "check":
        return 0 if print_findings(check(src, litmus)) else 1
    return 0 if controls(src, litmus) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
