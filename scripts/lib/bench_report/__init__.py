# SPDX-License-Identifier: GPL-2.0
"""results/summary.md from the CSV files of a benchmark run
(scripts/lib/report.py is the command).

One module per benchmark of config/benches, each declaring:
  CSV        the file of results/ it reads (NAME.csv of its benchmark);
  section()  section(rows, results): its Markdown lines, given the CSV's
             rows and the results directory (where it may write plots);
  GOALS      optional, [(CSV, goal(rows, results))]: its rows of the
             goals table, (goal, measured, verdict[, note]) tuples;
  PROSE      its prose (core.Prose), printed under its tables;
  ALSO_READS, PREFIX  optional: other files of results/ it reads, so
             that no generic section is made of them.
A CSV no module reads gets a generic table (generic()).  To add a
benchmark: its module, then its place in SECTIONS and GOALS below.
"""
import os
from collections import defaultdict

from . import (build_boot_times, claim_icount_arm64, irq_window_icount, irq_window_missed, layout,
               memory, memory_7_2_rfc, memory_scale, nolock, objpool_module, objpool_module_icount,
               objpool_userspace, perf_stat, real_load, real_load_icount, real_load_icount_7_2_rfc,
               suite_verdicts)
from .core import BACKPORT_6_12, FIX_7_2, PROSE, cell, icount_note, number, read, read_if, table, wrap

# The fix series' benchmarks: the same two, one per series.
real_load_icount_7_2 = real_load_icount.fix_cost('real-load-icount-7.2', FIX_7_2, '7.2 fix')
real_load_icount_6_12 = real_load_icount.fix_cost('real-load-icount-6.12', BACKPORT_6_12, '6.12 backport')
suite_verdicts_7_2 = suite_verdicts.fix_outcomes('suite-verdicts-7.2', FIX_7_2, '7.2 fix')
suite_verdicts_6_12 = suite_verdicts.fix_outcomes('suite-verdicts-6.12', BACKPORT_6_12, '6.12 backport')

# The summary's sections, in order.
SECTIONS = [build_boot_times, real_load_icount, real_load, perf_stat, memory, objpool_module_icount,
            objpool_module, objpool_userspace, layout,
            real_load_icount_7_2, suite_verdicts_7_2, real_load_icount_6_12, suite_verdicts_6_12,
            real_load_icount_7_2_rfc, memory_7_2_rfc, nolock, irq_window_icount, irq_window_missed,
            claim_icount_arm64, memory_scale]

# The goals table's rows, in order: (CSV, goal function).
GOALS = (layout.GOALS + real_load_icount.GOALS + real_load_icount_7_2_rfc.GOALS
         + objpool_module_icount.GOALS + memory.GOALS + memory_7_2_rfc.GOALS
         + suite_verdicts_7_2.GOALS + real_load_icount_7_2.GOALS
         + suite_verdicts_6_12.GOALS + real_load_icount_6_12.GOALS
         + nolock.GOALS + objpool_userspace.GOALS + irq_window_icount.GOALS
         + irq_window_missed.GOALS + claim_icount_arm64.GOALS + memory_scale.GOALS)


def goals(results, goal_list=GOALS):
    """The goals section: one row per goal with its measured verdict."""
    out = []
    for name, goal in goal_list:
        rows = read_if(results, name)
        if rows:
            out += goal(rows, results)
    if not out:
        return []
    cells, notes = [], []
    for goal, measured, verdict, *note in out:
        if note:
            notes.append(f'{len(notes) + 1}. {note[0]}.')
            verdict += f' (note {len(notes)})'
        cells.append([goal, measured, verdict])
    return (['## Goals', ''] + PROSE.text('goals') + table(['goal', 'measured', 'verdict'], cells) + ['']
            + (['Notes:', ''] + wrap(notes) + [''] if notes else [])
            + PROSE.text('goals-notes', icount_note=icount_note()))


def generic(name, rows):
    """A benchmark with no module of its own: its numeric columns as
    'median (min-max)' over the rows that agree on every other column
    but 'run' (the boot)."""
    # A row with more fields than the header has them under None: left out.
    cols = [c for c in rows[0] if c is not None and c != 'run']
    numeric = [c for c in cols if all(number(r[c]) is not None for r in rows)]
    keys = [c for c in cols if c not in numeric]
    groups = defaultdict(list)
    for r in rows:
        groups[tuple(r[k] for k in keys)].append(r)
    cells = [list(key) + [cell([number(r[c]) for r in group]) for c in numeric] + [len(group)]
             for key, group in groups.items()]
    return [f'## {name}', ''] + table(keys + numeric + ['runs'], cells) + [''] + PROSE.text('generic', name=name)


def read_by_a_module(name, sections=SECTIONS):
    """Whether NAME, a file of results/, is read by a module of SECTIONS."""
    return any(name == m.CSV or name in getattr(m, 'ALSO_READS', ())
               or name.startswith(getattr(m, 'PREFIX', None) or '\0') for m in sections)


def summary(results, sections=SECTIONS, goal_list=GOALS):
    """The lines of summary.md for the CSV files of RESULTS."""
    md = ['# Benchmark results', ''] + PROSE.text('intro')
    md += goals(results, goal_list)
    for module in sections:
        rows = read_if(results, module.CSV)
        if not rows:
            continue
        md += module.section(rows, results)
        if md[-1] != '':
            md.append('')
    for name in sorted(os.listdir(results)):
        if name.endswith('.csv') and not read_by_a_module(name, sections):
            rows = read(os.path.join(results, name))
            if rows:
                md += generic(name[:-4], rows)
    return md


def write_summary(results):
    """RESULTS/summary.md (and the plots its sections draw)."""
    md = summary(results)
    with open(os.path.join(results, 'summary.md.tmp'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    os.replace(os.path.join(results, 'summary.md.tmp'), os.path.join(results, 'summary.md'))
