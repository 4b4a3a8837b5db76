#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks that the pool's shared fields are accessed only in marked forms.

Usage: marked_accesses.py check LIST SRC     (SRC: a kernel tree or a copy
                                             holding lib/objpool.c and
                                             include/linux/objpool.h)
       marked_accesses.py controls LIST SRC MUTANTS

LIST (config/marked-accesses) names the fields that other CPUs or
contexts access concurrently (each with a regex that finds an access),
the marked forms (a call and which of its arguments is the location it
accesses) and the functions allowed a plain access to a field, each with
its reason.  An access is the field's expression grown over subscripts,
a unary & or *, grouping parentheses and the per-CPU address helpers
(per_cpu_ptr(), per_cpu(), raw_cpu_ptr(), this_cpu_ptr()); it is marked
when that whole expression is the location argument of a marked form.
Anything else (an assignment, an operand, a return value, an argument
of an unmarked call) is plain.

'check' prints one line per finding, "ok   NAME: ..." or "FAIL NAME: ...":

  field/F          every access to F is marked or excepted: one FAIL per
                   plain access, naming file:line, function and expression;
                   a field with no access at all fails (a stale regex)
  except/FN/F      the exception is used: FN exists and accesses F plainly

'controls' applies to a copy of SRC, one at a time, MUTANTS/
ring-read-plain.patch (__objpool_ring() reading the pointer plainly) and
two made-up mutants (a plain read of a slot word in the pop, of a word
of the avail bitmap in the thief's scan); each must make 'check' fail at
the mutated access: "ok   control/NAME caught", else "FAIL control/NAME".
"""
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile

FILES = ("include/linux/objpool.h", "lib/objpool.c")
# Helpers that take a per-CPU location and give its address or lvalue:
# the access is what is done with their result.
ADDRESS_HELPERS = {"per_cpu_ptr", "per_cpu", "raw_cpu_ptr", "this_cpu_ptr"}
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "typeof",
            "__typeof__", "do", "else"}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ListError(Exception):
    pass


def read_list(path):
    """The fields {name: regex}, marked forms [(glob, arg)] and exceptions
    {(function, field): reason} of LIST.  Every entry needs a reason."""
    fields, marked, excepts = {}, [], {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            entry, sep, reason = line.partition(" -- ")
            words = entry.split()
            if not sep or not reason.strip():
                raise ListError(f"{path}:{n}: no reason after ' -- ': {line}")
            if words[0] == "field" and len(words) == 3:
                fields[words[1]] = re.compile(words[2])
            elif words[0] == "marked" and len(words) == 3 and \
                    (words[2] == "&" or words[2].isdigit()):
                marked.append((words[1], words[2]))
            elif words[0] == "except" and len(words) == 3:
                excepts[(words[1], words[2])] = reason.strip()
            else:
                raise ListError(f"{path}:{n}: not an entry: {line}")
    for (_, field) in excepts:
        if field not in fields:
            raise ListError(f"{path}: exception for unknown field {field}")
    return fields, marked, excepts


def strip_code(text):
    """TEXT with comments, string and character literals and preprocessor
    lines blanked, newlines kept, so that offsets and lines stay."""
    out = list(text)
    i, n = 0, len(text)
    bol = True
    while i < n:
        c = text[i]
        if bol and text[i:].lstrip(" \t").startswith("#"):
            j = i
            while j < n:
                k = text.find("\n", j)
                k = n if k < 0 else k
                if k > 0 and text[k - 1] == "\\":
                    j = k + 1
                    continue
                break
            end = k
            for m in range(i, end):
                if out[m] != "\n":
                    out[m] = " "
            i = end
            continue
        bol = c == "\n"
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif c in "\"'":
            end = i + 1
            while end < n and text[end] != c:
                end += 2 if text[end] == "\\" else 1
            end += 1
        else:
            i += 1
            continue
        for m in range(i, min(end, n)):
            if out[m] != "\n":
                out[m] = " "
        i = end
    return "".join(out)


def functions(code):
    """[(start, end, name)] of the top-level braces of CODE: a function's
    body named by the function, an initializer by its variable."""
    spans, depth, header_start, start = [], 0, 0, 0
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                start = i
                header = code[header_start:i]
                name = "?"
                if "=" in header:
                    ids = IDENT.findall(header.split("=")[0])
                    name = ids[-1] if ids else "?"
                elif "(" in header:
                    ids = IDENT.findall(header.split("(")[0])
                    name = ids[-1] if ids else "?"
                else:
                    name = " ".join(IDENT.findall(header)[-2:])
                spans.append([start, None, name])
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                spans[-1][1] = i + 1
                header_start = i + 1
        elif c == ";" and depth == 0:
            header_start = i + 1
    return [(s, e if e is not None else len(code), name) for s, e, name in spans]


def function_at(spans, pos):
    for s, e, name in spans:
        if s <= pos < e:
            return name
    return None


def skip_back_ws(code, i):
    while i > 0 and code[i - 1].isspace():
        i -= 1
    return i


def skip_ws(code, i):
    while i < len(code) and code[i].isspace():
        i += 1
    return i


def match_back(code, i, close, open_):
    """Index of the OPEN_ balancing CLOSE at I - 1 (code[i - 1] == close)."""
    depth, j = 0, i - 1
    while j >= 0:
        if code[j] == close:
            depth += 1
        elif code[j] == open_:
            depth -= 1
            if depth == 0:
                return j
        j -= 1
    return 0


def match_fwd(code, i, open_, close):
    """Index just past the CLOSE balancing OPEN_ at I."""
    depth, j = 0, i
    while j < len(code):
        if code[j] == open_:
            depth += 1
        elif code[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(code)


def postfix_start(code, i):
    """Start of the postfix expression (a->b.c[d], f(x)->y) whose member
    access starts at I: its operands, subscripts and accessors to the
    left."""
    while True:
        j = skip_back_ws(code, i)
        if j and code[j - 1] == "]":
            i = match_back(code, j, "]", "[")
            continue
        if j and code[j - 1] == ")":
            j = match_back(code, j, ")", "(")
        m = j
        while m > 0 and (code[m - 1].isalnum() or code[m - 1] == "_"):
            m -= 1
        if m == j and code[j:j + 1] != "(":
            return i
        i = m
        j = skip_back_ws(code, i)
        if code[j - 2:j] == "->":
            i = j - 2
        elif j and code[j - 1] == "." and not code[j - 2:j - 1].isdigit():
            i = j - 1
        else:
            return i


def unary_prefix(code, start):
    """START moved back over unary & and * (not binary ones: those follow
    an operand, an identifier that is no keyword, a number, ')' or ']')."""
    while True:
        j = skip_back_ws(code, start)
        if j == 0 or code[j - 1] not in "&*" or code[j - 2:j] in ("&&", "**"):
            return start
        k = skip_back_ws(code, j - 1)
        m = k
        while m > 0 and (code[m - 1].isalnum() or code[m - 1] == "_"):
            m -= 1
        word = code[m:k]
        if (word and word not in KEYWORDS) or (k and code[k - 1] in ")]"):
            return start
        start = j - 1


def call_of(code, start, end):
    """If CODE[START:END] is a whole argument of a call: (name, index,
    paren, close) with PAREN the call's '(' and CLOSE just past its ')';
    name '' for grouping parentheses; else None."""
    j = skip_back_ws(code, start)
    k = skip_ws(code, end)
    if j == 0 or code[j - 1] not in "(," or k >= len(code) or code[k] not in "),":
        return None
    depth, commas, p = 0, 0, j - 1
    while p >= 0:
        c = code[p]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            commas += 1
        p -= 1
    if p < 0 or code[p] != "(":
        return None
    q = skip_back_ws(code, p)
    m = q
    while m > 0 and (code[m - 1].isalnum() or code[m - 1] == "_"):
        m -= 1
    name = code[m:q]
    close = match_fwd(code, p, "(", ")")
    if name in KEYWORDS:
        return None
    return name, commas, p, close, m


def is_marked(name, index, arg_text, marked):
    for pattern, arg in marked:
        if not fnmatch.fnmatchcase(name, pattern):
            continue
        if arg == "&":
            return arg_text.lstrip().startswith("&")
        return int(arg) == index
    return False


def classify(code, pos, end, marked):
    """(marked, expression) of the access whose field token is at
    CODE[POS:END]."""
    start = postfix_start(code, pos)
    if code[end - 1] == "[":
        end = match_fwd(code, end - 1, "[", "]")
    while end < len(code):
        k = skip_ws(code, end)
        if k < len(code) and code[k] == "[":
            end = match_fwd(code, k, "[", "]")
        else:
            break
    while True:
        start = unary_prefix(code, start)
        call = call_of(code, start, end)
        if call is None:
            return False, code[start:end]
        name, index, paren, close, name_start = call
        if name == "":
            # grouping parentheses around the whole expression, or a cast
            if index == 0 and skip_ws(code, paren + 1) == start \
                    and skip_back_ws(code, close - 1) == end:
                start, end = paren, close
                continue
            return False, code[start:end]
        if name in ADDRESS_HELPERS and index == 0:
            start, end = name_start, close
            continue
        return is_marked(name, index, code[start:end], marked), code[start:end]


def accesses(text, fields, marked):
    """[(field, line, function, expression, marked)] of TEXT, in order."""
    code = strip_code(text)
    spans = functions(code)
    found = []
    for field, regex in fields.items():
        for m in regex.finditer(code):
            ok, expr = classify(code, m.start(), m.end(), marked)
            line = code.count("\n", 0, m.start()) + 1
            found.append((field, line, function_at(spans, m.start()),
                          " ".join(expr.split()), ok))
    return sorted(found, key=lambda a: (a[1], a[0]))


def check(lst, src):
    """Findings [(ok, name, text)] for the two files under SRC."""
    fields, marked, excepts = read_list(lst)
    res, used, count = [], set(), {f: [0, 0] for f in fields}
    for rel in FILES:
        path = os.path.join(src, rel)
        if not os.path.isfile(path):
            res.append((False, "files", f"no {rel} under {src}"))
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for field, line, fn, expr, ok in accesses(text, fields, marked):
            if ok:
                count[field][0] += 1
            elif (fn, field) in excepts:
                used.add((fn, field))
                count[field][1] += 1
            else:
                res.append((False, f"field/{field}",
                            f"{rel}:{line} in {fn or 'file scope'}: "
                            f"{expr} (plain access)"))
    failed = {name for ok, name, _ in res if not ok}
    for field, (nmarked, nexcepted) in count.items():
        if f"field/{field}" in failed:
            continue
        if nmarked + nexcepted == 0:
            res.append((False, f"field/{field}", "no access found: is its regex stale?"))
        else:
            res.append((True, f"field/{field}",
                        f"{nmarked} marked, {nexcepted} excepted"))
    for (fn, field), reason in excepts.items():
        if (fn, field) in used:
            res.append((True, f"except/{fn}/{field}", reason))
        else:
            res.append((False, f"except/{fn}/{field}",
                        "unused: no plain access to it in that function"))
    return res


def print_findings(res):
    for ok, name, text in res:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {text}")
    return all(ok for ok, _, _ in res)


def copy_src(src, dst):
    for rel in FILES:
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copyfile(os.path.join(src, rel), os.path.join(dst, rel))


def replace_edit(rel, old, new):
    def edit(tmp):
        path = os.path.join(tmp, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if text.count(old) != 1:
            return f"{old!r} is not once in {rel}"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))
        return None
    return edit


def patch_edit(patch):
    def edit(tmp):
        if not os.path.isfile(patch):
            return f"no {patch}"
        p = subprocess.run(["patch", "-s", "-p1", "-d", tmp, "-i", patch],
                           capture_output=True, text=True, check=False)
        if p.returncode:
            return "does not apply: " + " ".join((p.stdout + p.stderr).split())
        return None
    return edit


def controls(lst, src, mutants):
    """Each mutant must fail 'check' at the access it makes plain."""
    cases = [
        ("ring-read-plain", patch_edit(os.path.abspath(
            os.path.join(mutants, "ring-read-plain.patch"))),
         "field/rings", "in __objpool_ring:"),
        ("slot-read-plain", replace_edit(
            "include/linux/objpool.h",
            "smp_load_acquire(&ring->slots[head & ring->mask])",
            "ring->slots[head & ring->mask]"),
         "field/slot", "in __objpool_try_pop_ring:"),
        ("avail-read-plain", replace_edit(
            "lib/objpool.c",
            "READ_ONCE(pool->avail[BIT_WORD(from)])",
            "pool->avail[BIT_WORD(from)]"),
         "field/avail", "in __objpool_next_avail:"),
    ]
    ok = True
    for name, edit, want_name, want_text in cases:
        with tempfile.TemporaryDirectory() as tmp:
            copy_src(src, tmp)
            why = edit(tmp)
            if why:
                print(f"FAIL control/{name}: {why}")
                ok = False
                continue
            hits = [text for good, n, text in check(lst, tmp)
                    if not good and n == want_name and want_text in text]
        if hits:
            print(f"ok   control/{name} caught: {hits[0]}")
        else:
            print(f"FAIL control/{name}: not caught ({want_name} {want_text})")
            ok = False
    return ok


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    try:
        if len(argv) == 4 and argv[1] == "check":
            return 0 if print_findings(check(argv[2], argv[3])) else 1
        if len(argv) == 5 and argv[1] == "controls":
            return 0 if controls(argv[2], argv[3], argv[4]) else 1
    except ListError as e:
        print(f"FAIL list: {e}")
        return 1
    except (OSError, ValueError, re.error) as e:
        print(f"FAIL {argv[1]}: {type(e).__name__}: {e}")
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
