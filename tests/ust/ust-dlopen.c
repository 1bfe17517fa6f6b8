/* SPDX-License-Identifier: MIT */
/*
 * A session started by TRACEKIT_UST_DIR at load and ended at exit, with a provider that comes
 * and goes with a dlopen()ed module (tests/ust/ust-module.cc) and a fork() whose child writes
 * its events into streams of its own in the same trace, then a child that execs this program
 * again (--exec-child), which writes a trace of its own beside the parent's. Prints what it
 * traced in babeltrace2's text (each child its own lines, before the parent goes on).
 *
 * Usage: TRACEKIT_UST_DIR=DIR ust-dlopen MODULE EXPECTED
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ust-expect.h"

typedef void (*run_fn)(FILE *f, int tid, int n);

static void enums(FILE *f, int tid, uint8_t c, int16_t s)
{
	tk_tracepoint(tktest, enums, c, s);
	print_enums(f, tid, c, s);
}

int main(int argc, char **argv)
{
	int tid = (int) syscall(SYS_gettid);
	void *h;
	run_fn run;
	FILE *f;
	pid_t pid;
	int status;

	if (argc == 3 && !strcmp(argv[1], "--exec-child")) {
		f = fopen(argv[2], "a");
		if (!f)
			return 1;
		enums(f, tid, 1, 6);
		fclose(f);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: ust-dlopen MODULE EXPECTED\n");
		return 2;
	}
	f = fopen(argv[2], "a"); /* the child appends too */
	if (!f)
		return 1;
	enums(f, tid, 0, 1);
	h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "ust-dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **) &run = dlsym(h, "ust_module_run");
	if (!run)
		return 1;
	run(f, tid, 4);
	dlclose(h);
	enums(f, tid, 1, 2);
	fflush(f);
	pid = fork();
	if (pid == 0) {
		/* the child traces into streams of its own; exit() writes them */
		int ctid = (int) syscall(SYS_gettid);

		enums(f, ctid, 1, 4);
		enums(f, ctid, 0, 5);
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	pid = fork();
	if (pid == 0) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n > 0) { /* by its name, which the child's trace directory takes */
			self[n] = 0;
			execl(self, argv[0], "--exec-child", argv[2], (char *) NULL);
		}
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	enums(f, tid, 0, 3);
	fclose(f);
	return 0; /* the session ends at exit */
}
