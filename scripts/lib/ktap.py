#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the TAP/KTAP files a guest run left in a results directory into verdicts.

  ktap.py cases RESULTS_DIR
      print one line per test case: "<suite>/<case> <STATUS>"
  ktap.py compare RESULTS_DIR ARCH [--unpatched FILE] [--exceptions FILE] [--label L]
      judge each case against the unpatched kernel's recorded cases (a case
      that passed unpatched must pass here) and the guest's exit status
      (RESULTS_DIR/vm.json, written by scripts/vm.sh; when it failed, each
      suite its command named that left no results fails too); write the verdicts as
      data to RESULTS_DIR/verdicts.json, print each failing case with the
      lines of its output that say why (a guest that failed: its first
      kernel reports in brief, scripts/lib/console.py), and end with "L: N passed, N failed,
      N skipped"; exit 1 on any failure.  With --pinned FILE (lines 'case
      STATUS', SUCCESS or SKIPPED, for the series' own suites, which the base
      lacks): every case of a suite named there must be listed, and end with
      the status listed; a pinned case that did not run, one that is not
      pinned, a skip of a case pinned SUCCESS and a pass of one pinned
      SKIPPED each fail.
  ktap.py self-test
      the controls of compare --pinned on made-up results: a pinned case
      that passes is green; the same case skipped, removed, or run under
      another name than the pinned one, and a whole pinned suite missing,
      each fail; print one "ok|FAIL NAME: ..." line each, exit 1 if any
      control does not behave.
  ktap.py total [--steps FILE]... VERDICTS_JSON...
      add up verdicts.json files (and the steps make check ran, a failed one
      counting as a failed case) and print "N passed, N failed, N skipped";
      exit 1 on any failure.

Parsing is done by the kernel tree's own KTAP parser
(tools/testing/kunit/kunit_parser.py), found through $KUNIT_DIR or the first build/*/linux.
"""
import argparse
import inspect
import io
import glob
import json
import os
import re
import sys
from pathlib import Path

import console

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if __name__ == '__main__' and sys.argv[1:2] in (['-h'], ['--help']):
    print(__doc__.strip())     # usage needs no parser
    sys.exit(0)
sys.path.insert(0, os.environ.get('KUNIT_DIR') or next(iter(sorted(glob.glob(
    os.path.join(TOP, 'build/*/linux/tools/testing/kunit')))), ''))
try:
    import kunit_parser  # noqa: E402
    import kunit_printer  # noqa: E402
except ImportError:
    sys.exit('ktap.py: cannot import kunit_parser; run "make tree" (or set KUNIT_DIR)')


def parse_lines(lines):
    """kunit_parser's Test tree of LINES, with the parser's report discarded.

    6.1's parser reports to its module's printer; later ones take a printer
    argument.  The printer's first parameter is the output file up to 6.12,
    a flag to print at all since (7.2: Printer(print, output))."""
    if 'output' in inspect.signature(kunit_printer.Printer).parameters:
        quiet = kunit_printer.Printer(output=io.StringIO())
    else:
        quiet = kunit_printer.Printer(io.StringIO())
    if len(inspect.signature(kunit_parser.parse_run_tests).parameters) > 1:
        return kunit_parser.parse_run_tests(lines, quiet)
    saved, kunit_parser.stdout = kunit_parser.stdout, quiet
    try:
        return kunit_parser.parse_run_tests(lines)
    finally:
        kunit_parser.stdout = saved


