// SPDX-License-Identifier: MIT
/*
 * gen-dat: a deterministic writer of trace-cmd trace.dat files.
 *
 * The trace.dat reader has to be right for every encoding found in the field: file versions
 * 6 and 7, v7 sections uncompressed or compressed with zstd or zlib, both byte orders, 64-bit
 * and 32-bit kernels (the long size sets the ring-buffer page header: commit 8 bytes and data
 * at 16, or 4 and 12), other sub-buffer sizes, lost events, instance buffers. Real files of
 * most of these cannot be recorded on one machine, so this tool writes them from a seed
 * (reference/tracedat.md sections 2 to 5 give the layout):
 *
 *   - The events depend only on --seed, --events, --cpus, --missed (which only adds losses),
 *     --instance and --funcgraph (which adds function_graph records in a kernel's layout):
 *     the same options give the same timestamps, CPUs, tasks and field values whatever the
 *     encoding (--clock, --date, --offset, --tsc2nsec and --time-shift change only how times
 *     print and so the order of CPUs' events), so a big-endian, 32-bit, v6 or compressed twin prints exactly like the little-endian
 *     64-bit file. Encoding choices (where pages start, time extend or absolute time stamp
 *     records, discarded events, end-of-page padding) come from a second generator and
 *     differ between encodings, which is the point: readers must print them alike.
 *   - The event formats are those of an x86-64 Linux 6.18 kernel, kept identical for a
 *     32-bit long size: only the page header changes. libtraceevent reads fields by their
 *     declared sizes, so a 32-bit twin prints like the 64-bit file as long as values given
 *     as `long` to bprint fit in 32 bits, which the generator keeps (bprint arguments are the
 *     only data laid out by the kernel's sizeof(long)).
 *   - The page writer follows the kernel: the first record of a page has delta 0 (sometimes
 *     a small one, as older kernels wrote), deltas of 2^27 ns or more get a time extend (or
 *     an absolute time stamp), payloads of up to 112 bytes keep their length in type_len and
 *     longer ones in array[0], the commit word holds the data bytes, and a page that follows
 *     lost events carries the missed-events flags, with the count after the data; its first
 *     record starts the data, since trace-cmd reports the loss only then.
 *
 * Output is checked against `trace-cmd report` by tests/interop/gen-dat.sh, so a writer bug
 * cannot hide behind the same bug in tracekit's reader.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "../../src/common/bytes.h"

#define MAX_CPUS	 256
#define MAX_INSTANCES	 16
#define MAX_PAYLOAD	 8192
#define PAGES_IN_CHUNK	 10 /* v7 compressed flyrecord data: pages per chunk */
#define DELTA_BITS	 27
#define MAX_DELTA	 ((UINT64_C(1) << DELTA_BITS) - 1)
#define SMALL_DATA_MAX	 112 /* bigger payloads keep their length in array[0] */
#define TYPE_PADDING	 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP	 31
#define MISSED_EVENTS	 (UINT64_C(1) << 31)
#define MISSED_STORED	 (UINT64_C(1) << 30)
#define NS		 UINT64_C(1000000000)

/* option and section ids (reference/tracedat.md section 3) */
enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_CPUSTAT = 2,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_VERSION = 9,
	OPT_CPUCOUNT = 8,
	OPT_OFFSET = 7,
	OPT_TRACEID = 11,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
	OPT_STRINGS = 15,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
};

enum compression {
	COMP_NONE,
	COMP_ZSTD,
	COMP_ZLIB,
};

/* --funcgraph: the kernel whose function_graph event layout is written */
enum fg_layout {
	FG_NONE,
	FG_618,
	FG_612,
	FG_61,
	FG_414,
};

/* Everything the options decide, plus trace-wide values drawn from the seed. */
struct gen {
	uint64_t events;
	unsigned int cpus;
	uint64_t seed;
	unsigned int version;
	enum compression comp;
	enum tk_byte_order bo;
	unsigned int long_size;
	uint32_t page_size;
	bool missed;
	bool date;
	bool tsc2nsec;	 /* TSC2NSEC option: ring-buffer times are counter ticks */
	bool time_shift; /* TIME_SHIFT option: a guest's samples of the host clock */
	/* function_graph records too, in this layout */
	enum fg_layout funcgraph;
	bool extra;	 /* --extra-events: records conversions have lost */
	bool has_offset; /* OFFSET option */
	int64_t offset;	 /* its value, ns */
	const char *clock;
	const char *instances[MAX_INSTANCES];
	unsigned int n_instances;
	const char *out_path;

	uint64_t t0;	   /* first timestamp of the trace, ns */
	uint64_t trace_id; /* TRACEID option */
	uint64_t date_us;  /* DATE option: wall clock minus trace clock, us */
	int32_t pids[32];  /* the pid of each task, drawn from the seed */
};

/* A small, fast, seedable generator (splitmix-style mixing of a Weyl sequence). */
struct rng {
	uint64_t s;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t rng_next(struct rng *r)
{
	r->s += UINT64_C(0x9e3779b97f4a7c15);
	return mix64(r->s);
}

static uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}

/* A generator for one purpose of one CPU of one buffer: independent streams. */
static struct rng rng_for(const struct gen *g, unsigned int buffer, unsigned int cpu,
			  unsigned int purpose)
{
	struct rng r = {
		mix64(g->seed ^ mix64((uint64_t) buffer << 40 | (uint64_t) cpu << 8 | purpose))};

	return r;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(r, a)    ((a)[rng_below((r), ARRAY_SIZE(a))])

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("gen-dat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- Growing byte buffers, integers in the file's byte order ---------------------------- */

struct buf {
	uint8_t *p;
	size_t len, cap;
	enum tk_byte_order bo;
};

static void *buf_grow(struct buf *b, size_t n)
{
	if (n > b->cap - b->len || !b->p) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap - b->len < n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			die("Cannot allocate memory: size=%zu", cap);
		b->cap = cap;
	}
	b->len += n;
	return b->p + b->len - n;
}

static void put_bytes(struct buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(buf_grow(b, n), p, n);
}

static void put_zeros(struct buf *b, size_t n)
{
	if (n)
		memset(buf_grow(b, n), 0, n);
}

static void put_cstr(struct buf *b, const char *s)
{
	put_bytes(b, s, strlen(s) + 1);
}

static void put_u16(struct buf *b, uint16_t v)
{
	tk_store_u16(buf_grow(b, 2), v, b->bo);
}

static void put_u32(struct buf *b, uint32_t v)
{
	tk_store_u32(buf_grow(b, 4), v, b->bo);
}

static void put_u64(struct buf *b, uint64_t v)
{
	tk_store_u64(buf_grow(b, 8), v, b->bo);
}

static void patch_u64(struct buf *b, size_t at, uint64_t v)
{
	tk_store_u64(b->p + at, v, b->bo);
}

static void pad_to(struct buf *b, size_t align)
{
	put_zeros(b, (align - b->len % align) % align);
}

static void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("Cannot format text: format=%.20s", fmt);
	buf_grow(b, (size_t) n + 1);
	va_start(ap, fmt);
	vsnprintf((char *) b->p + b->len - n - 1, (size_t) n + 1, fmt, ap);
	va_end(ap);
	b->len--; /* no NUL kept */
}

static void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- What the kernel exports: formats, headers, symbols --------------------------------- */

#define FMT_COMMON                                                                                 \
	"format:\n"                                                                                \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                                 \
	"\n"

/*
 * The format files of the events written, as an x86-64 Linux 6.18 kernel exports them in
 * events/<system>/<event>/format (facts about the kernel's interface, not code).
 */
static const char fmt_function[] =
	"name: function\n"
	"ID: 1\n" FMT_COMMON "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long args[];\toffset:24;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

static const char fmt_print[] =
	"name: print\n"
	"ID: 5\n" FMT_COMMON "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

static const char fmt_bprint[] =
	"name: bprint\n"
	"ID: 6\n" FMT_COMMON "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * fmt;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->fmt\n";

static const char fmt_sched_switch[] =
	"name: sched_switch\n"
	"ID: 372\n" FMT_COMMON "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", "
	"REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | "
	"0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? "
	"__print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | "
	"0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), "
	"\"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
	"{ 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, "
	"\"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 "
	"| 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", "
	"REC->next_comm, REC->next_pid, REC->next_prio\n";

static const char fmt_sched_wakeup[] =
	"name: sched_wakeup\n"
	"ID: 374\n" FMT_COMMON "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, "
	"REC->prio, REC->target_cpu\n";

static const char fmt_sched_process_exec[] =
	"name: sched_process_exec\n"
	"ID: 365\n" FMT_COMMON
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
	"REC->old_pid\n";

static const char fmt_sched_migrate_task[] =
	"name: sched_migrate_task\n"
	"ID: 371\n" FMT_COMMON "\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", __get_str(comm), "
	"REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu\n";

static const char fmt_irq_handler_entry[] =
	"name: irq_handler_entry\n"
	"ID: 225\n" FMT_COMMON "\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n";

static const char fmt_irq_handler_exit[] =
	"name: irq_handler_exit\n"
	"ID: 224\n" FMT_COMMON "\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"\n";

static const char fmt_timer_start[] =
	"name: timer_start\n"
	"ID: 466\n" FMT_COMMON "\tfield:void * timer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long expires;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long bucket_expiry;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long now;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"timer=%p function=%ps expires=%lu [timeout=%ld] bucket_expiry=%lu "
	"cpu=%u idx=%u flags=%s\", "
	"REC->timer, REC->function, REC->expires, (long)REC->expires - REC->now, "
	"REC->bucket_expiry, REC->flags & 0x0003FFFF, REC->flags >> 22, "
	"__print_flags(REC->flags & (0x00040000 | 0x00080000 | 0x00100000 | 0x00200000), "
	"\"|\", { 0x00040000, \"M\" }, { 0x00080000, \"D\" }, { 0x00100000, \"P\" }, "
	"{ 0x00200000, \"I\" })\n";

static const char fmt_sys_enter[] =
	"name: sys_enter\n"
	"ID: 443\n" FMT_COMMON "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
	"\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], "
	"REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]\n";

static const char fmt_sys_exit[] =
	"name: sys_exit\n"
	"ID: 442\n" FMT_COMMON "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n";

static const char fmt_cpu_idle[] =
	"name: cpu_idle\n"
	"ID: 568\n" FMT_COMMON "\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, "
	"(unsigned long)REC->cpu_id\n";

enum event_id {
	ID_FUNCTION = 1,
	ID_FUNCGRAPH_EXIT = 10,
	ID_FUNCGRAPH_ENTRY = 11,
	ID_PRINT = 5,
	ID_BPRINT = 6,
	ID_IRQ_HANDLER_EXIT = 224,
	ID_IRQ_HANDLER_ENTRY = 225,
	ID_SCHED_PROCESS_EXEC = 365,
	ID_SCHED_MIGRATE_TASK = 371,
	ID_SCHED_SWITCH = 372,
	ID_SCHED_WAKEUP = 374,
	ID_SYS_EXIT = 442,
	ID_SYS_ENTER = 443,
	ID_TIMER_START = 466,
	ID_CPU_IDLE = 568,
};

static const char *const ftrace_formats[] = {fmt_function, fmt_print, fmt_bprint};

/*
 * --extra-events: records whose fields conversions have got wrong. fib_table_lookup in the
 * layout of a 5.x kernel: u8 address arrays at odd offsets, which libtraceevent flags as
 * strings but which hold bytes (127.0.0.1 has zeros inside). kernel_stack (below): its
 * format says `unsigned long caller[8]`, but the kernel writes as many frames as the stack
 * has, and the record ends with them.
 */
