#!/usr/bin/env python3
"""Watch a guest's serial console on stdin.

Writes the whole console to LOG, streams the guest command's output (and any
kernel report of trouble) to stdout, and once the guest is gone: unpacks the
results the guest sent into RESULTS_DIR, prints the kernel's reports of
trouble with their context, and exits with the guest command's status.

Exit status: the command's own status; 3 when the kernel reported a panic,
oops, BUG, WARNING or sanitizer report; 4 when the guest never reported an
exit status (crash or timeout).
"""
import base64
import io
import os
import re
import shutil
import sys
import tarfile

KERNEL_LINE = re.compile(r'^\[\s*\d+\.\d+\]')
# KASAN and KCSAN reports start with "BUG: KASAN:" and "BUG: KCSAN:"; their
# boot banners ("kcsan: ... CONFIG_KCSAN_STRICT=y ...") are not trouble.
# Leaks are judged by the kmemleak suite, which discounts boot's own leaks,
# not by kmemleak's periodic "N new suspected memory leaks" line.
TROUBLE = re.compile(
    r'Kernel panic|Oops|BUG:|WARNING:|general protection fault|UBSAN:|'
    r'INFO: task .* blocked|rcu: INFO:|hard LOCKUP|soft lockup')


def trouble_blocks(lines, context=40):
    """Each line of trouble with the lines after it, up to the end of its report."""
    out, i = [], 0
    while i < len(lines):
        if TROUBLE.search(lines[i]):
            block = lines[i:i + context]
            for j, line in enumerate(block):
                if '---[ end trace' in line or '====' in line and j > 2:
                    block = block[:j + 1]
                    break
            out.append(block)
            i += len(block)
        else:
            i += 1
    return out


def main():
    log_path, results_dir, verbose = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
    lines, ready, in_results, payload = [], False, False, []
    with open(log_path, 'w') as log:
        for raw in sys.stdin.buffer:
            line = raw.decode('utf-8', 'replace').rstrip('\r\n').replace('\r', '')
            log.write(line + '\n')
            log.flush()
            lines.append(line)
            if line == '@@RESULTS-BEGIN@@':
                in_results = True
                continue
            if line == '@@RESULTS-END@@':
                in_results = False
                continue
            if in_results:
                payload.append(line)
                continue
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

    if payload and results_dir != '-':
        tmp = results_dir + '.tmp'
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        data = base64.b64decode(''.join(payload))
        with tarfile.open(fileobj=io.BytesIO(data), mode='r:gz') as tar:
            tar.extractall(tmp)
        shutil.rmtree(results_dir, ignore_errors=True)
        os.rename(tmp, results_dir)

    blocks = trouble_blocks([l for l in lines if KERNEL_LINE.match(l)])
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