def parse_file(path):
    """The leaf cases of one TAP/KTAP file as (name, status) pairs."""
    with open(path, errors='replace') as f:
        lines = f.read().splitlines()
    if not any(l.lstrip().startswith(('KTAP version', 'TAP version')) for l in lines):
        # KUnit's debugfs results of one suite carry no version line.
        lines = ['KTAP version 1', '1..1'] + lines
    test = parse_lines(lines)
    suite = os.path.splitext(os.path.basename(path))[0]
    cases = []
    good = ('SUCCESS', 'SKIPPED')

    def walk(t, prefix):
        """Adds t's leaves; True if one of them failed."""
        if not t.subtests:
            cases.append((prefix, t.status.name))
            return t.status.name not in good
        failed = False
        for sub in t.subtests:
            failed |= walk(sub, f'{prefix}/{sub.name}' if prefix else sub.name)
        # A test that failed (or crashed: cases the parser lost) with
        # every leaf it kept passing still fails, as itself.
        if not failed and t.status.name not in good:
            cases.append((f'{prefix}/<its own verdict>', t.status.name))
            failed = True
        return failed

    if not test.subtests and '1..0' not in (l.strip() for l in lines):
        cases.append((f'{suite}/<no results>', 'FAILURE'))
    if test.counts.errors:
        # Lines the parser could not place: a case may have been lost.
        cases.append((f'{suite}/<KTAP it could not parse>', 'FAILURE'))
    for sub in test.subtests:
        walk(sub, f'{suite}/{sub.name}')
    return cases


def all_cases(results):
    """Every case of RESULTS' TAP files, and a failing case '<timed out>' of
    each suite guest/run-suites killed at its time limit (NAME.timeout)."""
    files = sorted(f for f in os.listdir(results) if f.endswith(('.tap', '.ktap')))
    out = []
    for f in files:
        out.extend(parse_file(os.path.join(results, f)))
    for f in sorted(os.listdir(results)):
        if f.endswith('.timeout'):
            out.append((f'{f[:-len(".timeout")]}/<timed out>', 'FAILURE'))
    return out


def read_table(path, arch=None):
    """Lines 'case STATUS' (unpatched) or 'arch case reason...' (exceptions)."""
    table = {}
    if not path or not os.path.exists(path):
        return table
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        if arch:
            a, case, *reason = line.split(None, 2)
            if a in (arch, 'all'):
                table[case] = reason[0] if reason else ''
        else:
            # A case name may hold spaces (a kselftest's "selftests: X: Y").
            case, status = line.rsplit(None, 1)
            table[case] = status
    return table


def failure_context(results, suite, before=6, limit=40):
    """Why SUITE failed: its time limit (NAME.timeout), the lines of its TAP
    file around each 'not ok'."""
    timeout = os.path.join(results, suite + '.timeout')
    said = [f'    | {Path(timeout).read_text().strip()}'] if os.path.exists(timeout) else []
    for ext in ('.tap', '.ktap'):
        path = os.path.join(results, suite + ext)
        if os.path.exists(path):
            break
    else:
        return said
    with open(path, errors='replace') as f:
        lines = f.read().splitlines()
    keep = set()
    for i, line in enumerate(lines):
        if 'not ok' in line:
            keep.update(range(max(0, i - before), i + 1))
    out = said + [f'    | {lines[i]}' for i in sorted(keep) if lines[i].strip()]
    if len(out) > limit:
        out = out[:limit] + [f'    | ... ({len(out) - limit} more lines in {path})']
    return out


def guest_verdict(results):
    """The guest's own failure as a case, from vm.json: None when it exited 0."""
    path = os.path.join(results, 'vm.json')
    if not os.path.exists(path):
        return None, {}
    vm = json.loads(Path(path).read_text())
    if vm.get('exit') == 0:
        return None, vm
    return f'<guest exit {vm.get("exit")}, QEMU exit {vm.get("qemu_exit")}>', vm


# What the guest's command ran: "[VAR=VALUE...] run-suites NAME...".
RUN_SUITES = re.compile(r'(?:^|[;&|]\s*)(?:\w+=\S*\s+)*run-suites((?:\s+[\w.-]+)*)')


def unfinished_suites(results, vm):
    """The suites the guest's command named (vm.json's cmd, run-suites
    NAME...) whose results never reached the host: the guest crashed or
    hung in them or before them."""
    named = [n for m in RUN_SUITES.finditer(str(vm.get('cmd', ''))) for n in m.group(1).split()]
    return [n for n in dict.fromkeys(named) if not os.path.exists(os.path.join(results, n + '.tap'))]