#define ID_FIB_TABLE_LOOKUP 536
static const char fmt_fib_table_lookup[] =
	"name: fib_table_lookup\n"
	"ID: 536\n" FMT_COMMON "\tfield:u32 tb_id;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int oif;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int iif;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:__u8 tos;\toffset:20;\tsize:1;\tsigned:0;\n"
	"\tfield:__u8 scope;\toffset:21;\tsize:1;\tsigned:0;\n"
	"\tfield:__u8 flags;\toffset:22;\tsize:1;\tsigned:0;\n"
	"\tfield:__u8 src[4];\toffset:23;\tsize:4;\tsigned:0;\n"
	"\tfield:__u8 dst[4];\toffset:27;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"table %u oif %d iif %d src %pI4 dst %pI4 tos %d scope %d flags %x\", "
	"REC->tb_id, REC->oif, REC->iif, REC->src, REC->dst, REC->tos, REC->scope, REC->flags\n";

/*
 * The function_graph tracer's events (--funcgraph), in the layouts kernels have exported
 * (kernel/trace/trace_entries.h): the exit record grew a retval with
 * CONFIG_FUNCTION_GRAPH_RETVAL (6.5), depth became unsigned and the entry gained args[] in
 * 6.18; 4.x kernels put depth last and listed the exit's fields out of offset order.
 */
static const char fmt_fg_entry_618[] =
	"name: funcgraph_entry\n"
	"ID: 11\n" FMT_COMMON "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int depth;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long args[];\toffset:24;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"--> %ps (%u)\", (void *)REC->func, REC->depth\n";

static const char fmt_fg_exit_618[] =
	"name: funcgraph_exit\n"
	"ID: 10\n" FMT_COMMON "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int depth;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"<-- %ps (%u) (start: %llx  end: %llx) over: %u\", (void *)REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

static const char fmt_fg_entry_61[] =
	"name: funcgraph_entry\n"
	"ID: 11\n" FMT_COMMON "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

static const char fmt_fg_exit_61[] =
	"name: funcgraph_exit\n"
	"ID: 10\n" FMT_COMMON "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

static const char fmt_fg_exit_612[] =
	"name: funcgraph_exit\n"
	"ID: 10\n" FMT_COMMON "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long retval;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d retval: %lx\", "
	"(void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth, REC->retval\n";

static const char fmt_fg_entry_414[] =
	"name: funcgraph_entry\n"
	"ID: 11\n" FMT_COMMON "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"--> %lx (%d)\", REC->func, REC->depth\n";

static const char fmt_fg_exit_414[] =
	"name: funcgraph_exit\n"
	"ID: 10\n" FMT_COMMON "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long overrun;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"<-- %lx (%d) (start: %llx  end: %llx) over: %d\", REC->func, REC->depth, "
	"REC->calltime, REC->rettime, REC->depth\n";

/* Each layout: its formats, record sizes and field offsets (0: the field is not there). */
static const struct fg_layout_info {
	const char *name;
	const char *entry_fmt, *exit_fmt;
	uint32_t entry_size, exit_size;
	uint32_t x_depth, x_overrun, x_calltime, x_rettime, x_retval;
	uint32_t overrun_size;
} fg_layouts[] = {
	[FG_618] = {"6.18", fmt_fg_entry_618, fmt_fg_exit_618, 24, 40, 16, 20, 24, 32, 0, 4},
	[FG_612] = {"6.12", fmt_fg_entry_61, fmt_fg_exit_612, 20, 48, 24, 28, 32, 40, 16, 4},
	[FG_61] = {"6.1", fmt_fg_entry_61, fmt_fg_exit_61, 20, 40, 16, 20, 24, 32, 0, 4},
	[FG_414] = {"4.14", fmt_fg_entry_414, fmt_fg_exit_414, 20, 44, 40, 16, 24, 32, 0, 8},
};

/* Event systems in the order trace-cmd saves them; each list ends with NULL. */
static const struct {
	const char *name;
	const char *formats[5];
} systems[] = {
	{"sched",
	 {fmt_sched_switch, fmt_sched_wakeup, fmt_sched_process_exec, fmt_sched_migrate_task,
	  NULL}},
	{"irq", {fmt_irq_handler_entry, fmt_irq_handler_exit, NULL}},
	{"timer", {fmt_timer_start, NULL}},
	{"raw_syscalls", {fmt_sys_enter, fmt_sys_exit, NULL}},
	{"power", {fmt_cpu_idle, NULL}},
	{"fib", {fmt_fib_table_lookup, NULL}}, /* --extra-events only */
};

/* events/header_event of Linux 6.x (32-bit kernels print the same text) */
static const char header_event[] = "# compressed entry header\n"
				   "\ttype_len    :    5 bits\n"
				   "\ttime_delta  :   27 bits\n"
				   "\tarray       :   32 bits\n"
				   "\n"
				   "\tpadding     : type == 29\n"
				   "\ttime_extend : type == 30\n"
				   "\ttime_stamp : type == 31\n"
				   "\tdata max type_len  == 28\n";

/* events/header_page: what the kernel prints for its long size and sub-buffer size */
static void header_page(const struct gen *g, struct buf *t)
{
	unsigned int data_off = 8 + g->long_size;

	buf_printf(t, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n");
	buf_printf(t, "\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n", g->long_size);
	buf_printf(t, "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n");
	buf_printf(t, "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:0;\n", data_off,
		   g->page_size - data_off);
}

/*
 * Kernel symbols (/proc/kallsyms lines), sorted by address. Names are real x86-64 kernel
 * functions; addresses are made up but shaped like a real map (text from 0xffffffff81000000,
 * modules at 0xffffffffc0000000).
 */
static const struct sym {
	uint64_t addr;
	char type;
	const char *name;
	const char *module;
} syms[] = {
	{UINT64_C(0xffffffff81000000), 'T', "_stext", NULL},
	{UINT64_C(0xffffffff81002140), 'T', "do_syscall_64", NULL},
	{UINT64_C(0xffffffff810a3c80), 'T', "try_to_wake_up", NULL},
	{UINT64_C(0xffffffff810a5e10), 't', "update_curr", NULL},
	{UINT64_C(0xffffffff810a7720), 't', "enqueue_task_fair", NULL},
	{UINT64_C(0xffffffff810a8a40), 't', "dequeue_task_fair", NULL},
	{UINT64_C(0xffffffff810aa3b0), 't', "pick_next_task_fair", NULL},
	{UINT64_C(0xffffffff810b4c20), 'T', "idle_worker_timeout", NULL},
	{UINT64_C(0xffffffff810c11e0), 'T', "delayed_work_timer_fn", NULL},
	{UINT64_C(0xffffffff81112e90), 'T', "process_timeout", NULL},
	{UINT64_C(0xffffffff811160d0), 'T', "hrtimer_interrupt", NULL},
	{UINT64_C(0xffffffff81117a30), 't', "tick_sched_timer", NULL},
	{UINT64_C(0xffffffff81132a10), 'T', "rcu_core", NULL},
	{UINT64_C(0xffffffff811e4f60), 't', "tracing_mark_write", NULL},
	{UINT64_C(0xffffffff812a0c50), 'T', "filemap_read", NULL},
	{UINT64_C(0xffffffff8131b7a0), 'T', "kmem_cache_alloc", NULL},
	{UINT64_C(0xffffffff8131d2c0), 'T', "kfree", NULL},
	{UINT64_C(0xffffffff813a2e70), 'T', "vfs_read", NULL},
	{UINT64_C(0xffffffff813a3950), 'T', "vfs_write", NULL},
	{UINT64_C(0xffffffff813a4b10), 'T', "ksys_read", NULL},
	{UINT64_C(0xffffffff813a4d30), 'T', "__x64_sys_read", NULL},
	{UINT64_C(0xffffffff813a4f20), 'T', "__x64_sys_write", NULL},
	{UINT64_C(0xffffffff813c7a80), 'T', "__fdget_pos", NULL},
	{UINT64_C(0xffffffff815b0e40), 'T', "copy_page_to_iter", NULL},
	{UINT64_C(0xffffffff81c0d3a0), 'T', "tcp_keepalive_timer", NULL},
	{UINT64_C(0xffffffff81f31c90), 'T', "__schedule", NULL},
	{UINT64_C(0xffffffff81f32b10), 'T', "schedule", NULL},
	{UINT64_C(0xffffffff81f36e20), 'T', "mutex_lock", NULL},
	{UINT64_C(0xffffffff81f36f40), 'T', "mutex_unlock", NULL},
	{UINT64_C(0xffffffff81f3a5f0), 'T', "_raw_spin_lock", NULL},
	{UINT64_C(0xffffffff81f3a8d0), 'T', "_raw_spin_unlock_irqrestore", NULL},
	{UINT64_C(0xffffffff82000c00), 'T', "__do_softirq", NULL},
	{UINT64_C(0xffffffffc0352010), 't', "e1000_clean", "e1000"},
	{UINT64_C(0xffffffffc0356d40), 't', "e1000_watchdog", "e1000"},
	{UINT64_C(0xffffffffc04a1230), 't', "nvme_irq", "nvme"},
};

/* symbols by role */
static const char *const func_names[] = {
	"do_syscall_64",     "try_to_wake_up",
	"update_curr",	     "enqueue_task_fair",
	"dequeue_task_fair", "pick_next_task_fair",
	"hrtimer_interrupt", "tick_sched_timer",
	"rcu_core",	     "filemap_read",
	"kmem_cache_alloc",  "kfree",
	"vfs_read",	     "vfs_write",
	"ksys_read",	     "__x64_sys_read",
	"__x64_sys_write",   "__fdget_pos",
	"copy_page_to_iter", "__schedule",
	"schedule",	     "mutex_lock",
	"mutex_unlock",	     "_raw_spin_lock",
	"__do_softirq",	     "e1000_clean",
	"nvme_irq",	     "_raw_spin_unlock_irqrestore",
};
static const char *const timer_names[] = {
	"idle_worker_timeout", "delayed_work_timer_fn", "process_timeout",
	"tcp_keepalive_timer", "e1000_watchdog",
};
static const char *const printer_names[] = {
	"update_curr",	      "enqueue_task_fair", "pick_next_task_fair",
	"tracing_mark_write", "e1000_clean",
};

static uint64_t sym_addr(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(syms); i++)
		if (!strcmp(syms[i].name, name))
			return syms[i].addr;
	die("Cannot find symbol: name=%s", name);
	return 0;
}

/* trace_printk() formats (printk_formats), as bprint events reference them */
static const struct printk_fmt {
	uint64_t addr;
	const char *fmt;
	const char *args; /* s: string, i: int, u: unsigned, l: unsigned long, L: u64 */
} printk_fmts[] = {
	{UINT64_C(0xffffffff8281a8ff), "%s: nr_running=%u load=%lu\n", "sul"},
	{UINT64_C(0xffffffff8281b739), "rq=%d util=%lu cap=%lu\n", "ill"},
	{UINT64_C(0xffffffff8281c015), "enter %s depth=%d ts=%llu\n", "siL"},
	{UINT64_C(0xffffffff8281c4a2), "flags=0x%lx mask=%08x prio=%d\n", "lui"},
};

/* Tasks (their pids come from the seed); the last one is left out of saved_cmdlines. */
static const struct task_kind {
	const char *comm;
	int prio;
} task_kinds[] = {
	{"systemd", 120},   {"kworker/u8:2", 120}, {"rcu_preempt", 120}, {"sshd", 120},
	{"bash", 120},	    {"trace-cmd", 120},	   {"Xwayland", 110},	 {"chrome_crashpad", 120},
	{"migration/0", 0}, {"ksoftirqd/1", 120},  {"irq/24-eth0", 49},	 {"gen-dat-worker", 139},
};

static const struct irq_line {
	int irq;
	const char *name;
} irq_lines[] = {
	{1, "i8042"}, {9, "acpi"}, {16, "ehci_hcd:usb1"}, {24, "eth0"}, {120, "nvme0q1"},
};

