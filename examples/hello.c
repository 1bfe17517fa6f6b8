/* SPDX-License-Identifier: MIT */
/*
 * An instrumented program: three `hello:greeting` events. Run it with TRACEKIT_UST_DIR=DIR
 * and read DIR with `tracekit print DIR` or babeltrace2; without it, the events cost one
 * load and one branch each and go nowhere.
 *
 *	cc -o hello hello.c $(pkg-config --cflags --libs tracekit-ust)
 *	TRACEKIT_UST_DIR=/tmp/hello-trace ./hello world
 */
#define TK_TRACEPOINT_DEFINE /* this file holds the descriptions and registers them */
#include "hello-tp.h"

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "world";
	int i;

	for (i = 0; i < 3; i++)
		tk_tracepoint(hello, greeting, i, name);
	return 0; /* the session, if any, is written at exit */
}
