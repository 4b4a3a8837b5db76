// SPDX-License-Identifier: GPL-2.0
/*
 * getppid-n: call getppid() exactly N times, in one thread, and print what
 * it returned.  The known loop of the perf-kretprobe suite: a kretprobe on
 * the syscall's kernel function must count N returns, each with the
 * parent's pid as its return value.  The C library's getppid() is the bare
 * system call (glibc caches no pid), so N calls are N entries.
 *
 * usage: getppid-n N
 * prints: getppid-n calls=N ppid=P
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n, i, ppid = -1, got;

	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: %s N (N > 0 calls of getppid)\n", argv[0]);
		return 2;
	}
	for (i = 0; i < n; i++) {
		got = syscall(SYS_getppid);
		if (i && got != ppid) {
			fprintf(stderr, "%s: getppid() changed from %ld to %ld\n", argv[0], ppid, got);
			return 1;
		}
		ppid = got;
	}
	printf("getppid-n calls=%ld ppid=%ld\n", n, ppid);
	return 0;
}
