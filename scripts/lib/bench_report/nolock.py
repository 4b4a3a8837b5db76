# SPDX-License-Identifier: GPL-2.0
"""nolock-icount, nolock-memory, nolock-exhaust and their -arm64 and
-pools lines (bench-kernels/7.2-nolock): kretprobe instances from the fixed
upstream objpool, the RFC's pool and kmalloc_nolock() on each hit, on
Linux 7.2.  The benchmarks of one prefix are merged (nolock-icount-arm64
with nolock-icount); the section appears when nolock-icount.csv exists.
"""
import os
import statistics
from collections import defaultdict

from . import memory_7_2_rfc, real_load_icount_7_2_rfc
from .core import Prose, arch_order, cell, icount_note, read_if, table

CSV = 'nolock-icount.csv'
# Every CSV of results/ whose name starts with this is this module's.
PREFIX = 'nolock-'
# The pools' rows on x86_64 are the RFC's benchmarks'.
RFC_ICOUNT = real_load_icount_7_2_rfc.CSV
RFC_MEMORY = memory_7_2_rfc.CSV
PROSE = Prose(__file__, {
    'lead': '''
Why kretprobe needs a pool at all, now that kmalloc_nolock() and
kfree_nolock() can be called in any context, NMI included, served from
SLUB's per-CPU sheaves: kernels of Linux 7.2 on 7.2's test config whose
kretprobe instances come from the fixed upstream objpool (the 7.2
series), from the RFC's pool (series-7.2-rfc), and from kmalloc_nolock()
on each hit, freed with kfree_nolock() on return (bench-kernels/7.2-nolock: a
kernel of the harness on the 7.2 series, not a series; maxactive kept as
a limit by an atomic count of the instances out per probe; built with
SLUB's sheaves, config/sheaves.config, where the test config has
SLUB_TINY and no sheaves). Rows whose series column names a CSV are that
benchmark's (the pools on x86_64: real-load-icount-7.2-rfc and
memory-7.2-rfc, the same guest commands on the 7.2 test kernels), as its
last make bench measured them; the other rows name the repository commit
of each series' patches they were built from, the kernel's own first:
{states}.
''',
    'icount': '''
Instructions per getppid() call with a tracefs kretprobe on it, one
thread, tracing off (guest/bench/real-load-icount.sh), less the same
boot's call with no probe: what one hit costs, entry and return, with
the instance taken and given back. Median (min-max) over the boots; each
boot's number is exact and repeats to a few instructions. On x86_64 the
instances are rethook nodes, on arm64 kprobes' own (no rethook in 7.2).
The kprobe row (a plain kprobe on the same function, no instance) is the
control: equal on every kernel, it shows that the slab configuration
(sheaves on the kmalloc_nolock() kernel only) leaves the rest of a hit
unchanged.
{icount_note} Here that means kmalloc_nolock()'s instructions count,
and so do the two atomic operations on the probe's shared counter that
keep maxactive as a limit, but not the contention on that counter's
cache line, which every CPU hitting the probe writes twice per hit: on
a many-core machine that is the shared line objpool was made to remove
(no multi-core hardware here).
''',
    'memory': '''
What /proc/meminfo shows in use after registering the probes, less
before (guest/bench/memory.sh): 16 tracefs kretprobes of the default
maxactive, max(10, 2 x {possible} possible CPUs) each, then one of
maxactive 4096. Guest {accel}, {vcpus} of {possible} possible CPUs
online (96 vCPUs, maxcpus=2), {boots} boots per kernel, median
(min-max). The pools allocate every instance at registration;
kmalloc_nolock() allocates none until a hit, and then each instance
comes from the kmalloc cache of its size, shared with the rest of the
kernel, and goes back to it on return: the memory of an idle probe is
its holder alone.
''',
    'exhaust': '''
SLEEPERS processes inside hrtimer_nanosleep() at once (busybox sleep,
guest/bench/kretprobe-exhaust.sh) under a kretprobe of maxactive 1, 4
or the default (max(10, 2 x possible CPUs): 10 at 2 vCPUs), two rounds
each: each cell is the round's nmissed, its hits (kprobe_profile counts
a kretprobe's hit only when an instance was taken) and the return events
traced. A hit that finds no instance (the pool empty, or the limit
reached) counts in nmissed and its return is not traced; the second
round shows the instances all came back. A '-' is a kind not run here
(the nolock-exhaust-pools lines); for the pools, make check's KUnit
suite kretprobe_lifetime (exhaust_* cases) asserts the same count. kmalloc_nolock() returning NULL would count the
same way, but it cannot be made to fail here (it skips failslab).
''',
    'outcome': '''
{summary}
''',
})


