# SPDX-License-Identifier: GPL-2.0
"""real-load-icount-6.12: the 6.12 backport's cost, as real_load_icount_7_2.py's."""
from . import real_load_icount
from .core import BACKPORT_6_12

CSV = 'real-load-icount-6.12.csv'


def section(rows, results):
    return real_load_icount.section(rows, results, title=BACKPORT_6_12 + 'instructions per call under QEMU icount',
                                    bench='real-load-icount-6.12')


def goal(rows, results):
    return real_load_icount.fix_cost_goals(rows, series='6.12 backport')


GOALS = [(CSV, goal)]
