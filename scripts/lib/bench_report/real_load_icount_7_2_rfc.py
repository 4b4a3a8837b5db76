# SPDX-License-Identifier: GPL-2.0
"""real-load-icount-7.2-rfc: the 7.2 RFC's pool against the fixed upstream
pool (its unpatched kernels are the 7.2 series' patched ones)."""
from . import real_load_icount
from .core import KERNELS_RFC_7_2, RFC_7_2

CSV = 'real-load-icount-7.2-rfc.csv'


def section(rows, results):
    return real_load_icount.section(rows, results, title=RFC_7_2 + 'instructions per call under QEMU icount',
                                    bench='real-load-icount-7.2-rfc', kernels=KERNELS_RFC_7_2)


def goal(rows, results):
    return real_load_icount.hit_cost_goals(rows, reference=KERNELS_RFC_7_2.unpatched, probes=('kretprobe',))


GOALS = [(CSV, goal)]
