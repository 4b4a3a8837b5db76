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
    else:
        sys.exit(f"variant.py: unknown kind {kind!r}")
    Path(dst).write_text(text)


if __name__ == "__main__":
    main()
