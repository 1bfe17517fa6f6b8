/* SPDX-License-Identifier: MIT */
/*
 * The perf.data container (perf record's file): its header, the event attributes, the
 * feature sections, and the records of the data section, in file mode ("PERFILE2" with a
 * 104-byte header and sections) and in pipe mode (a 16-byte header, then records only, the
 * attributes and the tracing data among them). Either byte order; the records are read in
 * place from the caller's bytes, nothing is copied.
 *
 *	struct perfdata *pd;
 *	struct perfdata_cursor c;
 *	struct perf_record r;
 *	struct perf_sample s;
 *
 *	st = perfdata_open(&pd, bytes, size);
 *	perfdata_cursor_init(pd, &c);
 *	while ((st = perfdata_cursor_next(&c, &r)) == TK_OK)
 *		if (r.type == PERF_RECORD_SAMPLE && perfdata_sample(pd, &r, &s) == TK_OK)
 *			use(s.attr, s.time, s.cpu, s.raw, s.raw_size);
 *	perfdata_close(pd);
 *
 * Facts from the kernel's include/uapi/linux/perf_event.h and tools/perf/Documentation/
 * perf.data-file-format.txt; the code is ours.
 */
#ifndef TK_PERF_PERFDATA_H
#define TK_PERF_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/bytes.h"

/* Record types: the kernel's, then those perf adds to its files. */
enum perf_record_type {
	PERF_RECORD_MMAP = 1,
	PERF_RECORD_LOST = 2,
	PERF_RECORD_COMM = 3,
	PERF_RECORD_EXIT = 4,
	PERF_RECORD_FORK = 7,
	PERF_RECORD_SAMPLE = 9,
	PERF_RECORD_LOST_SAMPLES = 13,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
};

/* perf_event_attr.sample_type bits */
enum perf_sample_bit {
	PERF_SAMPLE_IP = 1u << 0,
	PERF_SAMPLE_TID = 1u << 1,
	PERF_SAMPLE_TIME = 1u << 2,
	PERF_SAMPLE_ADDR = 1u << 3,
	PERF_SAMPLE_READ = 1u << 4,
	PERF_SAMPLE_CALLCHAIN = 1u << 5,
	PERF_SAMPLE_ID = 1u << 6,
	PERF_SAMPLE_CPU = 1u << 7,
	PERF_SAMPLE_PERIOD = 1u << 8,
	PERF_SAMPLE_STREAM_ID = 1u << 9,
	PERF_SAMPLE_RAW = 1u << 10,
	PERF_SAMPLE_BRANCH_STACK = 1u << 11,
	PERF_SAMPLE_REGS_USER = 1u << 12,
	PERF_SAMPLE_STACK_USER = 1u << 13,
	PERF_SAMPLE_WEIGHT = 1u << 14,
	PERF_SAMPLE_DATA_SRC = 1u << 15,
	PERF_SAMPLE_IDENTIFIER = 1u << 16,
	PERF_SAMPLE_TRANSACTION = 1u << 17,
	PERF_SAMPLE_REGS_INTR = 1u << 18,
	PERF_SAMPLE_PHYS_ADDR = 1u << 19,
	PERF_SAMPLE_AUX = 1u << 20,
	PERF_SAMPLE_CGROUP = 1u << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE = 1u << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE = 1u << 23,
	PERF_SAMPLE_WEIGHT_STRUCT = 1u << 24,
};

#define PERF_TYPE_TRACEPOINT 2u

/* perf_event_header.misc: a COMM record for an exec (the task's new program) */
#define PERF_RECORD_MISC_COMM_EXEC (1u << 13)
/* misc of a BUILD_ID record: the CPU mode of its object (the kernel's), its id's length */
#define PERF_RECORD_MISC_CPUMODE_MASK  7u
#define PERF_RECORD_MISC_KERNEL	       1u
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1u << 15)

/* Feature bits of a file-mode header (and of pipe mode's HEADER_FEATURE records). */
enum perf_feature {
	PERF_FEAT_TRACING_DATA = 1,
	PERF_FEAT_BUILD_ID = 2,
	PERF_FEAT_HOSTNAME = 3,
	PERF_FEAT_OSRELEASE = 4,
	PERF_FEAT_VERSION = 5,
	PERF_FEAT_ARCH = 6,
	PERF_FEAT_NRCPUS = 7,
	PERF_FEAT_EVENT_DESC = 12,
	PERF_FEAT_CLOCK_DATA = 29,
	PERF_FEAT_MAX = 256,
};

