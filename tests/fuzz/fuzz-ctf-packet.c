// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the CTF data path: packet headers and contexts, event decoding, the
 * time-ordered merge and the babeltrace2-style printer. The input carries its own metadata so
 * the fuzzer can vary layouts too:
 *
 *	u32 LE metadata length | metadata | u32 LE length of stream 0 | stream 0 | stream 1
 *
 * It must never crash, hang or leak. Every event is printed twice, into two memory files:
 * first as it comes, which reads a skipped fixed-layout body where it lies (tk_event.body,
 * the printer's fused plans), then decoded and without its body, which takes the printer's
 * general path. Both texts must be the same: a difference traps.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "common/bytes.h"
#include "common/error.h"
#include "ctf/ctf.h"
#include "model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int devnull = -1;

static void ignore_notice(const struct tk_notice *n, void *payload)
{
	tk_printer_print_notice(payload, n);
}

/* Trap unless the files @a and @b hold the same bytes. */
static void same_or_trap(int a, int b)
{
	static char x[1 << 16], y[1 << 16];
	off_t na = lseek(a, 0, SEEK_END), nb = lseek(b, 0, SEEK_END), off;

	if (na != nb)
		__builtin_trap();
	for (off = 0; off < na; off += (off_t) sizeof(x)) {
		size_t k = (size_t) (na - off) < sizeof(x) ? (size_t) (na - off) : sizeof(x);

		if (pread(a, x, k, off) != (ssize_t) k || pread(b, y, k, off) != (ssize_t) k ||
		    memcmp(x, y, k))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tk_source *src = NULL;
	struct tk_trace trace;
	struct tk_iter *it = NULL;
	struct tk_printer *pr = NULL, *pr2 = NULL;
	struct tk_print_opts po = TK_PRINT_OPTS_INIT;
	int out[2] = {-1, -1};
	const struct tk_event *ev;
	const uint8_t *streams[2];
	size_t sizes[2], mlen, s0, n = 0;
	unsigned int events = 0;

	if (size < 8 || size > (4u << 20))
		return 0;
	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	mlen = tk_load_le32(data);
	if (mlen > size - 8)
		return 0;
	s0 = tk_load_le32(data + 4 + mlen);
	if (s0 > size - 8 - mlen)
		return 0;
	streams[0] = data + 8 + mlen;
	sizes[0] = s0;
	streams[1] = streams[0] + s0;
	sizes[1] = size - 8 - mlen - s0;
	n = sizes[1] ? 2 : 1;
	error_reset();
	if (ctf_source_open_mem(&src, data + 4, mlen, streams, sizes, n) < 0)
		return 0;
	memset(&trace, 0, sizeof(trace));
	trace.sources = &src;
	trace.n_sources = 1;
	po.flags = TK_PRINT_DEFAULT | TK_PRINT_NAMES_HEADER | TK_PRINT_NAMES_SCOPE |
		   TK_PRINT_FIELD_TRACE | TK_PRINT_FIELD_LOGLEVEL | TK_PRINT_FIELD_EMF |
		   TK_PRINT_FIELD_DOMAIN;
	po.err_fd = devnull;
	out[0] = memfd_create("fused", MFD_CLOEXEC);
	out[1] = memfd_create("general", MFD_CLOEXEC);
	if (out[0] < 0 || out[1] < 0)
		goto out;
	po.out_fd = out[0];
	if (model_trace_finish(&trace) < 0 || tk_printer_open(&pr, &po) < 0)
		goto out;
	po.out_fd = out[1];
	if (tk_printer_open(&pr2, &po) < 0 || tk_iter_create(&it, &trace) < 0)
		goto out;
	tk_iter_set_notice_cb(it, ignore_notice, pr);
	/* bounded work per input: the fuzzer looks for crashes, not long traces */
	while (events++ < 100000 && tk_iter_next(it, &ev) == TK_OK) {
		struct tk_event copy;
		enum tk_status st = tk_printer_print(pr, ev);

		if (model_event_values(ev) < 0)
			break;
		copy = *ev;
		copy.body = NULL;
		if ((tk_printer_print(pr2, &copy) < 0) != (st < 0))
			__builtin_trap();
	}
	if (tk_printer_flush(pr) >= 0 && tk_printer_flush(pr2) >= 0)
		same_or_trap(out[0], out[1]);
out:
	tk_iter_destroy(it);
	tk_printer_close(pr);
	tk_printer_close(pr2);
	if (out[0] >= 0)
		close(out[0]);
	if (out[1] >= 0)
		close(out[1]);
	free(trace.streams);
	free(trace.ecs);
	ctf_source_destroy(src);
	return 0;
}
