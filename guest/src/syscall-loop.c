// SPDX-License-Identifier: GPL-2.0
/*
 * syscall-loop: N threads call a cheap system call in a loop for a given
 * time; prints the number of calls per second.  The real load of the
 * kretprobe benchmark (a probe on the syscall's kernel function).
 *
 * usage: syscall-loop THREADS SECONDS [getppid|prctl|mprotect|nanosleep]
 *
 * nanosleep sleeps for zero time: it enters and leaves the sleeping path
 * (hrtimer_nanosleep()) without waiting.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop;
static int which;
static void *page;

struct worker {
	pthread_t tid;
	unsigned long calls;
	char pad[64];
};

static void *loop(void *arg)
{
	struct timespec zero = { 0, 0 };
	struct worker *w = arg;
	unsigned long n = 0;

	if (which == 3)	/* the default 50 us of slack would be the sleep */
		prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		switch (which) {
		case 0: getppid(); break;
		case 1: prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); break;
		case 2: mprotect(page, 4096, (n & 1) ? PROT_READ : PROT_READ | PROT_WRITE); break;
		case 3: nanosleep(&zero, NULL); break;
		}
		n++;
	}
	w->calls = n;
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "getppid", "prctl", "mprotect", "nanosleep" };
	const int nr_names = sizeof(names) / sizeof(names[0]);
	struct worker *w;
	unsigned long total = 0;
	double t0, secs;
	int i, threads;

	if (argc < 3 || (threads = atoi(argv[1])) <= 0 || atof(argv[2]) <= 0) {
		fprintf(stderr, "usage: %s THREADS SECONDS [getppid|prctl|mprotect|nanosleep]\n", argv[0]);
		return 2;
	}
	for (which = 0; argc > 3 && which < nr_names; which++)
		if (!strcmp(argv[3], names[which]))
			break;
	if (which == nr_names) {
		fprintf(stderr, "%s: unknown syscall '%s'\n", argv[0], argv[3]);
		return 2;
	}
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w = calloc(threads, sizeof(*w));
	if (page == MAP_FAILED || !w)
		return 1;
	t0 = now();
	for (i = 0; i < threads; i++)
		if (pthread_create(&w[i].tid, NULL, loop, &w[i]))
			return 1;
	usleep((useconds_t)(atof(argv[2]) * 1e6));
	atomic_store(&stop, 1);
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].tid, NULL);
		total += w[i].calls;
	}
	secs = now() - t0;
	printf("syscall-loop syscall=%s threads=%d seconds=%.3f calls=%lu calls_per_sec=%.0f\n",
	       names[which], threads, secs, total, total / secs);
	return 0;
}
