#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""variant.py KIND SRC DST: one variant of a kernel's include/linux/objpool.h
for the pop-order stress (stress.c), op_window() (shim.h) put between the
pop's two loads in every variant, so that each has the same window:

  as-written  the pop as SRC has it: its load of last, then op_window(),
              then its load of the entry; on a host that keeps loads in
              order (x86) this is how the unfixed pop runs.
  reordered   the entry loaded first, then op_window(), then last: how a
              weakly ordered CPU may execute the unfixed pop, whose two
              loads only a control dependency separates.
  weak        every load of last as its ordering allows (shim.h,
              op_last_relaxed() and op_last_acquire()): a relaxed one
              lets the entry load after it go first, an acquire one
              does not; the same window after each. Written for the
              fixed pop, so that a relaxed load of last anywhere in it
              shows, not only the one the litmus tests name.
  weak-acquire-first-only
              weak, on the fixed pop made to read last with acquire
              once, before its loop, and with READ_ONCE() on each retry:
              the control that weak catches a pop the code checks
              (grep) would pass for the acquire it still has.
Each text it changes must be found exactly once in SRC: otherwise the pop
is not the one this variant was written for, and it says so."""
import sys
from pathlib import Path

ENTRY = "\t\tobj = READ_ONCE(slot->entries[head & slot->mask]);\n"
LOOP = "\twhile (head != READ_ONCE(slot->last)) {\n\t\tvoid *obj;\n"


def once(text, old, new, what):
    if text.count(old) != 1:
        sys.exit(f"variant.py: {what}: expected once in the pop, found "
                 f"{text.count(old)} times: {old.strip()!r}")
    return text.replace(old, new)


FIXED_LOOP = "\twhile (head != (last = smp_load_acquire(&slot->last))) {\n"
FIXED_RANGE = "\t\t\thead = READ_ONCE(slot->head);\n\t\t\tcontinue;\n"
FIXED_CLAIM = ("\t\tif (try_cmpxchg_release(&slot->head, &head, head + 1))\n"
               "\t\t\treturn obj;\n")


def acquire_first_only(text):
    """The fixed pop with last acquired once, then read relaxed on retry."""
    text = once(text, FIXED_LOOP,
                "\tlast = smp_load_acquire(&slot->last);\n\twhile (head != last) {\n",
                "fixed loop (acquire of last)")
    text = once(text, FIXED_RANGE,
                "\t\t\thead = READ_ONCE(slot->head);\n"
                "\t\t\tlast = READ_ONCE(slot->last);\n\t\t\tcontinue;\n",
                "range check's retry")
    return once(text, FIXED_CLAIM,
                FIXED_CLAIM + "\t\tlast = READ_ONCE(slot->last);\n",
                "claim")


def weak(text):
    """Each load of last, and the entry load, through shim.h's op_*()."""
    pop = text.find("__objpool_try_get_slot(")
    end = text.find("\n}\n", pop)
    if pop < 0 or end < 0:
        sys.exit("variant.py: weak: no __objpool_try_get_slot() in the header")
    body = text[pop:end]
    if "smp_load_acquire(&slot->last)" not in body and "READ_ONCE(slot->last)" not in body:
        sys.exit("variant.py: weak: the pop reads last in no form this variant knows")
    body = body.replace("smp_load_acquire(&slot->last)", "op_last_acquire(slot)")
    body = body.replace("READ_ONCE(slot->last)", "op_last_relaxed(slot, head)")
    body = once(body, "READ_ONCE(slot->entries[head & slot->mask])",
                "op_entry(slot, head)", "entry load")
    return text[:pop] + body + text[end:]


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    if len(sys.argv) != 4:
        sys.exit("usage: variant.py KIND SRC DST (variant.py --help)")
    kind, src, dst = sys.argv[1:4]
    text = Path(src).read_text()
    if kind == "as-written":
        text = once(text, ENTRY, "\t\top_window();\n" + ENTRY, "entry load")
    elif kind == "reordered":
        text = once(text, LOOP,
                    "\tfor (;;) {\n"
                    "\t\t/* the entry load first, as a weak CPU may do it */\n"
                    "\t\tvoid *obj = READ_ONCE(slot->entries[head & slot->mask]);\n"
                    "\n"
                    "\t\top_window();\n"
                    "\t\tif (head == READ_ONCE(slot->last))\n"
                    "\t\t\tbreak;\n",
                    "unfixed loop (READ_ONCE of last)")
        text = once(text, ENTRY, "", "entry load")
    elif kind == "weak":
        text = weak(text)
    elif kind == "weak-acquire-first-only":
        text = weak(acquire_first_only(text))
    else:
        sys.exit(f"variant.py: unknown kind {kind!r}")
    Path(dst).write_text(text)


if __name__ == "__main__":
    main()
