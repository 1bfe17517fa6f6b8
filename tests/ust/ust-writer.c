/* SPDX-License-Identifier: MIT */
/*
 * Writes a trace through the application tracer with every field kind, from several threads,
 * and prints what it wrote, one line per event: "VTID NAME: { FIELDS }", each value in
 * babeltrace2's text (the oracle of tests/ust/ust-trace.sh), made here with printf from the
 * values given to the tracepoints, never read back from the trace.
 *
 * With -m MODULE, the C++ module tests/ust/ust-module.cc is loaded with dlopen() once the
 * session runs (its provider is declared then) and each worker thread emits its events too;
 * it is unloaded with dlclose() before the last events (its events stay readable). A fork()ed
 * child then writes every kind from two threads of its own (and the module's events) into
 * streams of its own in the same trace; it prints what it wrote to EXPECTED.child.
 *
 * One more thread writes its events and is still alive, its packet open, when the session
 * stops: the stop must write that packet. With "gap", the first thread sleeps 4.4 s after
 * its first events, so the next event's time is 2^32 ns or more after the previous one's
 * (the event header's extended form).
 *
 * Usage: ust-writer [-m MODULE] DIR EXPECTED THREADS EVENTS [SUBBUF-SIZE SUBBUF-COUNT [CLOCK
 *        [gap]]]   (CLOCK: tsc or monotonic)
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracekit/ust.h>

#include "ust-expect.h"

/* events of the module (ust_module_run()) each thread that has it emits first */
#define MODULE_EVENTS 3
/* events of each of the forked child's two threads */
#define CHILD_EVENTS 20

typedef void (*module_fn)(FILE *f, int tid, int n);

struct worker {
	pthread_t th;
	int idx;
	long events;
	int gap;
	module_fn module; /* non-NULL: emit the module's events first */
	int wait_fd;	  /* >= 0: read one byte from it before ending (alive at the stop) */
	int ready_fd;	  /* with wait_fd: write one byte to it once the events are written */
	char *text;
	size_t len;
};

/*
 * tktest:every: the kinds with an EventHeader format of their own (PID, time in seconds,
 * addresses, port, 16-byte values, string formats, UTF-16 and UTF-32 text), values varying
 * with the event so that lengths cross packet boundaries; their CTF forms are in doc/ust.md.
 */
