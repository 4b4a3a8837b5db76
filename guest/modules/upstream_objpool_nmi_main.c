// SPDX-License-Identifier: GPL-2.0
/*
 * Positive control of the objpool KUnit suite's NMI case: the same stress
 * (lib/objpool_nmi_stress.h of the tree this is built against, not a copy)
 * run on upstream's objpool of Linux 6.12.  Kbuild extracts upstream's
 * include/linux/objpool.h and lib/objpool.c from Debian's linux-source-6.12
 * at build time and renames their symbols to upstream_objpool_*; nothing of
 * upstream is in this repository.
 *
 * Upstream's push reserves a ring position, writes the entry, then
 * publishes a per-ring counter; an NMI that pushes and pops between the
 * reservation and the publication exposes an entry not yet written and then
 * sees the counter moved backwards.  The stress must catch that: a double
 * hand-out, a foreign pointer, a lost object, or a livelock (its STALL
 * line).
 *
 * A livelock must not take the guest with it, or the guest never reports:
 * a pop whose slot's published counter went behind its head spins for good,
 * with interrupts off or in NMI, and the stress itself only says so after
 * ONS_STALL_SECONDS and then waits forever (ons_wait()).  So, as the 7.2
 * series' KUnit case does, the first online CPU takes no part in the pool:
 * the loading thread and a watchdog thread run there.  When the run stops
 * making progress for @stall_seconds (upn_stalled()), the watchdog prints
 * the stress's STALL line, fails the run, and empties every slot where it
 * stands until the run returns, so that every pop spinning on a slot
 * returns NULL and the workers stop.  It uses the hooks the stress offers:
 * ONS_INIT starts the watchdog once the pool exists, ONS_POP keeps the
 * final drain from entering a slot that a pop cannot leave, and ONS_FINI
 * leaves a failed pool allocated.
 *
 * Loading runs the stress once and prints one "upstream_objpool_nmi:
 * RESULT" line, then stays loaded until rmmod (a failed load would make
 * busybox's insmod retry with init_module() and run it twice).  After a
 * failure the pool is left allocated, as the stress leaves it (@leaked):
 * nothing of it points into this module but its release callback, which
 * only fini would call.
 */
#include <linux/cpu.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>

/*
 * Upstream's push warns when its reservation loop sees more positions
 * reserved than the pool has objects, WARN_ON_ONCE(tail - head > nr_objs).
 * Under NMI nesting that can hold with no fault: an NMI between the loop's
 * read of tail and its read of head pushes and pops on the same slot, so
 * head passes the stale tail, and the cmpxchg that follows fails and
 * retries (the 7.2 series' fix says so; KASAN guests show it).
 * A WARNING fails the guest run, and the verdict must be the stress's: in
 * upstream's header only, the warning is counted, and reported.
 */
static atomic_t upn_warnings = ATOMIC_INIT(0);
#define upn_warn_on(cond) ({						\
	bool __warn = (cond);						\
	if (unlikely(__warn))						\
		atomic_inc(&upn_warnings);				\
	__warn;								\
})
#pragma push_macro("WARN_ON_ONCE")
#undef WARN_ON_ONCE
#define WARN_ON_ONCE(cond) upn_warn_on(cond)
#include "upstream_objpool.h"
#pragma pop_macro("WARN_ON_ONCE")

/* The stress's hooks, defined below where the stress is (ONS_SUPPORTED). */
#if defined(CONFIG_X86_LOCAL_APIC) && defined(CONFIG_HAVE_ACPI_APEI_NMI)
static int upn_init(struct upstream_objpool_head *pool, int nr_objs, int size,
		    gfp_t gfp, void *context, upstream_objpool_init_obj_cb objinit,
		    upstream_objpool_fini_cb release);
static void *upn_pop(struct upstream_objpool_head *pool);
static void upn_fini(struct upstream_objpool_head *pool);
#endif

#define ONS_HEAD		struct upstream_objpool_head
#define ONS_INIT		upn_init
#define ONS_POP			upn_pop
#define ONS_PUSH		upstream_objpool_push
#define ONS_FINI		upn_fini
#include "objpool_nmi_stress.h"

/* The watchdog's tag in ons_error(): the context that found the error. */
#define UPN_TAG_WATCHDOG	(-2)
#define UPN_WHY_STALL		"no progress: the pool livelocked"
/* After another error, the time the run has to return before emptying. */
#define UPN_GRACE		HZ

static unsigned int min_landings = 32;
module_param(min_landings, uint, 0444);
MODULE_PARM_DESC(min_landings, "NMIs to land inside pop and inside push on each CPU (32)");

static unsigned int objs_per_cpu = 2;
module_param(objs_per_cpu, uint, 0444);
MODULE_PARM_DESC(objs_per_cpu, "objects per worker CPU (2)");

