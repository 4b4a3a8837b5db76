// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe safety of the functions a kretprobe hit calls.
 *
 * kretprobe and rethook pop and push their instances from inside the probe
 * machinery, so every function a hit calls (objpool_pop() and
 * objpool_push()'s out-of-line parts among them) must refuse a kprobe,
 * or a probe on it recurses into that machinery.  register_kprobe() and register_kretprobe() from a
 * module are the real test: tracefs also refuses functions that are not
 * ftrace-able, which all of lib/ is, so it would refuse them even without
 * NOKPROBE_SYMBOL().
 *
 * refuse=NAME[=0xADDR],...: functions each registration must fail on
 * with -EINVAL (the kprobe blacklist's answer; -ENOENT, a missing symbol,
 * fails too), by address when one is given: the compiler's out-of-line
 * copies of a static function share its name, and kallsyms would give
 * the first.  accept=SYM: a function that is not blacklisted, on which
 * both must succeed: the positive control that keeps a broken check from
 * passing.  guest/suites/kprobe-safety.sh gives the functions a hit can
 * call (scripts/lib/kprobe_hit_callees.py) and checks the rest (the
 * debugfs blacklist, tracefs).
 *
 * The cases run in module init and print KTAP lines prefixed with
 * "objpool_kprobe_safety_ktap: ", which the suite turns into a KTAP subtest.
 * Not a KUnit suite: 6.1's KUnit runs a module's suites when the module
 * is coming, before its parameters are parsed, so it could not see
 * refuse=.
 */

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>

#define KS_MAX_SYMS	256
#define KS_PFX		"objpool_kprobe_safety_ktap: "

static char *ks_refuse[KS_MAX_SYMS];
static int ks_nr_refuse;
module_param_array_named(refuse, ks_refuse, charp, &ks_nr_refuse, 0444);
MODULE_PARM_DESC(refuse, "Functions that must refuse kprobes: NAME[=0xADDR],...");

static char *ks_accept = "objpool_init";
module_param_named(accept, ks_accept, charp, 0444);
MODULE_PARM_DESC(accept, "A symbol that must accept kprobes (positive control)");

static const char *ks_syms[KS_MAX_SYMS];
static unsigned long ks_addrs[KS_MAX_SYMS];
static int ks_nr_syms;
static int ks_test, ks_failed;

static void ks_result(bool ok, const char *name, const char *sym,
		      const char *detail)
{
	ks_test++;
	if (!ok)
		ks_failed++;
	pr_info(KS_PFX "%s %d %s%s%s\n", ok ? "ok" : "not ok", ks_test,
		name, sym ? "_" : "", sym ?: "");
	if (!ok && detail)
		pr_info(KS_PFX "# %s\n", detail);
}

/* Split each NAME=0xADDR of refuse= (ADDR 0: by name). */
static int ks_parse(void)
{
	char *addr;
	int i;

	for (i = 0; i < ks_nr_refuse; i++) {
		addr = strchr(ks_refuse[i], '=');
		ks_addrs[i] = 0;
		if (addr) {
			*addr++ = '\0';
			if (kstrtoul(addr, 0, &ks_addrs[i]))
				return -EINVAL;
		}
		ks_syms[i] = ks_refuse[i];
	}
	ks_nr_syms = ks_nr_refuse;
	return 0;
}

static bool ks_listed(const char *sym)
{
	int i;

	for (i = 0; i < ks_nr_syms; i++)
		if (!strcmp(ks_syms[i], sym))
			return true;
	return false;
}

static int ks_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static int ks_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static int ks_kprobe(const char *sym, unsigned long addr)
{
	struct kprobe kp = { .pre_handler = ks_pre };
	int ret;

	if (addr)
		kp.addr = (kprobe_opcode_t *)addr;
	else
		kp.symbol_name = sym;
	ret = register_kprobe(&kp);
	if (!ret)
		unregister_kprobe(&kp);
	return ret;
}

static int ks_kretprobe(const char *sym, unsigned long addr)
{
	struct kretprobe krp = { .handler = ks_ret, .maxactive = 2 };
	int ret;

	if (addr)
		krp.kp.addr = (kprobe_opcode_t *)addr;
	else
		krp.kp.symbol_name = sym;
	ret = register_kretprobe(&krp);
	if (!ret)
		unregister_kretprobe(&krp);
	return ret;
}

static int __init ks_init(void)
{
	char detail[128];
	int i, ret, nr;

	ret = ks_parse();
	nr = 1 + 2 * ks_nr_syms + 2;
	pr_info(KS_PFX "1..%d\n", nr);

	/* Passes wrongly: a list naming both slow paths but missing a helper. */
	snprintf(detail, sizeof(detail),
		 "refuse= (%d functions) must name __objpool_pop_slow and __objpool_push_slow (%d)",
		 ks_nr_syms, ret);
	ks_result(!ret && ks_listed("__objpool_pop_slow") &&
		  ks_listed("__objpool_push_slow"), "symbols_given", NULL, detail);

	for (i = 0; i < ks_nr_syms; i++) {
		/* Passes wrongly: -EINVAL for another reason; the blacklist check sees it. */
		ret = ks_kprobe(ks_syms[i], ks_addrs[i]);
		snprintf(detail, sizeof(detail),
			 "register_kprobe(%s) returned %d, expected -EINVAL",
			 ks_syms[i], ret);
		ks_result(ret == -EINVAL, "kprobe_refused", ks_syms[i], detail);

		/* Passes wrongly: as above (register_kretprobe() checks the same). */
		ret = ks_kretprobe(ks_syms[i], ks_addrs[i]);
		snprintf(detail, sizeof(detail),
			 "register_kretprobe(%s) returned %d, expected -EINVAL",
			 ks_syms[i], ret);
		ks_result(ret == -EINVAL, "kretprobe_refused", ks_syms[i], detail);
	}

	/* Positive control: a check refusing every symbol fails here. */
	ret = ks_kprobe(ks_accept, 0);
	snprintf(detail, sizeof(detail), "register_kprobe(%s) returned %d, expected 0",
		 ks_accept, ret);
	ks_result(!ret, "control_kprobe_accepted", NULL, detail);

	/* Positive control: as above, for kretprobes. */
	ret = ks_kretprobe(ks_accept, 0);
	snprintf(detail, sizeof(detail), "register_kretprobe(%s) returned %d, expected 0",
		 ks_accept, ret);
	ks_result(!ret, "control_kretprobe_accepted", NULL, detail);

	pr_info(KS_PFX "# pass:%d fail:%d\n", ks_test - ks_failed, ks_failed);
	pr_info(KS_PFX "done\n");
	return 0;
}

static void __exit ks_exit(void)
{
}

module_init(ks_init);
module_exit(ks_exit);

MODULE_DESCRIPTION("The kretprobe hit path's functions refuse kprobes");
MODULE_LICENSE("GPL");
