// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the readers of crash recovery's files (src/ust/ust-ring.c): a ring file's
 * header and the complete packets of its sub-buffers, and the scan of a stream file for its
 * whole packets, which tracekit ust-recover runs on files a killed process left. The input is
 * a ring file; its sub-buffers are also scanned as a stream file, and an input that is not a
 * ring file is scanned whole as one (little-endian, the UUID of its first packet). It must
 * never crash, hang or read outside the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "ust/ust-ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ust_ring_info r;
	struct ust_ring_packet *pk;
	uint64_t good, last;
	uint8_t uuid[16] = {0};
	unsigned int n;
	int has_last;

	if (size > (8u << 20))
		return 0;
	error_reset();
	if (ust_ring_parse(&r, data, size) < 0) {
		if (size >= 20)
			memcpy(uuid, data + 4, 16);
		error_reset();
		if (ust_stream_scan(data, size, TK_BYTE_ORDER_LE, uuid, &good, &has_last, &last) ==
			    TK_OK &&
		    good > size)
			abort(); /* whole packets beyond the input */
		return 0;
	}
	pk = calloc(r.count, sizeof(*pk));
	if (!pk)
		return 0;
	if (ust_ring_packets(&r, data, size, pk, &n) == TK_OK) {
		unsigned int i;

		for (i = 0; i < n; i++)
			if (pk[i].off > size || pk[i].size > size - pk[i].off ||
			    (i && pk[i].seq <= pk[i - 1].seq))
				abort(); /* a packet outside the file, or out of order */
	}
	free(pk);
	error_reset();
	ust_stream_scan(data + r.data_off, size - r.data_off, r.order, r.uuid, &good, &has_last,
			&last);
	return 0;
}
