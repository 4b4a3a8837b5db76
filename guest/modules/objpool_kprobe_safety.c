// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe safety of the pool's out-of-line fast-path functions.
 *
 * kretprobe and rethook pop and push their instances from inside the probe
 * machinery, so every out-of-line function that objpool_pop() and
 * objpool_push() reach must refuse a kprobe, or a probe on it recurses
 * into that machinery.  register_kprobe() and register_kretprobe() from a
 * module are the real test: tracefs also refuses functions that are not
 * ftrace-able, which all of lib/ is, so it would refuse them even without
 * NOKPROBE_SYMBOL().
 *
 * refuse=SYM,SYM,...: symbols each registration must fail on with -EINVAL
 * (the kprobe blacklist's answer; -ENOENT, a missing symbol, fails too).
 * accept=SYM: a function that is not blacklisted, on which both must
 * succeed: the positive control that keeps a broken check from passing.
 * guest/suites/kprobe-safety.sh finds the symbols and checks the rest
 * (the debugfs blacklist, tracefs).
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

static char *ks_refuse = "";
module_param_named(refuse, ks_refuse, charp, 0444);
MODULE_PARM_DESC(refuse, "Comma-separated symbols that must refuse kprobes");

static char *ks_accept = "objpool_init";
module_param_named(accept, ks_accept, charp, 0444);
MODULE_PARM_DESC(accept, "A symbol that must accept kprobes (positive control)");

#define KS_MAX_SYMS	32
#define KS_PFX		"objpool_kprobe_safety_ktap: "

static char ks_buf[1024];
static const char *ks_syms[KS_MAX_SYMS];
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

static int ks_parse(void)
{
	char *p = ks_buf, *tok;

	strscpy(ks_buf, ks_refuse, sizeof(ks_buf));
	while ((tok = strsep(&p, ",")) != NULL) {
		if (!*tok)
			continue;
		if (ks_nr_syms == KS_MAX_SYMS)
			return -E2BIG;
		ks_syms[ks_nr_syms++] = tok;
	}
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

static int ks_kprobe(const char *sym)
{
	struct kprobe kp = { .symbol_name = sym, .pre_handler = ks_pre };
	int ret = register_kprobe(&kp);

	if (!ret)
		unregister_kprobe(&kp);
	return ret;
}

static int ks_kretprobe(const char *sym)
{
	struct kretprobe krp = {
		.kp.symbol_name = sym,
		.handler = ks_ret,
		.maxactive = 2,
	};
	int ret = register_kretprobe(&krp);

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
		 "refuse=%s must name __objpool_pop_slow and __objpool_push_slow (%d)",
		 ks_refuse, ret);
	ks_result(!ret && ks_listed("__objpool_pop_slow") &&
		  ks_listed("__objpool_push_slow"), "symbols_given", NULL, detail);

	for (i = 0; i < ks_nr_syms; i++) {
		/* Passes wrongly: -EINVAL for another reason; the blacklist check sees it. */
		ret = ks_kprobe(ks_syms[i]);
		snprintf(detail, sizeof(detail),
			 "register_kprobe(%s) returned %d, expected -EINVAL",
			 ks_syms[i], ret);
		ks_result(ret == -EINVAL, "kprobe_refused", ks_syms[i], detail);

		/* Passes wrongly: as above (register_kretprobe() checks the same). */
		ret = ks_kretprobe(ks_syms[i]);
		snprintf(detail, sizeof(detail),
			 "register_kretprobe(%s) returned %d, expected -EINVAL",
			 ks_syms[i], ret);
		ks_result(ret == -EINVAL, "kretprobe_refused", ks_syms[i], detail);
	}

	/* Positive control: a check refusing every symbol fails here. */
	ret = ks_kprobe(ks_accept);
	snprintf(detail, sizeof(detail), "register_kprobe(%s) returned %d, expected 0",
		 ks_accept, ret);
	ks_result(!ret, "control_kprobe_accepted", NULL, detail);

	/* Positive control: as above, for kretprobes. */
	ret = ks_kretprobe(ks_accept);
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

MODULE_DESCRIPTION("objpool's pop and push paths refuse kprobes");
MODULE_LICENSE("GPL");