static void emit_every(FILE *f, int tid, int t, long i, const char *s, const char *cbuf,
		       const uint8_t *blob, const int16_t *arr, const uint32_t *seq)
{
	uint8_t u[16], ip6[16], raw[16];
	char16_t w16[12];
	char32_t w32[12];
	uint32_t v[16];
	size_t wn = (size_t) (i % 11), hn = wn / 2, k;
	int32_t pid = (int32_t) (i * 37 - 1000);
	int64_t secs = (int64_t) i * 86400 - 5;
	uint16_t port = (uint16_t) (i * 7919 + t);
	uint32_t ip4 = (uint32_t) i * 2654435761u;

	for (k = 0; k < 16; k++) {
		u[k] = (uint8_t) (i + (long) k * 11 + t);
		ip6[k] = (uint8_t) ((long) k * i);
		raw[k] = (uint8_t) (255 - (long) k - i);
	}
	for (k = 0; k < wn; k++) {
		w16[k] = (char16_t) (0x41 + k + (size_t) (i % 3) * 0x100);
		w32[k] = (char32_t) (0x1F600 + k + (size_t) i);
	}
	w16[wn] = 0;
	w32[wn] = 0;
	tk_tracepoint(tktest, every, (uint8_t) (i % 12), (int16_t) -i, (uint32_t) i, (int) (i % 40),
		      pid, secs, (int) (i & 1), (double) i * 0.5, (uint64_t) i << 40, u, ip4, ip6,
		      port, raw, s, "caf\xe9",
		      "\xef\xbb\xbf"
		      "bom",
		      "<x/>", "[1]", cbuf, (size_t) (i % 10), w16, w32, w16, hn, w32, hn, blob,
		      (size_t) (i % 6), arr, seq, (size_t) (i % 9));
	fprintf(f, "%d tktest:every: { color = ", tid);
	print_enum(f, color_label((unsigned) (i % 12)), i % 12);
	fprintf(f,
		", s16 = %ld, x32 = 0x%lX, err = %ld, pid = %" PRId32 ", t = %" PRId64
		", flag = %ld, d = %g, u64 = %" PRIu64 ", ",
		-i, (unsigned long) i, i % 40, pid, secs, i & 1, (double) i * 0.5,
		(uint64_t) i << 40);
	for (k = 0; k < 16; k++)
		v[k] = u[k];
	print_list(f, "uuid", v, 16, 1);
	fprintf(f, ", ip4 = 0x%" PRIX32 ", ", ip4);
	for (k = 0; k < 16; k++)
		v[k] = ip6[k];
	print_list(f, "ip6", v, 16, 1);
	fprintf(f, ", port = %u, ", port);
	for (k = 0; k < 16; k++)
		v[k] = raw[k];
	print_list(f, "raw", v, 16, 1);
	fprintf(f,
		", s = \"%s\", l1 = \"caf\xe9\", bom = \"\xef\xbb\xbf"
		"bom\", xml = \"<x/>\", json = \"[1]\", _c8_length = %ld, c8 = \"%.*s\", "
		"_w16_length = %zu, ",
		s, i % 10, (int) (i % 10), cbuf, wn + 1);
	for (k = 0; k <= wn; k++)
		v[k] = w16[k];
	print_list(f, "w16", v, wn + 1, 0);
	fprintf(f, ", _w32_length = %zu, ", wn + 1);
	for (k = 0; k <= wn; k++)
		v[k] = w32[k];
	print_list(f, "w32", v, wn + 1, 0);
	fprintf(f, ", _c16_length = %zu, ", hn);
	for (k = 0; k < hn; k++)
		v[k] = w16[k];
	print_list(f, "c16", v, hn, 0);
	fprintf(f, ", _c32_length = %zu, ", hn);
	for (k = 0; k < hn; k++)
		v[k] = w32[k];
	print_list(f, "c32", v, hn, 0);
	fprintf(f, ", _blob_length = %ld, ", i % 6);
	for (k = 0; k < (size_t) (i % 6); k++)
		v[k] = blob[k];
	print_list(f, "blob", v, (size_t) (i % 6), 1);
	fprintf(f, ", arr = [ [0] = %d, [1] = %d, [2] = %d ], _seq_length = %ld, ", arr[0], arr[1],
		arr[2], i % 9);
	print_list(f, "seq", seq, (size_t) (i % 9), 0);
	fprintf(f, ", pt = { x = -7, y = 9 } }\n");
}

