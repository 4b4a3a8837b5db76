# SPDX-License-Identifier: GPL-2.0
"""irq-window-icount: what closing the pool's windows to interrupts costs
a kretprobe hit on 6.1.  Its unpatched kernels are the 6.1 series' patched
ones (interrupts off from a push's reservation until its ring's bit is
set, and in a thief's clear-and-recheck); its patched kernels add
bench-kernels/6.1-irqon's patch, which leaves interrupts on there (preemption
disabled only, bench-kernels/6.1-irqon/series.env)."""
from . import real_load_icount
from .core import Kernels

CSV = 'irq-window-icount.csv'
TITLE = ('Linux 6.1, the irq window (series-6.1, interrupts off in it, against '
         'bench-kernels/6.1-irqon, preemption off only): instructions per call under QEMU icount')
KERNELS = Kernels('irqs off', 'preempt-only')
# Instructions a kretprobe hit may pay for interrupts off in the windows.
LIMIT = 10


def section(rows, results):
    return real_load_icount.section(rows, results, title=TITLE, bench='irq-window-icount', kernels=KERNELS)


def goal(rows, results):
    """One row per arch: the series' kretprobe hit (irqs off, the unpatched
    kernel) costs at most LIMIT instructions more than the preempt-only
    one (patched)."""
    out = []
    for arch, i_off, i_on, n_off, n_on in real_load_icount.kretprobe_means(rows):
        d = i_off - i_on
        out.append((f'6.1: irqs off in the pool\'s windows, a kretprobe hit at most {LIMIT} '
                    f'instructions over preempt-only, {arch}',
                    f'{i_off:.1f} irqs off, {i_on:.1f} preempt-only '
                    f'({d:+.1f}; {n_off} + {n_on} boots)',
                    'met' if d <= LIMIT else f'not met, {d:+.1f}'))
    return out


GOALS = [(CSV, goal)]
