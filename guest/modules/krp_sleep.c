// SPDX-License-Identifier: GPL-2.0
/*
 * krp_sleep: kretprobe regression cases on a function that sleeps.
 *
 * krp_sleep_target() blocks until the module releases it.  Kernel threads
 * call it one after another, so that they are all inside it at once, while a
 * kretprobe with an entry handler, a return handler and a data area probes
 * it.  The whole scenario runs in module init; each check is reported as one
 * kernel log line
 *
 *	krp_sleep: result NAME ok|fail|skip DETAIL
 *
 * which the guest suite kretprobe-lifetime turns into a TAP case.
 *
 * mode=unregister: nthreads threads inside the function, the kretprobe
 *	(maxactive = nthreads) unregistered, then the threads released: they
 *	must return normally, the return handler must not run any more, the
 *	memory of the instances must come back, and a new kretprobe on the
 *	same function must work.
 * mode=exhaust: nthreads threads inside the function under a kretprobe
 *	with maxactive < nthreads: exactly nthreads - maxactive misses and
 *	maxactive returns, twice (the instances come back after a round).
 *
 * usage: insmod krp_sleep.ko mode=exhaust nthreads=12 maxactive=4; rmmod krp_sleep
 */
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

static char *mode = "exhaust";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "scenario: unregister or exhaust");
static int nthreads = 12;
module_param(nthreads, int, 0444);
MODULE_PARM_DESC(nthreads, "threads sleeping in the probed function");
static int maxactive = 4;
module_param(maxactive, int, 0444);
MODULE_PARM_DESC(maxactive, "kretprobe maxactive (exhaust mode)");
static int data_size = 64;
module_param(data_size, int, 0444);
MODULE_PARM_DESC(data_size, "kretprobe data_size in bytes (8 to 4096)");

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

