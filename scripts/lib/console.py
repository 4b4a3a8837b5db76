#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Watch a guest's serial console on stdin.

Writes the whole console to LOG, streams the guest command's output (and any
kernel report of trouble) to stdout, and once the guest is gone: unpacks the
results the guest sent into RESULTS_DIR, prints the kernel's reports of
trouble with their context, and exits with the guest command's status.

Results: the guest sends each suite's files as the suite ends (guest/run-suites:
"@@RESULTS-PART-BEGIN NAME@@" ... "@@RESULTS-PART-END@@") and all of /results
at the end ("@@RESULTS-BEGIN@@" ... "@@RESULTS-END@@"), each a gzipped tar in
base64.  RESULTS_DIR gets the parts, then the whole over them: a guest that
hangs or crashes later keeps the suites that ended.  A kernel line printed
amid the base64 is a kernel line, not data.

Exit status: the command's own status; 3 when the kernel reported a panic,
oops, BUG, WARNING or sanitizer report; 4 when the guest never reported an
exit status (crash or timeout).

Expected warnings: a test that provokes a WARNING on purpose prints
"objpool_kunit: expected WARNING begin: FUNC" before and "objpool_kunit:
expected WARNING end" after.  Between the two, exactly one WARNING report is
accepted, and only if it names FUNC, which must be one of EXPECTABLE.  Any
other report in the bracket, a second one, or one outside a bracket still
fails the run; so does a bracket without its warning, unless an earlier
bracket of the same FUNC took one (WARN_ON_ONCE warns once per boot).

Known reports: a report of the base kernel's own code listed in
expect/known-reports.txt (a regular expression for its first line, and the
reason) is accepted, and printed with its reason.
"""
import base64
import io
import os
import re
import shutil
import sys
import tarfile
import zlib
from pathlib import Path

KERNEL_LINE = re.compile(r'^\[\s*\d+\.\d+\]')
# KASAN and KCSAN reports start with "BUG: KASAN:" and "BUG: KCSAN:"; their
# boot banners ("kcsan: ... CONFIG_KCSAN_STRICT=y ...") are not trouble.
# Leaks are judged by the kmemleak suite, which discounts boot's own leaks,
# not by kmemleak's periodic "N new suspected memory leaks" line.
TROUBLE = re.compile(
    r'Kernel panic|Oops|BUG:|WARNING:|general protection fault|UBSAN:|'
    r'INFO: task .* blocked|rcu: INFO:|hard LOCKUP|soft lockup')


# A suite's files (guest/run-suites), or all of /results (guest/init).
RESULTS_BEGIN = re.compile(r'^@@RESULTS(?:-PART-BEGIN (\S+)|-BEGIN)@@$')
RESULTS_END = ('@@RESULTS-END@@', '@@RESULTS-PART-END@@')

EXPECT_BEGIN = re.compile(r'objpool_kunit: expected WARNING begin: (\w+)$')
EXPECT_END = 'objpool_kunit: expected WARNING end'
# The functions a test may expect a WARNING from: the pool's misuse checks.
EXPECTABLE = {'__objpool_debug_push'}
KNOWN_REPORTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                             'expect', 'known-reports.txt')


def known_reports(path=KNOWN_REPORTS):
    """[(compiled pattern, reason)] from PATH: PATTERN<tab>REASON lines."""
    out = []
    if os.path.exists(path):
        for line in Path(path).read_text().splitlines():
            if line.strip() and not line.startswith('#'):
                pattern, reason = line.split('\t', 1)
                out.append((re.compile(pattern), reason))
    return out


def first_line(block):
    """A report's first line without its timestamp."""
    return KERNEL_LINE.sub('', block[0]).strip()


FRAME = re.compile(r'^\s*(\? )?([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+')


def digest(block, frames=10):
    """A report in three lines, for a log of which only the end is read:
    its first line, where the CPU was (RIP/pc) and the functions of its
    call trace, innermost first, the unreliable ('?') ones left out."""
    text = [KERNEL_LINE.sub('', l).strip() for l in block]
    out = [text[0]]
    where = [t for t in text if re.match(r'(RIP: \S+|pc : )', t)]
    if where:
        out.append(where[0])
    calls = [m.group(2) for m in map(FRAME.match, text[1:]) if m and not m.group(1)]
    if calls:
        more = f' (+{len(calls) - frames})' if len(calls) > frames else ''
        out.append('call trace: ' + ' < '.join(calls[:frames]) + more)
    return out


def first_reports(path, limit=2):
    """The digests of the first LIMIT reports that fail a console log."""
    try:
        with open(path, errors='replace') as f:
            lines = [l.rstrip('\n') for l in f if KERNEL_LINE.match(l)]
    except OSError:
        return []
    return [digest(b) for b in judge(lines)[0][:limit]]


def trouble_blocks(lines, context=40):
    """Each line of trouble with the lines after it, up to the end of its
    report, as (index of its first line, lines)."""
    out, i = [], 0
    while i < len(lines):
        if TROUBLE.search(lines[i]):
            block = lines[i:i + context]
            for j, line in enumerate(block):
                if '---[ end trace' in line or '====' in line and j > 2:
                    block = block[:j + 1]
                    break
                if j > 0 and (EXPECT_END in line or EXPECT_BEGIN.search(line)):
                    block = block[:j]
                    break
            out.append((i, block))
            i += len(block)
        else:
            i += 1
    return out