static void emit_all(FILE *f, int tid, int t, long i)
{
	/* ints */
	int8_t a = (int8_t) (i * 7 - 100 + t);
	int16_t b = (int16_t) (-(i * 300) + t);
	int32_t c = (int32_t) (i * 100003 - 5000000);
	int64_t d = (int64_t) i * -1234567890123LL + t;
	uint8_t e = (uint8_t) (i * 13 + t);
	uint16_t g16 = (uint16_t) (i * 977);
	uint32_t g = (uint32_t) (i * 2654435761u);
	uint64_t h = (uint64_t) i * 0x9E3779B97F4A7C15ull;
	char s[64], cbuf[32];
	uint8_t blob[5];
	int16_t arr[3];
	uint32_t seq[8];
	int32_t pts[4];
	size_t n, k;

	tk_tracepoint(tktest, ints, a, b, c, d, e, g16, g, h);
	fprintf(f,
		"%d tktest:ints: { s8 = %d, s16 = %d, s32 = %" PRId32 ", s64 = %" PRId64
		", u8 = %u, u16 = %u, u32 = %" PRIu32 ", u64 = %" PRIu64 " }\n",
		tid, a, b, c, d, e, g16, g, h);

	/* formats */
	{
		uint32_t x = g ^ 0xdeadbeefu;
		uint64_t y = h ^ 0x0123456789abcdefull;
		const void *p = (const void *) (uintptr_t) (0x7f0000001000ull + (uint64_t) i * 16);
		int err = (int) (i % 40) - 3;
		uint64_t when = 1700000000000000000ull + (uint64_t) i;

		tk_tracepoint(tktest, formats, x, y, p, err, when);
		fprintf(f,
			"%d tktest:formats: { x32 = 0x%" PRIX32 ", x64 = 0x%" PRIX64
			", ptr = 0x%" PRIXPTR ", err = %d, when = %" PRIu64 " }\n",
			tid, x, y, (uintptr_t) p, err, when);
	}

	/* floats and bool */
	{
		float fl = (float) (i % 64) * 0.5f - 3.25f;
		double db = (double) i * -0.125 + 1e6;
		int flag = (int) (i & 1) * 7;

		tk_tracepoint(tktest, floats, fl, db, flag);
		fprintf(f, "%d tktest:floats: { f = %g, d = %g, flag = %d }\n", tid, (double) fl,
			db, flag ? 1 : 0);
	}

	/* strings */
	snprintf(s, sizeof(s), "thread %d event %ld", t, i);
	n = (size_t) (i % 10);
	memcpy(cbuf, "counted-text", 12);
	for (k = 0; k < sizeof(blob); k++)
		blob[k] = (uint8_t) (i * 31 + k * 17);
	tk_tracepoint(tktest, strings, s, (const char *) NULL, cbuf, n, blob, (size_t) (i % 6));
	fprintf(f,
		"%d tktest:strings: { s = \"%s\", nul = \"(null)\", _counted_length = %zu, "
		"counted = \"%.*s\", _blob_length = %ld, blob = [",
		tid, s, n, (int) n, cbuf, i % 6);
	for (k = 0; k < (size_t) (i % 6); k++)
		fprintf(f, "%s [%zu] = 0x%X", k ? "," : "", k, blob[k]);
	fprintf(f, " ] }\n");

	/* arrays */
	arr[0] = (int16_t) -i;
	arr[1] = (int16_t) (i * 2);
	arr[2] = (int16_t) (t - 5);
	n = (size_t) (i % 9);
	for (k = 0; k < n; k++)
		seq[k] = (uint32_t) (i * 1000 + k);
	tk_tracepoint(tktest, arrays, arr, seq, n, (const int8_t *) NULL);
	fprintf(f,
		"%d tktest:arrays: { arr = [ [0] = %d, [1] = %d, [2] = %d ], _seq_length = %zu, "
		"seq = [",
		tid, arr[0], arr[1], arr[2], n);
	for (k = 0; k < n; k++)
		fprintf(f, "%s [%zu] = %" PRIu32, k ? "," : "", k, seq[k]);
	fprintf(f, " ], _none_length = 0, none = [ ] }\n");

	/* enums */
	{
		uint8_t col = (uint8_t) (i % 12);
		int16_t sg = (int16_t) ((i % 240) - 120);

		tk_tracepoint(tktest, enums, col, sg);
		print_enums(f, tid, col, sg);
	}

	/* nested */
	for (k = 0; k < 4; k++)
		pts[k] = (int32_t) (i * 10 + (long) k * (k & 1 ? -1 : 1) + t);
	tk_tracepoint(tktest, nested, pts, s, (int) i);
	fprintf(f,
		"%d tktest:nested: { seg = { from = { x = %d, y = %d }, to = { x = %d, y = %d }, "
		"label = \"%s\" }, n = %ld }\n",
		tid, pts[0], pts[1], pts[2], pts[3], s, i);

	/* seq holds i % 9 values: refill them, and the counted text's 10 bytes */
	for (k = 0; k < 8; k++)
		seq[k] = (uint32_t) (i * 1000 + k);
	emit_every(f, tid, t, i, s, cbuf, blob, arr, seq);

	tk_tracepoint(tktest, tick, );
	fprintf(f, "%d tktest:tick: { }\n", tid);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	FILE *f = open_memstream(&w->text, &w->len);
	int tid = (int) syscall(SYS_gettid);
	long i;

	if (!f)
		return NULL;
	if (w->module)
		w->module(f, tid, MODULE_EVENTS);
	for (i = 0; i < w->events; i++) {
		if (w->gap && i == 1) {
			struct timespec pause = {4, 400 * 1000 * 1000};

			nanosleep(&pause, NULL);
		}
		emit_all(f, tid, w->idx, i);
	}
	fclose(f);
	if (w->wait_fd >= 0) {
		char c = 'r';

		if (write(w->ready_fd, &c, 1) != 1)
			return NULL;
		/* written after tk_ust_session_stop(): events are off, nothing more is written */
		if (read(w->wait_fd, &c, 1) == 1)
			tk_tracepoint(tktest, tick, );
	}
	return NULL;
}

/*
 * The forked child: every kind from its main thread and from one thread more, the module's
 * events too when it is loaded; what it wrote goes to @expected ".child". exit() writes its
 * streams.
 */
