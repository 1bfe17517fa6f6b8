// SPDX-License-Identifier: MIT
/*
 * Unit tests of the perf.data reader (src/perf/source.c) on a pipe-mode file written here
 * record by record: the order it gives samples in (perf's ordered events: a round's records
 * sorted and given once the next round ends, what comes late given at the end, records of
 * time 0 where they are read), the task names perf would show (swapper, ":TID" for a thread
 * never named, COMM, a fork taking its parent's name, exec) and losses going with the next
 * sample of their CPU; then the same file in stored order. What each sample must be is
 * written next to the records, from perf's rules, not from the reader.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "model/model.h"
#include "perf/perfdata.h"
#include "perf/source.h"

struct img {
	uint8_t b[4096];
	size_t n;
};

static void put(struct img *m, uint64_t v, unsigned int size)
{
	unsigned int i;

	assert_true(m->n + size <= sizeof(m->b));
	for (i = 0; i < size; i++)
		m->b[m->n++] = (uint8_t) (v >> (8 * i));
}

static void header(struct img *m, uint32_t type, uint16_t size)
{
	put(m, type, 4);
	put(m, 0, 2);
	put(m, size, 2);
}

/* the sample id fields of other records: pid/tid, time, cpu (sample_id_all) */
static void trailer(struct img *m, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	put(m, pid, 4);
	put(m, tid, 4);
	put(m, time, 8);
	put(m, cpu, 4);
	put(m, 0, 4);
}

#define ST (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static void sample(struct img *m, uint32_t tid, uint64_t time, uint32_t cpu)
{
	header(m, PERF_RECORD_SAMPLE, 8 + 8 + 8 + 8 + 8);
	put(m, tid, 4); /* pid = tid: one thread per process here */
	put(m, tid, 4);
	put(m, time, 8);
	put(m, cpu, 4);
	put(m, 0, 4);
	put(m, 1, 8); /* period */
}

static void comm(struct img *m, uint32_t pid, uint32_t tid, const char *name, uint64_t time)
{
	header(m, PERF_RECORD_COMM, 8 + 8 + 8 + 24);
	put(m, pid, 4);
	put(m, tid, 4);
	assert_true(strlen(name) < 8);
	memset(m->b + m->n, 0, 8);
	memcpy(m->b + m->n, name, strlen(name));
	m->n += 8;
	trailer(m, pid, tid, time, 0);
}

static void file(struct img *m)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->b, "PERFILE2", 8);
	m->n = 8;
	put(m, 16, 8);
	/* one software attribute (cpu-clock), sample_id_all; no id: the only one */
	header(m, PERF_RECORD_HEADER_ATTR, 8 + 72);
	put(m, 1, 4);		      /* type: software */
	put(m, 72, 4);		      /* size */
	put(m, 0, 8);		      /* config: cpu-clock */
	put(m, 1, 8);		      /* sample_period */
	put(m, ST, 8);		      /* sample_type */
	put(m, 0, 8);		      /* read_format */
	put(m, UINT64_C(1) << 18, 8); /* sample_id_all */
	put(m, 0, 8);
	put(m, 0, 8);
	put(m, 0, 8);

	comm(m, 10, 10, "bash", 0);		      /* synthesized: time 0, named where read */
	sample(m, 10, 300, 0);			      /* S1 */
	sample(m, 11, 100, 1);			      /* S2: tid 11 never named: ":11" */
	header(m, PERF_RECORD_FINISHED_ROUND, 8);     /* first round: nothing given yet */
	header(m, PERF_RECORD_FORK, 8 + 16 + 8 + 24); /* 150: 12 forked from 10 */
	put(m, 12, 4);
	put(m, 10, 4);
	put(m, 12, 4);
	put(m, 10, 4);
	put(m, 150, 8);
	trailer(m, 12, 12, 150, 0);
	sample(m, 12, 200, 0);			  /* S3: "bash", from its parent */
	comm(m, 12, 12, "ls", 250);		  /* exec */
	sample(m, 12, 260, 0);			  /* S4: "ls" */
	header(m, PERF_RECORD_LOST, 8 + 16 + 24); /* 270: 5 lost on CPU 1 */
	put(m, 0, 8);
	put(m, 5, 8);
	trailer(m, 0, 0, 270, 1);
	sample(m, 0, 280, 1);			  /* S5: "swapper", 5 lost before it */
	header(m, PERF_RECORD_FINISHED_ROUND, 8); /* gives all up to 300 */
	sample(m, 10, 290, 1);			  /* S6: late, given at the end */
}

