# SPDX-License-Identifier: GPL-2.0
"""memory-scale (guest/bench/memory-scale.sh): kretprobe pools as the
possible CPUs grow, 6.1's freelist (unpatched) against the pool
(patched)."""
import statistics
from collections import defaultdict

from .core import KERNELS_6_1, Prose, table

CSV = 'memory-scale.csv'
PROSE = Prose(__file__, {
    'memory-scale': '''
Guest {accel}; {samples}. Each value is the change of memory in use
across registering the probes (as in the memory section), for all the
probes of a row together, each probe's trace event (its tracefs files,
the same in both kernels) included: what a kprobe_events user pays.
The probes are created, not enabled, which allocates their instances.
"default": maxactive max(10, 2 x possible
CPUs); "r1": maxactive 1. Goals: at most 8 bytes per possible CPU that
never came online (the r1 probes' patched delta with 2 of P possible
online, less the same with 2 of 2, over P - 2 CPUs and the probes), and
every row's pool at most twice the freelist. The row that misses it, r1 with
every CPU online, is the price of a ring per online CPU: a cache line of
slots and one of header, 128 bytes a CPU, where the freelist has its one
instance. Kept: a CPU without a ring of its own would push into other
CPUs' rings, writing their lines, after a walk to find one. 512
possible CPUs are measured with 2 online only (QEMU's x86 machines stop
at 288 vCPUs).
''',
})

# A never-online CPU may cost the pool this much.
PER_OFFLINE_CPU = 8
# Every row: patched at most this many times unpatched.
RATIO = 2.0


def _medians(rows):
    """{(probe, probes, objects, vcpus, possible): {kernel: median delta_kb}}"""
    by = defaultdict(lambda: defaultdict(list))
    for r in rows:
        key = (r['probe'], int(r['probes']), int(r['objects']), int(r['vcpus']), int(r['possible']))
        by[key][r['kernel']].append(int(r['delta_kb']))
    return {k: {kern: statistics.median(v) for kern, v in d.items()} for k, d in by.items()}


def section(rows, results):
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    runs = len({r.get('run', '1') for r in rows})
    samples = 'one sample per kernel' if runs == 1 else f'{runs} boots per kernel, medians'
    cells = []
    for (probe, n, objs, vcpus, possible), m in sorted(_medians(rows).items(),
                                                       key=lambda kv: (kv[0][4], kv[0][3], kv[0][0])):
        b, p = m.get('unpatched'), m.get('patched')
        ratio = f'{p / b:.2f}' if b and p is not None else '-'
        cells.append([probe, str(n), str(objs), f'{vcpus} of {possible}',
                      '-' if b is None else f'{b:.0f} KiB', '-' if p is None else f'{p:.0f} KiB', ratio])
    return (['## Memory of kretprobe pools as the possible CPUs grow', '']
            + table(['probes', 'count', 'objects', 'online of possible', *KERNELS_6_1, KERNELS_6_1.ratio()],
                    cells)
            + [''] + PROSE.text('memory-scale', accel=accel, samples=samples))


def offline_goal(rows, results):
    """Goal row: a never-online CPU costs the patched pool at most 8 bytes."""
    m = _medians(rows)
    r1 = {k: v['patched'] for k, v in m.items() if k[0] == 'kretprobe r1' and 'patched' in v}
    small = [k for k in r1 if k[3] == k[4]]
    sparse = [k for k in r1 if k[4] > k[3]]
    if not small or not sparse:
        return []
    lo = min(small, key=lambda k: k[4])
    hi = max(sparse, key=lambda k: k[4] - k[3])
    if hi[3] != lo[3]:
        return []
    offline = hi[4] - hi[3]
    per = (r1[hi] - r1[lo]) * 1024 / hi[1] / offline
    verdict = 'met' if per <= PER_OFFLINE_CPU else f'not met, {per - PER_OFFLINE_CPU:+.0f} B'
    return [(f'a possible CPU that never came online costs a kretprobe pool at most {PER_OFFLINE_CPU} bytes',
             f'{per:.1f} B per CPU ({hi[1]} r1 kretprobes: {r1[hi]:.0f} KiB with {hi[3]} of {hi[4]} possible '
             f'online, {r1[lo]:.0f} KiB with {lo[3]} of {lo[4]})',
             verdict)]


def ratio_goal(rows, results):
    """Goal row: every row takes at most twice the freelist's memory."""
    m = _medians(rows)
    both = {k: v for k, v in m.items() if 'unpatched' in v and 'patched' in v}
    if not both:
        return []
    over = [(k, v['patched'] / max(v['unpatched'], 1)) for k, v in both.items()
            if v['patched'] > RATIO * max(v['unpatched'], 1)]
    worst_k, worst_v = max(both.items(), key=lambda kv: kv[1]['patched'] / max(kv[1]['unpatched'], 1))
    worst = worst_v['patched'] / max(worst_v['unpatched'], 1)
    measured = (f'worst {worst:.2f}x: {worst_k[0]}, {worst_k[3]} of {worst_k[4]} possible, '
                f'{worst_v["unpatched"]:.0f} KiB with the 6.1 freelist, {worst_v["patched"]:.0f} KiB patched')
    verdict = 'met' if not over else f'not met in {len(over)} of {len(both)} rows'
    return [(f'kretprobe pools at any scale: patched at most {RATIO:g}x the 6.1 freelist', measured, verdict)]


GOALS = [(CSV, offline_goal), (CSV, ratio_goal)]
