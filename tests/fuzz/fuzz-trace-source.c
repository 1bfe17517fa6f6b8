// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the readers that turn a file into model events on their own account: the
 * perf.data source (src/perf/source.c: perf's ordered events round by round, task names from
 * COMM and FORK records, losses, a tracepoint's fields from the tracing data) and the
 * EventHeader interceptor source (src/eventheader/interceptor.c). The first byte chooses:
 * bit 0 the interceptor reader rather than perf.data's, bit 1 records in stored order; the
 * rest is the file. Every event is read, its values decoded (a typed EventHeader class's event
 * written again from them), its task and its perf-decode
 * JSON (both layouts) asked for, and the trace-cmd text written, so a pointer past the input
 * shows under ASan. It must never crash, hang or leak; the walk is capped.
 *
 * Seeds (corpus/trace-source): the perfdata seeds (tests/fuzz/make-perf-seeds.py) behind a
 * mode byte, and interceptor files made of the eventheader seeds (make-trace-source-seeds.sh).
 */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "common/error.h"
#include "common/vec.h"
#include "common/writer.h"
#include "eventheader/eventheader.h"
#include "eventheader/interceptor.h"
#include "model/model.h"
#include "perf/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tk_source *src = NULL;
	struct model_cursor *c = NULL;
	struct model_item it;
	struct vec json = VEC_INIT, scratch = VEC_INIT;
	struct writer w;
	enum tk_status st;
	unsigned int mode;
	size_t n = 0, i;

	if (size < 1)
		return 0;
	mode = data[0];
	error_reset();
	st = (mode & 1) ? interceptor_source_open_mem(&src, data + 1, size - 1, "fuzz")
			: perf_source_open_mem(&src, data + 1, size - 1, "fuzz");
	if (st < 0) {
		error_reset();
		return 0;
	}
	src->stored_order = (mode & 2) != 0;
	if (writer_init(&w, -1, 1 << 16) < 0) {
		src->ops->destroy(src);
		error_reset();
		return 0;
	}
	for (i = 0; i < src->n_streams; i++) {
		if (src->ops->cursor_open(src->streams[i], &c) < 0)
			break;
		while (n++ < 20000 && c->ops->next(c, &it) == TK_OK) {
			const struct tk_event *ev = it.event;
			const struct model_text_ops *text = src->ops->text;
			int64_t pid;
			const char *comm;

			if (it.kind != MODEL_ITEM_EVENT)
				continue;
			if (model_event_values(ev) < 0) {
				error_reset();
			} else if (ev->ec->emf_uri) {
				/* a typed EventHeader class: the event written again */
				json.len = 0;
				if (eventheader_model_json(ev, NULL, 0, &scratch, &json) < 0)
					error_reset();
				sink += json.len;
			}
			if (src->ops->task) {
				src->ops->task(ev, &pid, &comm);
				sink += (uint64_t) pid + (uint8_t) comm[0];
			}
			if (text && text->decode_json) {
				json.len = 0;
				if (text->decode_json(ev,
						      MODEL_DECODE_SPACE | MODEL_DECODE_FIELD_TAG,
						      &json) < 0 ||
				    text->decode_json(ev, 0, &json) < 0)
					error_reset();
				sink += json.len;
			}
			if (text && text->event) {
				comm = text->task(ev, &pid);
				sink += (uint8_t) comm[0];
				text->event(ev, NULL, 0, &w);
				text->event(ev, NULL, MODEL_TEXT_RAW, &w);
				w.len = 0; /* never written anywhere */
			}
		}
		error_reset();
		c->ops->destroy(c);
	}
	writer_fini(&w);
	vec_fini(&json);
	vec_fini(&scratch);
	src->ops->destroy(src);
	return 0;
}
