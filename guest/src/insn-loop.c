// SPDX-License-Identifier: GPL-2.0
/*
 * insn-loop: execute a known number of instructions and print how much
 * CLOCK_MONOTONIC time they took.  Under QEMU's -icount shift=0 the guest
 * clock advances 1 ns per guest instruction, so ns/insns is about 1.0 (a
 * little more: the timer interrupts that land in the loop run too); any
 * other value means the guest's clocksource does not follow icount and a
 * timed loop does not count instructions.
 *
 * usage: insn-loop ITERATIONS
 * prints: insn-loop insns=N ns=M
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Two instructions per iteration: decrement, branch if not zero. */
#define INSNS_PER_ITERATION 2

static void spin(unsigned long n)
{
#if defined(__x86_64__)
	asm volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#elif defined(__aarch64__)
	asm volatile("1:\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#else
#error "insn-loop: no counted loop for this architecture"
#endif
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n;
	long long t0, t1;

	if (argc != 2 || (n = strtoul(argv[1], NULL, 0)) == 0) {
		fprintf(stderr, "usage: %s ITERATIONS (> 0)\n", argv[0]);
		return 2;
	}
	t0 = now_ns();
	spin(n);
	t1 = now_ns();
	printf("insn-loop insns=%lu ns=%lld\n", n * INSNS_PER_ITERATION, t1 - t0);
	return 0;
}
