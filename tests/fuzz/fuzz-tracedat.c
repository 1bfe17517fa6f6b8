// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the trace.dat container: the input is a whole trace.dat file (v6 or v7,
 * any byte order, plain or compressed). It is opened from memory, then every page of every
 * CPU of every buffer is read and touched, and every latency text is inflated. Work per
 * input is capped so the fuzzer looks for crashes, hangs and leaks, not long traces.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "tracedat/tracedat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracedat *td = NULL;
	volatile uint8_t sink = 0;
	size_t b, c, pages = 0;

	if (size > (4u << 20))
		return 0;
	error_reset();
	if (tracedat_open_mem(&td, data, size) < 0)
		return 0;
	for (b = 0; b < td->info.n_buffers; b++) {
		const struct tracedat_buffer *buf = &td->info.buffers[b];
		struct tracedat_blob text;

		if (buf->latency && tracedat_latency_text(td, b, &text) == TK_OK && text.len)
			sink ^= text.data[text.len - 1];
		for (c = 0; c < buf->n_cpus; c++) {
			struct tracedat_pages *pr;
			const uint8_t *page;
			size_t len;

			error_reset();
			if (tracedat_pages_open(td, b, c, &pr) < 0)
				continue;
			while (pages++ < 20000 && tracedat_pages_next(pr, &page, &len) == TK_OK)
				if (len)
					sink ^= page[0] ^ page[len - 1];
			(void) tracedat_pages_offset(pr);
			tracedat_pages_close(pr);
		}
	}
	(void) sink;
	tracedat_close(td);
	return 0;
}
