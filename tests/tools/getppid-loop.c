// SPDX-License-Identifier: MIT
/*
 * getppid-loop N: make exactly N getppid system calls (through syscall(2), so no C library
 * can answer from a cache), then exit. The loss test records them: each is one sys_enter
 * event with this process's pid and the syscall number of getppid, which `getppid-loop --nr`
 * prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long long n, i;
	char *end;

	if (argc == 2 && !strcmp(argv[1], "--nr")) {
		printf("%ld\n", (long) SYS_getppid);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: getppid-loop N\n");
		return 2;
	}
	errno = 0;
	n = strtoull(argv[1], &end, 10);
	if (errno || end == argv[1] || *end) {
		fprintf(stderr, "getppid-loop: invalid count: %s\n", argv[1]);
		return 2;
	}
	for (i = 0; i < n; i++)
		(void) syscall(SYS_getppid);
	return 0;
}
