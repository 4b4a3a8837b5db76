# SPDX-License-Identifier: GPL-2.0
"""suite-verdicts-7.2: the 7.2 fix's goals that are test outcomes."""
from . import suite_verdicts
from .core import FIX_7_2

CSV = 'suite-verdicts-7.2.csv'


def section(rows, results):
    return suite_verdicts.section(rows, title=FIX_7_2 + 'test outcomes')


def goal(rows, results):
    return suite_verdicts.goals(rows, series='7.2 fix')


GOALS = [(CSV, goal)]
