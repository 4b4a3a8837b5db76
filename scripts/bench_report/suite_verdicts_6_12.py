# SPDX-License-Identifier: GPL-2.0
"""suite-verdicts-6.12: the 6.12 backport's goals that are test outcomes."""
from . import suite_verdicts
from .core import BACKPORT_6_12

CSV = 'suite-verdicts-6.12.csv'


def section(rows, results):
    return suite_verdicts.section(rows, title=BACKPORT_6_12 + 'test outcomes')


def goal(rows, results):
    return suite_verdicts.goals(rows, series='6.12 backport')


GOALS = [(CSV, goal)]
