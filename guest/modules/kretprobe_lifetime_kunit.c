// SPDX-License-Identifier: GPL-2.0
/*
 * kretprobe_lifetime_kunit: KUnit suite "kretprobe_lifetime", kretprobes on
 * a function that sleeps.
 *
 * krp_sleep_target() blocks until the suite releases it.  Kernel threads
 * call it one after another, so that they are all inside it at once, while a
 * kretprobe with an entry handler, a return handler and a data area probes
 * it.  The cases run in order and each takes the scenario one step further;
 * a case whose scenario did not get that far is skipped, saying so.
 *
 * unregister_*: KRP_UNREG_THREADS threads inside the function, the kretprobe
 *	(maxactive = threads) unregistered, then the threads released: they
 *	must return normally, the return handler must not run any more, a new
 *	kretprobe on the same function must work, and the memory of the
 *	instances must come back.
 * exhaust_*: KRP_EXH_THREADS threads inside the function under a kretprobe
 *	with maxactive KRP_EXH_MAX < threads: exactly threads - maxactive
 *	misses and maxactive returns, twice (the instances come back after a
 *	round).
 *
 * What a wrong pool would still pass, per case:
 * unregister_entered: a pool giving two threads one instance (entries still
 *	count n).
 * unregister_returned: a pool that frees instances early but whose memory
 *	still reads fine (KASAN in the debug flavor sees it).
 * unregister_no_handler_after: a pool that loses the instances of an
 *	unregistered probe (nothing runs).
 * unregister_reregister: a pool whose leak only shows after many rounds.
 * unregister_no_leak: any; it needs kmemleak without KASAN, so it skips in
 *	every flavor make check runs, and the debug flavor's kmemleak suite
 *	covers leaks instead.
 * exhaust_entered: a pool with maxactive plus one spare that a second miss
 *	would show (threads - maxactive counted exactly).
 * exhaust_returned: a pool that returns instances to the wrong probe's pool
 *	(one probe here).
 * exhaust_second_round: a pool that misses while instances are free but
 *	only below maxactive (never here).
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>

#define KRP_MAGIC	0x5a5a1234UL
#define KRP_PATTERN	0xa5
#define KRP_TIMEOUT	(60 * HZ)
/*
 * 512 threads, each instance with 4 KiB of data (KRETPROBE_MAX_DATA_SIZE):
 * a leak of the in-flight instances (2 MiB or more) stands well above the
 * noise of the free-memory count (the limit is half of it).
 */
#define KRP_UNREG_THREADS	512
#define KRP_UNREG_DATA		4096
#define KRP_EXH_THREADS		12
#define KRP_EXH_MAX		4
#define KRP_EXH_DATA		64

/* The data area size of the kretprobe in use (the handlers fill it). */
static int data_size;

struct krp_worker {
	struct task_struct *task;
	unsigned long cookie;
	unsigned long ret;
};

static struct krp_worker *krp_workers;
static int krp_started;
static bool krp_released;
static atomic_t krp_inside = ATOMIC_INIT(0);
static atomic_t krp_returned = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(krp_wq);
static DECLARE_WAIT_QUEUE_HEAD(krp_ctl_wq);

static atomic_t krp_entries = ATOMIC_INIT(0);
static atomic_t krp_returns = ATOMIC_INIT(0);
static atomic_t krp_bad = ATOMIC_INIT(0);

/* The probed function: sleeps until released, returns its cookie mixed. */
static noinline unsigned long krp_sleep_target(unsigned long cookie)
{
	atomic_inc(&krp_inside);
	wake_up(&krp_ctl_wq);
	wait_event_idle(krp_wq, READ_ONCE(krp_released));
	atomic_dec(&krp_inside);
	return cookie ^ KRP_MAGIC;
}

/* Called through a pointer so that the compiler keeps the real function. */
static unsigned long (*krp_target_fn)(unsigned long) = krp_sleep_target;

static int krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned long cookie = regs_get_kernel_argument(regs, 0);

	memset(ri->data, KRP_PATTERN, data_size);
	memcpy(ri->data, &cookie, sizeof(cookie));
	atomic_inc(&krp_entries);
	return 0;
}