struct want {
	int64_t ns;
	int32_t tid;
	const char *comm;
	int64_t missed;
};

static void check(int stored, const struct want *w, size_t n)
{
	struct tk_source *src;
	struct model_cursor *c;
	struct model_item it;
	struct img m;
	size_t i;

	file(&m);
	assert_int_equal(perf_source_open_mem(&src, m.b, m.n, "test.data"), TK_OK);
	src->stored_order = (uint8_t) stored;
	assert_int_equal(src->n_streams, 1);
	assert_int_equal(src->ops->cursor_open(src->streams[0], &c), TK_OK);
	for (i = 0; i < n; i++) {
		const struct tk_event *ev;

		assert_int_equal(c->ops->next(c, &it), TK_OK);
		assert_int_equal(it.kind, MODEL_ITEM_EVENT);
		ev = it.event;
		assert_int_equal(ev->ns, w[i].ns);
		assert_true(ev->has_task);
		assert_int_equal(ev->tid, w[i].tid);
		assert_string_equal(ev->comm, w[i].comm);
		assert_int_equal(ev->missed, w[i].missed);
		assert_string_equal(ev->ec->name, "1:0x0"); /* no EVENT_DESC name: type:config */
	}
	assert_int_equal(c->ops->next(c, &it), TK_END);
	c->ops->destroy(c);
	src->ops->destroy(src);
}

static void perf_order_and_names(void **state)
{
	static const struct want w[] = {
		{100, 11, ":11", 0},	{200, 12, "bash", 0}, {260, 12, "ls", 0},
		{280, 0, "swapper", 5}, {300, 10, "bash", 0}, {290, 10, "bash", 0},
	};

	(void) state;
	check(0, w, sizeof(w) / sizeof(w[0]));
}

static void stored_order(void **state)
{
	/* every record where it is read: the fork and the exec come before the samples after them */
	static const struct want w[] = {
		{300, 10, "bash", 0}, {100, 11, ":11", 0},    {200, 12, "bash", 0},
		{260, 12, "ls", 0},   {280, 0, "swapper", 5}, {290, 10, "bash", 0},
	};

	(void) state;
	check(1, w, sizeof(w) / sizeof(w[0]));
}

/* A file cut inside its last sample: the samples before the cut, then an error naming it. */
static void cut_file(void **state)
{
	struct tk_source *src;
	struct model_cursor *c;
	struct model_item it;
	struct img m;
	int n = 0;
	enum tk_status st;

	(void) state;
	file(&m);
	m.n -= 10;
	assert_int_equal(perf_source_open_mem(&src, m.b, m.n, "cut.data"), TK_OK);
	assert_int_equal(src->ops->cursor_open(src->streams[0], &c), TK_OK);
	while ((st = c->ops->next(c, &it)) == TK_OK)
		n++;
	assert_int_equal(n, 5); /* S1 to S5, sorted; S6 is cut */
	assert_int_equal(st, TK_ERR_FORMAT);
	{
		char msg[512];

		error_format(0, msg, sizeof(msg));
		assert_non_null(strstr(msg, "offset="));
	}
	error_reset();
	c->ops->destroy(c);
	src->ops->destroy(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perf_order_and_names),
		cmocka_unit_test(stored_order),
		cmocka_unit_test(cut_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
