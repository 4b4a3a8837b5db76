# SPDX-License-Identifier: GPL-2.0
"""The section and goals of suite-verdicts-SERIES (guest/bench/suite-verdicts.sh):
the fix series' goals that are test outcomes, as make check runs them.
fix_outcomes() makes each series' benchmark (bench_report/__init__.py)."""
import types

from .core import Prose, arch_order, table

PROSE = Prose(__file__, {
    'suite-verdicts': '''
The guest suites make check runs for the fix, booted once with the test
flavor's kernel of the series (suite-verdicts.sh): objpool-nmi-unfixed
is the KUnit reproducer built on the base kernel's unfixed push, which must
fail there (its case is "ok" when the reproducer caught the bug);
kunit-objpool runs it with the fix; upstream-test-objpool is upstream's
own lib/test_objpool.c, run unchanged.
''',
})


def section(rows, title):
    cells = [[r['arch'], r['suite'], r['case'], r['status']] for r in rows if r['depth'] == '0'
             or (r['suite'] == 'kunit-objpool' and r['depth'] == '1')]
    return [f'## {title}', ''] + table(['arch', 'suite', 'case', 'status'], cells) + [''] + PROSE.text('suite-verdicts')


def goals(rows, series):
    """Goal rows of a fix SERIES that are test outcomes."""
    out = []
    for arch in arch_order(r['arch'] for r in rows):
        got = {(r['suite'], r['depth'], r['case']): r['status'] for r in rows if r['arch'] == arch}
        unfixed = got.get(('objpool-nmi-unfixed', '0', 'unfixed_push_fails'), 'did not run')
        out.append((f'{series}: the KUnit reproducer fails on the unfixed push, {arch}',
                    f'objpool-nmi-unfixed: {unfixed}', 'met' if unfixed == 'ok' else 'not met'))
        fixed = got.get(('kunit-objpool', '1', 'objpool_test_nmi'), 'did not run')
        out.append((f'{series}: the KUnit reproducer passes with the fix, {arch}',
                    f'objpool_test_nmi: {fixed}', 'met' if fixed == 'ok' else 'not met'))
        up = [st for (su, depth, _), st in got.items() if su == 'upstream-test-objpool' and depth == '0']
        bad = len([st for st in up if st != 'ok'])
        out.append((f'{series}: upstream\'s lib/test_objpool.c passes with the fix, {arch}',
                    f'{len(up) - bad} of {len(up)} cases ok',
                    'met' if up and not bad else 'not met'))
    return out


def fix_outcomes(bench, title, series):
    """The benchmark of a fix series' test outcomes (suite-verdicts-7.2,
    -6.12): BENCH names its CSV, TITLE prefixes its section, SERIES its
    goals."""
    csv = bench + '.csv'
    return types.SimpleNamespace(
        CSV=csv,
        section=lambda rows, results: section(rows, title=title + 'test outcomes'),
        GOALS=[(csv, lambda rows, results: goals(rows, series=series))])