/*
 * Five seconds, against the stress's 60: a worker finishes a loop of up to
 * eight pops and pushes in about 3 us under QEMU TCG (131,831 loops in the
 * 0.35 s before upstream's pool livelocked in one run), so a worker CPU
 * that finishes no call for 5 s is spinning in the pool, not slow: a vCPU
 * thread left without a host core that long would be a hundred times its
 * usual wait.  It is also well under the kernel's own detectors (RCU stall
 * 21 s on hardware, 120 s or more under TCG here; soft lockup 20 s), so the
 * stress, not they, reports the livelock.
 */
static unsigned int stall_seconds = 5;
module_param(stall_seconds, uint, 0444);
MODULE_PARM_DESC(stall_seconds, "seconds without progress that fail the run as a livelock (5)");

#ifdef ONS_SUPPORTED
/* The watchdog's view of one worker CPU. */
struct upn_seen {
	unsigned long	progress;	/* calls + NMIs when it last moved */
	unsigned long	since;		/* jiffies then */
};

static DEFINE_PER_CPU(struct upn_seen, upn_seen);

struct upn_watchdog {
	struct ons_run		*run;
	struct task_struct	*task;
	int			cpu;		/* the CPU kept out of the pool */
	bool			stalled;	/* the STALL line was printed */
	unsigned long		quiet_since;	/* jiffies: no sender left */
	unsigned long		failed_at;	/* jiffies: it saw the error */
	unsigned long		empties;	/* rounds of upn_empty_slots() */
	unsigned long		first_empty;	/* jiffies of the first */
};

static struct upn_watchdog upn_wd;

/*
 * A slot that a pop cannot leave: its published counter @last is behind
 * its @head (or further ahead than the pool has objects), the state a
 * push interrupted between its reservation and its publication leaves
 * behind, where upstream's __objpool_try_get_slot() re-reads @head until
 * @last is past it.  Returns the slot's CPU, or -1.
 */
static int upn_stuck_slot(struct upstream_objpool_head *pool, u32 *head, u32 *last)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct upstream_objpool_slot *slot = pool->cpu_slots[cpu];

		if (!slot)
			continue;
		*head = READ_ONCE(slot->head);
		*last = READ_ONCE(slot->last);
		if (*head != *last && *last - *head - 1 >= pool->nr_objs)
			return cpu;
	}
	return -1;
}

/*
 * Empties every slot where it stands: its @last is set to its @head, so a
 * pop spinning there sees head == last and returns NULL.  Only after the
 * run has failed: the objects left in the slots are lost, and a push that
 * publishes after this store may publish entries not yet written, which
 * nobody checks any more (the next round empties the slot again).  No
 * ordering is needed: the spinning pop reads @last with READ_ONCE() on
 * every turn and takes no entry when it equals @head.
 */
static void upn_empty_slots(struct ons_run *run)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct upstream_objpool_slot *slot = run->pool.cpu_slots[cpu];

		if (slot)
			WRITE_ONCE(slot->last, READ_ONCE(slot->head));
	}
}

/*
 * Whether the run stopped making progress for stall_seconds; prints the
 * stress's STALL line if so.  While a sender is left (@senders), every
 * worker loops, so each worker CPU must finish a pop or push or handle an
 * NMI: each CPU on its own, not the sum, as with one CPU wedged the other
 * worker loops on (the wedged one never stops sending) and the sum keeps
 * moving.  Once no sender is left, each worker ends at the top of its loop
 * and the run returns within milliseconds: one that has not returned
 * after stall_seconds has a worker or NMI spinning in a pop.
 *
 * The counters are the stress's, each written with WRITE_ONCE() on its own
 * CPU; they are only compared with their last value, so no ordering is
 * needed, and a read racing with ons_run() zeroing them can only restart
 * a CPU's clock.  Likewise @senders: 0 before ons_run() sets it, which
 * only starts the quiet clock that the next poll resets.
 */
static bool upn_stalled(struct upn_watchdog *wd, struct ons_run *run)
{
	unsigned long limit = (unsigned long)stall_seconds * HZ;
	int cpu;

	if (!atomic_read(&run->senders)) {
		if (!wd->quiet_since)
			wd->quiet_since = jiffies ?: 1;
		if (!time_after(jiffies, wd->quiet_since + limit))
			return false;
		pr_err("%s: the run did not end %u s after its last sender stopped, CPUs %*pbl after %lu loops: the pool livelocked\n",
		       ONS_STALL_MSG, stall_seconds,
		       cpumask_pr_args(&run->cpus), ons_progress(run));
		return true;
	}
	wd->quiet_since = 0;
	for_each_cpu(cpu, &run->cpus) {
		struct ons_cpu *c = per_cpu_ptr(&ons_cpus, cpu);
		struct upn_seen *s = per_cpu_ptr(&upn_seen, cpu);
		unsigned long calls = READ_ONCE(c->calls);
		unsigned long nmis = READ_ONCE(c->nmis);

		if (calls + nmis != s->progress) {
			s->progress = calls + nmis;
			s->since = jiffies;
			continue;
		}
		if (!time_after(jiffies, s->since + limit))
			continue;
		pr_err("%s: no progress in %u s on CPU %d (%lu pops and pushes, %lu NMIs; CPUs %*pbl after %lu loops): the pool livelocked\n",
		       ONS_STALL_MSG, stall_seconds, cpu, calls, nmis,
		       cpumask_pr_args(&run->cpus), ons_progress(run));
		return true;
	}
	return false;
}