static const char *const exec_paths[] = {
	"/usr/bin/ls",
	"/usr/bin/bash",
	"/usr/sbin/sshd",
	"/usr/lib/systemd/systemd-journald",
	("/home/builder/src/linux/tools/tracing/rtla/rtla-timerlat-hist-with-a-very-long-name-to-"
	 "need-the-large-record-encoding"),
};

static const char *const print_msgs[] = {
	"hello from gen-dat",
	"phase %u begins",
	"worker %u: queue depth %u",
	("a long marker line that goes past the small-record limit of 112 bytes, so the ring "
	 "buffer keeps its length in array[0]: item %u of %u"),
};

/* ---- Events: values and times, the same in every encoding ------------------------------- */

/* What a funcgraph_entry decided its CPU records next (--funcgraph). */
enum fg_next {
	FG_NEXT_ANY,	   /* whatever is drawn */
	FG_NEXT_EXIT,	   /* its own exit, soon: a leaf, unless another CPU records in between */
	FG_NEXT_EXIT_LATE, /* its own exit, after a while: other CPUs likely record in between */
	FG_NEXT_OTHER_PID, /* its exit, in the task switched to (sched events left out) */
	FG_NEXT_LOST,	   /* its exit is lost: its caller's exit comes next */
};

#define FG_MAX_DEPTH 12

struct task {
	int32_t pid;
	const char *comm;
	int prio;
};

/* The event generator of one CPU of one buffer. */
struct cpu_gen {
	const struct gen *g;
	unsigned int cpu;
	struct rng r;	  /* times and values */
	struct rng drops; /* lost events (--missed), apart so that they change nothing else */
	struct task cur;  /* the task running on this CPU */
	char idle_comm[24];
	int irq; /* index in irq_lines of the handler running, or -1 */
	uint64_t ts;
	/* --funcgraph: the calls open on this CPU, innermost last, and what comes next */
	struct fg_frame {
		uint64_t func, calltime;
	} fg_stack[FG_MAX_DEPTH];
	unsigned int fg_depth;
	enum fg_next fg_next;
};

/* One event, its payload encoded for the file's byte order and long size. */
struct event {
	uint64_t ts;
	int64_t drop; /* events lost just before this one: 0 none, -1 an unknown number */
	uint32_t len; /* payload bytes */
	uint8_t data[MAX_PAYLOAD];
};

static void ev_u8(struct event *e, uint32_t off, uint8_t v)
{
	e->data[off] = v;
}

static void ev_u16(struct event *e, const struct gen *g, uint32_t off, uint16_t v)
{
	tk_store_u16(e->data + off, v, g->bo);
}

static void ev_u32(struct event *e, const struct gen *g, uint32_t off, uint32_t v)
{
	tk_store_u32(e->data + off, v, g->bo);
}

static void ev_u64(struct event *e, const struct gen *g, uint32_t off, uint64_t v)
{
	tk_store_u64(e->data + off, v, g->bo);
}

/*
 * A char[16] field: the kernel copies at most 15 characters and a NUL. sched_switch copies
 * all 16 bytes of task->comm, and kernels before strscpy_pad() left the tail of an earlier,
 * longer name after the NUL: bash keeps one, so that converters see bytes after the text.
 */
static void ev_comm(struct event *e, uint32_t off, const char *s)
{
	size_t n = strlen(s);

	if (!strcmp(s, "bash"))
		memcpy(e->data + off, "bash\0-session:0", 16);
	else
		memcpy(e->data + off, s, n < 15 ? n : 15);
}

/* A __data_loc string: appended after the fixed part, located by (length << 16 | offset). */
static void ev_dynstr(struct event *e, const struct gen *g, uint32_t field, const char *s)
{
	uint32_t n = (uint32_t) strlen(s) + 1;

	if (e->len + n > MAX_PAYLOAD)
		die("Cannot fit string in event: length=%u", n);
	memcpy(e->data + e->len, s, n);
	ev_u32(e, g, field, n << 16 | e->len);
	e->len += n;
}

/* The common fields and a zeroed fixed part of @size bytes (the kernel's struct size). */
static void ev_start(struct event *e, const struct gen *g, uint16_t id, uint8_t flags,
		     uint8_t preempt, int32_t pid, uint32_t size)
{
	memset(e->data, 0, sizeof(e->data));
	e->len = size;
	ev_u16(e, g, 0, id);
	ev_u8(e, 2, flags);
	ev_u8(e, 3, preempt);
	ev_u32(e, g, 4, (uint32_t) pid);
}

static struct task task_pick(struct cpu_gen *c)
{
	unsigned int k = (unsigned int) rng_below(&c->r, ARRAY_SIZE(task_kinds));
	struct task t = {c->g->pids[k], task_kinds[k].comm, task_kinds[k].prio};

	return t;
}

static struct task task_idle(struct cpu_gen *c)
{
	struct task t = {0, c->idle_comm, 120};

	return t;
}

/* Time to the next event, ns: mostly microseconds, sometimes pauses that need time extends. */
static uint64_t draw_gap(struct cpu_gen *c)
{
	uint64_t p = rng_below(&c->r, 1000);

	if (c->irq >= 0)
		return 300 + rng_below(&c->r, 15000);
	if (p < 15)
		return UINT64_C(135000000) + rng_below(&c->r, UINT64_C(2500000000));
	if (p < 17)
		return 20 * NS + rng_below(&c->r, 100 * NS);
	if (p < 40)
		return 0;
	if (p < 300)
		return 1 + rng_below(&c->r, 500);
	return 500 + rng_below(&c->r, 40000);
}

/*
 * An address inside one of the @n functions @names: a call site, for ip and parent_ip.
 * (Each draw is its own statement: C leaves the order of operands unspecified, and the
 * events must not depend on the compiler.)
 */
static uint64_t draw_code_addr(struct cpu_gen *c, const char *const *names, size_t n)
{
	uint64_t base = sym_addr(names[rng_below(&c->r, n)]);

	return base + 4 * (1 + rng_below(&c->r, 100));
}

static uint8_t draw_flags(struct cpu_gen *c)
{
	static const uint8_t flags[] = {0x00, 0x00, 0x00, 0x01, 0x04, 0x08 | 0x01, 0x10};

	return PICK(&c->r, flags);
}

static void make_sched_switch(struct cpu_gen *c, struct event *e)
{
	static const int64_t states[] = {0, 1, 1, 1, 2, 0x80, 0x100};
	const struct gen *g = c->g;
	struct task prev = c->cur, next;
	int64_t state = PICK(&c->r, states);

	if (prev.pid == 0 || rng_below(&c->r, 3))
		next = task_pick(c);
	else
		next = task_idle(c);
	if (next.pid == prev.pid)
		next = task_idle(c);
	if (prev.pid == 0)
		state = 0;
	ev_start(e, g, ID_SCHED_SWITCH, draw_flags(c), 0, prev.pid, 64);
	ev_comm(e, 8, prev.comm);
	ev_u32(e, g, 24, (uint32_t) prev.pid);
	ev_u32(e, g, 28, (uint32_t) prev.prio);
	ev_u64(e, g, 32, (uint64_t) state);
	ev_comm(e, 40, next.comm);
	ev_u32(e, g, 56, (uint32_t) next.pid);
	ev_u32(e, g, 60, (uint32_t) next.prio);
	c->cur = next;
}

static void make_sched_wakeup(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	struct task t = task_pick(c);
	uint8_t flags = draw_flags(c);

	ev_start(e, g, ID_SCHED_WAKEUP, flags, (uint8_t) rng_below(&c->r, 3), c->cur.pid, 36);
	ev_comm(e, 8, t.comm);
	ev_u32(e, g, 24, (uint32_t) t.pid);
	ev_u32(e, g, 28, (uint32_t) t.prio);
	ev_u32(e, g, 32, (uint32_t) rng_below(&c->r, g->cpus));
}

static void make_sched_process_exec(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;

	ev_start(e, g, ID_SCHED_PROCESS_EXEC, 0, 0, c->cur.pid, 20);
	ev_dynstr(e, g, 8, PICK(&c->r, exec_paths));
	ev_u32(e, g, 12, (uint32_t) c->cur.pid);
	ev_u32(e, g, 16, (uint32_t) c->cur.pid);
}

static void make_sched_migrate_task(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	struct task t = task_pick(c);

	ev_start(e, g, ID_SCHED_MIGRATE_TASK, draw_flags(c), 1, c->cur.pid, 28);
	ev_dynstr(e, g, 8, t.comm);
	ev_u32(e, g, 12, (uint32_t) t.pid);
	ev_u32(e, g, 16, (uint32_t) t.prio);
	ev_u32(e, g, 20, (uint32_t) rng_below(&c->r, g->cpus));
	ev_u32(e, g, 24, (uint32_t) rng_below(&c->r, g->cpus));
}

static void make_irq_entry(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;

	c->irq = (int) rng_below(&c->r, ARRAY_SIZE(irq_lines));
	ev_start(e, g, ID_IRQ_HANDLER_ENTRY, 0x09, 0x01, c->cur.pid, 16);
	ev_u32(e, g, 8, (uint32_t) irq_lines[c->irq].irq);
	ev_dynstr(e, g, 12, irq_lines[c->irq].name);
}

static void make_irq_exit(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;

	ev_start(e, g, ID_IRQ_HANDLER_EXIT, 0x09, 0x01, c->cur.pid, 16);
	ev_u32(e, g, 8, (uint32_t) irq_lines[c->irq].irq);
	ev_u32(e, g, 12, rng_below(&c->r, 8) ? 1 : 0);
	c->irq = -1;
}

static void make_timer_start(struct cpu_gen *c, struct event *e)
{
	static const uint32_t flag_bits[] = {0,		 0,	     0x00040000,
					     0x00080000, 0x00200000, 0x00040000 | 0x00200000};
	const struct gen *g = c->g;
	/* jiffies at HZ=250, starting 5 minutes before wrapping 32 bits, like the kernel */
	uint64_t now = UINT64_C(4294667296) + c->ts / 4000000;
	uint64_t expires = now + 1 + rng_below(&c->r, 2000);
	uint32_t idx;

	if (!rng_below(&c->r, 8))
		expires = now - rng_below(&c->r, 3); /* already due: a negative timeout */
	ev_start(e, g, ID_TIMER_START, draw_flags(c), 0, c->cur.pid, 56);
	ev_u64(e, g, 8, UINT64_C(0xffff888100000000) + rng_below(&c->r, 1 << 24) * 64);
	ev_u64(e, g, 16, sym_addr(PICK(&c->r, timer_names)));
	ev_u64(e, g, 24, expires);
	ev_u64(e, g, 32, expires + rng_below(&c->r, 8));
	ev_u64(e, g, 40, now);
	idx = (uint32_t) rng_below(&c->r, 64);
	ev_u32(e, g, 48, c->cpu | idx << 22 | PICK(&c->r, flag_bits));
}

static const int64_t syscall_ids[] = {0, 1, 3, 7, 9, 202, 232, 257};

static void make_sys_enter(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	unsigned int i;

	ev_start(e, g, ID_SYS_ENTER, 0, 0, c->cur.pid, 64);
	ev_u64(e, g, 8, (uint64_t) PICK(&c->r, syscall_ids));
	for (i = 0; i < 6; i++)
		ev_u64(e, g, 16 + 8 * i,
		       rng_below(&c->r, 2)
			       ? rng_below(&c->r, 1024)
			       : UINT64_C(0x7ffc00000000) + rng_below(&c->r, 1ull << 32));
}

static void make_sys_exit(struct cpu_gen *c, struct event *e)
{
	static const int64_t rets[] = {0, 1, 8, 832, 4096, -2, -4, -11};
	const struct gen *g = c->g;

	ev_start(e, g, ID_SYS_EXIT, 0, 0, c->cur.pid, 24);
	ev_u64(e, g, 8, (uint64_t) PICK(&c->r, syscall_ids));
	ev_u64(e, g, 16, (uint64_t) PICK(&c->r, rets));
}