def compare(args):
    cases = dict(all_cases(args.results))
    # Only the suites this run ran: a flavor may run a subset.
    ran = {c.split('/')[0] for c in cases}
    unpatched = {c: st for c, st in read_table(args.unpatched).items() if c.split('/')[0] in ran}
    exceptions = read_table(args.exceptions, args.arch)
    guest, vm = guest_verdict(args.results)
    if guest:
        cases[f'{args.label}/{guest}'] = 'FAILURE'
        for suite in unfinished_suites(args.results, vm):
            cases[f'{suite}/<no results: the guest stopped before this suite ended>'] = 'FAILURE'
    verdicts = {}
    lines = []
    suites_ran = {c.split('/')[0] for c in cases}
    pinned = read_table(args.pinned)
    pinned_suites = {c.split('/')[0] for c in pinned}
    for case in sorted(set(cases) | set(unpatched) | set(pinned)):
        status = cases.get(case, 'MISSING')
        suite = case.split('/')[0]
        # A case the unpatched kernel only skipped (e.g. the placeholder of a
        # suite the base lacks) is not a case of a run whose suite reported others.
        if status == 'MISSING' and unpatched.get(case) == 'SKIPPED' and suite in suites_ran \
                and case not in pinned:
            continue
        pin = pinned.get(case)
        why = None
        if suite in pinned_suites and status != 'FAILURE':
            if pin is None:
                why = f'{status}, not pinned in {os.path.basename(args.pinned)}'
            elif status == 'MISSING':
                why = f'pinned {pin} in {os.path.basename(args.pinned)}, did not run'
            elif status != pin:
                why = f'{status}, pinned {pin} in {os.path.basename(args.pinned)}'
        if why:
            verdict = 'failed'
            lines.append(f'  FAILED  {case}: {why}')
        elif status == 'SUCCESS':
            verdict = 'passed'
        elif case in exceptions:
            verdict = 'skipped'
            lines.append(f'  known   {case}: {status} ({exceptions[case]})')
        elif status == 'SKIPPED' and unpatched.get(case) != 'SUCCESS':
            verdict = 'skipped'
        else:
            verdict = 'failed'
            was = f' (unpatched: {unpatched[case]})' if case in unpatched else ''
            lines.append(f'  FAILED  {case}: {status}{was}')
        verdicts[case] = {'status': status, 'unpatched': unpatched.get(case), 'pinned': pin,
                          'verdict': verdict}
    counts = {v: sum(1 for c in verdicts.values() if c['verdict'] == v)
              for v in ('passed', 'failed', 'skipped')}
    with open(os.path.join(args.results, 'verdicts.json'), 'w') as f:
        json.dump({'label': args.label, 'arch': args.arch, 'vm': vm,
                   'counts': counts, 'cases': verdicts}, f, indent=1)
    for line in lines:
        print(line)
    # Show why, so that a CI log that keeps only the summary explains it.
    for suite in sorted({l.split()[1].split('/')[0] for l in lines if l.startswith('  FAILED')}):
        context = failure_context(args.results, suite)
        if context:
            print(f'  {suite}: the failing lines of its output')
            print('\n'.join(context))
    if guest:
        print(f'  the guest failed: see {vm.get("console", "its console log")}')
        # Its first reports in brief, here where a log cut to its end shows them.
        for report in console.first_reports(os.path.join(TOP, vm.get('console', ''))):
            print('\n'.join(f'    > {l}' for l in report))
    print(f'{args.label}: {sentence(counts)}')
    return 1 if counts['failed'] else 0


def sentence(counts):
    return f'{counts["passed"]} passed, {counts["failed"]} failed, {counts["skipped"]} skipped'


def total(args):
    """One total over every verdicts.json and every step make check ran."""
    counts = {'passed': 0, 'failed': 0, 'skipped': 0}
    for path in args.verdicts:
        for k, n in json.loads(Path(path).read_text())['counts'].items():
            counts[k] += n
    for steps in args.steps:
        # "ok|FAIL NAME SECONDS": a failed step that judges no cases (a
        # build, a boot, the tree) is one failed case; a failed step of
        # guest suites ("suites ...") or host gates ("gates ...") is
        # already counted case by case.
        for line in Path(steps).read_text().splitlines():
            verdict, name = line.split('\t')[:2]
            if verdict == 'FAIL' and name.split()[0] not in ('suites', 'gates'):
                counts['failed'] += 1
    print(sentence(counts))
    return 1 if counts['failed'] else 0


