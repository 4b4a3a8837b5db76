# SPDX-License-Identifier: GPL-2.0
"""objpool-module (guest/bench/objpool-module.sh): lib/test_objpool.ko's
pairs/s on 1 and 2 vCPUs under TCG, objpool against its peers
(pools.py); wall clock, indicative only."""
import os
import statistics
from collections import defaultdict

from .core import Prose, cell, plot, table
from .pools import not_built_note, pool_built, pool_impls, pool_peers

CSV = 'objpool-module.csv'
PROSE = Prose(__file__, {
    'objpool-module-lead': '''
lib/test_objpool.ko, guest {accel}: {what}, all threads together;
median (min-max) over repeats.
''',
    'objpool-module-pairs': '''
successful pop+push pairs per second (a failed pop counts nothing)
''',
    'objpool-module-ops': '''
operations per second (hits + misses + pushes: this CSV predates
pairs_per_sec, and a pool that fails fast scores high in its misses
case)
''',
    'objpool-module': '''
The empty case (every object held, every pop fails) is in CPU
nanoseconds per failed pop instead: lower is better. TCG emulates
atomics and models no caches, so the cache-line contention that objpool
removes costs nothing here: read these for correctness and relative
overhead, and the userspace table for scaling on real cores. Threads
above the vCPU count are oversubscribed kthreads. irq=1: an hrtimer per
CPU does the same in hardirq context. {pool_peers}
''',
})

# The ratio columns: (numerator, denominator, vCPUs, threads).
POOL_RATIOS = [('objpool', 'upstream', 1, 1), ('objpool', 'upstream', 2, 2),
               ('objpool', 'freelist', 2, 2), ('objpool', 'percpu', 1, 1)]


def section(rows, results):
    """Pairs/s per case; the "empty" case in ns per failed pop.

    CSVs written before pairs_per_sec existed have ops_per_sec, which
    counted hits + misses + pushes: they are still read, and labelled so.
    """
    legacy = 'pairs_per_sec' not in rows[0]
    data = defaultdict(list)
    for r in pool_built(rows):
        key = (r['case'], int(r['irq']), r['impl'], int(r['vcpus']), int(r['threads']))
        if r['case'] == 'empty':
            if r.get('ns_per_miss'):
                data[key].append(float(r['ns_per_miss']))
        else:
            data[key].append(float(r['ops_per_sec' if legacy else 'pairs_per_sec']))
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    impls = pool_impls(k[2] for k in data)
    points = sorted({(k[3], k[4]) for k in data})
    what = PROSE.inline('objpool-module-ops' if legacy else 'objpool-module-pairs')
    intro = (['## Pool benchmark in the kernel (lib/test_objpool.ko)', '']
             + PROSE.text('objpool-module-lead', accel=accel, what=what) + not_built_note(rows))
    out = []
    ratios = []
    for case in sorted({k[0] for k in data}):
        unit = 'ns per failed pop' if case == 'empty' else ('ops/s' if legacy else 'pairs/s')
        for irq in sorted({k[1] for k in data if k[0] == case}):
            series = defaultdict(list)
            lines = []
            for vcpus, threads in points:
                cells = []
                for impl in impls:
                    v = data.get((case, irq, impl, vcpus, threads))
                    if v:
                        cells.append(cell(v))
                        series[impl].append((threads if vcpus > 1 else 1, statistics.median(v)))
                    else:
                        cells.append('-')
                lines.append([vcpus, threads] + cells)
            out += [f'### {case}, irq={irq} ({unit})', ''] + table(['vCPUs', 'threads'] + impls, lines) + ['']

            def ratio(a, b, vcpus, threads):
                va, vb = data.get((case, irq, a, vcpus, threads)), data.get((case, irq, b, vcpus, threads))
                return f'{statistics.median(va) / statistics.median(vb):.2f}' if va and vb else '-'
            note = ' (ns ratio: below 1 is cheaper)' if case == 'empty' else ''
            ratios.append([f'{case}{note}', irq] + [ratio(*c) for c in POOL_RATIOS])
            plot(os.path.join(results, f'objpool-module-{case}-irq{irq}.png'),
                 f'test_objpool {case} irq={irq}, {accel}', unit, series)
            out += [f'![{case} irq={irq}](objpool-module-{case}-irq{irq}.png)', '']
    head = ['case', 'irq'] + [f'{a}/{b} ({v} vCPU{"s" * (v > 1)}, {t} thread{"s" * (t > 1)})'
                              for a, b, v, t in POOL_RATIOS]
    return (intro + ['### Ratios', ''] + table(head, ratios) + ['']
            + PROSE.text('objpool-module', pool_peers=pool_peers()) + out)