def expected_brackets(lines):
    """The closed brackets: (begin index, end index, FUNC)."""
    out, begin = [], None
    for i, line in enumerate(lines):
        m = EXPECT_BEGIN.search(line)
        if m:
            begin = (i, m.group(1))
        elif EXPECT_END in line and begin:
            out.append((begin[0], i, begin[1]))
            begin = None
    return out


def names(block, func):
    """Whether the report names FUNC (or a FUNC_suffix of it) as a symbol."""
    sym = re.compile(r'(?<![A-Za-z0-9_])' + re.escape(func) + r'(\w*)\+0x')
    at = re.compile(r'WARNING: .* at \S+ ' + re.escape(func) + r'\w*\+0x')
    return any(sym.search(l) or at.search(l) for l in block)


def judge(lines, known=None):
    """The reports that fail the run, and the notes on expected warnings
    and known reports."""
    blocks = trouble_blocks(lines)
    failing, notes, warned = [], [], set()
    taken = set()
    for k, (_, block) in enumerate(blocks):
        for pattern, reason in known_reports() if known is None else known:
            if pattern.search(first_line(block)):
                taken.add(k)
                notes.append(f'known report accepted: "{first_line(block)}": {reason}')
                break
    for begin, end, func in expected_brackets(lines):
        inside = [k for k, (i, _) in enumerate(blocks) if begin < i < end]
        if func not in EXPECTABLE:
            notes.append(f'a bracket expects a WARNING from {func}, which may not warn')
            continue
        if not inside:
            if func in warned:
                notes.append(f'expected WARNING from {func}: none (it warned once already)')
            else:
                failing.append([lines[begin], f'(no WARNING from {func} before the end of the bracket)'])
            continue
        first = blocks[inside[0]][1]
        if len(inside) == 1 and first[0].find('WARNING:') >= 0 and names(first, func):
            taken.add(inside[0])
            warned.add(func)
            notes.append(f'expected WARNING from {func}: accepted')
    failing += [b for k, (_, b) in enumerate(blocks) if k not in taken]
    return failing, notes


def unpack(results_dir, archives):
    """Unpack ARCHIVES, [(what, base64 lines)] in the order the guest sent
    them, into RESULTS_DIR, a later file over an earlier one; return what
    could not be unpacked (an archive the guest did not finish sending)."""
    problems = []
    tmp = results_dir + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for what, payload in archives:
        try:
            data = base64.b64decode(''.join(payload), validate=True)
            with tarfile.open(fileobj=io.BytesIO(data), mode='r:gz') as tar:
                tar.extractall(tmp)
        except (ValueError, EOFError, OSError, tarfile.TarError, zlib.error) as e:
            problems.append(f'the results of {what} came back incomplete ({e}); '
                            f'the files before them are kept')
    shutil.rmtree(results_dir, ignore_errors=True)
    os.rename(tmp, results_dir)
    return problems


def main():
    if len(sys.argv) != 4 or sys.argv[1] in ('-h', '--help'):
        print(f'usage: console.py LOG RESULTS_DIR VERBOSE(0|1) <console\n\n{__doc__}',
              file=sys.stdout if len(sys.argv) > 1 and sys.argv[1] in ('-h', '--help')
              else sys.stderr)
        return 0 if len(sys.argv) > 1 and sys.argv[1] in ('-h', '--help') else 2
    log_path, results_dir, verbose = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
    # lines: the console but the results' data and markers.
    lines, ready, archive, archives = [], False, None, []
    with open(log_path, 'w') as log:
        for raw in sys.stdin.buffer:
            line = raw.decode('utf-8', 'replace').rstrip('\r\n').replace('\r', '')
            log.write(line + '\n')
            log.flush()
            begin = RESULTS_BEGIN.match(line)
            if begin:
                archive = (f'suite {begin.group(1)}' if begin.group(1) else 'all of /results', [])
                archives.append(archive)
                continue
            if line in RESULTS_END:
                archive = None
                continue
            if archive and not KERNEL_LINE.match(line):
                archive[1].append(line)
                continue
            lines.append(line)
            if line.startswith('@@VM-READY@@'):
                ready = True
            kernel = KERNEL_LINE.match(line)
            if verbose or (ready and not kernel) or (kernel and TROUBLE.search(line)):
                print(line, flush=True)

    status = None
    for line in lines:
        m = re.match(r'^@@VM-EXIT=(\d+)@@$', line)
        if m:
            status = int(m.group(1))

    if archives and results_dir != '-':
        for problem in unpack(results_dir, archives):
            print(f'vm: {problem}', file=sys.stderr)

    blocks, notes = judge([l for l in lines if KERNEL_LINE.match(l)])
    for note in notes:
        print(f'vm: {note}', file=sys.stderr)
    if blocks:
        print(f'\nvm: the kernel reported trouble ({len(blocks)} report(s)); '
              f'full console in {log_path}:', file=sys.stderr)
        for block in blocks:
            print('\n'.join(block), file=sys.stderr)
            print('---', file=sys.stderr)
    if status is None:
        print(f'\nvm: the guest ended without an exit status (crash, hang or timeout). '
              f'Last console lines ({log_path}):', file=sys.stderr)
        print('\n'.join(lines[-30:]), file=sys.stderr)
        return 4
    if blocks:
        return 3
    return status


if __name__ == '__main__':
    sys.exit(main())
