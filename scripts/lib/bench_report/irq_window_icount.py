# SPDX-License-Identifier: GPL-2.0
"""irq-window-icount: what closing the pool's windows to interrupts costs
a kretprobe hit on 6.1.  Its base kernels are the 6.1 series' patched
ones (interrupts off from a push's reservation until its ring's bit is
set, and in a thief's clear-and-recheck); its patched kernels add
bench/6.1-irqon's patch, which leaves interrupts on there (preemption
disabled only, bench/6.1-irqon/series.env)."""
import statistics

from . import real_load_icount
from .core import arch_order

CSV = 'irq-window-icount.csv'
TITLE = ('Linux 6.1, the irq window (series-6.1 with interrupts off in it, base, against '
         'bench/6.1-irqon, preemption off only, patched): instructions per call under QEMU icount')
# Instructions a kretprobe hit may pay for interrupts off in the windows.
LIMIT = 10


def section(rows, results):
    return real_load_icount.section(rows, results, title=TITLE, bench='irq-window-icount')


def goal(rows, results):
    """One row per arch: the series' kretprobe hit (base) costs at most
    LIMIT instructions more than the preempt-only one (patched)."""
    data = real_load_icount.icount_runs(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        off, on = data.get((arch, 'kretprobe', 'base')), data.get((arch, 'kretprobe', 'patched'))
        if not off or not on:
            continue
        i_off = [1e9 / x for x in off.values()]
        i_on = [1e9 / x for x in on.values()]
        d = statistics.mean(i_off) - statistics.mean(i_on)
        out.append((f'6.1: irqs off in the pool\'s windows, a kretprobe hit at most {LIMIT} '
                    f'instructions over preempt-only, {arch}',
                    f'{statistics.mean(i_off):.1f} irqs off, {statistics.mean(i_on):.1f} preempt-only '
                    f'({d:+.1f}; {len(i_off)} + {len(i_on)} boots)',
                    'met' if d <= LIMIT else f'not met, {d:+.1f}'))
    return out


GOALS = [(CSV, goal)]
