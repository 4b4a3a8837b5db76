// SPDX-License-Identifier: GPL-2.0
/*
 * fail-nth: make the Nth fault-injection point of one system call fail
 * (Documentation/fault-injection/fault-injection.rst, "fail-nth"), and
 * say whether it did.
 *
 *   fail-nth N write FILE TEXT     append TEXT to FILE
 *   fail-nth N insmod MODULE [PARAMS]   load MODULE with finit_module()
 *
 * The file is opened before the fault is armed, so only the write or the
 * module load itself counts: its first N - 1 allocations succeed and the
 * Nth fails. Prints "result=<0 or -errno> injected=<0|1> left=<L>";
 * injected=0 means the call made fewer than N allocations, N - L of them
 * (so a huge N counts the allocations of a call). Exit status 0 unless
 * the tool itself could not run (2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fail_fd = -1;
static long left;

static void arm(const char *nth)
{
	fail_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_fd < 0) {
		perror("fail-nth: /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION?)");
		exit(2);
	}
	if (write(fail_fd, nth, strlen(nth)) < 0) {
		perror("fail-nth: arming");
		exit(2);
	}
}

/* The counter reads 0 once the fault fired, N - k if it did not. */
static int injected(void)
{
	char buf[32] = "";
	ssize_t n = pread(fail_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0) {
		perror("fail-nth: reading back");
		exit(2);
	}
	left = atol(buf);
	/* Disarm, so that what we do next is not counted. */
	if (left && write(fail_fd, "0", 1) < 0)
		perror("fail-nth: disarming");
	return left == 0;
}

int main(int argc, char **argv)
{
	long ret;
	int fd, inj;

	if (argc < 5 && !(argc == 4 && !strcmp(argv[2], "insmod"))) {
		fprintf(stderr,
			"usage: %s N write FILE TEXT | N insmod MODULE [PARAMS]\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(argv[2], "write")) {
		fd = open(argv[3], O_WRONLY | O_APPEND);
		if (fd < 0) {
			perror(argv[3]);
			return 2;
		}
		arm(argv[1]);
		ret = write(fd, argv[4], strlen(argv[4]));
	} else if (!strcmp(argv[2], "insmod")) {
		fd = open(argv[3], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			perror(argv[3]);
			return 2;
		}
		arm(argv[1]);
		ret = syscall(SYS_finit_module, fd, argc > 4 ? argv[4] : "", 0);
	} else {
		fprintf(stderr, "%s: unknown operation '%s'\n", argv[0], argv[2]);
		return 2;
	}
	ret = ret < 0 ? -errno : 0;
	inj = injected();
	printf("result=%ld injected=%d left=%ld\n", ret, inj, left);
	return 0;
}