# Each row of the nolock CSVs
# names its kind (guest/bench/pool-kind.sh) and the series state it was
# built from (the 'series' column).
KINDS = [('objpool', 'fixed objpool (series-7.2)'),
         ('rfc-pool', "RFC's pool (series-7.2-rfc)"),
         ('kmalloc_nolock', 'kmalloc_nolock() per hit')]
TITLE = 'kretprobe instances without a pool: kmalloc_nolock() against the fixed objpool and the RFC (Linux 7.2)'


def hits_per_boot(rows):
    """{(arch, pool): [(kretprobe insns/call, native insns/call, kprobe
    insns/call) per boot]}"""
    boots = defaultdict(dict)
    for r in rows:
        boots[(r['arch'], r['pool'], r['run'], r.get('series', ''))][r['row']] = 1e9 / float(r['calls_per_vsec'])
    out = defaultdict(list)
    for (arch, pool, _, _), rr in sorted(boots.items()):
        if 'kretprobe' in rr and 'native' in rr:
            out[(arch, pool)].append((rr['kretprobe'], rr['native'], rr.get('kprobe')))
    return out


def states(*tables):
    """The series states of the rows, for the text."""
    st = sorted({r.get('series') or '?' for rows in tables for r in rows})
    return ', '.join(f'`{x}`' for x in st)


def memory_per_boot(rows):
    """{(probe, pool): [delta KiB per boot]}"""
    out = defaultdict(list)
    for r in rows:
        out[(r['probe'], r['pool'])].append(int(r['delta_kb']))
    return out


def exhaust_rounds(rows):
    """{(arch, maxactive, round): {pool: (hits, nmissed, returns, expected)}}"""
    out = defaultdict(dict)
    for r in rows:
        out[(r['arch'], int(r['maxactive']), r['round'], r['sleepers'])][r['pool']] = (
            int(r['hits']), int(r['nmissed']), int(r['returns']), int(r['expected_nmissed']))
    return out


def load(results):
    """The rows of nolock-icount, nolock-memory and nolock-exhaust.csv.  A
    pool kind that nolock-icount or nolock-memory lacks on an arch is taken
    from the RFC's lines on the same config (real_load_icount_7_2_rfc.py,
    memory_7_2_rfc.py: unpatched is the fixed objpool, patched the RFC), its
    'series' column naming that CSV."""
    def prefixed(prefix):
        return [r for name in sorted(os.listdir(results))
                if name == prefix + '.csv' or (name.startswith(prefix + '-') and name.endswith('.csv'))
                for r in read_if(results, name)]
    icount, memory, exhaust = prefixed('nolock-icount'), prefixed('nolock-memory'), prefixed('nolock-exhaust')
    kinds = {'unpatched': 'objpool', 'patched': 'rfc-pool'}
    if icount:
        have = {(r['arch'], r['pool']) for r in icount}
        icount = icount + [dict(r, pool=kinds[r['kernel']], series=RFC_ICOUNT)
                   for r in read_if(results, RFC_ICOUNT)
                   if (r['arch'], kinds[r['kernel']]) not in have]
    if memory:
        have = {r['pool'] for r in memory}
        memory = memory + [dict(r, pool=kinds[r['kernel']], series=RFC_MEMORY)
                     for r in read_if(results, RFC_MEMORY) if r['probe'].startswith('kretprobe')
                     and kinds[r['kernel']] not in have]
    return icount, memory, exhaust


