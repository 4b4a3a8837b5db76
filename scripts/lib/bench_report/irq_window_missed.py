# SPDX-License-Identifier: GPL-2.0
"""irq-window-missed (scripts/host-bench/irq-window-missed.sh, on the host):
pops that missed an object held back by an irq in a push's window, in
the userspace stress's irq_window case, the pool as it is against its
mutant with interrupts left on in the window (irqs-in-push-window)."""
from collections import defaultdict

from .core import Prose, table

CSV = 'irq-window-missed.csv'
OURS = 'objpool'
PROSE = Prose(__file__, {
    'irq-window-missed': '''
tools/testing/objpool's irq_window case on the host's cores, signals as
irqs: one CPU only pops and hands each object to another, whose thread
and irq handler push it back, the handler spinning 20 us after its push
as softirqs would. A pop that returns NULL while an object whose push
had returned was in the pool for the whole pop is a missed pop. objpool
is the pool as it is (interrupts off from a push's reservation until
its ring's bit is set); irqs-in-push-window is the same pool with
interrupts left on there, the positive control. Wall clock on a shared
host: the counts vary between runs; pops and irq pushes say how much
traffic each run had.
''',
})


def by_pool(rows):
    """The rows of each pool, the pool as it is first."""
    pools = defaultdict(list)
    for r in rows:
        pools[r['pool']].append(r)
    return dict(sorted(pools.items(), key=lambda kv: (kv[0] != OURS, kv[0])))


def total(rows, col):
    return sum(int(r[col]) for r in rows)


def section(rows, results):
    """Per pool: runs, pops, pushes by irqs, missed pops in all and per run."""
    cells = []
    for pool, rs in by_pool(rows).items():
        cells.append([pool, len(rs), total(rs, 'pops'), total(rs, 'irq_pushes'), total(rs, 'missed'),
                      ' '.join(r['missed'] for r in rs)])
    return (['## Missed pops with irqs in the push window (userspace, signals as irqs)', '']
            + table(['pool', 'runs', 'pops', 'pushes by irqs', 'missed pops', 'missed per run'], cells)
            + [''] + PROSE.text('irq-window-missed'))


def goal(rows, results):
    """No missed pop in any run of the pool as it is; the mutant's count
    beside it shows the case can see one."""
    pools = by_pool(rows)
    ours = pools.get(OURS)
    if not ours:
        return []
    missed = total(ours, 'missed')
    measured = f'{missed} missed in {len(ours)} runs ({total(ours, "pops")} pops)'
    for pool, rs in pools.items():
        if pool != OURS:
            measured += f'; {pool}: {total(rs, "missed")} in {len(rs)} runs'
    controls = [rs for pool, rs in pools.items() if pool != OURS]
    if missed:
        verdict = 'not met'
    elif not controls or not all(total(rs, 'missed') for rs in controls):
        verdict = 'unproven: the mutant missed none, so the case saw no window held open'
    else:
        verdict = 'met'
    return [('6.1: no pop misses an object held back by an irq in a push\'s window (userspace)',
             measured, verdict)]


GOALS = [(CSV, goal)]
