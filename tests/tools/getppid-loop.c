// SPDX-License-Identifier: MIT
/*
 * getppid-loop [-P PROCS] N: make exactly N getppid system calls (through syscall(2), so no
 * C library can answer from a cache), then exit; with -P, PROCS processes (this one and
 * PROCS - 1 children forked first) make N each, and this one waits for the others. The loss
 * test records them: each call is one sys_enter event with the caller's pid and the syscall
 * number of getppid, which `getppid-loop --nr` prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long long n, i, procs = 1;
	char *end;
	int arg = 1;

	if (argc == 2 && !strcmp(argv[1], "--nr")) {
		printf("%ld\n", (long) SYS_getppid);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "-P")) {
		procs = strtoull(argv[2], &end, 10);
		if (*end || procs < 1 || procs > 64) {
			fprintf(stderr, "getppid-loop: invalid process count: %s\n", argv[2]);
			return 2;
		}
		arg = 3;
	} else if (argc != 2) {
		fprintf(stderr, "usage: getppid-loop [-P PROCS] N | --nr\n");
		return 2;
	}
	errno = 0;
	n = strtoull(argv[arg], &end, 10);
	if (errno || end == argv[arg] || *end) {
		fprintf(stderr, "getppid-loop: invalid count: %s\n", argv[arg]);
		return 2;
	}
	for (i = 1; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("getppid-loop: fork");
			return 1;
		}
		if (pid == 0) {
			procs = 1;
			break;
		}
	}
	for (i = 0; i < n; i++)
		(void) syscall(SYS_getppid);
	if (procs > 1)
		while (wait(NULL) > 0 || errno == EINTR)
			;
	return 0;
}