/* One event attribute (perf_event_attr) as this reader uses it, plus its sample ids. */
struct perf_attr {
	uint32_t type;	      /* PERF_TYPE_*: PERF_TYPE_TRACEPOINT for ftrace events */
	uint64_t config;      /* for a tracepoint, its ftrace event id */
	uint64_t sample_type; /* enum perf_sample_bit */
	uint64_t read_format; /* PERF_FORMAT_* */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user, sample_regs_intr;
	int sample_id_all; /* other records end with the sample's id fields */
	const char *name;  /* from EVENT_DESC or EVENT_UPDATE, or NULL: borrowed */
	size_t name_len;
	uint64_t *ids; /* the sample ids the attribute's events carry */
	size_t n_ids;
	/*
	 * Where a sample's fields are when none before RAW has a size of its own (no call
	 * chain, no group read): byte offsets in the record, 0 for a field not there, and the
	 * size a sample needs for them (RAW's size word included). fixed 0: read word by word.
	 */
	uint8_t fixed;
	uint16_t at_id, at_ip, at_tid, at_time, at_addr, at_stream, at_cpu, at_period, at_raw;
	uint32_t fixed_size;
};

/* A record of the data: header fields and where its bytes (header included) lie. */
struct perf_record {
	uint32_t type; /* enum perf_record_type */
	uint16_t misc;
	uint32_t size;	     /* bytes of the record, header included */
	const uint8_t *data; /* the record, header included */
	uint64_t offset;     /* in the file */
};

/* What a SAMPLE record holds, as far as this reader reads it; absent fields are 0. */
struct perf_sample {
	const struct perf_attr *attr;
	uint64_t sample_type; /* attr->sample_type: which fields below are there */
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
	const uint8_t *raw; /* PERF_SAMPLE_RAW: the tracepoint's ftrace record, or NULL */
	uint32_t raw_size;
};

struct perfdata;

/* What a cursor needs to walk the records; see perfdata_cursor_init(). */
struct perfdata_cursor {
	const struct perfdata *pd;
	uint64_t pos, end; /* bytes of the file */
};

/*
 * Read the header, the attributes and the feature sections of the perf.data image @data of
 * @size bytes (borrowed: it must outlive *@out). In pipe mode the records before the first
 * sample are read for the attributes, the event names and the tracing data.
 *
 * Errors: TK_ERR_FORMAT with a cause naming the part and the offset; TK_ERR_UNSUPPORTED for
 * the older "PERFFILE" files; TK_ERR_NOMEM.
 */
enum tk_status perfdata_open(struct perfdata **out, const uint8_t *data, size_t size);
void perfdata_close(struct perfdata *pd);

/* Whether the first @n bytes start a perf.data file (either mode, either byte order). */
int perfdata_probe(const uint8_t *head, size_t n);

/* The file's facts. */
enum tk_byte_order perfdata_byte_order(const struct perfdata *pd);
int perfdata_is_pipe(const struct perfdata *pd);
size_t perfdata_n_attrs(const struct perfdata *pd);
const struct perf_attr *perfdata_attr(const struct perfdata *pd, size_t i);

/*
 * The tracing data (HEADER_TRACING_DATA: the ftrace formats, kallsyms, printk formats and
 * command lines, laid out as at the start of a trace.dat file), or NULL and *@len 0.
 */
const uint8_t *perfdata_tracing_data(const struct perfdata *pd, size_t *len);

/* A feature section's bytes (file mode, or pipe mode's HEADER_FEATURE), or NULL. */
const uint8_t *perfdata_feature(const struct perfdata *pd, unsigned int feat, size_t *len);

/*
 * The build id of the host kernel the file was recorded on (its BUILD_ID feature's
 * "[kernel.kallsyms]" entry) into @out: its length in bytes, or 0 when the file has none.
 */
size_t perfdata_kernel_build_id(const struct perfdata *pd, uint8_t out[20]);

/* A cursor at the first record of the data. */
void perfdata_cursor_init(const struct perfdata *pd, struct perfdata_cursor *c);

/*
 * The next record into *@out: TK_OK, TK_END after the last, or TK_ERR_FORMAT (a record whose
 * size is below 8 or passes the data: the records before it were good).
 */
enum tk_status perfdata_cursor_next(struct perfdata_cursor *c, struct perf_record *out);

/*
 * The fields of SAMPLE record @r. Its attribute is found by the sample id (the first field
 * with PERF_SAMPLE_IDENTIFIER, else PERF_SAMPLE_ID at its place), or is the only one.
 * Errors: TK_ERR_FORMAT when the record is shorter than its fields or its id names no
 * attribute.
 */
enum tk_status perfdata_sample(const struct perfdata *pd, const struct perf_record *r,
			       struct perf_sample *out);

/*
 * The sample id fields at the end of a kernel record other than SAMPLE (attributes with
 * sample_id_all: pid/tid, time, id, stream id, CPU, in the first attribute's layout) into
 * *@out (attr NULL, the other fields as perfdata_sample() gives them).
 *
 * Return: 1 when the record has them, 0 when it has none (no sample_id_all, or a record perf
 * adds itself), -1 when it is too short for them.
 */
int perfdata_record_id(const struct perfdata *pd, const struct perf_record *r,
		       struct perf_sample *out);

/* The attribute of sample id @id, or NULL. */
const struct perf_attr *perfdata_attr_of_id(const struct perfdata *pd, uint64_t id);

#endif /* TK_PERF_PERFDATA_H */
