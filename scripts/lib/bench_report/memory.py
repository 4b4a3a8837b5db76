# SPDX-License-Identifier: GPL-2.0
"""memory (guest/bench/memory.sh): the memory kretprobe and fprobe
instance pools take at registration, 2 online of 96 possible CPUs, 6.1's
freelist (unpatched) and the pool (patched)."""
import statistics
from collections import defaultdict

from .core import KERNELS_6_1, Prose, cell, table

CSV = 'memory.csv'
PROSE = Prose(__file__, {
    'memory': '''
Guest {accel}, {vcpus} online / {possible} possible CPUs; {samples}.

Each value is the change of memory in use (/proc/meminfo: MemTotal -
MemFree - Buffers - Cached, less the free pages on the per-CPU lists of
/proc/zoneinfo) across registering the probe, so pages the pool vmap()s
count too; small deltas carry a few hundred KiB of noise. "pool
metadata" is what the {patched} pool allocated beside the objects
(rings, headers, bitmap: its meta_bytes, printed by
guest/modules/probe_mem.ko); "target" is at most 16 bytes per object
plus 256 bytes per possible CPU; "one ring per CPU" is what rings
holding every object on every CPU (upstream 6.7-6.12) would take:
possible CPUs x roundup_pow_of_two(objects) x 8 bytes.
''',
})


def section(rows, results, title='Memory of the instance pools at scale', kernels=KERNELS_6_1):
    accel = '/'.join(sorted({r['accel'].upper() for r in rows}))
    r0 = rows[0]
    possible = int(r0['possible'])
    runs = len({r.get('run', '1') for r in rows})
    samples = ('one sample per kernel' if runs == 1 else
               f'{runs} boots per kernel, median (min-max), ratio and bytes/object of the medians')
    cells = []
    by = defaultdict(lambda: defaultdict(list))
    meta = {}
    for r in rows:
        key = (r['probe'], r['functions'], r['objects'])
        by[key][r['kernel']].append(int(r['delta_kb']))
        if r['kernel'] == 'patched' and r.get('meta_bytes'):
            meta[key] = int(r['meta_bytes'])
    mib = lambda v: f'{v / 2**20:.2f} MiB'
    kib_as_mib = lambda v: f'{v / 1024:.1f} MiB'
    for key, k in by.items():
        probe, funcs, objs = key
        b = statistics.median(k['unpatched']) if k['unpatched'] else None
        p = statistics.median(k['patched']) if k['patched'] else None
        kcell = lambda v: ('-' if not v else kib_as_mib(v[0]) if len(v) == 1
                           else cell(v, lambda x: f'{x / 1024:.1f}') + ' MiB')
        ratio = f'{p / b:.2f}' if b and p is not None else '-'
        per = f'{p * 1024 / int(objs):.0f}' if p is not None else '-'
        n = int(objs)
        m = f'{mib(meta[key])} ({meta[key] / n:.1f} B/object)' if key in meta else '-'
        target = mib(16 * n + 256 * possible)
        full = mib(possible * (1 << (n - 1).bit_length()) * 8)
        cells.append([probe, funcs, objs, kcell(k['unpatched']), kcell(k['patched']), ratio, per, m, target, full])
    return ([f'## {title}', '']
            + table(['probe', 'functions', 'objects', *kernels, kernels.ratio(),
                     f'{kernels.patched} bytes/object', f'pool metadata ({kernels.patched})', 'target',
                     'one ring per CPU'], cells)
            + [''] + PROSE.text('memory', accel=accel, vcpus=r0['vcpus'], possible=possible, samples=samples,
                                patched=kernels.patched))


def probe_boots(rows, prefix):
    """The rows of the probes named PREFIX..., then their delta_kb on the
    unpatched kernel's boots and on the patched kernel's."""
    rs = [r for r in rows if r['probe'].startswith(prefix)]
    return (rs, [int(r['delta_kb']) for r in rs if r['kernel'] == 'unpatched'],
            [int(r['delta_kb']) for r in rs if r['kernel'] == 'patched'])


def fprobe_goal(rows, results, against=KERNELS_6_1.unpatched):
    """Goal row: the fprobe example takes no more memory patched than with
    AGAINST, the unpatched kernel's pool, which the row names."""
    fp, b, p = probe_boots(rows, 'fprobe')
    if not b or not p:
        return []
    r0 = fp[0]
    mb, mp = statistics.median(b), statistics.median(p)
    d = mp - mb
    # Samples overlap: the difference is within what two boots of one kernel differ by.
    why = None
    if d <= 0:
        verdict = 'met'
    elif min(b) <= max(p) and min(p) <= max(b):
        verdict = f'met within the boots\' spread ({d / 1024:+.2f} MiB)'
    else:
        meta = [int(r['meta_bytes']) for r in fp if r['kernel'] == 'patched' and r.get('meta_bytes')]
        if meta:
            why = (f'the pool\'s rings, padding and metadata are {meta[0] / 2**20:.2f} MiB '
                   '(pointer slots, each online CPU\'s share rounded up to a power of two), less '
                   'the slab rounding that packing the objects saves')
        verdict = f'not met, {d / 1024:+.2f} MiB'
    example = (f'the fprobe example: {r0["functions"]} functions, {int(r0["objects"]):,} objects, '
               f'{r0["possible"]} possible CPUs, {r0["vcpus"]} online')
    return [(f'fprobe example: no more memory patched than with {against}',
             f'{mb / 1024:.2f} MiB with {against}, {mp / 1024:.2f} MiB patched '
             f'(medians, {len(b)} + {len(p)} boots)',
             verdict, example + (f'; {why}' if why else ''))]


def kretprobe_goal(rows, against):
    """Goal row: the default kretprobes take less memory patched than with
    AGAINST, which the row names."""
    kp, b, p = probe_boots(rows, 'kretprobe default')
    if not b or not p:
        return []
    r0 = kp[0]
    mb, mp = statistics.median(b), statistics.median(p)
    verdict = 'met' if mp <= mb else f'not met, {(mp - mb) / 1024:+.2f} MiB'
    return [(f'{r0["functions"]} kretprobes of default maxactive, {r0["possible"]} possible CPUs: '
             f'less memory patched than with {against}',
             f'{mb / 1024:.2f} MiB with {against}, {mp / 1024:.2f} MiB patched '
             f'(medians, {len(b)} + {len(p)} boots)',
             verdict)]


GOALS = [(CSV, fprobe_goal)]