static void make_cpu_idle(struct cpu_gen *c, struct event *e)
{
	static const uint32_t states[] = {0, 1, 2, 4294967295u};
	const struct gen *g = c->g;

	ev_start(e, g, ID_CPU_IDLE, 0x01, 0, c->cur.pid, 16);
	ev_u32(e, g, 8, PICK(&c->r, states));
	ev_u32(e, g, 12, c->cpu);
}

static void make_function(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	uint8_t flags = draw_flags(c);

	ev_start(e, g, ID_FUNCTION, flags, (uint8_t) rng_below(&c->r, 2), c->cur.pid, 24);
	ev_u64(e, g, 8, sym_addr(PICK(&c->r, func_names)));
	ev_u64(e, g, 16, draw_code_addr(c, func_names, ARRAY_SIZE(func_names)));
}

static void make_print(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	const char *fmt = PICK(&c->r, print_msgs);
	unsigned int a = (unsigned int) rng_below(&c->r, 1000);
	unsigned int b = (unsigned int) rng_below(&c->r, 100000);
	char msg[256];
	int n;

	n = snprintf(msg, sizeof(msg) - 1, fmt, a, b);
	if (n < 0 || (size_t) n >= sizeof(msg) - 1)
		die("Cannot format print event: format=%s", fmt);
	msg[n++] = '\n';
	ev_start(e, g, ID_PRINT, draw_flags(c), 0, c->cur.pid, 16);
	ev_u64(e, g, 8, draw_code_addr(c, printer_names, ARRAY_SIZE(printer_names)));
	memcpy(e->data + 16, msg, (size_t) n);
	e->len = 16 + (uint32_t) n + 1;
}

/*
 * A trace_printk() event: the arguments packed as the kernel's vbin_printf() does, each
 * number aligned to 4 bytes in the file's byte order (unsigned long takes the kernel's long
 * size), strings inline with their NUL.
 */
static void make_bprint(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	const struct printk_fmt *f = &printk_fmts[rng_below(&c->r, ARRAY_SIZE(printk_fmts))];
	uint32_t pos = 24;
	const char *a;

	ev_start(e, g, ID_BPRINT, draw_flags(c), 1, c->cur.pid, 24);
	ev_u64(e, g, 8, draw_code_addr(c, printer_names, ARRAY_SIZE(printer_names)));
	ev_u64(e, g, 16, f->addr);
	for (a = f->args; *a; a++) {
		if (*a == 's') {
			const char *s = PICK(&c->r, func_names);
			size_t n = strlen(s) + 1;

			memcpy(e->data + pos, s, n);
			pos += (uint32_t) n;
			continue;
		}
		pos = (pos + 3) & ~UINT32_C(3);
		if (*a == 'i') {
			ev_u32(e, g, pos, (uint32_t) ((int32_t) rng_below(&c->r, 4000) - 1000));
			pos += 4;
		} else if (*a == 'u') {
			ev_u32(e, g, pos, (uint32_t) rng_below(&c->r, 1000000));
			pos += 4;
		} else if (*a == 'l') {
			/* below 2^31: a 32-bit twin must print the same */
			uint64_t v = rng_below(&c->r, UINT64_C(1) << 31);

			if (g->long_size == 8)
				ev_u64(e, g, pos, v);
			else
				ev_u32(e, g, pos, (uint32_t) v);
			pos += g->long_size;
		} else {
			ev_u64(e, g, pos, c->ts + rng_below(&c->r, 1000));
			pos += 8;
		}
	}
	e->len = (pos + 3) & ~UINT32_C(3);
}

/*
 * --funcgraph: the functions a CPU's records call, a share of func_names of its own and an
 * address below _stext (no symbol: trace-cmd prints it in hex). No exit of one CPU can then
 * match an entry of another: trace-cmd 3.1.6 takes the next record in time order of any CPU
 * as an entry's exit, then reads past it in a record its loop still holds (later versions
 * look at the same CPU only), which no reader should copy.
 */
static uint64_t draw_fg_func(struct cpu_gen *c)
{
	unsigned int cpus = c->g->cpus;
	size_t n = ARRAY_SIZE(func_names), k;

	if (!rng_below(&c->r, 40))
		return UINT64_C(0xffffffff80000000) + 0x40 * (uint64_t) (c->cpu + 1);
	if (cpus > n / 2)
		return sym_addr(PICK(&c->r, func_names));
	k = c->cpu + cpus * rng_below(&c->r, (n - c->cpu + cpus - 1) / cpus);
	return sym_addr(func_names[k]);
}

/*
 * A call's duration (rettime - calltime), ns: every overhead mark trace-cmd prints (none up
 * to 10 us, '+', '!', '#' over 1 ms, '$' over 1 s), their edges, durations of 7 digits of us
 * and more (printed without decimals), and a rettime before the calltime (unsynchronised
 * clocks; ~0 has a mark of its own). Drawn apart from the record times so that long calls
 * can be leaves too.
 */
static uint64_t draw_fg_duration(struct cpu_gen *c)
{
	static const uint64_t edges[] = {
		0,	    999,	1000,	     9999,	   10000,      10001,
		100000,	    100001,	999999,	     1000000,	   1000001,    999999999,
		1000000000, 1000000001, 9999999999u, 10000000000u, UINT64_MAX, UINT64_MAX - 999,
	};
	static const struct {
		unsigned int upto; /* percent */
		uint64_t low, high;
	} classes[] = {
		{48, 0, 10001},
		{66, 10001, 100001},
		{78, 100001, 1000001},
		{86, 1000001, 10000001},
		{91, 10000001, 100000001},
		{95, 100000001, 1000000001},
		{100, 1000000001, 100 * NS},
	};
	uint64_t p = rng_below(&c->r, 100);
	size_t k;

	if (p < 8)
		return PICK(&c->r, edges);
	p = rng_below(&c->r, 100);
	for (k = 0; p >= classes[k].upto; k++)
		;
	return classes[k].low + rng_below(&c->r, classes[k].high - classes[k].low);
}

/* A call: the record of its entry, and what this CPU records next. */
static void make_fg_entry(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	const struct fg_layout_info *l = &fg_layouts[g->funcgraph];
	struct fg_frame *f = &c->fg_stack[c->fg_depth];
	uint8_t flags = draw_flags(c);
	uint64_t p;

	f->func = draw_fg_func(c);
	f->calltime = c->ts;
	ev_start(e, g, ID_FUNCGRAPH_ENTRY, flags, (uint8_t) rng_below(&c->r, 3), c->cur.pid,
		 l->entry_size);
	ev_u64(e, g, 8, f->func);
	ev_u32(e, g, 16, c->fg_depth);
	c->fg_depth++;
	p = rng_below(&c->r, 100);
	if (p < 35)
		c->fg_next = FG_NEXT_EXIT;
	else if (p < 42)
		c->fg_next = FG_NEXT_EXIT_LATE;
	else if (p < 46)
		c->fg_next = FG_NEXT_OTHER_PID;
	else if (p < 50 && c->fg_depth > 1)
		c->fg_next = FG_NEXT_LOST;
}

/* The return from the innermost open call, in the task running now. */
static void make_fg_exit(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	const struct fg_layout_info *l = &fg_layouts[g->funcgraph];
	const struct fg_frame *f = &c->fg_stack[--c->fg_depth];
	uint8_t flags = draw_flags(c);
	uint64_t d, overrun;

	ev_start(e, g, ID_FUNCGRAPH_EXIT, flags, (uint8_t) rng_below(&c->r, 3), c->cur.pid,
		 l->exit_size);
	ev_u64(e, g, 8, f->func);
	ev_u32(e, g, l->x_depth, c->fg_depth);
	overrun = rng_below(&c->r, 50) ? 0 : 1 + rng_below(&c->r, 3);
	if (l->overrun_size == 8)
		ev_u64(e, g, l->x_overrun, overrun);
	else
		ev_u32(e, g, l->x_overrun, (uint32_t) overrun);
	d = draw_fg_duration(c);
	ev_u64(e, g, l->x_calltime, f->calltime);
	ev_u64(e, g, l->x_rettime, f->calltime + d);
	if (l->x_retval)
		ev_u64(e, g, l->x_retval,
		       rng_below(&c->r, 4) ? rng_below(&c->r, 4096) : -UINT64_C(22));
}

/* A function_graph record drawn among the other events: a call, or a return. */
static void make_funcgraph(struct cpu_gen *c, struct event *e)
{
	if (c->fg_depth == FG_MAX_DEPTH || (c->fg_depth && rng_below(&c->r, 100) < 45))
		make_fg_exit(c, e);
	else
		make_fg_entry(c, e);
}

/* The record an entry decided comes next on its CPU, and the time to it. */
static uint64_t draw_fg_gap(struct cpu_gen *c)
{
	if (c->fg_next == FG_NEXT_EXIT)
		return rng_below(&c->r, 8) ? 1 + rng_below(&c->r, 2000) : 0;
	if (c->fg_next == FG_NEXT_EXIT_LATE)
		return 2000 + rng_below(&c->r, 200000);
	return 1 + rng_below(&c->r, 3000);
}

static void make_fg_next(struct cpu_gen *c, struct event *e)
{
	enum fg_next next = c->fg_next;

	c->fg_next = FG_NEXT_ANY;
	if (next == FG_NEXT_OTHER_PID) {
		struct task t = task_pick(c);

		c->cur = t.pid == c->cur.pid ? task_idle(c) : t;
	} else if (next == FG_NEXT_LOST) {
		c->fg_depth--;
	}
	make_fg_exit(c, e);
}

/* ftrace's kernel_stack for the long size: an int, then the frames at the next long */
#define ID_KERNEL_STACK 4
static void fmt_kernel_stack(const struct gen *g, struct buf *t)
{
	unsigned int k;

	buf_printf(t,
		   "name: kernel_stack\nID: %d\n" FMT_COMMON
		   "\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
		   "\tfield:unsigned long caller[8];\toffset:%u;\tsize:%u;\tsigned:0;\n\n"
		   "print fmt: \"\\t=> %%ps\\n\\t=> %%ps\\n\\t=> %%ps\\n\" \"\\t=> %%ps\\n\\t=> "
		   "%%ps\\n\\t=> %%ps\\n\" \"\\t=> %%ps\\n\\t=> %%ps\\n\"",
		   ID_KERNEL_STACK, 8 + g->long_size - 4 * (g->long_size == 4), 8 * g->long_size);
	for (k = 0; k < 8; k++)
		buf_printf(t, ", (void *)REC->caller[%u]", k);
	buf_printf(t, "\n");
}

/* 0 to 12 frames (more than the format's 8 on deep stacks) */
static void make_kernel_stack(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	uint32_t n = (uint32_t) rng_below(&c->r, 13), off = g->long_size == 8 ? 16 : 12, i;

	ev_start(e, g, ID_KERNEL_STACK, draw_flags(c), 0, c->cur.pid, off + n * g->long_size);
	ev_u32(e, g, 8, n);
	for (i = 0; i < n; i++) {
		uint64_t a = draw_code_addr(c, func_names, ARRAY_SIZE(func_names));

		if (g->long_size == 8)
			ev_u64(e, g, off + i * 8, a);
		else
			ev_u32(e, g, off + i * 4, (uint32_t) a);
	}
}

/* An IPv4 address, often with zero bytes inside */
static void draw_ipv4(struct cpu_gen *c, uint8_t *at)
{
	static const uint8_t addrs[][4] = {
		{127, 0, 0, 1}, {10, 0, 0, 0},	      {0, 0, 0, 0},	 {192, 168, 0, 1},
		{10, 0, 2, 15}, {255, 255, 255, 255}, {172, 16, 0, 254},
	};

	memcpy(at, addrs[rng_below(&c->r, ARRAY_SIZE(addrs))], 4);
}

