#!/usr/bin/env python3
"""Turn the TAP/KTAP files a guest run left in a results directory into cases.

  ktap.py cases RESULTS_DIR
      print one line per test case: "<suite>/<case> <STATUS>"
  ktap.py compare RESULTS_DIR ARCH [--base FILE] [--exceptions FILE]
      print each failing case by name, compare with the base kernel's
      recorded cases (a case that passed on the base must pass here), and
      end with "N passed, N failed, N skipped"; exit 1 on any failure.

Parsing is done by the kernel tree's own KTAP parser
(tools/testing/kunit/kunit_parser.py), found through $KUNIT_DIR or build/linux.
"""
import argparse
import contextlib
import io
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.environ.get('KUNIT_DIR', os.path.join(TOP, 'build/linux/tools/testing/kunit')))
try:
    import kunit_parser  # noqa: E402
except ImportError:
    sys.exit('ktap.py: cannot import kunit_parser; run "make tree" (or set KUNIT_DIR)')


def parse_file(path):
    """The leaf cases of one TAP/KTAP file as (name, status) pairs."""
    with open(path, errors='replace') as f:
        lines = f.read().splitlines()
    if not any(l.lstrip().startswith(('KTAP version', 'TAP version')) for l in lines):
        # KUnit's debugfs results of one suite carry no version line.
        lines = ['KTAP version 1', '1..1'] + lines
    # The parser reports as it goes, as kunit.py does; keep that quiet.
    quiet = io.StringIO()
    printer = getattr(kunit_parser, 'stdout', None)
    with contextlib.redirect_stdout(quiet):
        if printer is not None and hasattr(printer, '_output'):
            printer._output, saved = quiet, printer._output
        try:
            test = kunit_parser.parse_run_tests(lines)
        finally:
            if printer is not None and hasattr(printer, '_output'):
                printer._output = saved
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
    files = sorted(f for f in os.listdir(results) if f.endswith(('.tap', '.ktap')))
    out = []
    for f in files:
        out.extend(parse_file(os.path.join(results, f)))
    return out


def read_table(path, arch=None):
    """Lines 'case STATUS' (base) or 'arch case reason...' (exceptions)."""
    table = {}
    if not path or not os.path.exists(path):
        return table
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        if arch:
            a, case, *reason = line.split(None, 2)
            if a in (arch, 'all'):
                table[case] = reason[0] if reason else ''
        else:
            case, status = line.split()
            table[case] = status
    return table


def failure_context(results, suite, before=6, limit=40):
    """The lines of SUITE's TAP file around each 'not ok': why it failed."""
    for ext in ('.tap', '.ktap'):
        path = os.path.join(results, suite + ext)
        if os.path.exists(path):
            break
    else:
        return []
    with open(path, errors='replace') as f:
        lines = f.read().splitlines()
    keep = set()
    for i, line in enumerate(lines):
        if 'not ok' in line:
            keep.update(range(max(0, i - before), i + 1))
    out = [f'    | {lines[i]}' for i in sorted(keep) if lines[i].strip()]
    if len(out) > limit:
        out = out[:limit] + [f'    | ... ({len(out) - limit} more lines in {path})']
    return out


def compare(args):
    cases = dict(all_cases(args.results))
    # Only the suites this run ran: a flavor may run a subset.
    ran = {c.split('/')[0] for c in cases}
    base = {c: st for c, st in read_table(args.base).items() if c.split('/')[0] in ran}
    exceptions = read_table(args.exceptions, args.arch)
    passed = failed = skipped = 0
    lines = []
    for case in sorted(set(cases) | set(base)):
        status = cases.get(case, 'MISSING')
        if status == 'SUCCESS':
            passed += 1
        elif case in exceptions:
            skipped += 1
            lines.append(f'  known   {case}: {status} ({exceptions[case]})')
        elif status == 'SKIPPED' and base.get(case) != 'SUCCESS':
            skipped += 1
        else:
            failed += 1
            was = f' (base: {base[case]})' if case in base else ''
            lines.append(f'  FAILED  {case}: {status}{was}')
    for line in lines:
        print(line)
    # Show why, so that a CI log that keeps only the summary explains it.
    for suite in sorted({l.split()[1].split('/')[0] for l in lines if l.startswith('  FAILED')}):
        print(f'  {suite}: the failing lines of its output')
        for line in failure_context(args.results, suite):
            print(line)
    print(f'{args.label}: {passed} passed, {failed} failed, {skipped} skipped')
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    c = sub.add_parser('cases')
    c.add_argument('results')
    m = sub.add_parser('compare')
    m.add_argument('results')
    m.add_argument('arch')
    m.add_argument('--base')
    m.add_argument('--exceptions')
    m.add_argument('--label', default='cases')
    args = ap.parse_args()
    if not os.path.isdir(args.results):
        sys.exit(f'ktap.py: no results directory {args.results}; did the guest run?')
    if args.cmd == 'cases':
        for case, status in all_cases(args.results):
            print(case, status)
        return 0
    return compare(args)


if __name__ == '__main__':
    sys.exit(main())
