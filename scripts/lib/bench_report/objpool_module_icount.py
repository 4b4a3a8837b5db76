# SPDX-License-Identifier: GPL-2.0
"""objpool-module-icount (guest/bench/objpool-icount.sh): instructions per
pool operation of lib/test_objpool.ko under QEMU icount, at 2 and 96
possible CPUs, objpool against its peers (pools.py)."""
import statistics
from collections import defaultdict

from .core import Prose, arch_order, icount_note, table
from .pools import not_built, not_built_note, pool_built, pool_impls, pool_peers

CSV = 'objpool-module-icount.csv'
PROSE = Prose(__file__, {
    'objpool-module-icount-lead': '''
lib/test_objpool.ko on the patched bench kernel, 1 vCPU under QEMU
icount, no hrtimer; instructions per operation, one value per boot
(run 1 / run 2).
''',
    'objpool-module-icount': '''
Booted with 2 and with 96 possible CPUs (MAXCPUS; an arm64 QEMU virt
guest cannot have absent CPUs, so it has 1 possible CPU whatever
MAXCPUS says). Pair: the nonblocking case (16 objects, pop then push
back: every pop succeeds), instructions per successful pop+push pair,
including the module's own per-iteration work (owner tag claim and
release, loop). Failed pop: the misses case with one object (batches of
1-16 pops, one succeeds), its instructions minus its successful pairs at
the same boot's pair cost, per failed pop: an estimate that also carries
the batch loop's difference from the nonblocking loop. {pool_peers}
{icount_note} Regenerate with `BENCHES=objpool-module-icount make
bench`.
''',
})


def pool_icount(rows):
    """{(arch, impl, possible): {'pair': {run: insns}, 'miss': {run: insns}}}

    A run's virtual ns (= instructions) is pairs / pairs_per_sec (ops and
    ops_per_sec in CSVs of module versions that counted every operation).  Pair: the
    nonblocking case, every pop succeeds: instructions / successful pops.
    Miss: the misses case (one object, batches of 1-16 pops): its
    instructions minus its successful pops at the same boot's pair cost,
    divided by the failed pops.
    """
    ns = {}
    for r in pool_built(rows):
        key = (r['arch'], r['impl'], int(r['possible']), int(r['run']), r['case'])
        n, rate = (r['pairs'], r['pairs_per_sec']) if 'pairs' in r else (r['ops'], r['ops_per_sec'])
        ns[key] = (int(n) * 1e9 / float(rate), int(r['hits']), int(r['misses']))
    out = defaultdict(lambda: {'pair': {}, 'miss': {}})
    for (arch, impl, possible, run, case), (t, hits, misses) in ns.items():
        if case == 'nonblocking' and hits:
            out[(arch, impl, possible)]['pair'][run] = t / hits
    for (arch, impl, possible, run, case), (t, hits, misses) in ns.items():
        pair = out[(arch, impl, possible)]['pair'].get(run)
        if case == 'misses' and misses and pair is not None:
            out[(arch, impl, possible)]['miss'][run] = (t - hits * pair) / misses
    return out


def section(rows, results):
    data = pool_icount(rows)
    arches = arch_order(k[0] for k in data)
    impls = pool_impls(k[1] for k in data)
    runs = lambda d: ' / '.join(f'{d[i]:.1f}' for i in sorted(d)) if d else '-'
    out = (['## Instructions per pool operation under QEMU icount: lib/test_objpool.ko', '']
           + PROSE.text('objpool-module-icount-lead') + not_built_note(rows))
    for arch in arches:
        possibles = sorted({k[2] for k in data if k[0] == arch})
        head = ['impl'] + [f'pair, {p} possible' for p in possibles] + \
               [f'failed pop, {p} possible' for p in possibles]
        if len(possibles) > 1:
            head.append(f'failed pop {possibles[-1]} / {possibles[0]} possible')
        lines = []
        for impl in impls:
            cells = [runs(data[(arch, impl, p)]['pair']) for p in possibles] + \
                    [runs(data[(arch, impl, p)]['miss']) for p in possibles]
            if len(possibles) > 1:
                lo, hi = data[(arch, impl, possibles[0])]['miss'], data[(arch, impl, possibles[-1])]['miss']
                cells.append(f'{statistics.mean(hi.values()) / statistics.mean(lo.values()):.2f}'
                             if lo and hi else '-')
            lines.append([impl] + cells)
        out += [f'### {arch}', ''] + table(head, lines) + ['']
    return out + ['### Method', ''] + PROSE.text('objpool-module-icount', icount_note=icount_note(),
                                                pool_peers=pool_peers())


def empty_pop_goal(rows, results):
    """Goal rows: an empty-pool pop at 96 possible CPUs costs at most twice
    its cost at 2."""
    data = pool_icount(rows)
    out = []
    for arch in arch_order(k[0] for k in data):
        lo, hi = data.get((arch, 'objpool', 2)), data.get((arch, 'objpool', 96))
        if not lo or not hi or not lo['miss'] or not hi['miss']:
            continue
        a, b = statistics.mean(lo['miss'].values()), statistics.mean(hi['miss'].values())
        verdict = 'met' if b <= 2 * a else f'not met, {b / a:.2f}x'
        out.append((f'empty-pool pop, {arch}: at 96 possible CPUs at most 2x its cost at 2 (icount)',
                    f'{a:.1f} insns at 2, {b:.1f} at 96 ({b / a:.2f}x)', verdict))
    return out


def upstream_pair_goal(rows, results):
    """Goal rows: our pop+push pair costs fewer instructions than upstream's, per arch."""
    data = pool_icount(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        goal = f'pop+push, {arch}: fewer instructions than upstream\'s (icount)'
        if not_built(rows, arch):
            out.append((goal, 'upstream\'s module did not build', 'not measured'))
            continue
        diffs = []
        for p in sorted({k[2] for k in data if k[0] == arch}):
            ours, up = data.get((arch, 'objpool', p)), data.get((arch, 'upstream', p))
            if ours and up and ours['pair'] and up['pair']:
                a, b = statistics.mean(ours['pair'].values()), statistics.mean(up['pair'].values())
                diffs.append((a - b, f'{a:.1f} vs {b:.1f} at {p} possible'))
        if not diffs:
            continue
        worst = max(d for d, _ in diffs)
        verdict = (f'met, {-worst:.1f} fewer per pair' if worst < 0 else
                   f'not met, {worst:+.1f} per pair')
        out.append((goal, 'objpool vs upstream: ' + ', '.join(m for _, m in diffs), verdict))
    return out


GOALS = [(CSV, empty_pop_goal), (CSV, upstream_pair_goal)]