static void make_fib_table_lookup(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;

	ev_start(e, g, ID_FIB_TABLE_LOOKUP, draw_flags(c), 0, c->cur.pid, 31);
	ev_u32(e, g, 8, rng_below(&c->r, 2) ? 254 : 255);
	ev_u32(e, g, 12, (uint32_t) rng_below(&c->r, 4));
	ev_u32(e, g, 16, rng_below(&c->r, 2) ? 1 : UINT32_MAX);
	ev_u8(e, 20, (uint8_t) rng_below(&c->r, 2) * 16);
	ev_u8(e, 21, (uint8_t) rng_below(&c->r, 256));
	ev_u8(e, 22, (uint8_t) rng_below(&c->r, 2));
	draw_ipv4(c, e->data + 23);
	draw_ipv4(c, e->data + 27);
}

/*
 * A print record as large as a page holds (the kernel's limit: 4072 bytes in a 4 KiB
 * sub-buffer of a 64-bit kernel), its message numbered lines; at most MAX_PAYLOAD.
 */
static void make_big_print(struct cpu_gen *c, struct event *e)
{
	const struct gen *g = c->g;
	uint32_t len = g->page_size - 8 - g->long_size - 8, at = 16, line = 0;

	if (len > MAX_PAYLOAD)
		len = MAX_PAYLOAD;
	ev_start(e, g, ID_PRINT, draw_flags(c), 0, c->cur.pid, len);
	ev_u64(e, g, 8, draw_code_addr(c, printer_names, ARRAY_SIZE(printer_names)));
	while (at < len - 2) {
		char text[32];
		int n = snprintf(text, sizeof(text), "big print line %u; ", line++);

		memcpy(e->data + at, text, len - 2 - at < (uint32_t) n ? len - 2 - at : (size_t) n);
		at += (uint32_t) n;
	}
	e->data[len - 2] = '\n';
	e->data[len - 1] = '\0';
}

/* --extra-events: one of the records conversions have got wrong */
static void make_extra(struct cpu_gen *c, struct event *e)
{
	uint64_t k = rng_below(&c->r, 16);

	if (k < 7)
		make_fib_table_lookup(c, e);
	else if (k < 14 || e->drop) /* no room for a loss count beside the largest record */
		make_kernel_stack(c, e);
	else
		make_big_print(c, e);
}

/* Event kinds and their weights. */
static const struct {
	void (*make)(struct cpu_gen *c, struct event *e);
	unsigned int weight;
	bool needs_task; /* not written for the idle task */
} kinds[] = {
	{make_sched_switch, 14, false},
	{make_sched_wakeup, 10, false},
	{make_sched_process_exec, 2, true},
	{make_sched_migrate_task, 2, false},
	{make_irq_entry, 6, false},
	{make_timer_start, 6, false},
	{make_sys_enter, 8, true},
	{make_sys_exit, 8, true},
	{make_cpu_idle, 4, false},
	{make_function, 8, false},
	{make_print, 4, true},
	{make_bprint, 4, false},
};

static void cpu_gen_init(struct cpu_gen *c, const struct gen *g, unsigned int buffer,
			 unsigned int cpu)
{
	memset(c, 0, sizeof(*c));
	c->g = g;
	c->cpu = cpu;
	c->r = rng_for(g, buffer, cpu, 1);
	c->drops = rng_for(g, buffer, cpu, 2);
	snprintf(c->idle_comm, sizeof(c->idle_comm), "swapper/%u", cpu);
	c->irq = -1;
	c->cur = rng_below(&c->r, 4) ? task_pick(c) : task_idle(c);
	c->ts = g->t0 + rng_below(&c->r, 1000000);
}

static void next_event(struct cpu_gen *c, struct event *e)
{
	unsigned int total = 0, k, w;

	c->ts += c->fg_next ? draw_fg_gap(c) : draw_gap(c);
	e->ts = c->ts;
	e->drop = 0;
	if (c->g->missed && !rng_below(&c->drops, 64))
		e->drop = rng_below(&c->drops, 4) ? (int64_t) (1 + rng_below(&c->drops, 5000)) : -1;
	if (c->fg_next) {
		make_fg_next(c, e);
		return;
	}
	if (c->irq >= 0) {
		make_irq_exit(c, e);
		return;
	}
	if (c->g->extra && !rng_below(&c->r, 8)) {
		make_extra(c, e);
		return;
	}
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		total += kinds[k].weight;
	/* --funcgraph: as many function_graph records as all the others */
	w = (unsigned int) rng_below(&c->r, c->g->funcgraph ? 2 * total : total);
	if (w >= total) {
		make_funcgraph(c, e);
		return;
	}
	for (k = 0; w >= kinds[k].weight; k++)
		w -= kinds[k].weight;
	if (kinds[k].needs_task && c->cur.pid == 0)
		make_cpu_idle(c, e);
	else
		kinds[k].make(c, e);
}

/* ---- Ring-buffer pages: encoding choices, kernel rules ---------------------------------- */

/* The page writer of one CPU. */
struct pager {
	const struct gen *g;
	struct buf *out; /* whole pages */
	struct rng enc;	 /* encoding choices, free to differ between encodings */
	uint8_t *page;
	uint32_t pos; /* next record in the page; 0 when no page is open */
	uint32_t data_off;
	uint64_t last;	/* the time the next delta counts from */
	int64_t missed; /* the open page's lost events */
};

static void rec_u32(struct pager *p, uint32_t v)
{
	tk_store_u32(p->page + p->pos, v, p->g->bo);
	p->pos += 4;
}

/* The event header word: its bit fields follow the byte order (reference section 5). */
static void rec_word(struct pager *p, uint32_t type_len, uint64_t delta)
{
	uint32_t d = (uint32_t) delta;

	rec_u32(p, p->g->bo == TK_BYTE_ORDER_LE ? type_len | d << 5 : type_len << 27 | d);
}

static void store_long(const struct gen *g, uint8_t *at, uint64_t v)
{
	if (g->long_size == 8)
		tk_store_u64(at, v, g->bo);
	else
		tk_store_u32(at, (uint32_t) v, g->bo);
}

/*
 * Open a page for event @e. Kernels since 5.x stamp a page with its first event's time and
 * give that event delta 0; sometimes the stamp is a little earlier, as older kernels wrote.
 */
static void page_start(struct pager *p, const struct event *e)
{
	uint64_t ts = e->ts;

	memset(p->page, 0, p->g->page_size);
	if (!rng_below(&p->enc, 8))
		ts -= ts < 1000 ? ts : 1 + rng_below(&p->enc, 999);
	tk_store_u64(p->page, ts, p->g->bo);
	p->last = ts;
	p->missed = e->drop;
	p->pos = p->data_off;
}

/*
 * Close the open page: commit word, lost-events flags and count, and sometimes the padding
 * a writer leaves when it moves to the next page (inside the commit, with delta 1, as
 * rb_reset_tail() writes it; or a bare 4-byte padding word after it).
 */
static void page_finish(struct pager *p)
{
	const struct gen *g = p->g;
	uint32_t room = g->page_size - p->pos;
	uint64_t commit;

	if (!p->missed && room >= 8 && !rng_below(&p->enc, 4)) {
		rec_word(p, TYPE_PADDING, 1);
		rec_u32(p, room - 4);
		p->pos = g->page_size;
	} else if (!p->missed && room == 4) {
		rec_word(p, TYPE_PADDING, 0);
		p->pos -= 4;
	}
	commit = p->pos - p->data_off;
	if (p->missed > 0) {
		store_long(g, p->page + p->pos, (uint64_t) p->missed);
		commit |= MISSED_EVENTS | MISSED_STORED;
	} else if (p->missed < 0) {
		commit |= MISSED_EVENTS;
	}
	store_long(g, p->page + 8, commit);
	put_bytes(p->out, p->page, g->page_size);
	p->pos = 0;
}

/* Append one event, opening a new page when it does not fit or when events were lost. */
static void pager_add(struct pager *p, const struct event *e)
{
	const struct gen *g = p->g;
	uint32_t padded = (e->len + 3) & ~UINT32_C(3);
	bool big = padded > SMALL_DATA_MAX;
	uint32_t need = (big ? 8 : 4) + padded, ext, disc, reserve;
	uint64_t delta;

	if (p->pos && e->drop)
		page_finish(p);
	for (;;) {
		if (!p->pos)
			page_start(p, e);
		delta = e->ts - p->last;
		ext = delta > MAX_DELTA || !rng_below(&p->enc, 256) ? 8 : 0;
		disc = !ext && delta >= 2 && !rng_below(&p->enc, 100)
			       ? 8 + 4 * rng_below(&p->enc, 6)
			       : 0;
		if (p->missed && p->pos == p->data_off)
			ext = disc = 0; /* trace-cmd reports the loss only before a first record */
		reserve = p->missed > 0 ? g->long_size : 0;
		if (p->pos + ext + disc + need + reserve <= g->page_size)
			break;
		if (p->pos == p->data_off && (ext || disc) &&
		    p->pos + need + reserve <= g->page_size) {
			ext = disc = 0; /* a record as large as the page: alone in it */
			break;
		}
		if (p->pos == p->data_off)
			die("Cannot fit event in a page: length=%u, page-size=%u", e->len,
			    g->page_size);
		page_finish(p);
	}
	if (disc) {
		/* a discarded event; its delta counts (kbuffer), so the next one is shorter */
		uint64_t d = 1 + rng_below(&p->enc, delta - 1 < 1000 ? delta - 1 : 1000);

		rec_word(p, TYPE_PADDING, d);
		rec_u32(p, disc - 4);
		memset(p->page + p->pos, 0xdd, disc - 8);
		p->pos += disc - 8;
		p->last += d;
		delta -= d;
	}
	if (ext && delta > MAX_DELTA && rng_below(&p->enc, 4)) {
		rec_word(p, TYPE_TIME_EXTEND, delta & MAX_DELTA);
		rec_u32(p, (uint32_t) (delta >> DELTA_BITS));
		delta = 0;
	} else if (ext) {
		/* absolute: the low 59 bits, the top 5 come from the page (always 0 here) */
		rec_word(p, TYPE_TIME_STAMP, e->ts & MAX_DELTA);
		rec_u32(p, (uint32_t) (e->ts >> DELTA_BITS));
		delta = 0;
	}
	if (big) {
		rec_word(p, 0, delta);
		rec_u32(p, padded + 4);
	} else {
		rec_word(p, padded / 4, delta);
	}
	memcpy(p->page + p->pos, e->data, e->len);
	p->pos += padded;
	p->last = e->ts;
}

/* What a buffer's CPUs hold, for the CPUSTAT options. */
struct cpu_stats {
	uint64_t events, dropped, first_ts, last_ts;
};

/*
 * Make the events of one buffer (0 = top, then instances) and encode them: one buffer of
 * whole pages per CPU. Events are spread over the CPUs like the kernel spreads work.
 */
static void make_buffer(const struct gen *g, unsigned int buffer, struct buf *cpu_data,
			struct cpu_stats *stats)
{
	struct event ev;
	struct cpu_gen c;
	struct pager p;
	unsigned int cpu;
	uint64_t i, n;