static int krp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned long cookie;
	int i;

	memcpy(&cookie, ri->data, sizeof(cookie));
	if (regs_return_value(regs) != (cookie ^ KRP_MAGIC))
		atomic_inc(&krp_bad);
	for (i = sizeof(cookie); i < data_size; i++) {
		if ((unsigned char)ri->data[i] != KRP_PATTERN) {
			atomic_inc(&krp_bad);
			break;
		}
	}
	atomic_inc(&krp_returns);
	return 0;
}

static long krp_free_kb(void)
{
	struct sysinfo si;

	si_meminfo(&si);
	return si.freeram << (PAGE_SHIFT - 10);
}

static int krp_thread(void *arg)
{
	struct krp_worker *w = arg;

	w->ret = krp_target_fn(w->cookie);
	atomic_inc(&krp_returned);
	wake_up(&krp_ctl_wq);
	set_current_state(TASK_IDLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_IDLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Release the threads, wait for them to return; the number that returned. */
static int krp_release(void)
{
	int i, n;

	WRITE_ONCE(krp_released, true);
	wake_up_all(&krp_wq);
	wait_event_timeout(krp_ctl_wq,
			   atomic_read(&krp_returned) == krp_started,
			   KRP_TIMEOUT);
	n = atomic_read(&krp_returned);
	if (n != krp_started)
		return n;	/* threads stuck inside: cannot stop them */
	for (i = 0; i < krp_started; i++)
		kthread_stop(krp_workers[i].task);
	krp_started = 0;
	return n;
}

/*
 * Start n threads one after another, each inside the function before the
 * next starts.  Returns 0 when all are inside; on failure the started ones
 * are released.
 */
static int krp_enter(int n, unsigned long base)
{
	struct krp_worker *w;
	int i;

	WRITE_ONCE(krp_released, false);
	atomic_set(&krp_returned, 0);
	krp_started = 0;
	for (i = 0; i < n; i++) {
		w = &krp_workers[i];
		w->cookie = base + i;
		w->ret = 0;
		w->task = kthread_run(krp_thread, w, "krp_lifetime/%d", i);
		if (IS_ERR(w->task)) {
			pr_err("kretprobe_lifetime: cannot start thread %d: %ld\n",
			       i, PTR_ERR(w->task));
			break;
		}
		krp_started++;
		if (!wait_event_timeout(krp_ctl_wq,
					atomic_read(&krp_inside) == i + 1,
					KRP_TIMEOUT)) {
			pr_err("kretprobe_lifetime: thread %d did not enter\n", i);
			break;
		}
	}
	if (i == n)
		return 0;
	krp_release();
	return -EIO;
}

/* The threads of the last round whose return value was wrong. */
static int krp_bad_returns(int n)
{
	int i, bad = 0;

	for (i = 0; i < n; i++)
		if (krp_workers[i].ret != (krp_workers[i].cookie ^ KRP_MAGIC))
			bad++;
	return bad;
}

static void krp_reset_counts(void)
{
	atomic_set(&krp_entries, 0);
	atomic_set(&krp_returns, 0);
	atomic_set(&krp_bad, 0);
}

/* Whether krp_rp is registered, so that krp_suite_exit() can undo it. */
static bool krp_registered;

static int krp_register(struct kretprobe *rp, int max)
{
	int ret;

	memset(rp, 0, sizeof(*rp));
	rp->kp.addr = (kprobe_opcode_t *)krp_sleep_target;
	rp->entry_handler = krp_entry;
	rp->handler = krp_return;
	rp->data_size = data_size;
	rp->maxactive = max;
	krp_reset_counts();
	ret = register_kretprobe(rp);
	if (ret)
		pr_err("kretprobe_lifetime: register_kretprobe: %d\n", ret);
	krp_registered = !ret;
	return ret;
}

static void krp_unregister(struct kretprobe *rp)
{
	unregister_kretprobe(rp);
	krp_registered = false;
}

/* Misses so far (bumped by the kprobe handler on any CPU). */
static int krp_missed(struct kretprobe *rp)
{
	return READ_ONCE(rp->nmissed);
}

/*
 * One full round under a registered kretprobe: n threads enter and return;
 * want_returns of them through the return handler, want_missed misses in
 * all since registration.
 */
static void krp_full_round(struct kunit *test, struct kretprobe *rp, int n,
			   int want_returns, int want_missed)
{
	KUNIT_ASSERT_EQ_MSG(test, krp_enter(n, 0x1000), 0,
			    "threads did not all enter");
	KUNIT_EXPECT_EQ_MSG(test, krp_release(), n, "threads stuck inside");
	KUNIT_EXPECT_EQ_MSG(test, krp_bad_returns(n), 0, "wrong return values");
	KUNIT_EXPECT_EQ(test, atomic_read(&krp_entries), want_returns);
	KUNIT_EXPECT_EQ(test, atomic_read(&krp_returns), want_returns);
	KUNIT_EXPECT_EQ(test, krp_missed(rp), want_missed);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&krp_bad), 0,
			    "data area or return value wrong in the handler");
}

