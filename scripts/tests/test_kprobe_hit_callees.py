# SPDX-License-Identifier: GPL-2.0
"""Self-test of scripts/lib/kprobe_hit_callees.py: made-up kernel images,
built for x86_64 and arm64 with the host's and the cross compiler, whose
hit path calls an out-of-line arch_local_irq_save() copy kprobes accept
(the positive control: found and failed), a blacklisted helper whose own
callee is still followed, a function in __kprobes, a harmless one whose
callees are not followed, an indirect call, a function only an
alternative's replacement calls and one only a jump label's entry
names."""
import io
import os
import shutil
import subprocess
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import kprobe_hit_callees as khc

SOURCE = r"""
asm(".text\n.globl _text\n_text:\n");
#define noinline __attribute__((noinline, used))
void (*hook)(void);
int sink;
noinline void arch_local_irq_save(void) { sink++; }
noinline void deep_leaf(void) { sink += 2; }
noinline void listed_helper(void) { deep_leaf(); sink += 3; }
noinline void harmless_printk(void) { deep_leaf(); sink += 4; }
noinline __attribute__((section(".kprobes.text"))) void kp_text(void)
{ sink += 5; }
noinline void alt_target(void) { sink += 6; }
noinline void alt_callback(void) { sink += 7; }
/* An alternative whose replacement calls alt_target(); on arm64 also a
 * callback entry, whose function runs only at patch time. */
#define ALT(orig, repl, feature, len) \
	".long " orig " - .\n.long " repl " - .\n.short " feature "\n" \
	".byte " len "\n.byte " len "\n"
#ifdef __x86_64__
#define ALT_SITE "1: .skip 5, 0x90\n"
#define ALT_REPL "2: call alt_target\n"
#define ALT_ENTRIES ALT("1b", "2b", "0", "5")
#else
#define ALT_SITE "1: nop\n"
#define ALT_REPL "2: bl alt_target\n"
#define ALT_ENTRIES ALT("1b", "2b", "0", "4") ALT("1b", "alt_callback", "0x8000", "4")
#endif
/* A jump label whose target only the __jump_table entry names. */
noinline void jl_cold(void) { sink += 8; }
#define JUMP_LABEL "4: nop\n.pushsection __jump_table,\"aw\"\n.balign 8\n" \
	".long 4b - .\n.long jl_cold - .\n.quad 0\n.popsection\n"
noinline int pre_handler_kretprobe(void)
{
	asm volatile(JUMP_LABEL);
	asm volatile(ALT_SITE
		     ".pushsection .altinstr_replacement,\"ax\"\n" ALT_REPL
		     ".popsection\n.pushsection .altinstructions,\"a\"\n"
		     ALT_ENTRIES ".popsection\n");
	arch_local_irq_save();
	listed_helper();
	kp_text();
	if (sink == 42)
		harmless_printk();
	hook();
	return sink;
}
unsigned long bl[] __attribute__((section("_kprobe_blacklist"), used)) = {
	(unsigned long)listed_helper, (unsigned long)pre_handler_kretprobe };
void _start(void) { pre_handler_kretprobe(); }
"""
LDS = """SECTIONS {
 .text : { *(.text .text.*) __kprobes_text_start = .; *(.kprobes.text)
           __kprobes_text_end = .; }
 __jump_table : { __start___jump_table = .; *(__jump_table)
                  __stop___jump_table = .; }
 .altinstr_replacement : { *(.altinstr_replacement) }
 .altinstructions : { *(.altinstructions) }
 .init.data : { __start_kprobe_blacklist = .; *(_kprobe_blacklist)
                 __stop_kprobe_blacklist = .; }
 .data : { *(.data .bss) }
}
"""
ROOTS = ("pre_handler_kretprobe T CONFIG_KRETPROBES the root\n"
         "rethook_try_get T CONFIG_RETHOOK absent, its config off\n")
HARMLESS = ("harmless_* an error path made up for the test\n"
            "alt_target made up\n")
INDIRECT = "pre_handler_kretprobe hook(), made up\n"
ARCHES = {"x86_64": "", "arm64": "aarch64-linux-gnu-"}


class MadeUpKernel(unittest.TestCase):
    """Builds the made-up kernel and runs the tool on it."""

    def build(self, arch, source=SOURCE):
        cross = ARCHES[arch]
        if not shutil.which(cross + "gcc"):
            self.skipTest("no %sgcc: run 'make deps'" % cross)
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        files = {"k.c": source, "k.lds": LDS, "roots": ROOTS,
                 "harmless": HARMLESS, "indirect": INDIRECT,
                 ".config": "CONFIG_KRETPROBES=y\n"}
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        subprocess.run([cross + "gcc", "-O2", "-fno-pic", "-fno-pie",
                        "-nostdlib", "-static", "-no-pie",
                        "-Wl,--no-warn-rwx-segments", "-T",
                        os.path.join(d, "k.lds"), "-o",
                        os.path.join(d, "vmlinux"), os.path.join(d, "k.c")],
                       check=True)
        return d

    def run_tool(self, arch, d, *extra):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = khc.main([os.path.join(d, "vmlinux"), "--arch", arch,
                           "--series", "T", "--roots",
                           os.path.join(d, "roots"), "--harmless",
                           os.path.join(d, "harmless"), "--indirect",
                           os.path.join(d, "indirect"),
                           "--objdump", ARCHES[arch] + "objdump",
                           "--nm", ARCHES[arch] + "nm", *extra])
        return rc, out.getvalue(), err.getvalue()

    def verdicts(self, out):
        return {line.split()[0]: line.split()[2]
                for line in out.splitlines() if not line.startswith("#")}