/*
 * The watchdog, on the CPU kept out of the pool, until kthread_stop() once
 * ons_run() has returned.  A stall fails the run; once the run has failed
 * the slots are emptied every tick, at once after a stall and after
 * UPN_GRACE after any other error (a run that failed returns within
 * milliseconds unless a pop spins), as a pop may spin in a worker or an
 * NMI until the workers have stopped and the NMI handler is unregistered.
 * ons_error() publishes the failure with a release store and the workers
 * test it at the top of each loop (ons_failed()): the stress's ordering,
 * none of this file's.
 */
static int upn_watchdog_fn(void *arg)
{
	struct upn_watchdog *wd = arg;
	struct ons_run *run = wd->run;

	while (!kthread_should_stop()) {
		if (!ons_failed(run) && upn_stalled(wd, run)) {
			WRITE_ONCE(wd->stalled, true);
			ons_error(run, UPN_WHY_STALL, U32_MAX, -1,
				  UPN_TAG_WATCHDOG);
		}
		if (!ons_failed(run)) {
			schedule_timeout_interruptible(HZ / 10);
			continue;
		}
		if (!wd->failed_at)
			wd->failed_at = jiffies ?: 1;
		if (READ_ONCE(wd->stalled) ||
		    time_after(jiffies, wd->failed_at + UPN_GRACE)) {
			if (!wd->empties++)
				wd->first_empty = jiffies;
			upn_empty_slots(run);
		}
		schedule_timeout_interruptible(1);
	}
	return 0;
}

/*
 * The stress's ONS_INIT: upstream's init, then the watchdog.  Started here
 * and not before ons_run(), so that it never sees the pool half built:
 * kthread_create() hands the thread over through kthreadd under locks and
 * completions, which order every store of the init before the watchdog's
 * first load.  Stopped by the module once ons_run() has returned.
 */
static int upn_init(struct upstream_objpool_head *pool, int nr_objs, int size,
		    gfp_t gfp, void *context, upstream_objpool_init_obj_cb objinit,
		    upstream_objpool_fini_cb release)
{
	struct upn_watchdog *wd = &upn_wd;
	struct task_struct *t;
	int ret, cpu;

	ret = upstream_objpool_init(pool, nr_objs, size, gfp, context, objinit,
			     release);
	if (ret)
		return ret;
	for_each_possible_cpu(cpu) {
		struct upn_seen *s = per_cpu_ptr(&upn_seen, cpu);

		s->progress = 0;
		s->since = jiffies;
	}
	t = kthread_create(upn_watchdog_fn, wd, "upstream_wd");
	if (IS_ERR(t)) {
		upstream_objpool_fini(pool);
		return PTR_ERR(t);
	}
	kthread_bind(t, wd->cpu);
	get_task_struct(t);
	wd->task = t;
	wake_up_process(t);
	return 0;
}

/*
 * The stress's ONS_POP.  On the watchdog's CPU it is the final drain, the
 * only pop there, run once the workers have completed (their complete()
 * and the loader's wait order their stores before these loads) and the
 * NMI handler is unregistered (its synchronize_rcu() waits for every
 * handler): nothing else touches the pool, so a slot that a pop cannot
 * leave stays so.  Enter none such, which would wedge the watchdog's CPU
 * for good: that is a livelock, the stress's STALL.
 */
static inline void *upn_pop(struct upstream_objpool_head *pool)
{
	struct ons_run *run = container_of(pool, struct ons_run, pool);
	u32 head, last;
	int cpu;

	if (raw_smp_processor_id() != upn_wd.cpu)
		return upstream_objpool_pop(pool);
	cpu = upn_stuck_slot(pool, &head, &last);
	if (cpu < 0)
		return upstream_objpool_pop(pool);
	if (!ons_failed(run)) {
		pr_err("%s: after the run the slot of CPU %d is published up to %u, behind its head %u: a pop there would spin for good: the pool livelocked\n",
		       ONS_STALL_MSG, cpu, last, head);
		WRITE_ONCE(upn_wd.stalled, true);
		ons_error(run, UPN_WHY_STALL, U32_MAX, -1, ONS_TAG_MAIN);
	}
	return NULL;
}