def section(rows, results):
    """Three tables, one per CSV, each optional."""
    icount, memory, exhaust = load(results)
    if not (icount or memory or exhaust):
        return []
    out = [f'## {TITLE}', ''] + PROSE.text('lead', states=states(icount, memory, exhaust))
    if icount:
        hits = hits_per_boot(icount)
        series = defaultdict(set)
        for r in icount:
            series[(r['arch'], r['pool'])].add(r.get('series') or '?')
        for arch in arch_order(r['arch'] for r in icount):
            ref = hits.get((arch, 'objpool'))
            ref_hit = statistics.median(k - n for k, n, _ in ref) if ref else None
            cells = []
            for pool, label in KINDS:
                v = hits.get((arch, pool))
                if not v:
                    cells.append([label, 'not measured', '-', '-', '-', '-', 0])
                    continue
                hit = [k - n for k, n, _ in v]
                kp = [p for _, _, p in v if p is not None]
                d = f'{statistics.median(hit) - ref_hit:+.1f}' if ref_hit is not None else '-'
                f1 = lambda x: f'{x:.1f}'
                cells.append([label, cell([k for k, _, _ in v], f1), cell([n for _, n, _ in v], f1),
                              cell(kp, f1) if kp else '-', cell(hit, f1), d,
                              f'{len(v)} ({", ".join(sorted(series.get((arch, pool), [])))})'])
            out += [f'### Instructions per kretprobe hit, {arch} (icount)', ''] + table(
                ['instances', 'kretprobe insns/call', 'native insns/call', 'kprobe insns/call (control)',
                 'hit (kretprobe - native)', 'hit - fixed objpool', 'boots (series)'], cells) + ['']
        out += PROSE.text('icount', icount_note=icount_note())
    if memory:
        m = memory_per_boot(memory)
        probes = list(dict.fromkeys(r['probe'] for r in memory))
        objs = {r['probe']: r['objects'] for r in memory}
        cells = [[p, objs[p]] + [cell(m[(p, pool)], lambda x: f'{x / 1024:.2f}') + ' MiB'
                                 if m.get((p, pool)) else '-' for pool, _ in KINDS] for p in probes]
        r0 = memory[0]
        out += ['### Memory at registration, 96 possible CPUs (x86_64)', ''] + table(
            ['probes', 'instances (maxactive)'] + [label for _, label in KINDS], cells) + ['']
        out += PROSE.text('memory', accel=r0['accel'].upper(), vcpus=r0['vcpus'], possible=r0['possible'],
                          boots=len({r['run'] for r in memory}))
    if exhaust:
        e = exhaust_rounds(exhaust)
        for arch in arch_order(r['arch'] for r in exhaust):
            cells = []
            for (a, mx, rnd, n), by in sorted(e.items()):
                if a != arch:
                    continue
                exp = next(iter(by.values()))[3]
                cells.append([mx, n, rnd, exp] + [
                    f'{by[pool][1]} missed, {by[pool][0]} hit, {by[pool][2]} returns' if pool in by else '-'
                    for pool, _ in KINDS])
            out += [f'### Running out: missed, hit (an instance taken) and returns traced, {arch}', ''] + table(
                ['maxactive', 'sleepers', 'round', 'expected nmissed'] + [label for _, label in KINDS],
                cells) + ['']
        out += PROSE.text('exhaust')
    return out + PROSE.text('outcome', summary=outcome(icount, memory, exhaust))


