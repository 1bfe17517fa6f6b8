// SPDX-License-Identifier: MIT
/*
 * probe-target N: call probe_point(i) for i = 1..N, then exit; the recorder's uprobe test puts
 * a uprobe on probe_point and expects exactly N hits with the argument each call had.
 * probe-target --offset prints the file offset of probe_point (what uprobe_events wants), read
 * from this process's own mapping in /proc/self/maps, so the test needs no ELF tools.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile long probe_sink;

__attribute__((noinline)) void probe_point(long i);

__attribute__((noinline)) void probe_point(long i)
{
	probe_sink += i;
	__asm__ volatile("" ::: "memory"); /* keep the call and the body */
}

/* The file offset of @addr: its mapping's start and file offset, from /proc/self/maps. */
static int file_offset(uintptr_t addr, unsigned long long *out)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;

		if (sscanf(line, "%llx-%llx %*s %llx", &lo, &hi, &off) == 3 && addr >= lo &&
		    addr < hi) {
			*out = addr - lo + off;
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long long off;
	long i, n;
	char *end;

	if (argc == 2 && !strcmp(argv[1], "--offset")) {
		if (file_offset((uintptr_t) &probe_point, &off) < 0) {
			fprintf(stderr, "probe-target: cannot find probe_point's mapping\n");
			return 1;
		}
		printf("0x%llx\n", off);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: probe-target N | --offset\n");
		return 2;
	}
	n = strtol(argv[1], &end, 10);
	if (*end || n < 0) {
		fprintf(stderr, "probe-target: invalid count: %s\n", argv[1]);
		return 2;
	}
	for (i = 1; i <= n; i++)
		probe_point(i);
	return 0;
}
