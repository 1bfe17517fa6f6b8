// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the perf.data container reader (src/perf/perfdata.c): the input is a whole
 * perf.data file, file mode or pipe mode, either byte order. It is opened (header, attributes
 * and their ids, feature sections, event names, pipe mode's leading records), every record of
 * the data is walked and every sample read; the names, features and raw data found are
 * touched byte by byte, so a pointer past the input shows under ASan; the kernel's build
 * id is looked up among the BUILD_ID entries. It must never crash,
 * hang or leak; the walk is capped. The tracing data found goes through the trace.dat
 * reader's metadata parts (tracedat_open_tracing_data()).
 *
 * Seeds (corpus/perfdata): tests/fuzz/make-perf-seeds.py (hand-made files of each mode and
 * byte order: several attributes with sample ids, the identifier first, read values, call
 * chains and raw data, event names from EVENT_DESC and EVENT_UPDATE, tracing data).
 */
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "perf/perfdata.h"
#include "tracedat/tracedat.h"

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
	struct perfdata *pd = NULL;
	struct perfdata_cursor c;
	struct perf_record r;
	struct perf_sample s;
	const uint8_t *p;
	unsigned int feat;
	size_t i, len, n = 0;

	error_reset();
	if (perfdata_open(&pd, data, size) < 0) {
		error_reset();
		return 0;
	}
	for (i = 0; i < perfdata_n_attrs(pd); i++) {
		const struct perf_attr *a = perfdata_attr(pd, i);

		if (a->name)
			touch((const uint8_t *) a->name, a->name_len);
		if (a->n_ids && perfdata_attr_of_id(pd, a->ids[0]) == NULL)
			__builtin_trap(); /* every id of an attribute names one */
	}
	for (feat = 0; feat < PERF_FEAT_MAX; feat++)
		if ((p = perfdata_feature(pd, feat, &len)) != NULL)
			touch(p, len);
	{
		uint8_t id[20];

		len = perfdata_kernel_build_id(pd, id); /* the BUILD_ID section's kernel entry */
		if (len > sizeof(id))
			__builtin_trap();
		touch(id, len);
	}
	if ((p = perfdata_tracing_data(pd, &len)) != NULL) {
		struct tracedat *td;

		touch(p, len);
		if (tracedat_open_tracing_data(&td, p, len) ==
		    TK_OK) /* the formats, kallsyms, ... */
			tracedat_close(td);
		error_reset();
	}
	perfdata_cursor_init(pd, &c);
	while (n++ < 100000 && perfdata_cursor_next(&c, &r) == TK_OK) {
		touch(r.data, r.size);
		if (r.type == PERF_RECORD_SAMPLE && perfdata_sample(pd, &r, &s) == TK_OK) {
			sink += s.time + s.cpu + s.pid + s.tid + s.id;
			if (s.raw)
				touch(s.raw, s.raw_size);
		}
	}
	perfdata_close(pd);
	error_reset();
	return 0;
}