	for (cpu = 0; cpu < g->cpus; cpu++) {
		n = g->events / g->cpus + (cpu < g->events % g->cpus);
		memset(&stats[cpu], 0, sizeof(stats[cpu]));
		cpu_data[cpu] = (struct buf){.bo = g->bo};
		cpu_gen_init(&c, g, buffer, cpu);
		p = (struct pager){.g = g, .out = &cpu_data[cpu], .data_off = 8 + g->long_size};
		p.enc = rng_for(g, buffer, cpu,
				3 + g->long_size * 16 + g->bo * 256 + (g->page_size >> 12) * 4096 +
					g->version * 7);
		p.page = malloc(g->page_size);
		if (!p.page)
			die("Cannot allocate memory: size=%u", g->page_size);
		for (i = 0; i < n; i++) {
			next_event(&c, &ev);
			pager_add(&p, &ev);
			if (!i)
				stats[cpu].first_ts = ev.ts;
			stats[cpu].last_ts = ev.ts;
			stats[cpu].dropped += ev.drop > 0 ? (uint64_t) ev.drop : 0;
		}
		stats[cpu].events = n;
		if (p.pos)
			page_finish(&p);
		free(p.page);
	}
}

/* ---- Metadata: the v6 parts, which v7 puts in sections ---------------------------------- */

static void meta_header_info(const struct gen *g, struct buf *b)
{
	struct buf t = {0};

	header_page(g, &t);
	put_bytes(b, "header_page", 12);
	put_u64(b, t.len);
	put_bytes(b, t.p, t.len);
	put_bytes(b, "header_event", 13);
	put_u64(b, sizeof(header_event) - 1);
	put_bytes(b, header_event, sizeof(header_event) - 1);
	buf_free(&t);
}

static void meta_ftrace(const struct gen *g, struct buf *b)
{
	size_t i;

	put_u32(b, (uint32_t) ARRAY_SIZE(ftrace_formats) + (g->funcgraph ? 2 : 0) + g->extra);
	for (i = 0; i < ARRAY_SIZE(ftrace_formats); i++) {
		put_u64(b, strlen(ftrace_formats[i]));
		put_bytes(b, ftrace_formats[i], strlen(ftrace_formats[i]));
	}
	if (g->funcgraph) {
		const struct fg_layout_info *l = &fg_layouts[g->funcgraph];

		put_u64(b, strlen(l->exit_fmt));
		put_bytes(b, l->exit_fmt, strlen(l->exit_fmt));
		put_u64(b, strlen(l->entry_fmt));
		put_bytes(b, l->entry_fmt, strlen(l->entry_fmt));
	}
	if (g->extra) {
		struct buf t = {0};

		fmt_kernel_stack(g, &t);
		put_u64(b, t.len);
		put_bytes(b, t.p, t.len);
		buf_free(&t);
	}
}

static void meta_events(const struct gen *g, struct buf *b)
{
	size_t i, k, n;

	n = ARRAY_SIZE(systems) - !g->extra;
	put_u32(b, (uint32_t) n);
	for (i = 0; i < ARRAY_SIZE(systems) - !g->extra; i++) {
		put_cstr(b, systems[i].name);
		for (n = 0; systems[i].formats[n]; n++)
			;
		put_u32(b, (uint32_t) n);
		for (k = 0; k < n; k++) {
			put_u64(b, strlen(systems[i].formats[k]));
			put_bytes(b, systems[i].formats[k], strlen(systems[i].formats[k]));
		}
	}
}

static void meta_kallsyms(const struct gen *g, struct buf *b)
{
	struct buf t = {0};
	size_t i;

	(void) g;
	for (i = 0; i < ARRAY_SIZE(syms); i++) {
		buf_printf(&t, "%016" PRIx64 " %c %s", syms[i].addr, syms[i].type, syms[i].name);
		if (syms[i].module)
			buf_printf(&t, "\t[%s]", syms[i].module);
		buf_printf(&t, "\n");
	}
	put_u32(b, (uint32_t) t.len);
	put_bytes(b, t.p, t.len);
	buf_free(&t);
}

static void meta_printk(const struct gen *g, struct buf *b)
{
	struct buf t = {0};
	const char *s;
	size_t i;

	(void) g;
	for (i = 0; i < ARRAY_SIZE(printk_fmts); i++) {
		buf_printf(&t, "0x%" PRIx64 " : \"", printk_fmts[i].addr);
		for (s = printk_fmts[i].fmt; *s; s++) {
			if (*s == '\n')
				buf_printf(&t, "\\n");
			else
				buf_printf(&t, "%c", *s);
		}
		buf_printf(&t, "\"\n");
	}
	put_u32(b, (uint32_t) t.len);
	put_bytes(b, t.p, t.len);
	buf_free(&t);
}

/* saved_cmdlines; the last task is missing, as when the kernel's table overflowed */
static void meta_cmdlines(const struct gen *g, struct buf *b)
{
	struct buf t = {0};
	size_t i;

	for (i = 0; i + 1 < ARRAY_SIZE(task_kinds); i++)
		buf_printf(&t, "%d %s\n", g->pids[i], task_kinds[i].comm);
	put_u64(b, t.len);
	put_bytes(b, t.p, t.len);
	buf_free(&t);
}

static const char *const clock_names[] = {"local", "global",   "counter", "uptime", "perf",
					  "mono",  "mono_raw", "boot",	  "tai",    "x86-tsc"};

/* The trace_clock file: every clock, the one in use in brackets (TRACECLOCK option). */
static void trace_clock_text(const struct gen *g, struct buf *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(clock_names); i++)
		buf_printf(t, strcmp(clock_names[i], g->clock) ? "%s%s" : "%s[%s]", i ? " " : "",
			   clock_names[i]);
	buf_printf(t, "\n");
}

/* ---- Compression (reference section 4) -------------------------------------------------- */

static const char *comp_name(const struct gen *g)
{
	return g->comp == COMP_ZSTD ? "zstd" : g->comp == COMP_ZLIB ? "zlib" : "none";
}

static const char *comp_version(const struct gen *g)
{
	return g->comp == COMP_ZSTD   ? ZSTD_versionString()
	       : g->comp == COMP_ZLIB ? zlibVersion()
				      : "";
}

/*
 * One compressed block: u32 compressed size, u32 original size, then the bytes; zstd at its
 * default level without a content size in the frame, zlib at its best level, as trace-cmd.
 */
static void put_compressed(const struct gen *g, struct buf *b, const uint8_t *in, size_t n)
{
	size_t bound, z;
	size_t at;

	if (g->comp == COMP_ZSTD) {
		ZSTD_CCtx *cctx = ZSTD_createCCtx();

		bound = ZSTD_compressBound(n);
		at = b->len;
		put_zeros(b, 8 + bound);
		if (!cctx || ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0)))
			die("Cannot set up zstd");
		z = ZSTD_compress2(cctx, b->p + at + 8, bound, in, n);
		ZSTD_freeCCtx(cctx);
		if (ZSTD_isError(z))
			die("Cannot compress with zstd: %s", ZSTD_getErrorName(z));
	} else {
		uLongf zl = compressBound((uLong) n);

		at = b->len;
		put_zeros(b, 8 + zl);
		if (compress2(b->p + at + 8, &zl, in, (uLong) n, Z_BEST_COMPRESSION) != Z_OK)
			die("Cannot compress with zlib: size=%zu", n);
		z = zl;
	}
	b->len = at + 8 + z;
	tk_store_u32(b->p + at, (uint32_t) z, g->bo);
	tk_store_u32(b->p + at + 4, (uint32_t) n, g->bo);
}

/* ---- The file ----------------------------------------------------------------------------- */

struct file {
	const struct gen *g;
	struct buf out;
	struct buf strings; /* v7: section descriptions */
	size_t next_link;   /* v7: where the last options section's "next" offset goes */
};

static void put_header(struct file *f)
{
	const struct gen *g = f->g;
	uint8_t b[2] = {g->bo == TK_BYTE_ORDER_BE, (uint8_t) g->long_size};

	put_bytes(&f->out, "\x17\x08\x44tracing", 10);
	put_cstr(&f->out, g->version == 6 ? "6" : "7");
	put_bytes(&f->out, b, 2);
	put_u32(&f->out, g->page_size);
	if (g->version >= 7) {
		put_cstr(&f->out, comp_name(g));
		put_cstr(&f->out, comp_version(g));
		f->next_link = f->out.len;
		put_u64(&f->out, 0); /* the first options section, patched later */
	}
}

/* v7: a section header; the size is patched by section_end(). */
static size_t section_start(struct file *f, uint16_t id, bool compress, const char *desc)
{
	size_t at = f->out.len;

	put_u16(&f->out, id);
	put_u16(&f->out, compress);
	put_u32(&f->out, (uint32_t) f->strings.len);
	put_cstr(&f->strings, desc);
	put_u64(&f->out, 0);
	return at;
}

static void section_end(struct file *f, size_t at)
{
	patch_u64(&f->out, at + 8, f->out.len - at - 16);
}

/* v6: the part as it is; v7: a section, compressed when the file is. Returns its offset. */
static size_t put_meta(struct file *f, uint16_t id, const char *desc,
		       void (*part)(const struct gen *g, struct buf *b))
{
	struct buf t = {.bo = f->g->bo};
	bool compress = f->g->comp != COMP_NONE;
	size_t at;

	if (f->g->version == 6) {
		part(f->g, &f->out);
		return 0;
	}
	at = section_start(f, id, compress, desc);
	part(f->g, &t);
	if (compress)
		put_compressed(f->g, &f->out, t.p, t.len);
	else
		put_bytes(&f->out, t.p, t.len);
	buf_free(&t);
	section_end(f, at);
	return at;
}

static void opt_add(struct buf *o, uint16_t id, const void *data, uint32_t size)
{
	put_u16(o, id);
	put_u32(o, size);
	put_bytes(o, data, size);
}

static void opt_str(struct buf *o, uint16_t id, const char *s)
{
	opt_add(o, id, s, (uint32_t) strlen(s) + 1);
}

static void opt_u64(struct buf *o, uint16_t id, uint64_t v)
{
	uint8_t b[8];

	tk_store_u64(b, v, o->bo);
	opt_add(o, id, b, 8);
}

/*
 * v7: an options section holding @opts and the DONE option linking to the next section
 * (patched when there is one); the previous section's link now points here.
 */
static void put_options_v7(struct file *f, const struct buf *opts)
{
	size_t at = section_start(f, OPT_DONE, false, "options");

	patch_u64(&f->out, f->next_link, at);
	put_bytes(&f->out, opts->p, opts->len);
	put_u16(&f->out, OPT_DONE);
	put_u32(&f->out, 8);
	f->next_link = f->out.len;
	put_u64(&f->out, 0);
	section_end(f, at);
}

/* CPUSTAT options: per_cpu/cpuN/stats of each CPU, as trace-cmd saves them. */
static void cpustat_options(const struct gen *g, struct buf *o, const struct cpu_stats *stats)
{
	struct buf t = {0};
	unsigned int cpu;

	for (cpu = 0; cpu < g->cpus; cpu++) {
		const struct cpu_stats *s = &stats[cpu];

		t.len = 0;
		buf_printf(&t,
			   "CPU: %u\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
			   "oldest event ts: %5" PRIu64 ".%06" PRIu64 "\n"
			   "now ts: %5" PRIu64 ".%06" PRIu64 "\n"
			   "dropped events: %" PRIu64 "\nread events: %" PRIu64 "\n",
			   cpu, s->first_ts / NS, s->first_ts % NS / 1000, s->last_ts / NS,
			   s->last_ts % NS / 1000, s->dropped, s->events);
		put_zeros(&t, 1);
		opt_add(o, OPT_CPUSTAT, t.p, (uint32_t) t.len);
	}
	buf_free(&t);
}

/*
 * TSC2NSEC: {u32 mult, u32 shift, u64 offset}, ns = ticks * mult >> shift (0.3 to 1.5 ns a
 * tick, shifts 16 to 32 as perf gives them); the offset is saved but not applied by readers.
 */