/*
 * The scenario's progress: each case starts from the step the one before
 * left, and skips when that case could not get there.
 */
enum krp_step {
	KRP_NONE,
	KRP_UNREG_INSIDE,	/* probe registered, threads inside */
	KRP_UNREG_BACK,		/* probe gone, threads returned */
	KRP_UNREG_DONE,		/* second probe came and went */
	KRP_EXH_INSIDE,		/* probe registered, threads inside */
	KRP_EXH_BACK,		/* threads returned, probe still registered */
};

static enum krp_step krp_step;
static struct kretprobe krp_rp;
static long krp_free_before;

static void krp_need(struct kunit *test, enum krp_step step)
{
	if (krp_step != step)
		kunit_skip(test, "an earlier case of the scenario failed");
}

static void unregister_entered(struct kunit *test)
{
	int n = KRP_UNREG_THREADS;

	data_size = KRP_UNREG_DATA;
	/*
	 * Warm-up: the threads' stacks and slabs, and the caches the instances
	 * come from, have grown already when the free memory is sampled.
	 */
	KUNIT_ASSERT_EQ(test, krp_register(&krp_rp, n), 0);
	krp_unregister(&krp_rp);
	KUNIT_ASSERT_EQ(test, krp_enter(n, 0), 0);
	KUNIT_ASSERT_EQ(test, krp_release(), n);
	rcu_barrier();
	krp_free_before = krp_free_kb();

	KUNIT_ASSERT_EQ(test, krp_register(&krp_rp, n), 0);
	if (krp_enter(n, 0x100)) {
		krp_unregister(&krp_rp);
		KUNIT_FAIL(test, "threads did not all enter");
		return;
	}
	krp_step = KRP_UNREG_INSIDE;
	KUNIT_EXPECT_EQ(test, atomic_read(&krp_entries), n);
	KUNIT_EXPECT_EQ(test, krp_missed(&krp_rp), 0);
}

static void unregister_returned(struct kunit *test)
{
	int n = KRP_UNREG_THREADS;

	krp_need(test, KRP_UNREG_INSIDE);
	krp_unregister(&krp_rp);
	/* Threads stuck in the module: it must stay loaded (krp_suite_exit()). */
	KUNIT_ASSERT_EQ_MSG(test, krp_release(), n, "threads stuck inside");
	krp_step = KRP_UNREG_BACK;
	KUNIT_EXPECT_EQ_MSG(test, krp_bad_returns(n), 0, "wrong return values");
}

static void unregister_no_handler_after(struct kunit *test)
{
	krp_need(test, KRP_UNREG_BACK);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&krp_returns), 0,
			    "the return handler ran after unregister");
}

/* A new kretprobe on the same function works: nothing left behind. */
static void unregister_reregister(struct kunit *test)
{
	int n = KRP_UNREG_THREADS;

	krp_need(test, KRP_UNREG_BACK);
	KUNIT_ASSERT_EQ(test, krp_register(&krp_rp, n), 0);
	krp_full_round(test, &krp_rp, n, n, 0);
	krp_unregister(&krp_rp);
	krp_step = KRP_UNREG_DONE;
}

/*
 * The in-flight instances are freed when their tasks return.  Sampled after
 * the second kretprobe came and went like the warm-up one, so that freed
 * slabs the allocator keeps are the same at both samples.
 */