def self_test():
    """compare --pinned on made-up results dirs: its controls."""
    import contextlib
    import tempfile
    ks = 'selftests: objpool: objpool.sh'
    pinned = (f'kselftest-objpool/{ks} SUCCESS\n'
              'perf-kretprobe/perf_probe_add SUCCESS\n'
              'perf-kretprobe/perf_probe_del_pool_freed SUCCESS\n')
    unpatched = ('kselftest-objpool/kselftest_objpool SKIPPED\n'
                 'perf-kretprobe/perf_probe_add SUCCESS\n'
                 'perf-kretprobe/perf_probe_del_pool_freed SKIPPED\n')
    good_ks = f'TAP version 13\n1..1\nok 1 {ks}\n'
    good_perf = 'TAP version 13\n1..2\nok 1 perf_probe_add\nok 2 perf_probe_del_pool_freed\n'
    cases = [
        # name, files of the run, the exit status compare must give
        ('pinned-pass', {'kselftest-objpool': good_ks, 'perf-kretprobe': good_perf}, 0),
        ('pinned-skipped', {'kselftest-objpool': good_ks, 'perf-kretprobe':
                            'TAP version 13\n1..2\nok 1 perf_probe_add\n'
                            'ok 2 perf_probe_del_pool_freed # SKIP no objpool\n'}, 1),
        ('pinned-removed', {'kselftest-objpool': good_ks, 'perf-kretprobe':
                            'TAP version 13\n1..1\nok 1 perf_probe_add\n'}, 1),
        ('pinned-suite-missing', {'perf-kretprobe': good_perf}, 1),
        ('unpatched-placeholder', {'kselftest-objpool':
                              'TAP version 13\n1..1\nok 1 kselftest_objpool # SKIP no selftests/objpool\n',
                              'perf-kretprobe': good_perf}, 1),
    ]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, 'pinned.txt'), 'w') as f:
            f.write(pinned)
        with open(os.path.join(tmp, 'unpatched.txt'), 'w') as f:
            f.write(unpatched)
        for name, files, want in cases:
            res = os.path.join(tmp, name)
            os.mkdir(res)
            for suite, text in files.items():
                with open(os.path.join(res, suite + '.tap'), 'w') as f:
                    f.write(text)
            args = argparse.Namespace(results=res, arch='x86_64', unpatched=os.path.join(tmp, 'unpatched.txt'),
                                      exceptions=None, pinned=os.path.join(tmp, 'pinned.txt'),
                                      label=name)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                got = compare(args)
            said = '; '.join(l.strip() for l in out.getvalue().splitlines() if 'FAILED' in l)
            what = 'fails' if want else 'passes'
            if got == want:
                print(f'ok   ktap-pinned/{name}: {what} as it must{": " + said if said else ""}')
            else:
                bad += 1
                print(f'FAIL ktap-pinned/{name}: should {what[:-1]}, compare returned {got}: {said}')
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ['self-test']:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    c = sub.add_parser('cases')
    c.add_argument('results')
    m = sub.add_parser('compare')
    m.add_argument('results')
    m.add_argument('arch')
    m.add_argument('--unpatched')
    m.add_argument('--exceptions')
    m.add_argument('--pinned')
    m.add_argument('--label', default='cases')
    t = sub.add_parser('total')
    t.add_argument('--steps', action='append', default=[])
    t.add_argument('verdicts', nargs='*')
    args = ap.parse_args()
    if args.cmd == 'total':
        return total(args)
    if not os.path.isdir(args.results):
        sys.exit(f'ktap.py: no results directory {args.results}; did the guest run?')
    if args.cmd == 'cases':
        for case, status in all_cases(args.results):
            print(case, status)
        return 0
    return compare(args)


if __name__ == '__main__':
    sys.exit(main())
