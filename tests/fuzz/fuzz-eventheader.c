// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the EventHeader decoder and its JSON formatter (src/eventheader): the
 * input is a tracepoint name, a NUL, then the event's bytes (from eventheader_flags on), as
 * the interceptor file and perf's raw data hand them over. Every item is enumerated and its
 * value bytes touched, so a pointer past the input shows under ASan; the item's value must
 * lie inside the event; each value is formatted as text and as JSON; then the event is
 * formatted whole, in the spaced and the compact layout with every meta member. It must
 * never crash, hang or leak; inputs are capped at 70000 bytes (an event fits in 64 KiB).
 *
 * Seeds (corpus/eventheader): tests/fuzz/make-eh-seeds.py (hand-made events of each
 * encoding, arrays, nested structs, activity IDs, both byte orders).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/error.h"
#include "common/vec.h"
#include "eventheader/eventheader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* where values go, so the compiler cannot drop the loads */
static volatile uint64_t sink;

static void touch(const uint8_t *p, size_t n)
{
	uint64_t acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		acc += p[i];
	sink += acc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vec out = VEC_INIT;
	struct eventheader_enum e;
	struct eventheader_item it;
	const uint8_t *nul, *ev;
	size_t name_len, ev_size;
	enum tk_status st;
	unsigned int n = 0;

	if (size > 70000)
		return 0;
	nul = memchr(data, 0, size < 300 ? size : 300);
	if (!nul)
		return 0;
	name_len = (size_t) (nul - data);
	ev = nul + 1;
	ev_size = size - name_len - 1;
	error_reset();

	st = eventheader_start(&e, (const char *) data, name_len, ev, ev_size,
			       EVENTHEADER_MOVE_NEXT_LIMIT);
	if (st == TK_OK) {
		touch((const uint8_t *) e.info.name, e.info.name_len);
		while ((st = eventheader_next(&e)) == TK_OK) {
			eventheader_item_get(&e, &it);
			if (it.value < ev || it.value_size > ev_size ||
			    (size_t) (it.value - ev) > ev_size - it.value_size)
				__builtin_trap(); /* a value outside the event */
			touch((const uint8_t *) it.name, it.name_len);
			touch(it.value, it.value_size);
			if (e.state == EVENTHEADER_STATE_VALUE) {
				eventheader_json_value(&out, it.value, it.value_size, it.encoding,
						       it.format, e.info.order, n & 1);
				out.len = 0;
			}
			if (++n > 2 * EVENTHEADER_MOVE_NEXT_LIMIT)
				__builtin_trap(); /* the move-next limit did not hold */
		}
		if (e.state == EVENTHEADER_STATE_NONE)
			__builtin_trap();
	}
	error_reset();

	if (eventheader_start(&e, (const char *) data, name_len, ev, ev_size,
			      EVENTHEADER_MOVE_NEXT_LIMIT) == TK_OK) {
		st = eventheader_json_event(&out, &e,
					    EVENTHEADER_JSON_SPACE | EVENTHEADER_JSON_FIELD_TAG,
					    EVENTHEADER_META_DEFAULT);
		if (st < 0 && out.len != 0)
			__builtin_trap(); /* a failed event leaves nothing behind */
	}
	error_reset();
	if (eventheader_start(&e, (const char *) data, name_len, ev, ev_size, 64) == TK_OK)
		eventheader_json_event(&out, &e, EVENTHEADER_JSON_NAME, ~0u);
	error_reset();
	vec_fini(&out);
	return 0;
}
