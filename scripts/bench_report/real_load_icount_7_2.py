# SPDX-License-Identifier: GPL-2.0
"""real-load-icount-7.2: the 7.2 fix's cost: a kretprobe hit is one pop and one push of the pool, unfixed (base) against fixed (patched)."""
from . import real_load_icount
from .core import FIX_7_2

CSV = 'real-load-icount-7.2.csv'


def section(rows, results):
    return real_load_icount.section(rows, results, title=FIX_7_2 + 'instructions per call under QEMU icount',
                                    bench='real-load-icount-7.2')


def goal(rows, results):
    return real_load_icount.fix_cost_goals(rows, series='7.2 fix')


GOALS = [(CSV, goal)]
