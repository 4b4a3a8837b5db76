# SPDX-License-Identifier: GPL-2.0
"""memory-7.2-rfc: memory's kretprobe pools at 96 possible CPUs on Linux
7.2, the fixed upstream pool (unpatched) against the RFC's (patched)."""
from . import memory
from .core import KERNELS_RFC_7_2, RFC_7_2

CSV = 'memory-7.2-rfc.csv'


def section(rows, results):
    return memory.section(rows, results, title=RFC_7_2 + 'memory of kretprobe pools at scale',
                          kernels=KERNELS_RFC_7_2)


def kretprobe_goal(rows, results):
    return memory.kretprobe_goal(rows, against=KERNELS_RFC_7_2.unpatched)


GOALS = [(CSV, kretprobe_goal)]