static void tsc2nsec_option(const struct gen *g, struct buf *o)
{
	struct rng r = rng_for(g, 0xfffe, 0, 1);
	struct buf t = {.bo = g->bo};
	uint32_t shift = 16 + (uint32_t) rng_below(&r, 17);

	put_u32(&t,
		(uint32_t) (((UINT64_C(3) << shift) + rng_below(&r, UINT64_C(12) << shift)) / 10));
	put_u32(&t, shift);
	put_u64(&t, rng_next(&r));
	opt_add(o, OPT_TSC2NSEC, t.p, (uint32_t) t.len);
	buf_free(&t);
}

/*
 * TIME_SHIFT, as `trace-cmd record -A` leaves in a guest's file: u64 host trace id, u32
 * flags (1: interpolate), u32 CPU count, per CPU {u32 count, i64 times, i64 offsets, i64
 * scalings}, then per CPU the i64 fraction bits, which older writers left out. Counts of 1 to
 * 6 samples per CPU (libtracecmd reads past its array for a count of 0) (one CPU fewer than the trace has, to leave one without), out of order
 * and with a repeated time, spread over the trace's raw times; offsets within a millisecond,
 * scalings 1, some 3 with one fraction bit.
 */
static void time_shift_option(const struct gen *g, struct buf *o)
{
	struct rng r = rng_for(g, 0xfffe, 0, 2);
	struct buf t = {.bo = g->bo};
	uint64_t span = (g->events / g->cpus + 1) * UINT64_C(200000000);
	bool fractions = rng_below(&r, 2);
	unsigned int cpus = g->cpus > 1 ? g->cpus - 1 : 1, cpu, k, n[MAX_CPUS];
	int64_t tm[MAX_CPUS][6], off[MAX_CPUS][6], sc[MAX_CPUS][6], fr[MAX_CPUS][6];

	put_u64(&t, g->trace_id ^ UINT64_C(0x5555));
	put_u32(&t, (uint32_t) rng_below(&r, 2));
	put_u32(&t, cpus);
	for (cpu = 0; cpu < cpus; cpu++) {
		n[cpu] = cpu < 3 ? cpu + 1 : 1 + (unsigned int) rng_below(&r, 6);
		for (k = 0; k < n[cpu]; k++) {
			tm[cpu][k] = (int64_t) (g->t0 - NS + rng_below(&r, span));
			off[cpu][k] = (int64_t) rng_below(&r, 2000000) - 1000000;
			sc[cpu][k] = fractions && rng_below(&r, 3) == 0 ? 3 : 1;
			fr[cpu][k] = sc[cpu][k] == 3;
		}
		if (n[cpu] > 3)
			tm[cpu][n[cpu] - 1] = tm[cpu][1];
		put_u32(&t, n[cpu]);
		for (k = 0; k < n[cpu]; k++)
			put_u64(&t, (uint64_t) tm[cpu][k]);
		for (k = 0; k < n[cpu]; k++)
			put_u64(&t, (uint64_t) off[cpu][k]);
		for (k = 0; k < n[cpu]; k++)
			put_u64(&t, (uint64_t) sc[cpu][k]);
	}
	if (fractions)
		for (cpu = 0; cpu < cpus; cpu++)
			for (k = 0; k < n[cpu]; k++)
				put_u64(&t, (uint64_t) fr[cpu][k]);
	opt_add(o, OPT_TIME_SHIFT, t.p, (uint32_t) t.len);
	buf_free(&t);
}

/* The options every file has: what trace-cmd record saves about the machine and buffers. */
static void common_options(const struct gen *g, struct buf *o, const struct cpu_stats *stats)
{
	static const char *const machines[2][2] = {{"i686", "x86_64"}, {"ppc", "s390x"}};
	struct buf t = {0};

	if (g->date) {
		buf_printf(&t, "0x%" PRIx64, g->date_us);
		put_zeros(&t, 1);
		opt_add(o, OPT_DATE, t.p, (uint32_t) t.len);
		t.len = 0;
	}
	trace_clock_text(g, &t);
	put_zeros(&t, 1);
	opt_add(o, OPT_TRACECLOCK, t.p, (uint32_t) t.len);
	t.len = 0;
	buf_printf(&t, "Linux gen-dat 6.18.0-gen %s",
		   machines[g->bo == TK_BYTE_ORDER_BE][g->long_size == 8]);
	put_zeros(&t, 1);
	opt_add(o, OPT_UNAME, t.p, (uint32_t) t.len);
	t.len = 0;
	opt_str(o, OPT_VERSION, "3.1.6 gen-dat");
	opt_u64(o, OPT_TRACEID, g->trace_id);
	if (g->has_offset) {
		buf_printf(&t, "%" PRId64, g->offset);
		put_zeros(&t, 1);
		opt_add(o, OPT_OFFSET, t.p, (uint32_t) t.len);
		t.len = 0;
	}
	if (g->tsc2nsec)
		tsc2nsec_option(g, o);
	if (g->time_shift)
		time_shift_option(g, o);
	cpustat_options(g, o, stats);
	buf_free(&t);
}

/*
 * The per-CPU data of one buffer, each CPU starting on a page boundary: raw pages, or (v7
 * compressed) u32 chunk count and chunks of up to 10 pages. Fills offsets and sizes.
 */
static void put_cpu_data(struct file *f, const struct buf *cpu_data, uint64_t *off, uint64_t *size)
{
	const struct gen *g = f->g;
	unsigned int cpu;

	for (cpu = 0; cpu < g->cpus; cpu++) {
		const struct buf *d = &cpu_data[cpu];

		pad_to(&f->out, g->page_size);
		off[cpu] = f->out.len;
		if (g->comp == COMP_NONE || !d->len) {
			put_bytes(&f->out, d->p, d->len);
		} else {
			size_t chunk = (size_t) PAGES_IN_CHUNK * g->page_size, pos;

			put_u32(&f->out, (uint32_t) ((d->len + chunk - 1) / chunk));
			for (pos = 0; pos < d->len; pos += chunk)
				put_compressed(g, &f->out, d->p + pos,
					       d->len - pos < chunk ? d->len - pos : chunk);
		}
		size[cpu] = f->out.len - off[cpu];
	}
}

/* v6: "flyrecord", the per-CPU table, the clock and the data of one buffer. */
static void put_flyrecord_v6(struct file *f, const struct buf *cpu_data)
{
	uint64_t off[MAX_CPUS], size[MAX_CPUS];
	size_t table;
	unsigned int cpu;
	struct buf t = {0};

	put_bytes(&f->out, "flyrecord", 10);
	table = f->out.len;
	put_zeros(&f->out, 16 * (size_t) f->g->cpus);
	buf_printf(&t, "[%s]", f->g->clock);
	put_u64(&f->out, t.len);
	put_bytes(&f->out, t.p, t.len);
	buf_free(&t);
	put_cpu_data(f, cpu_data, off, size);
	for (cpu = 0; cpu < f->g->cpus; cpu++) {
		patch_u64(&f->out, table + 16 * cpu, off[cpu]);
		patch_u64(&f->out, table + 16 * cpu + 8, size[cpu]);
	}
}

/* v7: a flyrecord buffer section, then an options section with its BUFFER option. */
static void put_buffer_v7(struct file *f, const char *name, const struct buf *cpu_data)
{
	const struct gen *g = f->g;
	uint64_t off[MAX_CPUS], size[MAX_CPUS];
	struct buf o = {.bo = g->bo}, desc = {0};
	size_t at, count_at;
	unsigned int cpu, n = 0;

	buf_printf(&desc, "buffer flyrecord %s", name);
	put_zeros(&desc, 1);
	at = section_start(f, OPT_BUFFER, g->comp != COMP_NONE, (const char *) desc.p);
	put_cpu_data(f, cpu_data, off, size);
	section_end(f, at);

	put_u16(&o, OPT_BUFFER);
	put_u32(&o, 0); /* size, patched below */
	put_u64(&o, at);
	put_cstr(&o, name);
	put_cstr(&o, g->clock);
	put_u32(&o, g->page_size);
	count_at = o.len;
	put_u32(&o, 0);
	for (cpu = 0; cpu < g->cpus; cpu++) {
		if (!size[cpu])
			continue; /* only CPUs with data are listed */
		put_u32(&o, cpu);
		put_u64(&o, off[cpu]);
		put_u64(&o, size[cpu]);
		n++;
	}
	tk_store_u32(o.p + count_at, n, g->bo);
	tk_store_u32(o.p + 2, (uint32_t) (o.len - 6), g->bo);
	put_options_v7(f, &o);
	buf_free(&o);
	buf_free(&desc);
}

static void free_cpu_data(const struct gen *g, struct buf *cpu_data)
{
	unsigned int cpu;

	for (cpu = 0; cpu < g->cpus; cpu++)
		buf_free(&cpu_data[cpu]);
}

/* CPUSTAT options of an instance: a "Buffer:" header, then one per CPU. */
static void instance_stats(const struct gen *g, struct buf *o, const char *name,
			   const struct cpu_stats *stats)
{
	struct buf t = {0};

	buf_printf(&t, "\nBuffer: %s\n\n", name);
	put_zeros(&t, 1);
	opt_add(o, OPT_CPUSTAT, t.p, (uint32_t) t.len);
	buf_free(&t);
	cpustat_options(g, o, stats);
}

static void write_v6(struct file *f)
{
	const struct gen *g = f->g;
	struct buf o = {.bo = g->bo};
	struct buf top[MAX_CPUS];
	struct cpu_stats stats[MAX_CPUS];
	size_t links[MAX_INSTANCES];
	unsigned int i;

	put_meta(f, OPT_HEADER_INFO, "headers", meta_header_info);
	put_meta(f, OPT_FTRACE_EVENTS, "ftrace events", meta_ftrace);
	put_meta(f, OPT_EVENT_FORMATS, "events format", meta_events);
	put_meta(f, OPT_KALLSYMS, "kallsyms", meta_kallsyms);
	put_meta(f, OPT_PRINTK, "printk", meta_printk);
	put_meta(f, OPT_CMDLINES, "command lines", meta_cmdlines);
	put_u32(&f->out, g->cpus);

	make_buffer(g, 0, top, stats);
	put_bytes(&f->out, "options  ", 10);
	common_options(g, &o, stats);
	put_bytes(&f->out, o.p, o.len);
	for (i = 0; i < g->n_instances; i++) {
		put_u16(&f->out, OPT_BUFFER);
		put_u32(&f->out, 8 + (uint32_t) strlen(g->instances[i]) + 1);
		links[i] = f->out.len;
		put_u64(&f->out, 0);
		put_cstr(&f->out, g->instances[i]);
	}
	put_u16(&f->out, OPT_DONE);
	put_flyrecord_v6(f, top);
	free_cpu_data(g, top);
	for (i = 0; i < g->n_instances; i++) {
		make_buffer(g, i + 1, top, stats);
		patch_u64(&f->out, links[i], f->out.len);
		put_flyrecord_v6(f, top);
		free_cpu_data(g, top);
	}
	buf_free(&o);
}

