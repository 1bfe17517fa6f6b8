// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the CTF data path: packet headers and contexts, event decoding, the
 * time-ordered merge and the babeltrace2-style printer. The input carries its own metadata so
 * the fuzzer can vary layouts too:
 *
 *	u32 LE metadata length | metadata | u32 LE length of stream 0 | stream 0 | stream 1
 *
 * Every event is printed into /dev/null. It must never crash, hang or leak.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tk_source *src = NULL;
	struct tk_trace trace;
	struct tk_iter *it = NULL;
	struct tk_printer *pr = NULL;
	struct tk_print_opts po = TK_PRINT_OPTS_INIT;
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
	po.out_fd = devnull;
	po.err_fd = devnull;
	if (model_trace_finish(&trace) < 0 || tk_printer_open(&pr, &po) < 0 ||
	    tk_iter_create(&it, &trace) < 0)
		goto out;
	tk_iter_set_notice_cb(it, ignore_notice, pr);
	/* bounded work per input: the fuzzer looks for crashes, not long traces */
	while (events++ < 100000 && tk_iter_next(it, &ev) == TK_OK)
		tk_printer_print(pr, ev);
out:
	tk_iter_destroy(it);
	tk_printer_close(pr);
	free(trace.streams);
	free(trace.ecs);
	ctf_source_destroy(src);
	return 0;
}
