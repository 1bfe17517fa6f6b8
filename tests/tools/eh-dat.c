// SPDX-License-Identifier: MIT
/*
 * eh-dat: write the events of an EventHeader interceptor file (records of a u32 little-endian
 * size counting itself, the tracepoint's NUL-terminated name, the event's bytes) into a
 * trace.dat file, as trace-cmd would record them from user_events tracepoints of those
 * names: system "user_events", one format per tracepoint name declaring the common fields and
 * the 8-byte EventHeader header (the kernel's format for an EventHeader tracepoint: u8
 * eventheader_flags, u8 version, u16 id, u16 tag, u8 opcode, u8 level), each record those
 * common fields (pid 1000) then the event's bytes, all on CPU 0, 1 us apart from 1 s on.
 * The tests read such a file back (tests/interop/eventheader-dat.sh): no kernel of this
 * machine has user_events to record one.
 *
 * Usage: eh-dat IN.dat OUT.dat
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/mfile.h"
#include "common/vec.h"
#include "ftrace/ftrace.h"
#include "ftrace/page-write.h"
#include "tracedat/tracedat-write.h"

#define FIRST_ID 2000

struct name {
	const char *s;
	size_t len;
};

static enum tk_status emit(const uint8_t *page, size_t size, void *payload)
{
	return tracedat_writer_cpu_page(payload, page, size);
}

static int die(const char *what)
{
	char msg[1024];

	error_format(0, msg, sizeof(msg));
	fprintf(stderr, "eh-dat: %s: %s\n", what, msg);
	return 1;
}

/* The id of tracepoint @s (@len bytes) among @names, added when new. */
static uint32_t id_of(struct vec *names, const char *s, size_t len)
{
	struct name *n = names->data;
	size_t i;

	for (i = 0; i < names->len; i++)
		if (n[i].len == len && !memcmp(n[i].s, s, len))
			return FIRST_ID + (uint32_t) i;
	n = vec_push(names, sizeof(*n));
	if (!n) {
		fprintf(stderr, "eh-dat: out of memory\n");
		exit(1);
	}
	n->s = s;
	n->len = len;
	return FIRST_ID + (uint32_t) (names->len - 1);
}

int main(int argc, char **argv)
{
	static const char header_page[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
	struct tracedat_write_opts wo = TRACEDAT_WRITE_OPTS_INIT;
	struct ftrace_page_layout layout;
	struct ftrace_page_writer pw;
	struct tracedat_writer *w;
	struct vec names = VEC_INIT;
	struct mfile in;
	uint8_t rec[70000];
	size_t pos, i;
	uint64_t ts = UINT64_C(1000000000);
	enum tk_status st;

	if (argc != 3) {
		fprintf(stderr, "Usage: eh-dat IN.dat OUT.dat\n");
		return 2;
	}
	if (mfile_open(&in, argv[1]) < 0)
		return die("cannot read the interceptor file");
	/* the names first: the formats come before the data */
	for (pos = 0; pos + 4 <= in.size;) {
		uint32_t size = tk_load_le32(in.data + pos);
		size_t len;

		if (size <= 4 || size - 4 > in.size - pos - 4) {
			fprintf(stderr, "eh-dat: bad record at offset %zu\n", pos);
			return 1;
		}
		len = strnlen((const char *) in.data + pos + 4, size - 4);
		if (len == size - 4) {
			fprintf(stderr, "eh-dat: name without its NUL at offset %zu\n", pos);
			return 1;
		}
		id_of(&names, (const char *) in.data + pos + 4, len);
		pos += size;
	}
	wo.bo = TK_BYTE_ORDER_LE;
	wo.comp = TRACEDAT_COMP_NONE;
	st = tracedat_writer_open(&w, argv[2], &wo);
	if (st >= 0)
		st = tracedat_writer_set_header_page(w, header_page, strlen(header_page));
	for (i = 0; st >= 0 && i < names.len; i++) {
		const struct name *n = &((const struct name *) names.data)[i];
		char fmt[2048];
		int k = snprintf(
			fmt, sizeof(fmt),
			"name: %.*s\nID: %zu\nformat:\n"
			"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
			"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
			"\n"
			"\tfield:u8 eventheader_flags;\toffset:8;\tsize:1;\tsigned:0;\n"
			"\tfield:u8 version;\toffset:9;\tsize:1;\tsigned:0;\n"
			"\tfield:u16 id;\toffset:10;\tsize:2;\tsigned:0;\n"
			"\tfield:u16 tag;\toffset:12;\tsize:2;\tsigned:0;\n"
			"\tfield:u8 opcode;\toffset:14;\tsize:1;\tsigned:0;\n"
			"\tfield:u8 level;\toffset:15;\tsize:1;\tsigned:0;\n"
			"\n"
			"print fmt: \"eventheader_flags=%%u version=%%u id=%%u tag=%%u opcode=%%u "
			"level=%%u\", REC->eventheader_flags, REC->version, REC->id, REC->tag, "
			"REC->opcode, REC->level\n",
			(int) n->len, n->s, FIRST_ID + i);

		st = tracedat_writer_add_event_format(w, "user_events", fmt, (size_t) k);
	}
	if (st >= 0)
		st = tracedat_writer_set_cpus(w, 1);
	if (st >= 0)
		st = tracedat_writer_cpu_begin(w, 0);
	if (st < 0)
		return die("cannot write the trace.dat file");
	if (ftrace_page_layout_parse(header_page, strlen(header_page), &layout) < 0 ||
	    ftrace_page_writer_init(&pw, &layout, TK_BYTE_ORDER_LE, 4096, emit, w) < 0)
		return die("cannot set up pages");
	for (pos = 0; st >= 0 && pos + 4 <= in.size; ts += 1000) {
		uint32_t size = tk_load_le32(in.data + pos);
		size_t len = strlen((const char *) in.data + pos + 4), n = size - 4 - len - 1;
		uint32_t id = id_of(&names, (const char *) in.data + pos + 4, len);

		if (8 + n > sizeof(rec)) {
			fprintf(stderr, "eh-dat: event too big at offset %zu\n", pos);
			return 1;
		}
		memset(rec, 0, 8);
		rec[0] = (uint8_t) id; /* common_type, little-endian */
		rec[1] = (uint8_t) (id >> 8);
		rec[4] = 1000 & 0xff; /* common_pid 1000 */
		rec[5] = 1000 >> 8;
		memcpy(rec + 8, in.data + pos + 4 + len + 1, n);
		st = ftrace_page_writer_add(&pw, ts, rec, (uint32_t) (8 + n), 0);
		pos += size;
	}
	if (st >= 0)
		st = ftrace_page_writer_flush(&pw);
	ftrace_page_writer_fini(&pw);
	if (st >= 0)
		st = tracedat_writer_cpu_end(w);
	if (st < 0) {
		tracedat_writer_destroy(w);
		return die("cannot write the events");
	}
	if (tracedat_writer_close(w) < 0)
		return die("cannot finish the trace.dat file");
	vec_fini(&names);
	mfile_close(&in);
	return 0;
}