static void child(const char *expected, module_fn module, struct worker *parent, int n)
{
	struct worker cw[2] = {
		{.idx = 100, .events = CHILD_EVENTS, .module = module, .wait_fd = -1},
		{.idx = 101, .events = CHILD_EVENTS, .module = module, .wait_fd = -1}};
	char path[4096];
	FILE *out;
	int i;

	if (pthread_create(&cw[1].th, NULL, work, &cw[1]))
		exit(1);
	work(&cw[0]);
	pthread_join(cw[1].th, NULL);
	snprintf(path, sizeof(path), "%s.child", expected);
	out = fopen(path, "w");
	if (!out)
		exit(1);
	for (i = 0; i < 2; i++)
		if (!cw[i].text || fwrite(cw[i].text, 1, cw[i].len, out) != cw[i].len)
			exit(1);
	if (fclose(out))
		exit(1);
	/* the parent's copies and ours: a leak checker looks at this process too */
	for (i = 0; i < 2; i++)
		free(cw[i].text);
	for (i = 0; i < n; i++)
		free(parent[i].text);
	free(parent);
	exit(0);
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	struct worker *ws, idle = {0};
	const char *module_path = NULL;
	module_fn module = NULL;
	void *h = NULL;
	int fds[2], ready[2], gap, status, opt;
	pid_t pid;
	FILE *out;
	int n, i;

	while ((opt = getopt(argc, argv, "m:")) != -1) {
		if (opt != 'm')
			return 2;
		module_path = optarg;
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 5) {
		fprintf(stderr, "usage: ust-writer [-m MODULE] DIR EXPECTED THREADS EVENTS [SIZE "
				"COUNT [CLOCK [gap]]]\n");
		return 2;
	}
	gap = argc >= 9 && !strcmp(argv[8], "gap");
	n = atoi(argv[3]);
	if (argc >= 7) {
		o.subbuf_size = strtoul(argv[5], NULL, 0);
		o.subbuf_count = (unsigned) strtoul(argv[6], NULL, 0);
	}
	if (argc >= 8 && !strcmp(argv[7], "tsc"))
		o.clock = TK_UST_CLOCK_TSC;
	if (tk_ust_session_start(argv[1], &o) < 0) {
		fprintf(stderr, "ust-writer: cannot start session: %s\n",
			tk_error_count() ? tk_error_cause(0) : "?");
		return 1;
	}
	/* the module's provider registers with the running session */
	if (module_path) {
		h = dlopen(module_path, RTLD_NOW);
		if (!h) {
			fprintf(stderr, "ust-writer: %s\n", dlerror());
			return 1;
		}
		*(void **) &module = dlsym(h, "ust_module_run");
		if (!module)
			return 1;
	}
	ws = calloc((size_t) n + 2, sizeof(*ws));
	if (!ws)
		return 1;
	for (i = 0; i < n; i++) {
		ws[i].idx = i;
		ws[i].events = atol(argv[4]);
		ws[i].gap = gap && i == 0;
		ws[i].module = module;
		ws[i].wait_fd = -1;
		if (pthread_create(&ws[i].th, NULL, work, &ws[i]))
			return 1;
	}
	for (i = 0; i < n; i++)
		pthread_join(ws[i].th, NULL);
	/* a child writing into streams of its own, the module still loaded */
	pid = fork();
	if (pid == 0)
		child(argv[2], module, ws, n);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "ust-writer: the forked child failed\n");
		return 1;
	}
	/* the module goes; its events stay declared, the rest goes on */
	if (h && dlclose(h)) {
		fprintf(stderr, "ust-writer: %s\n", dlerror());
		return 1;
	}
	/* a thread alive at the stop, its events written, its packet open */
	if (pipe(fds) || pipe(ready))
		return 1;
	idle.idx = n + 1;
	idle.events = 5;
	idle.wait_fd = fds[0];
	idle.ready_fd = ready[1];
	if (pthread_create(&idle.th, NULL, work, &idle))
		return 1;
	/* the main thread writes too, and its last packet is closed by the stop */
	{
		struct worker m = {.idx = n, .events = 3, .wait_fd = -1};

		work(&m);
		ws[n] = m;
	}
	{
		char c;

		if (read(ready[0], &c, 1) != 1)
			return 1;
	}
	if (tk_ust_session_stop() < 0) {
		fprintf(stderr, "ust-writer: cannot stop session\n");
		return 1;
	}
	if (write(fds[1], "x", 1) != 1)
		return 1;
	pthread_join(idle.th, NULL);
	ws[n + 1] = idle;
	n++;
	out = fopen(argv[2], "w");
	if (!out)
		return 1;
	for (i = 0; i <= n; i++) {
		fwrite(ws[i].text, 1, ws[i].len, out);
		free(ws[i].text);
	}
	fclose(out);
	free(ws);
	return 0;
}
