# SPDX-License-Identifier: GPL-2.0
"""scripts/lib/qemu-tcg-only.sh, linked as qemu-system-NAME first on PATH:
it runs the next qemu-system-NAME on PATH with every argument but
"-accel kvm", in order, and says what to do when there is none."""
import os
import shutil
import stat
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIM = os.path.join(TOP, 'scripts/lib/qemu-tcg-only.sh')
NAME = 'qemu-system-x86_64'


class TcgOnly(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.shim_dir = os.path.join(tmp.name, 'shim')
        self.real_dir = os.path.join(tmp.name, 'real')
        os.makedirs(self.shim_dir)
        os.makedirs(self.real_dir)
        os.symlink(SHIM, os.path.join(self.shim_dir, NAME))
        fake = os.path.join(self.real_dir, NAME)
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\nprintf "%s\\n" "$@"\n')
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)

    def run_shim(self, args, path):
        env = dict(os.environ, PATH=path)
        return subprocess.run([NAME] + args, capture_output=True, text=True, env=env)

    def test_drops_kvm_only(self):
        out = self.run_shim(['-m', '1024', '-accel', 'kvm', '-accel', 'hvf', '-accel', 'tcg',
                             '-append', 'a b', '-smp', '2'],
                            '%s:%s:/usr/bin:/bin' % (self.shim_dir, self.real_dir))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.splitlines(),
                         ['-m', '1024', '-accel', 'hvf', '-accel', 'tcg',
                          '-append', 'a b', '-smp', '2'])

    def test_no_qemu_behind_it(self):
        # A PATH with the shell tools the shim uses and no QEMU.
        tools = os.path.join(os.path.dirname(self.shim_dir), 'tools')
        os.makedirs(tools)
        for tool in ('bash', 'tr', 'grep', 'paste', 'dirname', 'basename'):
            os.symlink(shutil.which(tool), os.path.join(tools, tool))
        out = self.run_shim(['-accel', 'kvm'], '%s:%s' % (self.shim_dir, tools))
        self.assertEqual(out.returncode, 127)
        self.assertIn('install QEMU', out.stderr)

if __name__ == '__main__':
    unittest.main()
