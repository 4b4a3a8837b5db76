# SPDX-License-Identifier: GPL-2.0
"""memory-7.2-rfc: memory's kretprobe pools at 96 possible CPUs on Linux
7.2, the fixed upstream pool (base) against the RFC's (patched)."""
from . import memory
from .core import RFC_7_2

CSV = 'memory-7.2-rfc.csv'


def section(rows, results):
    return memory.section(rows, results, title=RFC_7_2 + 'memory of kretprobe pools at scale')


def kretprobe_goal(rows, results):
    return memory.kretprobe_goal(rows, against="7.2's fixed objpool")


GOALS = [(CSV, kretprobe_goal)]
