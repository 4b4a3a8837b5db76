# SPDX-License-Identifier: GPL-2.0
"""objpool-userspace (scripts/host-bench/objpool-userspace.sh, on the host):
tools/testing/objpool's scenario matrix on the host's real cores, objpool
against upstream's objpool, freelist and a per-CPU floor, with the
before/after tables of objpool-userspace-before.csv."""
import os
import statistics
from collections import defaultdict

from .core import Prose, fmt, plot, read, span, spread, table, thread_count, wrap

CSV = 'objpool-userspace.csv'
# The run before the pool's last rewrite: its rows are the "before" table.
BEFORE_CSV = 'objpool-userspace-before.csv'
ALSO_READS = (BEFORE_CSV,)
POOLS = ['objpool', 'upstream', 'freelist', 'percpu-floor']

PROSE = Prose(__file__, {
    'objpool-userspace-old': '''
(old CSV format: rerun `BENCHES=objpool-userspace make bench`)
''',
    'objpool-userspace-lead': '''
tools/testing/objpool's scenario matrix on the host's real cores (2
cores, threads above 2 oversubscribed; no guest); pairs/s, or misses/s
in the exhausted rows. Command: `BENCHES=objpool-userspace make bench`.
''',
    'objpool-userspace': '''
Pools: lib/objpool.c unmodified, upstream's objpool of Linux 6.12 and
freelist.h of the base kernel built from their sources against the same shims,
and a per-CPU floor (no sharing, no stealing). Series measured:
{series}.

Pairs/s count successful pop+push pairs only (misses/s in the exhausted
rows), medians over the runs ({npairs} of objpool and upstream, 3 of the
others). objpool/upstream is the median (min-max) of the ratios of
{npairs} paired A/B runs (the two alternate, A/B then B/A). Counters
come from one more run of each pool with counting on (off in the
throughput runs), per successful pair (per miss in the exhausted rows):
spills are calls of __objpool_push_slow(), steals objects a pop took
from another CPU's ring (__objpool_pop_slow() returning one; for
upstream, a pop that walked past its own ring), avail writes
set_bit()/clear_bit() on the cache line of the pool's avail bitmap.
Upstream has no spill and no avail bitmap. The series label names the
host's CPU where the run recorded it and ends with its load average when
the run started: the machine is shared and absolute rates move with it, and
runs on two machines do not compare; compare the ratios of the same
run.

Scenarios:
''',
    # One line per scenario, 'NAME: what it does', in table order.
    'scenarios': '''
balanced: pop, then push on the same CPU
held: each thread keeps objs/threads - 1 objects out and pushes the oldest back: the pool runs near empty
exhausted: every object is out: every pop misses (misses/s, counters per miss)
migrating: pop on one thread's CPU, push on the next thread's (at most 16 objects in flight per thread; the handover waits for the receiver to run, so on this shared 2-core machine its pairs/s measure scheduling more than the pool: read its counters)
touched-64: balanced, the user writes all 64 bytes of each object between pop and push
touched-256: balanced, the user writes all 256 bytes of each object between pop and push
sparse-balanced: balanced with 96 possible CPUs, 2 online, 192 objects (kretprobe's default maxactive, 2 x possible)
sparse-held: held with 96 possible CPUs, 2 online, 192 objects
sparse-burst: each thread pops objs/threads - 1 objects, then pushes them all back; 96 possible CPUs, 2 online, 192 objects
sparse-exhausted: exhausted with 96 possible CPUs, 2 online, 192 objects
sparse-migrating: migrating with 96 possible CPUs, 2 online, 192 objects
''',
    'why-migrating': '''
their pairs/s measure the scheduling of this shared 2-core machine more
than the pool (their scenario note)
''',
    'before-after': '''
The rows of the matrix the review asked for, for each series measured:
results/objpool-userspace-before.csv holds the run before the pool
rewrite, results/objpool-userspace.csv the last run, shown as "after"
when it measured another lib/objpool.c. Series: {series}. Each label
names this repository's commit and the blob of lib/objpool.c, then the
host's CPU where recorded and its load average when the run started.
After a change of the pool, `BENCHES=objpool-userspace make bench` adds
the after rows; `cp results/objpool-userspace.csv
results/objpool-userspace-before.csv` makes the last run the new
baseline. Counters per successful pair (per miss when exhausted).
''',
})

