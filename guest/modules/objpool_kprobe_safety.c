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
 */

#include <kunit/test.h>
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

static char ks_buf[1024];
static const char *ks_syms[KS_MAX_SYMS];
static int ks_nr_syms = -1;	/* -1: not parsed yet; -2: too many */

static void ks_parse(void)
{
	char *p = ks_buf, *tok;

	if (ks_nr_syms != -1)
		return;
	ks_nr_syms = 0;
	strscpy(ks_buf, ks_refuse, sizeof(ks_buf));
	while ((tok = strsep(&p, ",")) != NULL) {
		if (!*tok)
			continue;
		if (ks_nr_syms == KS_MAX_SYMS) {
			ks_nr_syms = -2;
			return;
		}
		ks_syms[ks_nr_syms++] = tok;
	}
}

static bool ks_listed(const char *sym)
{
	int i;

	for (i = 0; i < ks_nr_syms; i++)
		if (!strcmp(ks_syms[i], sym))
			return true;
	return false;
}

/* Passes wrongly: a list naming both slow paths but missing a helper. */
static void ks_symbols_given(struct kunit *test)
{
	ks_parse();
	KUNIT_ASSERT_NE_MSG(test, ks_nr_syms, -2, "more than %d symbols",
			    KS_MAX_SYMS);
	KUNIT_EXPECT_TRUE_MSG(test, ks_listed("objpool_pop_slow"),
			      "objpool_pop_slow not in refuse=%s", ks_refuse);
	KUNIT_EXPECT_TRUE_MSG(test, ks_listed("objpool_push_slow"),
			      "objpool_push_slow not in refuse=%s", ks_refuse);
}

static const void *ks_gen(const void *prev, char *desc)
{
	const char **next;

	ks_parse();
	if (ks_nr_syms <= 0)
		return NULL;
	next = prev ? (const char **)prev + 1 : ks_syms;
	if (next >= ks_syms + ks_nr_syms)
		return NULL;
	strscpy(desc, *next, KUNIT_PARAM_DESC_SIZE);
	return next;
}

static int ks_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static int ks_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

/* Passes wrongly: -EINVAL for another reason; the blacklist check sees it. */
static void ks_kprobe_refused(struct kunit *test)
{
	const char *sym = *(const char **)test->param_value;
	struct kprobe kp = { .symbol_name = sym, .pre_handler = ks_pre };
	int ret = register_kprobe(&kp);

	if (!ret)
		unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL,
			    "register_kprobe(%s) returned %d", sym, ret);
}

/* Passes wrongly: as for kprobes (both go through register_kprobe()). */
static void ks_kretprobe_refused(struct kunit *test)
{
	const char *sym = *(const char **)test->param_value;
	struct kretprobe krp = {
		.kp.symbol_name = sym,
		.handler = ks_ret,
		.maxactive = 2,
	};
	int ret = register_kretprobe(&krp);

	if (!ret)
		unregister_kretprobe(&krp);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL,
			    "register_kretprobe(%s) returned %d", sym, ret);
}

/* Positive control: a check refusing every symbol fails here. */
static void ks_control_kprobe(struct kunit *test)
{
	struct kprobe kp = { .symbol_name = ks_accept, .pre_handler = ks_pre };
	int ret = register_kprobe(&kp);

	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "register_kprobe(%s) returned %d",
			    ks_accept, ret);
	if (!ret) {
		KUNIT_EXPECT_NOT_NULL(test, kp.addr);
		unregister_kprobe(&kp);
	}
}

/* Positive control: as above, for kretprobes. */
static void ks_control_kretprobe(struct kunit *test)
{
	struct kretprobe krp = {
		.kp.symbol_name = ks_accept,
		.handler = ks_ret,
		.maxactive = 2,
	};
	int ret = register_kretprobe(&krp);

	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "register_kretprobe(%s) returned %d",
			    ks_accept, ret);
	if (!ret)
		unregister_kretprobe(&krp);
}

static struct kunit_case ks_cases[] = {
	KUNIT_CASE(ks_symbols_given),
	KUNIT_CASE_PARAM(ks_kprobe_refused, ks_gen),
	KUNIT_CASE_PARAM(ks_kretprobe_refused, ks_gen),
	KUNIT_CASE(ks_control_kprobe),
	KUNIT_CASE(ks_control_kretprobe),
	{}
};

static struct kunit_suite ks_suite = {
	.name = "objpool_kprobe_safety",
	.test_cases = ks_cases,
};
kunit_test_suite(ks_suite);

MODULE_DESCRIPTION("objpool's pop and push paths refuse kprobes");
MODULE_LICENSE("GPL");