class Image(MadeUpKernel):
    def check_arch(self, arch):
        d = self.build(arch)
        rc, out, err = self.run_tool(arch, d, "--check")
        v = self.verdicts(out)
        # The positive control: an out-of-line copy kprobes accept.
        self.assertEqual(v.get("arch_local_irq_save"), "probeable", out)
        self.assertEqual(rc, 1, out)
        self.assertIn("arch_local_irq_save", err)
        # Blacklisted, but its callee is reached through it.
        self.assertEqual(v.get("listed_helper"), "refused", out)
        self.assertEqual(v.get("deep_leaf"), "probeable", out)
        self.assertIn("deep_leaf 0x", out)
        self.assertIn("pre_handler_kretprobe>listed_helper>deep_leaf", out)
        self.assertEqual(v.get("kp_text"), "refused", out)
        self.assertEqual(v.get("pre_handler_kretprobe"), "refused", out)
        # Harmless: listed as a comment, its callees not followed from it.
        self.assertIn("# harmless harmless_printk", out)
        self.assertNotIn("harmless_printk>deep_leaf", out)
        # An alternative's replacement is code of its function; an arm64
        # callback entry is not.
        self.assertIn("pre_handler_kretprobe>alt_target", out)
        self.assertNotIn("alt_callback", out)
        self.assertEqual(v.get("jl_cold"), "probeable", out)
        self.assertIn("# indirect pre_handler_kretprobe: ", out)
        self.assertIn("hook(), made up", out)
        # Without --check the list is written and the status is 0.
        self.assertEqual(self.run_tool(arch, d)[0], 0)
        return d

    def test_x86_64(self):
        self.check_arch("x86_64")

    def test_arm64(self):
        self.check_arch("arm64")

    def test_a_required_root_missing_fails(self):
        d = self.build("x86_64")
        with open(os.path.join(d, ".config"), "a") as f:
            f.write("CONFIG_RETHOOK=y\n")
        with self.assertRaises(SystemExit) as e:
            self.run_tool("x86_64", d)
        self.assertIn("root rethook_try_get", str(e.exception.code))

    def test_a_call_into_an_unsized_function_fails(self):
        source = SOURCE.replace("\thook();", "\thook();\n\tnosize();")
        source = "void nosize(void);\nasm(\".text\\nnosize: ret\\n\");\n" \
            + source
        d = self.build("x86_64", source)
        with self.assertRaises(SystemExit) as e:
            self.run_tool("x86_64", d)
        self.assertIn("in no function symbol with a size",
                      str(e.exception.code))

    def test_harmless_everything_reached_passes(self):
        d = self.build("x86_64")
        with open(os.path.join(d, "harmless"), "a") as f:
            f.write("arch_local_irq_save made up\ndeep_leaf made up\n"
                    "jl_cold made up\n")
        self.assertEqual(self.run_tool("x86_64", d, "--check")[0], 0)


class Parse(unittest.TestCase):
    def test_arm64_branches(self):
        lines = ["ffff800008001000:\tbl\tffff800008002000 <arch_local_irq_save>",
                 "ffff800008001004:\tb.ne\tffff800008001100 <f+0x100>",
                 "ffff800008001008:\tcbz\tx0, ffff800008003000 <g.cold>",
                 "ffff80000800100c:\tblr\tx2",
                 "ffff800008001010:\tret"]
        self.assertEqual(list(khc.branches(lines, "arm64")),
                         [("direct", 0xffff800008002000),
                          ("direct", 0xffff800008001100),
                          ("direct", 0xffff800008003000),
                          ("indirect", "x2")])

    def test_x86_64_branches(self):
        lines = ["ffffffff81000000:\tcall   ffffffff81000100 <rethook_try_get>",
                 "ffffffff81000005:\tjne    ffffffff81000200 <f.cold>",
                 "ffffffff8100000b:\tcall   *%rax",
                 "ffffffff8100000d:\tcall   ffffffff81e00000 <__x86_indirect_thunk_r11>",
                 "ffffffff81000012:\tnotrack jmp *%rdx",
                 "ffffffff81000015:\tmov    0x10(%rdi),%rax"]
        self.assertEqual(list(khc.branches(lines, "x86_64")),
                         [("direct", 0xffffffff81000100),
                          ("direct", 0xffffffff81000200),
                          ("indirect", "*%rax"),
                          ("indirect", "ffffffff81e00000 <__x86_indirect_thunk_r11>"),
                          ("indirect", "*%rdx")])

    def test_dump_bytes(self):
        dump = ["Contents of section .init.data:",
                " ffffffff82000000 10203040 50607080 00000000 00000000  ...",
                " ffffffff82000010 aabb                                 .."]
        start, data = khc.dump_bytes(dump)
        self.assertEqual(start, 0xffffffff82000000)
        self.assertEqual(khc.le64(data), [0x8070605040302010, 0])
        self.assertEqual(data[-2:], b"\xaa\xbb")


class Unreviewed(MadeUpKernel):
    def test_an_unreviewed_indirect_call_fails(self):
        d = self.build("x86_64")
        with open(os.path.join(d, "indirect"), "w") as f:
            f.write("other_function made up\n")
        with open(os.path.join(d, "harmless"), "a") as f:
            f.write("arch_local_irq_save made up\ndeep_leaf made up\n"
                    "jl_cold made up\n")
        rc, out, err = self.run_tool("x86_64", d, "--check")
        self.assertEqual(rc, 1, out)
        self.assertIn("# unreviewed-indirect pre_handler_kretprobe", out)
        self.assertIn("indirect calls in pre_handler_kretprobe", err)


if __name__ == "__main__":
    unittest.main()