def outcome(icount, memory, exhaust):
    """One sentence per measurement, from the medians."""
    parts = []
    hits = hits_per_boot(icount)
    for arch in arch_order(r['arch'] for r in icount):
        med = {pool: statistics.median(k - n for k, n, _ in hits[(arch, pool)])
               for pool, _ in KINDS if hits.get((arch, pool))}
        if len(med) == 3:
            parts.append(f'A hit on {arch} costs {med["kmalloc_nolock"]:.1f} instructions with kmalloc_nolock(), '
                         f'{med["objpool"]:.1f} with the fixed objpool and {med["rfc-pool"]:.1f} with the RFC\'s '
                         f'pool ({med["kmalloc_nolock"] - med["rfc-pool"]:+.1f} for kmalloc_nolock() against the RFC).')
    m = memory_per_boot(memory)
    for probe in dict.fromkeys(r['probe'] for r in memory):
        v = {pool: statistics.median(m[(probe, pool)]) / 1024 for pool, _ in KINDS if m.get((probe, pool))}
        if len(v) == 3:
            parts.append(f'At {memory[0]["possible"]} possible CPUs, {probe} take {v["objpool"]:.2f} MiB with the '
                         f'fixed objpool, {v["rfc-pool"]:.2f} MiB with the RFC\'s pool and '
                         f'{v["kmalloc_nolock"]:.2f} MiB with kmalloc_nolock() until they are hit.')
    e = exhaust_rounds(exhaust)
    if e:
        exact = {pool: all(by[pool][1] == by[pool][3] for by in e.values() if pool in by)
                 for pool, _ in KINDS}
        ran = {pool for by in e.values() for pool in by}
        same = [label for pool, label in KINDS if pool in ran and exact[pool]]
        parts.append(f'Running out, exactly sleepers - maxactive hits missed with: {", ".join(same) or "none"}.')
    return ' '.join(parts) or 'no numbers yet.'


def hit_cost_goal(rows, results):
    """Goal rows of the instructions per hit (load()'s rows)."""
    rows = load(results)[0]
    out = []
    hits = hits_per_boot(rows)
    for arch in arch_order(r['arch'] for r in rows):
        nl = hits.get((arch, 'kmalloc_nolock'))
        if not nl:
            continue
        hn = statistics.median(k - n for k, n, _ in nl)
        for pool, label in KINDS[:2]:
            v = hits.get((arch, pool))
            if not v:
                continue
            hp = statistics.median(k - n for k, n, _ in v)
            d = hp - hn
            out.append((f'kretprobe hit, {arch}: the {label} fewer instructions than kmalloc_nolock() per hit',
                        f'{hp:.1f} against {hn:.1f} insns per hit over native ({d:+.1f}; medians of '
                        f'{len(v)} + {len(nl)} boots)', 'met' if d < 0 else f'not met, {d:+.1f}'))
    return out


def memory_goal(rows, results):
    rows = load(results)[1]
    m = memory_per_boot(rows)
    out = []
    for probe in dict.fromkeys(r['probe'] for r in rows):
        nl = m.get((probe, 'kmalloc_nolock'))
        rfc = m.get((probe, 'rfc-pool'))
        if not nl or not rfc:
            continue
        a, b = statistics.median(rfc), statistics.median(nl)
        # A boot that measured a negative cost saw the rest of the kernel
        # free more than the probes took: that row measures nothing.
        noise = [v for v in rfc + nl if v < 0]
        verdict = ('no verdict: a boot measured ' + ', '.join(f'{v:.0f}' for v in noise) + ' KiB'
                   if noise else 'met' if a <= b else f'not met, {(a - b) / 1024:+.2f} MiB')
        out.append((f'{probe}, {rows[0]["possible"]} possible CPUs: the RFC\'s pool no more memory than '
                    'kmalloc_nolock() per hit',
                    f'{a / 1024:.2f} against {b / 1024:.2f} MiB at registration (medians)', verdict))
    return out


def exhaust_goal(rows, results):
    rows = load(results)[2]
    e = exhaust_rounds(rows)
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        for pool, label in KINDS:
            got = [(k, by[pool]) for k, by in e.items() if k[0] == arch and pool in by]
            if not got:
                continue
            bad = [f'maxactive {k[1]} round {k[2]}: {v[1]} missed, {v[3]} expected' for k, v in got
                   if v[1] != v[3] or v[2] != v[0]]
            out.append((f'running out, {arch}: the {label} misses exactly sleepers - maxactive',
                        f'{len(got) - len(bad)} of {len(got)} rounds exact',
                        'met' if not bad else 'not met: ' + '; '.join(bad)))
    return out


GOALS = [('nolock-icount.csv', hit_cost_goal), ('nolock-memory.csv', memory_goal),
         ('nolock-exhaust.csv', exhaust_goal)]