/* The stress's ONS_FINI: upstream's fini pops too; not on a failed pool. */
static void upn_fini(struct upstream_objpool_head *pool)
{
	struct ons_run *run = container_of(pool, struct ons_run, pool);

	if (ons_failed(run)) {
		run->leaked = true;
		return;
	}
	upstream_objpool_fini(pool);
}

static void upn_report(struct ons_run *run, s64 ms)
{
	struct upn_watchdog *wd = &upn_wd;
	unsigned long in_pop = 0, in_push = 0, nmis = 0;
	int cpu;

	for_each_cpu(cpu, &run->cpus) {
		struct ons_cpu *c = per_cpu_ptr(&ons_cpus, cpu);

		pr_info("upstream_objpool_nmi: CPU %d: %lu loops, %lu NMIs handled, %lu inside a pop, %lu inside a push\n",
			cpu, c->loops, c->nmis, c->in_pop, c->in_push);
		nmis += c->nmis;
		in_pop += c->in_pop;
		in_push += c->in_push;
	}
	pr_info("upstream_objpool_nmi: upstream's push found tail - head > nr_objs %d times (its WARN_ON_ONCE, counted)\n",
		atomic_read(&upn_warnings));
	if (wd->empties)
		pr_info("upstream_objpool_nmi: the watchdog emptied every slot %lu times, the first %u ms after it saw the run fail\n",
			wd->empties,
			jiffies_to_msecs(wd->first_empty - wd->failed_at));
	if (run->leaked)
		pr_info("upstream_objpool_nmi: the pool is left allocated\n");
	if (atomic_read(&run->errors) || run->dups ||
	    run->drained != run->nr_objs)
		pr_info("upstream_objpool_nmi: RESULT pool failed: %s (object %u, owner %d, tag %d); final drain %d of %d objects, %d duplicates; %lu NMIs, %lu inside a pop, %lu inside a push; %lld ms\n",
			ons_why(run), run->bad_index, run->bad_owner,
			run->bad_tag, run->drained, run->nr_objs, run->dups,
			nmis, in_pop, in_push, ms);
	else
		pr_info("upstream_objpool_nmi: RESULT pool passed: %lu NMIs, %lu inside a pop, %lu inside a push, every object back once; %lld ms\n",
			nmis, in_pop, in_push, ms);
}

static int __init upstream_objpool_nmi_init(void)
{
	struct upn_watchdog *wd = &upn_wd;
	struct ons_run *run;
	ktime_t start;
	int ret;

	if (!stall_seconds) {
		pr_info("upstream_objpool_nmi: RESULT skipped: stall_seconds=0\n");
		return 0;
	}
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	cpus_read_lock();
	cpumask_copy(&run->cpus, cpu_online_mask);
	if (cpumask_weight(&run->cpus) < 3) {
		cpus_read_unlock();
		pr_info("upstream_objpool_nmi: RESULT skipped: needs three online CPUs, two for the workers and one for the watchdog\n");
		kfree(run);
		return 0;
	}
	wd->cpu = cpumask_first(&run->cpus);
	wd->run = run;
	cpumask_clear_cpu(wd->cpu, &run->cpus);
	set_cpus_allowed_ptr(current, cpumask_of(wd->cpu));
	run->nr_objs = objs_per_cpu * cpumask_weight(&run->cpus);
	run->min_landings = min_landings;
	run->max_nmis = 512 * (unsigned long)min_landings;
	pr_info("upstream_objpool_nmi: upstream objpool, %d objects, workers on CPUs %*pbl, loader and watchdog on CPU %d, stall after %u s\n",
		run->nr_objs, cpumask_pr_args(&run->cpus), wd->cpu,
		stall_seconds);
	start = ktime_get();
	ret = ons_run(run);
	/*
	 * kthread_stop() wakes the watchdog and waits for it to exit, after
	 * its last access to @run and to the pool.
	 */
	if (wd->task) {
		kthread_stop(wd->task);
		put_task_struct(wd->task);
		wd->task = NULL;
	}
	cpus_read_unlock();
	if (ret) {
		pr_info("upstream_objpool_nmi: RESULT skipped: cannot run the stress: %d\n",
			ret);
		kfree(run);
		return 0;
	}
	upn_report(run, ktime_ms_delta(ktime_get(), start));
	kfree(run);
	return 0;
}
#else
static int __init upstream_objpool_nmi_init(void)
{
	pr_info("upstream_objpool_nmi: RESULT skipped: NMI IPIs are x86 only (with ACPI)\n");
	return 0;
}
#endif

static void __exit upstream_objpool_nmi_exit(void)
{
}

module_init(upstream_objpool_nmi_init);
module_exit(upstream_objpool_nmi_exit);
MODULE_DESCRIPTION("NMI stress on upstream's objpool (positive control)");
MODULE_LICENSE("GPL");