static void write_v7(struct file *f)
{
	const struct gen *g = f->g;
	struct buf o = {.bo = g->bo};
	struct buf data[MAX_CPUS];
	struct cpu_stats stats[MAX_CPUS];
	size_t sec[6], at;
	uint8_t cpus[4];
	unsigned int i;

	sec[0] = put_meta(f, OPT_HEADER_INFO, "headers", meta_header_info);
	sec[1] = put_meta(f, OPT_FTRACE_EVENTS, "ftrace events", meta_ftrace);
	sec[2] = put_meta(f, OPT_EVENT_FORMATS, "events format", meta_events);
	sec[3] = put_meta(f, OPT_KALLSYMS, "kallsyms", meta_kallsyms);
	sec[4] = put_meta(f, OPT_PRINTK, "printk", meta_printk);
	sec[5] = put_meta(f, OPT_CMDLINES, "command lines", meta_cmdlines);

	make_buffer(g, 0, data, stats);
	for (i = 0; i < 5; i++)
		opt_u64(&o, (uint16_t) (OPT_HEADER_INFO + i), sec[i]);
	common_options(g, &o, stats);
	opt_u64(&o, OPT_CMDLINES, sec[5]);
	tk_store_u32(cpus, g->cpus, g->bo);
	opt_add(&o, OPT_CPUCOUNT, cpus, 4);
	put_options_v7(f, &o);
	buf_free(&o);

	put_buffer_v7(f, "", data);
	free_cpu_data(g, data);
	for (i = 0; i < g->n_instances; i++) {
		make_buffer(g, i + 1, data, stats);
		o = (struct buf){.bo = g->bo};
		instance_stats(g, &o, g->instances[i], stats);
		put_options_v7(f, &o);
		buf_free(&o);
		put_buffer_v7(f, g->instances[i], data);
		free_cpu_data(g, data);
	}

	/* the strings section names itself too, so its description goes in first */
	at = section_start(f, OPT_STRINGS, g->comp != COMP_NONE, "strings");
	if (g->comp != COMP_NONE)
		put_compressed(g, &f->out, f->strings.p, f->strings.len);
	else
		put_bytes(&f->out, f->strings.p, f->strings.len);
	section_end(f, at);
}

/* ---- Options -------------------------------------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: gen-dat [OPTION]... OUT.dat\n"
		"\n"
		"Write a deterministic trace-cmd trace.dat file: ftrace, sched, irq, timer,\n"
		"raw_syscalls and power events of an x86-64 Linux 6.18 kernel, with kallsyms,\n"
		"printk formats and saved command lines. The events depend only on --events,\n"
		"--cpus, --seed, --missed (which only adds losses) and --instance; --clock and\n"
		"--date change how times print; every other option changes only the encoding,\n"
		"so twins print alike.\n"
		"\n"
		"Options:\n"
		"  -n, --events=N           events per buffer, spread over the CPUs (default 1000)\n"
		"  -c, --cpus=N             CPUs (default 2, at most %d)\n"
		"  -S, --seed=S             seed of every value and time (default 1)\n"
		"      --file-version=6|7   file version (default 7; compression needs 7)\n"
		"      --compression=none|zstd|zlib\n"
		"                           v7 section and data compression (default none)\n"
		"      --byte-order=le|be   file and kernel byte order (default le)\n"
		"      --long-size=8|4      kernel long size: page header commit size (default 8)\n"
		"      --page-size=N        ring-buffer sub-buffer size, a power of two from 4096\n"
		"                           to 1048576 (default 4096)\n"
		"      --missed             some pages follow lost events (counted or not)\n"
		"      --instance=NAME      add an instance buffer with its own events; repeat\n"
		"                           for more (at most %d)\n"
		"      --clock=NAME         trace clock: local (default), global, counter, uptime,\n"
		"                           perf, mono, mono_raw, boot, tai, x86-tsc\n"
		"      --date               add a DATE option (wall-clock offset, in us)\n"
		"      --offset=NS          add an OFFSET option (signed, added to every time)\n"
		"      --tsc2nsec           add a TSC2NSEC option: times are counter ticks\n"
		"      --time-shift         add a TIME_SHIFT option (guest-to-host samples)\n"
		"      --funcgraph[=KERNEL] add function_graph records (funcgraph_entry and\n"
		"                           funcgraph_exit: leaves, nested calls, every overhead\n"
		"                           mark) as many as the other events, in the layout of\n"
		"                           KERNEL: 6.18 (default), 6.12 (built with\n"
		"                           CONFIG_FUNCTION_GRAPH_RETVAL), 6.1 or 4.14\n"
		"      --extra-events       add records conversions have lost: fib_table_lookup\n"
		"                           (u8 address arrays with zeros inside), kernel_stack\n"
		"                           (0 to 12 frames), print records as large as a page\n"
		"                           holds (4072 bytes in 4 KiB pages, at most 8192)\n"
		"  -h, --help               show this help\n",
		MAX_CPUS, MAX_INSTANCES);
}

static uint64_t parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < min || v > max) {
		fprintf(stderr, "gen-dat: invalid %s: %s (expected %" PRIu64 " to %" PRIu64 ")\n",
			opt, s, min, max);
		exit(2);
	}
	return v;
}

static void bad_choice(const char *opt, const char *s, const char *choices)
{
	fprintf(stderr, "gen-dat: invalid %s: %s (%s)\n", opt, s, choices);
	exit(2);
}

enum {
	OPT_FILE_VERSION = 256,
	OPT_COMPRESSION,
	OPT_BYTE_ORDER,
	OPT_LONG_SIZE,
	OPT_PAGE_SIZE,
	OPT_MISSED,
	OPT_INSTANCE,
	OPT_CLOCK,
	OPT_DATE_FLAG,
	OPT_OFFSET_ARG,
	OPT_TSC2NSEC_FLAG,
	OPT_TIME_SHIFT_FLAG,
	OPT_FUNCGRAPH,
	OPT_EXTRA,
};

static void parse_args(struct gen *g, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"events", required_argument, NULL, 'n'},
		{"cpus", required_argument, NULL, 'c'},
		{"seed", required_argument, NULL, 'S'},
		{"file-version", required_argument, NULL, OPT_FILE_VERSION},
		{"compression", required_argument, NULL, OPT_COMPRESSION},
		{"byte-order", required_argument, NULL, OPT_BYTE_ORDER},
		{"long-size", required_argument, NULL, OPT_LONG_SIZE},
		{"page-size", required_argument, NULL, OPT_PAGE_SIZE},
		{"missed", no_argument, NULL, OPT_MISSED},
		{"instance", required_argument, NULL, OPT_INSTANCE},
		{"clock", required_argument, NULL, OPT_CLOCK},
		{"date", no_argument, NULL, OPT_DATE_FLAG},
		{"offset", required_argument, NULL, OPT_OFFSET_ARG},
		{"tsc2nsec", no_argument, NULL, OPT_TSC2NSEC_FLAG},
		{"time-shift", no_argument, NULL, OPT_TIME_SHIFT_FLAG},
		{"funcgraph", optional_argument, NULL, OPT_FUNCGRAPH},
		{"extra-events", no_argument, NULL, OPT_EXTRA},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool version_set = false;
	size_t k;
	int c;

	while ((c = getopt_long(argc, argv, "n:c:S:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			g->events = parse_u64("--events", optarg, 0, UINT64_C(1) << 32);
			break;
		case 'c':
			g->cpus = (unsigned int) parse_u64("--cpus", optarg, 1, MAX_CPUS);
			break;
		case 'S':
			g->seed = parse_u64("--seed", optarg, 0, UINT64_MAX);
			break;
		case OPT_FILE_VERSION:
			g->version = (unsigned int) parse_u64("--file-version", optarg, 6, 7);
			version_set = true;
			break;
		case OPT_COMPRESSION:
			if (!strcmp(optarg, "none"))
				g->comp = COMP_NONE;
			else if (!strcmp(optarg, "zstd"))
				g->comp = COMP_ZSTD;
			else if (!strcmp(optarg, "zlib"))
				g->comp = COMP_ZLIB;
			else
				bad_choice("--compression", optarg, "none, zstd or zlib");
			break;
		case OPT_BYTE_ORDER:
			if (!strcmp(optarg, "le"))
				g->bo = TK_BYTE_ORDER_LE;
			else if (!strcmp(optarg, "be"))
				g->bo = TK_BYTE_ORDER_BE;
			else
				bad_choice("--byte-order", optarg, "le or be");
			break;
		case OPT_LONG_SIZE:
			if (!strcmp(optarg, "8"))
				g->long_size = 8;
			else if (!strcmp(optarg, "4"))
				g->long_size = 4;
			else
				bad_choice("--long-size", optarg, "8 or 4");
			break;
		case OPT_PAGE_SIZE:
			g->page_size = (uint32_t) parse_u64("--page-size", optarg, 4096, 1 << 20);
			if (g->page_size & (g->page_size - 1))
				bad_choice("--page-size", optarg, "a power of two");
			break;
		case OPT_MISSED:
			g->missed = true;
			break;
		case OPT_INSTANCE:
			if (g->n_instances == MAX_INSTANCES || !*optarg)
				bad_choice("--instance", optarg, "a name; at most 16 instances");
			g->instances[g->n_instances++] = optarg;
			break;
		case OPT_CLOCK:
			g->clock = NULL;
			for (k = 0; k < ARRAY_SIZE(clock_names); k++)
				if (!strcmp(optarg, clock_names[k]))
					g->clock = clock_names[k];
			if (!g->clock)
				bad_choice("--clock", optarg, "see --help");
			break;
		case OPT_DATE_FLAG:
			g->date = true;
			break;
		case OPT_OFFSET_ARG: {
			char *end;

			errno = 0;
			g->offset = strtoll(optarg, &end, 0);
			if (errno || end == optarg || *end)
				bad_choice("--offset", optarg, "a signed integer");
			g->has_offset = true;
			break;
		}
		case OPT_TSC2NSEC_FLAG:
			g->tsc2nsec = true;
			break;
		case OPT_TIME_SHIFT_FLAG:
			g->time_shift = true;
			break;
		case OPT_FUNCGRAPH:
			g->funcgraph = FG_NONE;
			for (k = FG_618; k < ARRAY_SIZE(fg_layouts); k++)
				if (!optarg || !strcmp(optarg, fg_layouts[k].name)) {
					g->funcgraph = (enum fg_layout) k;
					break;
				}
			if (!g->funcgraph)
				bad_choice("--funcgraph", optarg, "6.18, 6.12, 6.1 or 4.14");
			break;
		case OPT_EXTRA:
			g->extra = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (g->comp != COMP_NONE && version_set && g->version == 6) {
		fprintf(stderr, "gen-dat: --compression needs --file-version 7\n");
		exit(2);
	}
	if (optind != argc - 1) {
		fprintf(stderr, "gen-dat: expected one OUT.dat (see --help)\n");
		exit(2);
	}
	g->out_path = argv[optind];
}

/* Trace-wide values drawn from the seed: start time, task pids, trace id, date. */
static void derive(struct gen *g)
{
	struct rng r = rng_for(g, 0xffff, 0, 0);
	size_t i, k;

	g->t0 = (3600 + rng_below(&r, 86400)) * NS;
	g->t0 += rng_below(&r, NS);
	for (i = 0; i < ARRAY_SIZE(task_kinds); i++) {
		/* distinct pids; kernel threads low, user tasks higher */
		do {
			g->pids[i] = (int32_t) (2 + rng_below(&r, i < 3 ? 200 : 60000));
			for (k = 0; k < i && g->pids[k] != g->pids[i]; k++)
				;
		} while (k < i);
	}
	g->trace_id = rng_next(&r);
	g->date_us = (UINT64_C(1735689600) + rng_below(&r, 365 * 86400)) * 1000000 - g->t0 / 1000;
}

int main(int argc, char **argv)
{
	struct gen g = {
		.events = 1000,
		.cpus = 2,
		.seed = 1,
		.version = 7,
		.comp = COMP_NONE,
		.bo = TK_BYTE_ORDER_LE,
		.long_size = 8,
		.page_size = 4096,
		.clock = "local",
	};
	struct file f = {.g = &g};
	FILE *out;

	parse_args(&g, argc, argv);
	derive(&g);
	f.out.bo = g.bo;
	put_header(&f);
	if (g.version == 6)
		write_v6(&f);
	else
		write_v7(&f);

	out = fopen(g.out_path, "wb");
	if (!out)
		die("Cannot open file: path=%s, errno=%s", g.out_path, strerror(errno));
	if (fwrite(f.out.p, 1, f.out.len, out) != f.out.len || fclose(out))
		die("Cannot write file: path=%s, errno=%s", g.out_path, strerror(errno));
	buf_free(&f.out);
	buf_free(&f.strings);
	return 0;
}