# Why objpool is below a goal in a scenario, where the repository already
# says why: (scenarios, the prose block that says it).
BELOW_GOAL_WHY = [(('migrating', 'sparse-migrating'), 'why-migrating')]


def scenarios():
    """{scenario: what it does}, in table order."""
    return dict(line.split(': ', 1) for line in PROSE.text('scenarios', raw=True) if line)


def points(rows):
    """{(scenario, threads): {'rate': {pool: {pair: v}}, 'count': {pool: row}, 'row': row}}"""
    pts = {}
    for r in rows:
        pt = pts.setdefault((r['scenario'], int(r['threads'])), {'rate': defaultdict(dict), 'count': {}, 'row': r})
        metric = 'misses_per_s' if r['scenario'].endswith('exhausted') else 'pairs_per_s'
        try:
            v = float(r[metric])
        except ValueError:  # "init failed" or a peer that did not build
            continue
        if r['mode'] == 'rate':
            pt['rate'][r['pool']][int(r['pair'])] = v
        else:
            pt['count'][r['pool']] = r
    return pts


def point_order(pts):
    """The (scenario, threads) keys of PTS in scenarios() order, then by threads."""
    order = list(scenarios())
    return sorted(pts, key=lambda k: (order.index(k[0]) if k[0] in order else len(order), k[1]))


def upstream_ratio(pt):
    """(median, min, max, pairs) of objpool/upstream over the paired runs, or None."""
    a, b = pt['rate'].get('objpool', {}), pt['rate'].get('upstream', {})
    ratios = [a[p] / b[p] for p in a if p in b and b[p] > 0]
    if not ratios:
        return None
    return spread(ratios) + (len(ratios),)


def ratio_cell(rt):
    """upstream_ratio()'s 'median (min-max)', or '-'."""
    return span(rt, lambda x: f'{x:.2f}') if rt else '-'


def per_pair(row, key):
    """Counter KEY per successful pair (per miss in the exhausted scenarios)."""
    if not row:
        return '-'
    per = int(row['misses']) if row['scenario'].endswith('exhausted') else int(row['pairs'])
    if not per:
        return '-'
    v = int(row[key]) / per
    return f'{v:.3g}' if v else '0'


def counters(row, keys=('spills', 'steals', 'avail_writes')):
    return ' / '.join(per_pair(row, k) for k in keys) if row else '-'


def series_labels(rows):
    return sorted({r.get('series', '') for r in rows}) or ['']


def ratio_goal(rows, goal, minimum, only=None):
    """Goal row: objpool/upstream, the median of the paired ratios, is at
    least MINIMUM at every thread count of the scenarios ONLY (every
    scenario by default); the verdict names the points below it."""
    if 'mode' not in rows[0]:
        return []
    pts = points(rows)
    got = []
    for sc, t in point_order(pts):
        rt = upstream_ratio(pts[(sc, t)])
        if rt and (only is None or sc in only):
            got.append((sc, t, rt[0]))
    if not got:
        return []
    lo, hi = min(got, key=lambda g: g[2]), max(got, key=lambda g: g[2])
    measured = (f'{lo[2]:.2f} ({lo[0]}, {thread_count(lo[1])}) to '
                f'{hi[2]:.2f} ({hi[0]}, {thread_count(hi[1])}), {len(got)} points')
    below = defaultdict(list)
    for sc, t, v in got:
        if v < minimum:
            below[sc].append(f'{thread_count(t)} ({v:.3f})')
    if not below:
        return [(goal, measured, 'met')]
    names = '; '.join(f'{sc} at {", ".join(ts)}' for sc, ts in below.items())
    why = '; '.join(f'{", ".join(hit)}: ' + PROSE.inline(key) for scs, key in BELOW_GOAL_WHY
                    if (hit := [sc for sc in scs if sc in below]))
    return [(goal, measured, f'not met: {names}') + ((why,) if why else ())]