static void unregister_no_leak(struct kunit *test)
{
	long threshold = (long)KRP_UNREG_THREADS * KRP_UNREG_DATA / 2 / 1024;
	long after = 0;
	int i;

	krp_need(test, KRP_UNREG_DONE);
	if (IS_ENABLED(CONFIG_KASAN))
		kunit_skip(test, "KASAN quarantine holds freed memory");
	/* Seen here: 2.4 MB apart with no change in the code. */
	if (!IS_ENABLED(CONFIG_DEBUG_KMEMLEAK))
		kunit_skip(test, "free memory varies by megabytes between samples; needs kmemleak");
	for (i = 0; i < 50; i++) {
		rcu_barrier();
		after = krp_free_kb();
		if (krp_free_before - after < threshold)
			break;
		msleep(100);
	}
	KUNIT_EXPECT_LT_MSG(test, krp_free_before - after, threshold,
			    "free memory lower than before by more than half of the data of %d in-flight instances of %d bytes",
			    KRP_UNREG_THREADS, KRP_UNREG_DATA);
}

static void exhaust_entered(struct kunit *test)
{
	int k = KRP_EXH_THREADS, m = KRP_EXH_MAX;

	data_size = KRP_EXH_DATA;
	KUNIT_ASSERT_EQ(test, krp_register(&krp_rp, m), 0);
	if (krp_rp.maxactive != m || krp_enter(k, 0x200)) {
		krp_unregister(&krp_rp);
		KUNIT_FAIL(test, "maxactive %d became %d, or threads did not all enter",
			   m, krp_rp.maxactive);
		return;
	}
	krp_step = KRP_EXH_INSIDE;
	KUNIT_EXPECT_EQ(test, atomic_read(&krp_entries), m);
	KUNIT_EXPECT_EQ(test, krp_missed(&krp_rp), k - m);
}

static void exhaust_returned(struct kunit *test)
{
	int k = KRP_EXH_THREADS, m = KRP_EXH_MAX;

	krp_need(test, KRP_EXH_INSIDE);
	/* Threads stuck: keep the probe, they are inside (krp_suite_exit()). */
	KUNIT_ASSERT_EQ_MSG(test, krp_release(), k, "threads stuck inside");
	krp_step = KRP_EXH_BACK;
	KUNIT_EXPECT_EQ_MSG(test, krp_bad_returns(k), 0, "wrong return values");
	KUNIT_EXPECT_EQ(test, atomic_read(&krp_returns), m);
	KUNIT_EXPECT_EQ(test, krp_missed(&krp_rp), k - m);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&krp_bad), 0,
			    "data area or return value wrong in the handler");
}

/* Second round: the instances came back to the pool. */
static void exhaust_second_round(struct kunit *test)
{
	int k = KRP_EXH_THREADS, m = KRP_EXH_MAX;

	krp_need(test, KRP_EXH_BACK);
	krp_reset_counts();
	krp_full_round(test, &krp_rp, k, m, 2 * (k - m));
	krp_unregister(&krp_rp);
	krp_step = KRP_NONE;
}

static int krp_suite_init(struct kunit_suite *suite)
{
	krp_workers = kcalloc(KRP_UNREG_THREADS, sizeof(*krp_workers),
			      GFP_KERNEL);
	return krp_workers ? 0 : -ENOMEM;
}

/*
 * Threads still inside krp_sleep_target() (a case failed with them stuck)
 * would run freed code after an unload: pin the module instead.
 */
static void krp_suite_exit(struct kunit_suite *suite)
{
	if (krp_started) {
		pr_err("kretprobe_lifetime: %d threads stuck inside the probed function; the module stays loaded\n",
		       krp_started);
		__module_get(THIS_MODULE);
		return;
	}
	/* A case that failed half-way may have left its probe behind. */
	if (krp_registered)
		krp_unregister(&krp_rp);
	kfree(krp_workers);
}

static struct kunit_case krp_cases[] = {
	KUNIT_CASE(unregister_entered),
	KUNIT_CASE(unregister_returned),
	KUNIT_CASE(unregister_no_handler_after),
	KUNIT_CASE(unregister_reregister),
	KUNIT_CASE(unregister_no_leak),
	KUNIT_CASE(exhaust_entered),
	KUNIT_CASE(exhaust_returned),
	KUNIT_CASE(exhaust_second_round),
	{}
};

static struct kunit_suite krp_suite = {
	.name = "kretprobe_lifetime",
	.suite_init = krp_suite_init,
	.suite_exit = krp_suite_exit,
	.test_cases = krp_cases,
};

kunit_test_suite(krp_suite);

MODULE_DESCRIPTION("KUnit: kretprobes on a function that sleeps");
MODULE_LICENSE("GPL");
