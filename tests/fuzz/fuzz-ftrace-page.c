// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the ring-buffer page decoder (src/ftrace/page.c): one sub-buffer, every
 * record read and every payload byte touched, so a read outside the page shows under ASan.
 *
 *	u8 mode | page bytes
 *
 * mode bit 0: big-endian; bit 1: 32-bit kernel (commit 4 bytes, data at 12), else 64-bit
 * (commit 8 bytes, data at 16); bit 2: the layout claims a 4096-byte page whatever the input
 * length, so the input may be shorter than the page it describes (a file cut short).
 * Otherwise the page is exactly the input. It must never crash, hang or leak.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "ftrace/page.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* where payload bytes go, so the compiler cannot drop the loads */
static volatile uint8_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftrace_page_layout layout = {.ts_offset = 0, .ts_size = 8, .commit_offset = 8};
	struct ftrace_page pg;
	struct ftrace_record rec;
	enum tk_byte_order bo;
	uint8_t acc = 0;
	uint32_t i;

	if (size < 1 || size > 65536 + 1)
		return 0;
	bo = data[0] & 1 ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;
	layout.commit_size = data[0] & 2 ? 4 : 8;
	layout.data_offset = 8 + layout.commit_size;
	data++;
	size--;
	if (data[-1] & 4)
		layout.data_size = 4096 - layout.data_offset;
	else
		layout.data_size =
			size > layout.data_offset ? (uint32_t) size - layout.data_offset : 0;
	error_reset();
	if (ftrace_page_init(&pg, &layout, bo, data, size) < 0)
		return 0;
	acc ^= (uint8_t) pg.missed;
	while (ftrace_page_next(&pg, &rec) == TK_OK)
		for (i = 0; i < rec.size; i++)
			acc ^= rec.data[i];
	sink = acc;
	return 0;
}