def every_scenario_goal(rows, results):
    return ratio_goal(rows, 'userspace, every scenario: objpool at least 1.0x upstream', minimum=1.0)


def balanced_goal(rows, results):
    return ratio_goal(rows, 'userspace, balanced: objpool at least 1.1x upstream', minimum=1.1,
                      only=('balanced',))


GOALS = [(CSV, every_scenario_goal), (CSV, balanced_goal)]


def section(rows, results):
    out = ['## Pool benchmark in userspace (tools/testing/objpool)', '']
    if 'mode' not in rows[0]:
        return out + PROSE.text('objpool-userspace-old')
    pts = points(rows)
    npairs = max((len(p['rate'].get('objpool', {})) for p in pts.values()), default=0)
    cells = []
    series = defaultdict(list)
    for (sc, t) in point_order(pts):
        pt = pts[(sc, t)]
        rates = []
        for pool in POOLS:
            v = list(pt['rate'].get(pool, {}).values())
            rates.append(fmt(statistics.median(v)) if v else '-')
        rt = upstream_ratio(pt)
        if rt:
            series[sc].append((t, rt[0]))
        label = sc + (' (misses/s)' if sc.endswith('exhausted') else '')
        cells.append([label, t] + rates + [ratio_cell(rt), counters(pt['count'].get('objpool')),
                                           per_pair(pt['count'].get('upstream'), 'steals')])
    plot(os.path.join(results, 'objpool-userspace-ratio.png'),
         'objpool / upstream objpool, userspace (host)', 'ratio (median of A/B pairs)',
         {k: v for k, v in series.items() if len(v) > 1})
    out += PROSE.text('objpool-userspace-lead')
    out += table(['scenario', 'threads'] + POOLS + [
        'objpool/upstream', 'objpool spills / steals / avail writes per pair', 'upstream steals per pair'], cells)
    out += ['', '![objpool/upstream](objpool-userspace-ratio.png)', '']
    out += PROSE.text('objpool-userspace', npairs=npairs, series=', '.join(series_labels(rows)))
    out += wrap([f'- {name}: {what}' for name, what in scenarios().items() if any(k[0] == name for k in pts)])
    out += ['']
    out += before_after(rows, results)
    return out


def before_after(rows, results):
    """The review's tables: online far below possible, and an exhausted pool,
    for the series of objpool-userspace-before.csv and of this run."""
    sets = []
    path = os.path.join(results, BEFORE_CSV)
    if os.path.exists(path):
        before = read(path)
        if before and 'mode' in before[0]:
            sets.append(('before', before))
    pool_of = lambda rs: {x.split(';')[0].split(' lib/objpool.c ')[-1] for x in series_labels(rs)}
    if not sets or pool_of(sets[0][1]) != pool_of(rows):
        sets.append(('after' if sets else 'this run', rows))
    cells = []
    for label, rs in sets:
        pts = points(rs)
        for (sc, t) in sorted(pts):
            if not (sc.startswith('sparse-') or sc == 'exhausted' and t == 2):
                continue
            pt = pts[(sc, t)]
            med = {p: statistics.median(pt['rate'][p].values()) for p in ('objpool', 'upstream') if pt['rate'].get(p)}
            rt = upstream_ratio(pt)
            cells.append([label, sc, t] + [fmt(med[p]) if p in med else '-' for p in ('objpool', 'upstream')]
                         + [ratio_cell(rt), counters(pt['count'].get('objpool')),
                            per_pair(pt['count'].get('upstream'), 'steals')])
    names = ', '.join(f'{label} is "{", ".join(series_labels(rs))}"' for label, rs in sets)
    return (['### Online far below possible, and an exhausted pool', '']
            + table(['series', 'scenario', 'threads', 'objpool', 'upstream', 'objpool/upstream',
                     'objpool spills / steals / avail writes per pair', 'upstream steals per pair'], cells)
            + [''] + PROSE.text('before-after', series=names))