static __printf(3, 4)
void krp_report(const char *name, const char *res, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("krp_sleep: result %s %s %pV\n", name, res, &vaf);
	va_end(args);
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
		w->task = kthread_run(krp_thread, w, "krp_sleep/%d", i);
		if (IS_ERR(w->task)) {
			pr_err("krp_sleep: cannot start thread %d: %ld\n",
			       i, PTR_ERR(w->task));
			break;
		}
		krp_started++;
		if (!wait_event_timeout(krp_ctl_wq,
					atomic_read(&krp_inside) == i + 1,
					KRP_TIMEOUT)) {
			pr_err("krp_sleep: thread %d did not enter\n", i);
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
		pr_err("krp_sleep: register_kretprobe: %d\n", ret);
	return ret;
}

/* One full round under a registered kretprobe; reports NAME. */
static void krp_full_round(struct kretprobe *rp, const char *name, int n,
			   int want_returns, int want_missed)
{
	int back, badret, entries, returns, missed, bad;

	if (krp_enter(n, 0x1000)) {
		krp_report(name, "fail", "threads did not all enter");
		return;
	}
	back = krp_release();
	badret = krp_bad_returns(n);
	entries = atomic_read(&krp_entries);
	returns = atomic_read(&krp_returns);
	missed = READ_ONCE(rp->nmissed);
	bad = atomic_read(&krp_bad);
	krp_report(name,
		   back == n && !badret && returns == want_returns &&
		   entries == want_returns && missed == want_missed && !bad ?
		   "ok" : "fail",
		   "threads=%d returned=%d bad_retval=%d entries=%d returns=%d (want %d) nmissed=%d (want %d) bad_data=%d",
		   n, back, badret, entries, returns, want_returns, missed,
		   want_missed, bad);
}

static int krp_unregister_mode(void)
{
	static struct kretprobe rp, rp2;
	long before, after, threshold, leak;
	int n = nthreads, i, back, badret, entries, missed;

	/*
	 * Warm-up: the threads' stacks and slabs, and the caches the instances
	 * come from, have grown already when the free memory is sampled.
	 */
	if (krp_register(&rp, n))
		return -EIO;
	unregister_kretprobe(&rp);
	if (krp_enter(n, 0) || krp_release() != n)
		return -EIO;
	rcu_barrier();
	before = krp_free_kb();

	if (krp_register(&rp, n))
		return -EIO;
	if (krp_enter(n, 0x100)) {
		unregister_kretprobe(&rp);
		return -EIO;
	}
	entries = atomic_read(&krp_entries);
	missed = READ_ONCE(rp.nmissed);
	krp_report("unregister_entered",
		   entries == n && !missed ? "ok" : "fail",
		   "threads=%d maxactive=%d entries=%d nmissed=%d",
		   n, n, entries, missed);

	unregister_kretprobe(&rp);
	back = krp_release();
	badret = krp_bad_returns(n);
	krp_report("unregister_returned",
		   back == n && !badret ? "ok" : "fail",
		   "threads=%d returned=%d bad_retval=%d", n, back, badret);
	if (back != n)
		return -EIO;	/* threads stuck in the module: keep it */
	krp_report("unregister_no_handler_after",
		   !atomic_read(&krp_returns) ? "ok" : "fail",
		   "return handler ran %d times after unregister",
		   atomic_read(&krp_returns));

	/* A new kretprobe on the same function works: nothing left behind. */
	if (krp_register(&rp2, n))
		return -EIO;
	krp_full_round(&rp2, "unregister_reregister", n, n, 0);
	unregister_kretprobe(&rp2);

	/*
	 * The in-flight instances are freed when their tasks return.  Sampled
	 * after the second kretprobe came and went like the warm-up one, so
	 * that freed slabs the allocator keeps are the same at both samples.
	 */
	threshold = (long)n * data_size / 2 / 1024;
	if (IS_ENABLED(CONFIG_KASAN)) {
		krp_report("unregister_no_leak", "skip",
			   "KASAN quarantine holds freed memory");
		return 0;
	}
	if (!IS_ENABLED(CONFIG_DEBUG_KMEMLEAK)) {
		/* Seen here: 2.4 MB apart with no change in the code. */
		krp_report("unregister_no_leak", "skip",
			   "free memory varies by megabytes between samples; needs kmemleak");
		return 0;
	}
	for (i = 0; i < 50; i++) {
		rcu_barrier();
		after = krp_free_kb();
		if (before - after < threshold)
			break;
		msleep(100);
	}
	leak = before - after;
	krp_report("unregister_no_leak", leak < threshold ? "ok" : "fail",
		   "free memory %ld kB lower than before (limit %ld kB: half of the data of %d in-flight instances of %d bytes)",
		   leak, threshold, n, data_size);
	return 0;
}

static int krp_exhaust_mode(void)
{
	static struct kretprobe rp;
	int k = nthreads, m = maxactive;
	int entries, missed;

	if (krp_register(&rp, m))
		return -EIO;
	if (rp.maxactive != m) {
		krp_report("exhaust_entered", "fail", "maxactive %d became %d",
			   m, rp.maxactive);
		unregister_kretprobe(&rp);
		return -EIO;
	}
	if (krp_enter(k, 0x200)) {
		unregister_kretprobe(&rp);
		return -EIO;
	}
	entries = atomic_read(&krp_entries);
	missed = READ_ONCE(rp.nmissed);
	krp_report("exhaust_entered",
		   entries == m && missed == k - m ? "ok" : "fail",
		   "threads=%d maxactive=%d entries=%d (want %d) nmissed=%d (want %d)",
		   k, m, entries, m, missed, k - m);
	if (krp_release() != k) {
		krp_report("exhaust_returned", "fail", "threads stuck");
		return -EIO;	/* keep the probe: the threads are inside */
	}
	krp_report("exhaust_returned",
		   !krp_bad_returns(k) && atomic_read(&krp_returns) == m &&
		   READ_ONCE(rp.nmissed) == k - m && !atomic_read(&krp_bad) ?
		   "ok" : "fail",
		   "threads=%d bad_retval=%d returns=%d (want %d) nmissed=%d (want %d) bad_data=%d",
		   k, krp_bad_returns(k), atomic_read(&krp_returns), m,
		   READ_ONCE(rp.nmissed), k - m, atomic_read(&krp_bad));

	/* Second round: the instances came back to the pool. */
	krp_reset_counts();
	krp_full_round(&rp, "exhaust_second_round", k, m, 2 * (k - m));
	unregister_kretprobe(&rp);
	return 0;
}

static int __init krp_sleep_init(void)
{
	int ret;

	if (nthreads < 1 || nthreads > 1024 || data_size < 8 ||
	    data_size > KRETPROBE_MAX_DATA_SIZE || maxactive < 1 || maxactive > nthreads)
		return -EINVAL;
	krp_workers = kcalloc(nthreads, sizeof(*krp_workers), GFP_KERNEL);
	if (!krp_workers)
		return -ENOMEM;
	if (!strcmp(mode, "unregister")) {
		ret = krp_unregister_mode();
	} else if (!strcmp(mode, "exhaust")) {
		ret = krp_exhaust_mode();
	} else {
		kfree(krp_workers);
		return -EINVAL;
	}
	/* Threads stuck inside the module: it must stay loaded. */
	if (ret && krp_started)
		return 0;
	pr_info("krp_sleep: done mode=%s ret=%d\n", mode, ret);
	return 0;
}

static void __exit krp_sleep_exit(void)
{
	kfree(krp_workers);
}

module_init(krp_sleep_init);
module_exit(krp_sleep_exit);
MODULE_DESCRIPTION("kretprobe regression cases on a function that sleeps");
MODULE_LICENSE("GPL");
