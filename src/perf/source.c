// SPDX-License-Identifier: MIT
/*
 * perf.data files as sources of the trace model, read the way `perf script` reads them:
 *
 * - the records come in perf's order: a kernel record with a time (a sample, or COMM, FORK,
 *   EXIT, LOST with sample_id_all) waits in a queue; at each FINISHED_ROUND the queue gives,
 *   sorted by time (ties in file order), what is at or before the highest time seen when
 *   the round before ended; the rest at the end. Records without a time (time 0 included, as
 *   perf's synthesized ones) are handled where they are read. The queue holds two rounds at
 *   most, so memory stays flat.
 * - tasks are named as perf names its threads: "swapper" for 0, the COMM records, a forked
 *   task inheriting its parent's name once the parent has one, ":TID" before that.
 * - each event attribute is an event class (ID: its place among the attributes): a
 *   tracepoint's fields are those of the ftrace format its config names in the tracing data
 *   (read through src/tracedat and src/ftrace, as a trace.dat file's are), other events
 *   (cycles, ...) carry their ip and period, so that they are counted, not dropped.
 * - the stream's event context holds the sample's CPU, pid and tid.
 *
 * Facts: the kernel's include/uapi/linux/perf_event.h, tools/perf/Documentation/
 * perf.data-file-format.txt, and what perf 6.1 prints; the code is ours.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zstd.h>

#include "../common/error.h"
#include "../common/mfile.h"
#include "../common/writer.h"
#include "../ftrace/ftrace-model.h"
#include "../eventheader/eventheader.h"
#include "../ftrace/printfmt.h"
#include "../tracedat/source.h"
#include "../tracedat/tracedat-eh.h"
#include "../tracedat/tracedat.h"
#include "perfdata.h"
#include "source.h"

/*
 * /proc/kallsyms is read KSYMS_STEP bytes at a time into KSYMS_RESERVE bytes of address
 * space, reserved (not allocated) so that the text never moves: the symbol table points
 * into it. Its pages are only those read into.
 */
#define KSYMS_STEP    ((size_t) 128 << 10)
#define KSYMS_RESERVE ((size_t) 1 << 30)

/* A thread as perf's machine keeps it: pid, tid and the name perf shows. */
struct ps_task {
	int32_t tid, pid;
	const char *comm;
	uint8_t used;
	uint8_t comm_set; /* named by a COMM record, a fork or as the idle task */
};

struct perf_source {
	struct mfile file;
	const uint8_t *data; /* the file's bytes */
	struct perfdata *pd;
	enum tk_byte_order bo;	       /* the file's (perfdata_byte_order()) */
	const struct perf_attr *attrs; /* perfdata_attr(pd, 0): attribute i is attrs + i */
	struct tracedat *td;	       /* the tracing data, or NULL */
	struct ftrace_ctx ctx;
	int has_ctx;
	struct tk_event_class **by_attr; /* the class of attribute i */
	const char **shown;		 /* attribute i's name as perf record wrote it, or NULL */
	/* the threads, by tid (open addressing, a power of two of slots) */
	struct ps_task *tasks;
	size_t n_tasks, tasks_cap;
	uint64_t
		tasks_gen; /* changed when threads may have moved in the table (struct task_memo) */
	struct arena names; /* task names */
	struct vec text;    /* scratch of the text hooks (printing a source is one thread's) */
	int32_t cpus;	    /* from the NRCPUS feature, or 0 */
	/* where samples keep their time when every attribute has one layout, else 0 */
	uint32_t time_off;
	/* CLOCK_DATA: wall-clock time = sample time + this offset, as the reference adds it */
	uint8_t clock_known;
	int64_t clock_sec;
	uint32_t clock_nsec;
	/* the kernel's symbols found as perf script finds them (kernel_syms()) */
	uint8_t kernel_id[20];
	size_t kernel_id_len;
	struct mfile ksyms_file; /* from perf's build-id cache */
	char *ksyms_buf;	 /* /proc/kallsyms, read at once */
	/*
	 * /proc/kallsyms read a part at a time (kernel_syms_more()) into a reserved range of
	 * address space that does not move: fd -1 once read to its end
	 */
	char *ksyms_map;
	size_t ksyms_len;
	int ksyms_fd;
	uint8_t ksyms_asked;
	/*
	 * EventHeader tracepoints (has_eh): a typed class per distinct event metadata, found
	 * by a walk over the samples at open (eh_scan()), IDs from n_attrs on, the attribute's
	 * class as its base. Keys seen whose metadata gives no class map to the attribute's
	 * own class.
	 */
	uint8_t has_eh;
	struct eventheader_classes eh;
};

/*
 * Records perf compressed (COMPRESSED records, perf record -z): the bytes of one COMPRESSED
 * record inflated, after what the one before left of a record it cut. A chunk lives while
 * queued records or the current event point into it.
 */
struct zchunk {
	struct zchunk *prev, *next;
	size_t refs;	 /* queued entries and the current event in it */
	size_t len, pos; /* bytes, and where the next record starts */
	uint64_t off;	 /* the COMPRESSED record's offset in the file, for errors */
	uint8_t data[];
};

/*
 * Sorted records come from far apart in the file (each CPU's buffer in turn), read a round
 * or two before: the hardware does not see the next one coming, so the cursor asks for the
 * record this many entries ahead while it hands one out.
 */
#define PQ_PREFETCH 6

/*
 * One record waiting for its turn (see the file comment). Its offset in the file, for
 * errors, is where it lies in the file's bytes, or its chunk's (entry_offset()); ties of
 * time keep the order of the queue, which is the file's (sort_runs() is stable).
 */
struct pq_entry {
	uint64_t ts;
	const uint8_t *p;     /* the record: in the file, or in @chunk */
	struct zchunk *chunk; /* NULL: in the file */
};

/* A thread a CPU's samples named last, while the table of threads is as it was then. */
struct task_memo {
	struct ps_task *t;
	uint64_t gen;
};

struct ps_cursor {
	struct model_cursor base;
	struct tk_stream *stream;
	struct perf_source *ps;
	struct perfdata_cursor rc;
	/*
	 * struct pq_entry: those from head on wait; after a flush they are sorted and
	 * [next, n_ready) are due. tmp and runs serve the sort.
	 */
	struct vec queue, tmp, runs;
	size_t head, n_ready, next;
	uint64_t next_flush, max_ts;
	/*
	 * Where the last two FINISHED_ROUND records were: the records queued lie after the
	 * older one (perf's rounds), so the file's pages are released up to there only.
	 */
	uint64_t round_off[2];
	uint64_t released; /* the offset last given to mfile_release_before() */
	uint8_t scanning;  /* eh_scan()'s: nothing is queued, what is read can go */
	int eof;
	int failed;	      /* 1: the record at rc.pos is bad; 2: see fail_why */
	const char *fail_why; /* what went wrong inflating the record at fail_off */
	uint64_t fail_off;
	struct vec missed;	       /* int64_t per CPU: losses to report with its next sample */
	struct task_memo task_memo[8]; /* by CPU, modulo 8 */
	ZSTD_DStream *zs;	 /* the stream of COMPRESSED records, or NULL before the first */
	struct zchunk *chunks;	 /* every live chunk, newest first */
	struct zchunk *zcur;	 /* the chunk records are read from, or NULL */
	struct zchunk *ev_chunk; /* the current event's, held until the next call */
	struct vec zout;	 /* inflated bytes, before they become a chunk */
	const uint8_t *ev_rec;	 /* the current event's record */
	uint32_t ev_rec_size;
	uint64_t where; /* offset of the last record handled */
	struct tk_event ev;
	struct vec vals;
	struct vec text;	    /* EventHeader text converted to UTF-8, for the values */
	struct eventheader_enum eh; /* the current event's, when its class is a typed one */
};

static const struct model_source_ops ps_source_ops;

int perf_probe(const uint8_t *head, size_t n)
{
	return perfdata_probe(head, n);
}

/* ---- tasks -------------------------------------------------------------------------------- */

static size_t task_slot(const struct perf_source *ps, int32_t tid)
{
	size_t mask = ps->tasks_cap - 1, i = ((uint32_t) tid * UINT32_C(2654435761)) & mask;

	while (ps->tasks[i].used && ps->tasks[i].tid != tid)
		i = (i + 1) & mask;
	return i;
}

static struct ps_task *task_find(const struct perf_source *ps, int32_t tid)
{
	size_t i;

	if (!ps->tasks_cap)
		return NULL;
	i = task_slot(ps, tid);
	return ps->tasks[i].used ? &ps->tasks[i] : NULL;
}

static int tasks_grow(struct perf_source *ps)
{
	size_t cap = ps->tasks_cap ? ps->tasks_cap * 2 : 256, i, old_cap = ps->tasks_cap;
	struct ps_task *old = ps->tasks;

	ps->tasks = calloc(cap, sizeof(*ps->tasks));
	if (!ps->tasks) {
		ps->tasks = old;
		return -1;
	}
	ps->tasks_cap = cap;
	ps->tasks_gen++;
	for (i = 0; i < old_cap; i++)
		if (old[i].used)
			ps->tasks[task_slot(ps, old[i].tid)] = old[i];
	free(old);
	return 0;
}

/* A copy of @s (@n bytes) among the task names, or NULL out of memory. */
static const char *name_dup(struct perf_source *ps, const char *s, size_t n)
{
	return arena_strndup(&ps->names, s, n);
}

/* The thread @tid, made (":TID", unnamed) when perf would make it; NULL out of memory. */
static struct ps_task *task_findnew(struct perf_source *ps, int32_t pid, int32_t tid)
{
	struct ps_task *t = task_find(ps, tid);
	char buf[16];
	size_t i;

	if (t) {
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return t;
	}
	if ((ps->n_tasks + 1) * 2 > ps->tasks_cap && tasks_grow(ps) < 0)
		return NULL;
	i = task_slot(ps, tid);
	t = &ps->tasks[i];
	snprintf(buf, sizeof(buf), ":%d", (int) tid);
	t->comm = name_dup(ps, buf, strlen(buf));
	if (!t->comm)
		return NULL;
	t->used = 1;
	t->tid = tid;
	t->pid = pid;
	t->comm_set = 0;
	ps->n_tasks++;
	return t;
}

/* perf forgets a thread whose tid a fork gives again: the slot is emptied and refilled. */
static void task_remove(struct perf_source *ps, int32_t tid)
{
	size_t mask = ps->tasks_cap - 1, i, j, k;

	if (!task_find(ps, tid))
		return;
	i = task_slot(ps, tid);
	ps->tasks[i].used = 0;
	ps->n_tasks--;
	ps->tasks_gen++;
	/* close the gap: move later entries of the run back where their probe finds them */
	for (j = (i + 1) & mask; ps->tasks[j].used; j = (j + 1) & mask) {
		k = ((uint32_t) ps->tasks[j].tid * UINT32_C(2654435761)) & mask;
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
			ps->tasks[i] = ps->tasks[j];
			ps->tasks[j].used = 0;
			i = j;
		}
	}
}

static TK_NOINLINE enum tk_status task_nomem(void)
{
	return TK_FAIL(TK_ERR_NOMEM, "Cannot name a task");
}

/* COMM: pid, tid, then the name, NUL-terminated and padded. */
static enum tk_status on_comm(struct perf_source *ps, const struct perf_record *r)
{
	enum tk_byte_order bo = perfdata_byte_order(ps->pd);
	struct ps_task *t;
	const char *name;

	if (r->size < 16)
		return TK_OK; /* perf would not have written it: nothing to learn */
	t = task_findnew(ps, (int32_t) tk_load_u32(r->data + 8, bo),
			 (int32_t) tk_load_u32(r->data + 12, bo));
	if (!t)
		return task_nomem();
	name = (const char *) r->data + 16;
	t->comm = name_dup(ps, name, strnlen(name, r->size - 16));
	if (!t->comm)
		return task_nomem();
	t->comm_set = 1;
	return TK_OK;
}

/* FORK: pid, ppid, tid, ptid; the child starts anew and takes its parent's name. */
static enum tk_status on_fork(struct perf_source *ps, const struct perf_record *r)
{
	enum tk_byte_order bo = perfdata_byte_order(ps->pd);
	int32_t pid, ppid, tid, ptid;
	struct ps_task *parent, *child;
	const char *comm;
	int named;

	if (r->size < 24)
		return TK_OK;
	pid = (int32_t) tk_load_u32(r->data + 8, bo);
	ppid = (int32_t) tk_load_u32(r->data + 12, bo);
	tid = (int32_t) tk_load_u32(r->data + 16, bo);
	ptid = (int32_t) tk_load_u32(r->data + 20, bo);
	parent = task_findnew(ps, ppid, ptid);
	if (!parent)
		return task_nomem();
	if (parent->pid != ppid) { /* not the parent: a lost fork left it; start it anew */
		task_remove(ps, ptid);
		parent = task_findnew(ps, ppid, ptid);
		if (!parent)
			return task_nomem();
	}
	comm = parent->comm;
	named = parent->comm_set;
	if (tid != ptid)
		task_remove(ps, tid);
	child = task_findnew(ps, pid, tid);
	if (!child)
		return task_nomem();
	if (named && child != parent) {
		child->comm = comm;
		child->comm_set = 1;
	}
	return TK_OK;
}

/* ---- opening ------------------------------------------------------------------------------ */

static void ps_source_destroy(struct tk_source *src)
{
	struct perf_source *ps;

	if (!src)
		return;
	ps = src->fmt;
	if (ps) {
		if (ps->has_ctx)
			ftrace_ctx_fini(&ps->ctx);
		tracedat_close(ps->td);
		perfdata_close(ps->pd);
		mfile_close(&ps->file);
		mfile_close(&ps->ksyms_file);
		free(ps->ksyms_buf);
		if (ps->ksyms_map)
			munmap(ps->ksyms_map, KSYMS_RESERVE);
		if (ps->ksyms_fd >= 0)
			close(ps->ksyms_fd);
		free(ps->tasks);
		eventheader_classes_fini(&ps->eh);
		arena_fini(&ps->names);
		vec_fini(&ps->text);
		free(ps);
	}
	arena_fini(&src->arena);
	free(src);
}

/* ---- the kernel's symbols ----------------------------------------------------------------- */

/* The build id of the running kernel (the GNU note of /sys/kernel/notes): its length, or 0. */
static size_t host_build_id(uint8_t out[20])
{
	uint8_t notes[4096];
	size_t n = 0, off = 0;
	ssize_t k;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while (n < sizeof(notes) && (k = read(fd, notes + n, sizeof(notes) - n)) > 0)
		n += (size_t) k;
	close(fd);
	/* ELF notes in the host's order: name size, descriptor size, type, name, descriptor */
	while (n - off >= 12) {
		uint32_t namesz = tk_load_u32(notes + off, TK_BYTE_ORDER_HOST);
		uint32_t descsz = tk_load_u32(notes + off + 4, TK_BYTE_ORDER_HOST);
		uint32_t type = tk_load_u32(notes + off + 8, TK_BYTE_ORDER_HOST);
		size_t name_pad = ((size_t) namesz + 3) & ~(size_t) 3;
		size_t desc_pad = ((size_t) descsz + 3) & ~(size_t) 3;

		if (name_pad > n - off - 12 || desc_pad > n - off - 12 - name_pad)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    !memcmp(notes + off + 12, "GNU", 4) && descsz > 0 && descsz <= 20) {
			memcpy(out, notes + off + 12 + name_pad, descsz);
			return descsz;
		}
		off += 12 + name_pad + desc_pad;
	}
	return 0;
}

/* The whole of /proc/kallsyms (its size is not known before it is read), or NULL. */
static char *read_proc_kallsyms(size_t *len)
{
	size_t cap = (size_t) 8 << 20, n = 0;
	char *buf = malloc(cap), *t;
	ssize_t k;
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf)
		goto fail;
	while ((k = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t) k;
		if (n == cap) {
			t = realloc(buf, cap * 2);
			if (!t)
				goto fail;
			buf = t;
			cap *= 2;
		}
	}
	close(fd);
	*len = n;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/*
 * The kernel's symbols, asked for at the first lookup (ftrace_kallsyms_defer_stream()) where
 * perf script 6.1 finds them for a file-mode perf.data (its tracing data holds an empty
 * kallsyms): /proc/kallsyms when the running kernel is the file's (same build id), else
 * the kallsyms perf record kept in its build-id cache, $HOME/.debug/[kernel.kallsyms]/<build
 * id>/kallsyms. NULL when neither is there: addresses print in hex, as perf prints them.
 * Each call after the first reads up to KSYMS_STEP more of /proc/kallsyms, which the kernel
 * makes as it is read (most of the cost of a first %pS): a lookup reads only as far as the
 * symbols it needs. The other texts come whole at the first call.
 */
static const char *kernel_syms_more(void *payload, size_t *len)
{
	struct perf_source *ps = payload;
	uint8_t host[20];
	char hex[41], path[4096];
	const char *home = getenv("HOME");
	size_t i;

	if (ps->ksyms_asked) {
		size_t want = ps->ksyms_len + KSYMS_STEP;
		ssize_t k = 1;

		if (ps->ksyms_map && want > KSYMS_RESERVE)
			want = KSYMS_RESERVE; /* the text ends there */
		while (ps->ksyms_fd >= 0 && ps->ksyms_len < want &&
		       (k = read(ps->ksyms_fd, ps->ksyms_map + ps->ksyms_len,
				 want - ps->ksyms_len)) > 0)
			ps->ksyms_len += (size_t) k;
		if (ps->ksyms_fd >= 0 && (k <= 0 || ps->ksyms_len == KSYMS_RESERVE)) {
			close(ps->ksyms_fd);
			ps->ksyms_fd = -1;
		}
		*len = ps->ksyms_len;
		return ps->ksyms_map   ? ps->ksyms_map
		       : ps->ksyms_buf ? ps->ksyms_buf
				       : (const char *) ps->ksyms_file.data;
	}
	ps->ksyms_asked = 1;
	*len = 0;
	if (host_build_id(host) == ps->kernel_id_len &&
	    !memcmp(host, ps->kernel_id, ps->kernel_id_len)) {
		void *m = mmap(NULL, KSYMS_RESERVE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		ps->ksyms_fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
		if (ps->ksyms_fd >= 0 && m != MAP_FAILED) {
			ps->ksyms_map = m;
			return kernel_syms_more(ps, len);
		}
		if (m != MAP_FAILED)
			munmap(m, KSYMS_RESERVE);
		if (ps->ksyms_fd >= 0)
			close(ps->ksyms_fd);
		ps->ksyms_fd = -1;
		ps->ksyms_buf = read_proc_kallsyms(&ps->ksyms_len);
		if (ps->ksyms_buf) {
			*len = ps->ksyms_len;
			return ps->ksyms_buf;
		}
	}
	if (!home)
		return NULL;
	for (i = 0; i < ps->kernel_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", ps->kernel_id[i]);
	hex[2 * i] = 0;
	if ((size_t) snprintf(path, sizeof(path), "%s/.debug/[kernel.kallsyms]/%s/kallsyms", home,
			      hex) >= sizeof(path) ||
	    mfile_open(&ps->ksyms_file, path) < 0) {
		error_reset();
		return NULL;
	}
	ps->ksyms_len = ps->ksyms_file.size;
	*len = ps->ksyms_len;
	return (const char *) ps->ksyms_file.data;
}

/* A perf_header_string feature (u32 length, then the text, NUL-padded), or NULL. */
static const char *feature_string(struct tk_source *src, const struct perf_source *ps,
				  unsigned int feat)
{
	size_t len;
	const uint8_t *p = perfdata_feature(ps->pd, feat, &len);
	uint32_t n;

	if (!p || len < 4)
		return NULL;
	n = tk_load_u32(p, perfdata_byte_order(ps->pd));
	if (n > len - 4)
		return NULL;
	return arena_strndup(&src->arena, (const char *) p + 4, strnlen((const char *) p + 4, n));
}

/*
 * CLOCK_DATA (version, clockid, the wall clock and the sample clock read together): the
 * offset from sample times to wall-clock time, as seconds and nanoseconds (the nanoseconds
 * below 10^9 and not negative), unknown when clockid is ~0.
 */
static void clock_data(struct perf_source *ps, uint32_t clockid, uint64_t wall, uint64_t clock)
{
	const uint64_t billion = UINT64_C(1000000000);

	if (clockid == UINT32_MAX)
		return;
	ps->clock_known = 1;
	if (clock <= wall) {
		ps->clock_sec = (int64_t) ((wall - clock) / billion);
		ps->clock_nsec = (uint32_t) ((wall - clock) % billion);
	} else {
		uint64_t neg = clock - wall;

		ps->clock_sec = -(int64_t) (neg / billion) - 1;
		ps->clock_nsec = (uint32_t) (billion - neg % billion);
		if (ps->clock_nsec == billion) {
			ps->clock_sec++;
			ps->clock_nsec = 0;
		}
	}
}

/* What `tracekit info` shows of the file besides streams and events. */
static enum tk_status describe(struct tk_source *src, struct perf_source *ps)
{
	static const struct {
		unsigned int feat;
		const char *key;
	} strs[] = {
		{PERF_FEAT_HOSTNAME, "hostname"},
		{PERF_FEAT_OSRELEASE, "kernel_release"},
		{PERF_FEAT_VERSION, "perf_version"},
		{PERF_FEAT_ARCH, "arch"},
	};
	const uint8_t *p;
	size_t i, len;

	src->env = arena_alloc(&src->arena, 8 * sizeof(*src->env));
	if (!src->env)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot describe perf.data");
	src->env[src->n_env++] =
		(struct model_env){"mode", perfdata_is_pipe(ps->pd) ? "pipe" : "file", 0};
	src->env[src->n_env++] = (struct model_env){
		"endianness", perfdata_byte_order(ps->pd) == TK_BYTE_ORDER_BE ? "big" : "little",
		0};
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		const char *s = feature_string(src, ps, strs[i].feat);

		if (s)
			src->env[src->n_env++] = (struct model_env){strs[i].key, s, 0};
	}
	p = perfdata_feature(ps->pd, PERF_FEAT_CLOCK_DATA, &len);
	if (p && len >= 24 && tk_load_u32(p, perfdata_byte_order(ps->pd)) >= 1)
		clock_data(ps, tk_load_u32(p + 4, perfdata_byte_order(ps->pd)),
			   tk_load_u64(p + 8, perfdata_byte_order(ps->pd)),
			   tk_load_u64(p + 16, perfdata_byte_order(ps->pd)));
	p = perfdata_feature(ps->pd, PERF_FEAT_NRCPUS, &len);
	if (p && len >= 8) {
		ps->cpus = (int32_t) tk_load_u32(p, perfdata_byte_order(ps->pd));
		src->env[src->n_env++] = (struct model_env){"cpus", NULL, ps->cpus};
	}
	return TK_OK;
}

/* The name of a non-tracepoint attribute: its EVENT_DESC name, else "TYPE:CONFIG". */
static const char *attr_name(struct arena *a, const struct perf_attr *at)
{
	char buf[64];

	if (at->name)
		return arena_strndup(a, at->name, at->name_len);
	snprintf(buf, sizeof(buf), "%u:0x%llx", at->type, (unsigned long long) at->config);
	return arena_strdup(a, buf);
}

/*
 * Where a sample keeps its time when it is at the same place for every attribute: after the
 * identifier, ip and pid/tid words, so the attributes need only agree on those and on having
 * a time (perf's files add a dummy event without PERF_SAMPLE_RAW or PERIOD, which come
 * after it). 0 otherwise.
 */
static uint32_t sample_time_offset(const struct perfdata *pd)
{
	const uint64_t before =
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	size_t i, n = perfdata_n_attrs(pd);
	uint64_t t;

	if (!n)
		return 0;
	t = perfdata_attr(pd, 0)->sample_type;
	for (i = 1; i < n; i++)
		if ((perfdata_attr(pd, i)->sample_type ^ t) & before)
			return 0;
	if (!(t & PERF_SAMPLE_TIME))
		return 0;
	return 8 + 8 * (uint32_t) (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
				   !!(t & PERF_SAMPLE_TID));
}

static enum tk_status build_model(struct tk_source *src, struct perf_source *ps, const char *path)
{
	static const char *const ctx_names[] = {"cpu_id", "pid", "tid"};
	static const char *const sample_names[] = {"ip", "period"};
	struct arena *a = &src->arena;
	struct model_stream_class *sc = arena_alloc(a, sizeof(*sc));
	struct tk_clock *clk = arena_alloc(a, sizeof(*clk));
	struct tk_stream *s = arena_alloc(a, sizeof(*s));
	struct model_fc *ctx_fcs[3], *sample_fcs[2], *sample_payload;
	size_t i, n = perfdata_n_attrs(ps->pd);
	enum tk_status st;

	src->format = "perf.data";
	src->time_may_go_back = 1; /* perf takes records that come after their round, too */
	src->path = arena_strdup(a, path);
	src->name = src->path;
	src->scs = arena_alloc(a, 2 * sizeof(*src->scs));
	src->clocks = arena_alloc(a, 2 * sizeof(*src->clocks));
	src->streams = arena_alloc(a, 2 * sizeof(*src->streams));
	ps->by_attr = arena_alloc(a, (n + 1) * sizeof(*ps->by_attr));
	ps->shown = arena_alloc(a, (n + 1) * sizeof(*ps->shown));
	if (!sc || !clk || !s || !src->path || !src->scs || !src->clocks || !src->streams ||
	    !ps->by_attr || !ps->shown)
		goto nomem;
	st = describe(src, ps);
	if (st < 0)
		return st;
	/* perf's clock: nanoseconds from an origin of its own (perf_clock(), or -k's) */
	clk->name = "perf";
	clk->description = "perf sample clock";
	clk->freq = UINT64_C(1000000000);
	model_clock_finish(clk);
	src->clocks[src->n_clocks++] = clk;
	sc->id = 0;
	sc->has_cpu = 1;
	sc->source = src;
	sc->clock = clk;
	ctx_fcs[0] = ftrace_model_int_fc(a, 4, 0, 0, TK_BYTE_ORDER_HOST);
	ctx_fcs[1] = ftrace_model_int_fc(a, 4, 1, 0, TK_BYTE_ORDER_HOST);
	ctx_fcs[2] = ftrace_model_int_fc(a, 4, 1, 0, TK_BYTE_ORDER_HOST);
	sc->event_context = model_struct_of(a, ctx_names, ctx_fcs, 3);
	sample_fcs[0] = ftrace_model_int_fc(a, 8, 0, 1, TK_BYTE_ORDER_HOST);
	sample_fcs[1] = ftrace_model_int_fc(a, 8, 0, 0, TK_BYTE_ORDER_HOST);
	sample_payload = model_struct_of(a, sample_names, sample_fcs, 2);
	sc->n_ecs = n;
	sc->ecs = arena_alloc(a, (n + 1) * sizeof(*sc->ecs));
	if (!sc->event_context || !sample_payload || !sc->ecs)
		goto nomem;
	for (i = 0; i < n; i++) {
		const struct perf_attr *at = perfdata_attr(ps->pd, i);
		struct tk_event_class *ec = arena_alloc(a, sizeof(*ec));
		const struct ftrace_event *fev = NULL;

		if (!ec)
			goto nomem;
		ec->sc = sc;
		if (at->type == PERF_TYPE_TRACEPOINT && ps->has_ctx && at->config <= UINT32_MAX)
			fev = ftrace_event_find(&ps->ctx, (uint32_t) at->config);
		if (fev) {
			if (fev->flags & FTRACE_EVENT_EVENTHEADER)
				ps->has_eh = 1;
			/* its fields when an event of it is met: ps_class_load() */
			ftrace_model_event_class_declare(fev, ec);
		} else if (at->type == PERF_TYPE_TRACEPOINT && ps->has_ctx) {
			/* a tracepoint without its format: its record's bytes */
			st = ftrace_model_unknown_class(a, &ps->ctx, ec);
			if (st < 0)
				return st;
			ec->name = attr_name(a, at);
			if (!ec->name)
				goto nomem;
		} else {
			ec->name = attr_name(a, at);
			ec->payload = sample_payload;
			if (!ec->name)
				goto nomem;
		}
		ec->id = i;
		sc->ecs[i] = ec;
		ps->by_attr[i] = ec;
		ps->shown[i] = at->name ? arena_strndup(a, at->name, at->name_len) : NULL;
		if (at->name && !ps->shown[i])
			goto nomem;
	}
	st = model_stream_class_index(sc, a);
	if (st < 0)
		return st;
	src->scs[src->n_scs++] = sc;
	ps->time_off = sample_time_offset(ps->pd);
	s->source = src;
	s->sc = sc;
	s->id = 0;
	s->path = src->path;
	src->streams[src->n_streams++] = s;
	return TK_OK;
nomem:
	return TK_FAIL(TK_ERR_NOMEM, "Cannot open perf.data: path=%s", path);
}

/* model_source_ops.class_load: a tracepoint's class from its format (ftrace-model.c) */
static enum tk_status ps_class_load(struct tk_event_class *ec)
{
	struct tk_source *src = ec->sc->source;
	struct perf_source *ps = src->fmt;
	uint64_t id = ec->id;
	enum tk_status st = ftrace_model_event_class(&src->arena, &ps->ctx, ec->fmt, ec);

	ec->id = id; /* the attribute's place, not the format's ID */
	return st;
}

static enum tk_status eh_scan(struct tk_source *src, struct perf_source *ps);

/*
 * What perf script prints and tracekit does not, said once when the trace opens (the
 * source's warning) rather than left for the user to find: the call chains of samples
 * recorded with -g, and the ip, symbol and period of events that are not tracepoints.
 */
static enum tk_status warn_unprinted(struct tk_source *src, const struct perf_source *ps,
				     const char *path)
{
	const struct perf_attr *other = NULL;
	int chains = 0, len = 0;
	size_t i, n;
	char *text;

	for (i = 0; i < perfdata_n_attrs(ps->pd); i++) {
		const struct perf_attr *at = perfdata_attr(ps->pd, i);

		chains |= !!(at->sample_type & PERF_SAMPLE_CALLCHAIN);
		/* perf's dummy event (software, config 9) only carries side-band records */
		if (at->type != PERF_TYPE_TRACEPOINT && !(at->type == 1 && at->config == 9) &&
		    !other)
			other = at;
	}
	if (!chains && !other)
		return TK_OK;
	if (other && other->name) /* borrowed from the file: its length, no NUL */
		len = (int) (other->name_len < 64 ? other->name_len : 64);
	n = strlen(path) + 320;
	text = arena_alloc(&src->arena, n);
	if (!text)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open perf.data: path=%s", path);
	snprintf(text, n,
		 "Cannot print all of perf.data: path=%s, reason=%s%s%s%.*s%s (perf script prints "
		 "them)",
		 path, chains ? "the call chains of samples (perf record -g) are not read" : "",
		 chains && other ? ", nor " : "",
		 other ? "the ip, symbol and period of events that are not tracepoints (" : "", len,
		 other && other->name ? other->name : "", other ? ")" : "");
	src->warning = text;
	return TK_OK;
}

static enum tk_status ps_open(struct tk_source **out, const uint8_t *data, size_t size,
			      const char *path, struct mfile *file)
{
	struct tk_source *src = calloc(1, sizeof(*src));
	struct perf_source *ps = calloc(1, sizeof(*ps));
	const uint8_t *tracing;
	size_t tracing_len;
	enum tk_status st;

	if (!src || !ps) {
		free(src);
		free(ps);
		mfile_close(file);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open perf.data: path=%s", path);
	}
	arena_init(&src->arena);
	arena_init(&ps->names);
	eventheader_classes_init(&ps->eh);
	src->ops = &ps_source_ops;
	src->fmt = ps;
	ps->file = *file;
	ps->data = data;
	mfile_init(&ps->ksyms_file);
	ps->ksyms_fd = -1;
	st = perfdata_open(&ps->pd, data, size);
	if (st >= 0) {
		ps->bo = perfdata_byte_order(ps->pd);
		ps->attrs = perfdata_attr(ps->pd, 0);
		tracing = perfdata_tracing_data(ps->pd, &tracing_len);
		if (tracing) {
			st = tracedat_open_tracing_data(&ps->td, tracing, tracing_len);
			if (st >= 0) {
				struct tracedat_common cf; /* records' ids and tasks: samples say */

				ftrace_ctx_init(&ps->ctx, ps->td->info.bo);
				ps->has_ctx = 1;
				st = tracedat_ftrace_setup(&ps->td->info, &ps->ctx, &cf);
			}
			/*
			 * perf record writes no kallsyms there; perf script 6.1 names kernel
			 * addresses from its own map of the kernel in file mode only (in pipe
			 * mode, its resolver is set before the tracing data arrives)
			 */
			if (st >= 0 && !ps->td->info.kallsyms.len && !perfdata_is_pipe(ps->pd)) {
				ps->kernel_id_len = perfdata_kernel_build_id(ps->pd, ps->kernel_id);
				if (ps->kernel_id_len)
					ftrace_kallsyms_defer_stream(&ps->ctx, kernel_syms_more,
								     ps);
			}
			if (st < 0)
				st = TK_FAIL(st, "Cannot read perf.data tracing data");
		}
	}
	if (st >= 0)
		st = build_model(src, ps, path);
	if (st >= 0)
		st = warn_unprinted(src, ps, path);
	if (st >= 0 && ps->has_eh)
		st = eh_scan(src, ps);
	/* perf names the idle task before it reads a record */
	if (st >= 0) {
		struct ps_task *idle = task_findnew(ps, 0, 0);

		if (!idle)
			st = task_nomem();
		else {
			idle->comm = "swapper";
			idle->comm_set = 1;
		}
	}
	if (st < 0) {
		ps_source_destroy(src);
		return TK_FAIL(st, "Cannot open perf.data: path=%s", path);
	}
	*out = src;
	return TK_OK;
}

enum tk_status perf_source_open_mem(struct tk_source **out, const uint8_t *data, size_t size,
				    const char *name)
{
	struct mfile none;

	mfile_init(&none);
	return ps_open(out, data, size, name, &none);
}

/* One path: mapped, then read (model_sources_open_each()). */
static enum tk_status ps_open_path(struct tk_source **out, const char *path)
{
	struct mfile f;
	enum tk_status st = mfile_open(&f, path);

	if (st < 0)
		return TK_FAIL(st, "Cannot open perf.data: path=%s", path);
	return ps_open(out, f.data, f.size, path, &f);
}

enum tk_status perf_sources_open(const char *const *paths, size_t npaths, struct vec *sources,
				 const struct model_warner *w)
{
	(void) w;
	return model_sources_open_each(paths, npaths, sources, ps_open_path);
}

/* ---- reading ------------------------------------------------------------------------------ */

/* The header of the record at @p, which the cursor read before (it is whole). */
static void record_from(const struct perf_source *ps, const uint8_t *p, uint64_t off,
			struct perf_record *r)
{
	enum tk_byte_order bo = ps->bo;

	r->type = tk_load_u32(p, bo);
	r->misc = tk_load_u16(p + 4, bo);
	r->size = tk_load_u16(p + 6, bo);
	r->data = p;
	r->offset = off;
}

static void chunk_put(struct ps_cursor *c, struct zchunk *z)
{
	if (!z || --z->refs || z == c->zcur)
		return;
	if (z->prev)
		z->prev->next = z->next;
	else
		c->chunks = z->next;
	if (z->next)
		z->next->prev = z->prev;
	free(z);
}

/*
 * Inflate COMPRESSED record @r into a new chunk, after the bytes of a record the current
 * chunk left cut. NULL and c->fail_why set when the data does not inflate.
 */
static struct zchunk *inflate_record(struct ps_cursor *c, const struct perf_record *r)
{
	ZSTD_inBuffer in = {r->data + 8, r->size - 8u, 0};
	size_t left = c->zcur ? c->zcur->len - c->zcur->pos : 0, ret;
	struct zchunk *z;

	if (!c->zs) {
		c->zs = ZSTD_createDStream();
		if (!c->zs || ZSTD_isError(ZSTD_initDStream(c->zs))) {
			c->fail_why = "out of memory";
			return NULL;
		}
	}
	c->zout.len = 0;
	for (;;) {
		ZSTD_outBuffer out;

		if (vec_reserve(&c->zout, 1, 1 << 16)) {
			c->fail_why = "out of memory";
			return NULL;
		}
		out = (ZSTD_outBuffer){c->zout.data, c->zout.cap, c->zout.len};
		ret = ZSTD_decompressStream(c->zs, &out, &in);
		if (ZSTD_isError(ret)) {
			c->fail_why = "its zstd data does not inflate";
			return NULL;
		}
		c->zout.len = out.pos;
		if (in.pos == in.size && out.pos < out.size)
			break; /* all read, and nothing more waits to come out */
	}
	z = malloc(sizeof(*z) + left + c->zout.len);
	if (!z) {
		c->fail_why = "out of memory";
		return NULL;
	}
	if (left)
		memcpy(z->data, c->zcur->data + c->zcur->pos, left);
	if (c->zout.len)
		memcpy(z->data + left, c->zout.data, c->zout.len);
	z->len = left + c->zout.len;
	z->pos = 0;
	z->off = r->offset;
	z->refs = 0;
	z->prev = NULL;
	z->next = c->chunks;
	if (c->chunks)
		c->chunks->prev = z;
	c->chunks = z;
	return z;
}

/* Make @z the chunk records are read from, letting the one before go when nothing holds it. */
static void chunk_switch(struct ps_cursor *c, struct zchunk *z)
{
	struct zchunk *old = c->zcur;

	c->zcur = z;
	if (old) {
		old->refs++;
		chunk_put(c, old);
	}
}

/*
 * The next record of the data, inflated ones included, into *@r (its chunk in *@z, NULL for
 * the file's). TK_END after the last; TK_ERR_FORMAT when the data is damaged, with c->failed
 * saying how to tell it.
 */
static enum tk_status next_record(struct ps_cursor *c, struct perf_record *r, struct zchunk **z)
{
	enum tk_byte_order bo = c->ps->bo;
	uint64_t bad_pos, keep;
	enum tk_status st;

	for (;;) {
		struct zchunk *cur = c->zcur;

		if (cur) {
			size_t left = cur->len - cur->pos;
			uint16_t size = left >= 8 ? tk_load_u16(cur->data + cur->pos + 6, bo) : 0;

			if (left >= 8 && size < 8) {
				c->failed = 2;
				c->fail_why = "an inflated record's size is below 8";
				c->fail_off = cur->off;
				return TK_ERR_FORMAT;
			}
			if (left >= 8 && size <= left) {
				record_from(c->ps, cur->data + cur->pos, cur->off, r);
				cur->pos += size;
				*z = cur;
				return TK_OK;
			}
			if (!left)
				chunk_switch(c, NULL);
		}
		bad_pos = c->rc.pos;
		/*
		 * resident memory stays flat: what is read drops from memory (mfile.h), but
		 * for the pages of the records still queued, which would be read in again
		 */
		keep = c->stream->source->stored_order || c->scanning ? bad_pos : c->round_off[0];
		if (keep != c->released) {
			mfile_release_before(&c->ps->file, (size_t) keep);
			c->released = keep;
		}
		st = perfdata_cursor_next(&c->rc, r);
		if (st == TK_END && c->zcur) {
			c->failed = 2;
			c->fail_why = "the file ends inside an inflated record";
			c->fail_off = c->zcur->off;
			return TK_ERR_FORMAT;
		}
		if (st == TK_END)
			return st;
		if (st < 0) {
			error_reset();
			c->rc.pos = bad_pos;
			c->failed = 1;
			return TK_ERR_FORMAT;
		}
		if (r->type == PERF_RECORD_COMPRESSED) {
			struct zchunk *nz = inflate_record(c, r);

			if (!nz) {
				c->failed = 2;
				c->fail_off = r->offset;
				return TK_ERR_FORMAT;
			}
			chunk_switch(c, nz);
			continue;
		}
		*z = NULL;
		return TK_OK;
	}
}

/* Time order; ties stay in the order of the queue (the merges below are stable). */
static inline int entry_less(const struct pq_entry *x, const struct pq_entry *y)
{
	return x->ts < y->ts;
}

/* Where the record of @e is in the file (its COMPRESSED record's place, if inflated). */
static inline uint64_t entry_offset(const struct ps_cursor *c, const struct pq_entry *e)
{
	return e->chunk ? e->chunk->off : (uint64_t) (e->p - c->ps->data);
}

/*
 * Sort the @n entries at @a, with @b (room for @n) to merge into. They come as runs already
 * in order (what the last flush left, then each CPU's records in turn), so the runs are
 * found and merged pairwise, back and forth between @a and @b: about n comparisons per pass
 * and few passes. @runs is the cursor's scratch vector. Returns where the sorted entries
 * are, @a or @b, or NULL out of memory.
 */
static struct pq_entry *sort_runs(struct pq_entry *a, struct pq_entry *b, size_t n,
				  struct vec *runs)
{
	struct pq_entry *src = a, *dst = b;
	size_t *r, nr, i, k;

	if (n < 2)
		return a;
	runs->len = 0;
	if (vec_reserve(runs, sizeof(size_t), 2))
		return NULL;
	*(size_t *) vec_push(runs, sizeof(size_t)) = 0;
	for (i = 1; i < n; i++)
		if (entry_less(&a[i], &a[i - 1])) {
			size_t *slot = vec_push(runs, sizeof(size_t));

			if (!slot)
				return NULL;
			*slot = i;
		}
	if (!vec_push(runs, sizeof(size_t)))
		return NULL;
	r = runs->data;
	nr = runs->len - 1;
	r[nr] = n;
	while (nr > 1) {
		for (k = 0; k + 1 < nr; k += 2) { /* merge runs k and k + 1 into dst */
			size_t x = r[k], xe = r[k + 1], y = r[k + 1], ye = r[k + 2], o = r[k];

			while (x < xe && y < ye)
				dst[o++] = entry_less(&src[y], &src[x]) ? src[y++] : src[x++];
			while (x < xe)
				dst[o++] = src[x++];
			while (y < ye)
				dst[o++] = src[y++];
		}
		if (k < nr) /* an odd run out: copied as it is */
			memcpy(dst + r[k], src + r[k], (r[k + 1] - r[k]) * sizeof(*src));
		for (i = 0, k = 0; k < nr; k += 2)
			r[i++] = r[k];
		r[i] = n;
		nr = i;
		{
			struct pq_entry *t = src;

			src = dst;
			dst = t;
		}
	}
	return src;
}

/*
 * Make the queued records at or before @limit due, in time order (perf's do_flush()). The
 * sort ends in the queue or in its scratch twin, at the same places; when in the twin, the
 * two swap (the entries before head are given out already, never read again).
 */
static enum tk_status flush(struct ps_cursor *c, uint64_t limit)
{
	struct pq_entry *q = c->queue.data, *sorted;
	size_t n = c->queue.len, k = c->head;

	if (n - k >= 2) {
		if (vec_reserve(&c->tmp, sizeof(*q), n))
			return TK_FAIL(TK_ERR_NOMEM, "Cannot sort perf.data records");
		sorted = sort_runs(q + k, (struct pq_entry *) c->tmp.data + k, n - k, &c->runs);
		if (!sorted)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot sort perf.data records");
	} else {
		sorted = q + k;
	}
	if (sorted != q + k) {
		struct vec t = c->queue;

		c->queue.data = c->tmp.data;
		c->queue.cap = c->tmp.cap;
		c->tmp.data = t.data;
		c->tmp.cap = t.cap;
		q = c->queue.data;
	}
	while (k < n && q[k].ts <= limit)
		k++;
	c->n_ready = k;
	c->next = c->head;
	return TK_OK;
}

/* Forget the entries given out, before reading on. */
static void drop_done(struct ps_cursor *c)
{
	struct pq_entry *q = c->queue.data;
	size_t i;

	/* the entries given out let their chunks go (sample_event() held its own) */
	for (i = c->head; i < c->next; i++)
		chunk_put(c, q[i].chunk);
	c->head = c->next;
	if (c->head == c->queue.len) {
		c->queue.len = c->head = 0;
	} else if (c->head > 4096 && c->head > c->queue.len / 2) {
		memmove(q, q + c->head, (c->queue.len - c->head) * sizeof(*q));
		c->queue.len -= c->head;
		c->head = 0;
	}
	c->n_ready = c->next = c->head;
}

static TK_NOINLINE TK_COLD enum tk_status
record_fail(const struct ps_cursor *c, const struct perf_record *r, enum tk_status st)
{
	return TK_FAIL(st, "Cannot read perf.data record: offset=%llu, type=%u",
		       (unsigned long long) r->offset, r->type);
}

/* Losses (LOST, LOST_SAMPLES) to report with the next sample of @cpu. */
static enum tk_status add_missed(struct ps_cursor *c, uint32_t cpu, uint64_t n)
{
	int64_t *m;

	if (cpu > 4096)
		cpu = 4096;
	if (cpu >= c->missed.len) {
		size_t old = c->missed.len;

		if (vec_reserve(&c->missed, sizeof(int64_t), cpu + 1 - old))
			return TK_FAIL(TK_ERR_NOMEM, "Cannot count lost events");
		memset((int64_t *) c->missed.data + old, 0, (cpu + 1 - old) * sizeof(int64_t));
		c->missed.len = cpu + 1;
	}
	m = (int64_t *) c->missed.data + cpu;
	*m = model_missed_add(*m, n > INT64_MAX ? -1 : (int64_t) n);
	return TK_OK;
}

/* A record other than a sample, in its turn: task names and losses. */
static enum tk_status on_record(struct ps_cursor *c, const struct perf_record *r)
{
	enum tk_byte_order bo = perfdata_byte_order(c->ps->pd);
	struct perf_sample id;

	switch (r->type) {
	case PERF_RECORD_COMM:
		return on_comm(c->ps, r);
	case PERF_RECORD_FORK:
		return on_fork(c->ps, r);
	case PERF_RECORD_LOST:
		if (r->size < 24)
			return TK_OK;
		perfdata_record_id(c->ps->pd, r, &id);
		return add_missed(c, id.cpu, tk_load_u64(r->data + 16, bo));
	case PERF_RECORD_LOST_SAMPLES:
		if (r->size < 16)
			return TK_OK;
		perfdata_record_id(c->ps->pd, r, &id);
		return add_missed(c, id.cpu, tk_load_u64(r->data + 8, bo));
	default:
		return TK_OK;
	}
}

/*
 * The class of a sample of attribute class @base whose record is @raw: @base, or for an
 * EventHeader event (started in *@e) the typed class of its metadata, made when @create
 * (eh_scan()).
 */
static enum tk_status eh_class_of(struct perf_source *ps, struct tk_event_class *base,
				  const uint8_t *raw, size_t size, int create,
				  struct eventheader_enum *e, struct tk_event_class **out)
{
	*out = base;
	if (tracedat_eh_start(e, base->fmt, raw, size) < 0)
		return TK_OK;
	return eventheader_class_of(&ps->eh, &base->sc->source->arena, e, base,
				    perfdata_n_attrs(ps->pd), create, out);
}

/* The attribute of @ec's samples: its place among the attributes, or its base class's. */
static size_t attr_of(const struct tk_event_class *ec)
{
	return (size_t) (ec->base ? ec->base : ec)->id;
}

/* Make sample @r the cursor's event. */
static enum tk_status sample_event(struct ps_cursor *c, const struct perf_record *r,
				   struct model_item *out)
{
	struct perf_source *ps = c->ps;
	struct perf_sample s;
	struct ps_task *t;
	size_t ai;
	enum tk_status st = perfdata_sample(ps->pd, r, &s);

	if (st < 0)
		return record_fail(c, r, st);
	ai = (size_t) (s.attr - ps->attrs);
	c->ev.ec = ps->by_attr[ai];
	st = model_class_load(c->ev.ec);
	if (st < 0)
		return st;
	c->ev.raw = s.raw;
	c->ev.raw_size = s.raw ? s.raw_size : 0;
	if (TK_UNLIKELY(ps->has_eh) && tracedat_eh_offset(c->ev.ec->fmt) != UINT32_MAX) {
		struct tk_event_class *ec;

		st = eh_class_of(ps, ps->by_attr[ai], c->ev.raw, c->ev.raw_size, 0, &c->eh, &ec);
		if (st < 0)
			return st;
		c->ev.ec = ec;
	}
	c->ev.cycles = s.time;
	c->ev.ns = (int64_t) s.time;
	c->ev.has_ts = !!(s.sample_type & PERF_SAMPLE_TIME);
	c->ev.cpu = (s.sample_type & PERF_SAMPLE_CPU) ? (int32_t) s.cpu : -1;
	c->ev.has_task = !!(s.sample_type & PERF_SAMPLE_TID);
	c->ev.pid = (int32_t) s.pid;
	c->ev.tid = (int32_t) s.tid;
	c->ev.comm = MODEL_TASK_UNKNOWN;
	if (c->ev.has_task) {
		struct task_memo *m = &c->task_memo[(uint32_t) c->ev.cpu & 7];

		t = m->t;
		if (TK_LIKELY(t && m->gen == ps->tasks_gen && t->tid == c->ev.tid)) {
			if (t->pid == -1 && c->ev.pid != -1) /* as task_findnew() does */
				t->pid = c->ev.pid;
		} else {
			t = task_findnew(ps, c->ev.pid, c->ev.tid);
			if (!t)
				return task_nomem();
			m->t = t;
			m->gen = ps->tasks_gen;
		}
		c->ev.comm = t->comm;
	}
	c->ev.missed = 0;
	if (c->ev.cpu >= 0) {
		size_t cpu = (size_t) c->ev.cpu > 4096 ? 4096 : (size_t) c->ev.cpu;

		if (cpu < c->missed.len) {
			c->ev.missed = ((int64_t *) c->missed.data)[cpu];
			((int64_t *) c->missed.data)[cpu] = 0;
		}
	}
	c->ev.pending = &c->base;
	c->where = r->offset;
	c->ev_rec = r->data;
	c->ev_rec_size = r->size;
	out->kind = MODEL_ITEM_EVENT;
	out->has_ts = c->ev.has_ts;
	out->ts_ns = c->ev.ns;
	out->event = &c->ev;
	out->notice = NULL;
	return TK_OK;
}

/* The time perf orders record @r by: 0 when it is handled where it is read. */
static uint64_t record_time(const struct ps_cursor *c, const struct perf_record *r)
{
	struct perf_sample s;

	if (r->type == PERF_RECORD_SAMPLE && c->ps->time_off) {
		/* every attribute lays samples out alike: the time is at a known place */
		return r->size >= c->ps->time_off + 8
			       ? tk_load_u64(r->data + c->ps->time_off, c->ps->bo)
			       : 0;
	}
	if (r->type == PERF_RECORD_SAMPLE) {
		if (perfdata_sample(c->ps->pd, r, &s) < 0) {
			error_reset(); /* reported when it is handled */
			return 0;
		}
	} else if (perfdata_record_id(c->ps->pd, r, &s) <= 0) {
		return 0;
	}
	if (!(s.sample_type & PERF_SAMPLE_TIME) || s.time == UINT64_MAX)
		return 0;
	return s.time;
}

/* Hold @z for the current event: it stays until the next call. */
static void hold_event_chunk(struct ps_cursor *c, struct zchunk *z)
{
	if (z)
		z->refs++;
	c->ev_chunk = z;
}

static enum tk_status ps_cursor_next(struct model_cursor *mc, struct model_item *out)
{
	struct ps_cursor *c = (struct ps_cursor *) mc;
	int stored = c->stream->source->stored_order;
	struct perf_record r;
	struct zchunk *z;
	enum tk_status st;
	uint64_t ts;

	chunk_put(c, c->ev_chunk); /* the last event's record is not read again */
	c->ev_chunk = NULL;
	for (;;) {
		if (c->next < c->n_ready) {
			const struct pq_entry *e =
				(const struct pq_entry *) c->queue.data + c->next++;

			if (c->next + PQ_PREFETCH < c->n_ready) {
				const uint8_t *ahead = e[PQ_PREFETCH].p;

				__builtin_prefetch(ahead);
				__builtin_prefetch(ahead + 64);
				__builtin_prefetch(ahead + 128);
			}
			record_from(c->ps, e->p, entry_offset(c, e), &r);
			if (r.type == PERF_RECORD_SAMPLE) {
				hold_event_chunk(c, e->chunk);
				return sample_event(c, &r, out);
			}
			st = on_record(c, &r);
			if (st < 0)
				return record_fail(c, &r, st);
			continue;
		}
		if (c->next != c->head || c->head == c->queue.len)
			drop_done(c); /* not per record read while none is given out */
		if (c->eof) {
			if (c->queue.len > c->head) {
				st = flush(c, UINT64_MAX);
				if (st < 0)
					return st;
				continue;
			}
			if (!c->failed)
				return TK_END;
			if (c->failed == 2)
				return TK_FAIL(
					TK_ERR_FORMAT,
					"Cannot read perf.data record: offset=%llu, type=%u, "
					"reason=%s",
					(unsigned long long) c->fail_off, PERF_RECORD_COMPRESSED,
					c->fail_why);
			/* read the bad record again: its error, now that the good ones are out */
			st = perfdata_cursor_next(&c->rc, &r);
			return st < 0 ? st : TK_FAIL(TK_ERR_FORMAT, "Cannot read perf.data");
		}
		st = next_record(c, &r, &z);
		if (st != TK_OK) {
			c->eof = 1;
			continue;
		}
		if (r.type == PERF_RECORD_FINISHED_ROUND && !stored) {
			if (c->next_flush && (st = flush(c, c->next_flush)) < 0)
				return st;
			c->next_flush = c->max_ts;
			c->round_off[0] = c->round_off[1];
			c->round_off[1] = r.offset;
			continue;
		}
		if (r.type >= PERF_RECORD_HEADER_ATTR)
			continue; /* perf's own records: read by perfdata_open() */
		ts = stored ? 0 : record_time(c, &r);
		if (!ts) {
			c->where = r.offset;
			if (r.type == PERF_RECORD_SAMPLE) {
				hold_event_chunk(c, z);
				return sample_event(c, &r, out);
			}
			st = on_record(c, &r);
			if (st < 0)
				return record_fail(c, &r, st);
			continue;
		}
		{
			struct pq_entry *e;

			if (TK_UNLIKELY(c->queue.len == c->queue.cap) &&
			    vec_reserve(&c->queue, sizeof(*e), 1))
				return TK_FAIL(TK_ERR_NOMEM, "Cannot sort perf.data records");
			e = (struct pq_entry *) c->queue.data + c->queue.len++;
			e->ts = ts;
			e->p = r.data;
			e->chunk = z;
			if (z)
				z->refs++;
		}
		if (ts > c->max_ts)
			c->max_ts = ts;
	}
}

/*
 * The values of an EventHeader event of a typed class: the record's common fields (its
 * format's own ones are the header, which the event context holds), then the context and
 * the payload (eventheader_model_values()). *@context and *@payload: where they start.
 */
static enum tk_status eh_values(struct ps_cursor *c, size_t *context, size_t *payload)
{
	const struct tk_event_class *ec = c->ev.ec;
	enum tk_status st;

	st = ftrace_model_values(&c->ps->ctx, ec->fmt, c->ev.raw, c->ev.raw_size, &c->vals,
				 payload);
	if (st < 0)
		return st;
	c->vals.len = *payload; /* the header fields: in the context */
	*context = c->vals.len;
	/* c->eh: started on this event by sample_event(), not walked since */
	st = eventheader_model_values(&c->eh, ec->payload, &c->vals, payload, &c->text);
	if (st < 0)
		return TK_FAIL(st, "Cannot decode EventHeader event: offset=%llu",
			       (unsigned long long) c->where);
	return TK_OK;
}

/*
 * The values of the current event: the event context (CPU, pid, tid), then a tracepoint's
 * ftrace fields, common ones and its own (ftrace-model.c), or a sample's ip and period.
 */
static enum tk_status ps_cursor_values(struct model_cursor *mc)
{
	struct ps_cursor *c = (struct ps_cursor *) mc;
	const struct tk_event_class *ec = c->ev.ec;
	struct perf_source *ps = c->ps;
	struct model_value *vals;
	size_t payload = 3, context = 0;
	enum tk_status st = TK_OK;

	c->ev.pending = NULL;
	c->vals.len = 0;
	c->ev.scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT] = NULL;
	c->ev.scope[MODEL_SCOPE_PAYLOAD] = NULL;
	c->ev.scope[MODEL_SCOPE_COMMON] = NULL;
	if (vec_reserve(&c->vals, sizeof(*vals), 5))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot decode event");
	vals = c->vals.data;
	vals[0].v.u = (uint64_t) (uint32_t) c->ev.cpu;
	vals[1].v.i = c->ev.pid;
	vals[2].v.i = c->ev.tid;
	c->vals.len = 3;
	if (ec->base) { /* a typed EventHeader class */
		st = eh_values(c, &context, &payload);
	} else if (ec->fmt) {
		st = ftrace_model_values(&ps->ctx, ec->fmt, c->ev.raw, c->ev.raw_size, &c->vals,
					 &payload);
	} else if (ec->common) { /* a tracepoint without its format */
		st = ftrace_model_unknown_values(&ps->ctx, c->ev.raw, c->ev.raw_size, &c->vals,
						 &payload);
	} else {
		struct perf_record r;
		struct perf_sample s;

		record_from(ps, c->ev_rec, c->where, &r);
		if (perfdata_sample(ps->pd, &r, &s) < 0)
			error_reset(); /* read once already */
		vals[3].v.u = s.ip;
		vals[4].v.u = s.period;
		c->vals.len = 5;
	}
	if (st < 0)
		return st;
	vals = c->vals.data;
	c->ev.scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT] = vals;
	c->ev.scope[MODEL_SCOPE_PAYLOAD] = vals + payload;
	c->ev.scope[MODEL_SCOPE_EVENT_CONTEXT] = context ? vals + context : NULL;
	if (ec->common)
		c->ev.scope[MODEL_SCOPE_COMMON] = vals + 3;
	return TK_OK;
}

static void ps_cursor_where(const struct model_cursor *mc, const struct model_item *item, char *buf,
			    size_t size)
{
	const struct ps_cursor *c = (const struct ps_cursor *) mc;

	(void) item;
	snprintf(buf, size, "file=%s, offset=%llu", c->stream->path, (unsigned long long) c->where);
}

static void ps_cursor_destroy(struct model_cursor *mc)
{
	struct ps_cursor *c = (struct ps_cursor *) mc;

	while (c->chunks) {
		struct zchunk *z = c->chunks;

		c->chunks = z->next;
		free(z);
	}
	ZSTD_freeDStream(c->zs);
	vec_fini(&c->zout);
	vec_fini(&c->queue);
	vec_fini(&c->tmp);
	vec_fini(&c->runs);
	vec_fini(&c->missed);
	vec_fini(&c->vals);
	vec_fini(&c->text);
	free(c);
}

static const struct model_cursor_ops ps_cursor_ops = {
	.next = ps_cursor_next,
	.values = ps_cursor_values,
	.where = ps_cursor_where,
	.destroy = ps_cursor_destroy,
};

static enum tk_status ps_cursor_open(struct tk_stream *stream, struct model_cursor **out)
{
	struct ps_cursor *c = calloc(1, sizeof(*c));

	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read perf.data: path=%s", stream->path);
	c->base.ops = &ps_cursor_ops;
	c->stream = stream;
	c->ps = stream->source->fmt;
	c->ev.stream = stream;
	perfdata_cursor_init(c->ps->pd, &c->rc);
	*out = &c->base;
	return TK_OK;
}

/*
 * The typed classes of a file with EventHeader tracepoints: every sample read once, in
 * stored order, before any cursor reads the file (records of other kinds are not handled:
 * task names are learnt when the events are read). A damaged record ends the walk; the
 * cursors report it in its place. The classes are added to the stream class after the
 * attributes' ones, in the order their first events come.
 */
static enum tk_status eh_scan(struct tk_source *src, struct perf_source *ps)
{
	struct model_cursor *mc = NULL;
	struct ps_cursor *c;
	struct perf_record r;
	struct perf_sample s;
	struct tk_event_class *ec;
	struct zchunk *z;
	enum tk_status st = ps_cursor_open(src->streams[0], &mc);

	if (st < 0)
		return st;
	c = (struct ps_cursor *) mc;
	c->scanning = 1;
	while (st >= 0 && next_record(c, &r, &z) == TK_OK) {
		struct tk_event_class *base;

		if (r.type != PERF_RECORD_SAMPLE)
			continue;
		if (perfdata_sample(ps->pd, &r, &s) < 0 || !s.raw) {
			error_reset(); /* reported where the cursors read it */
			continue;
		}
		base = ps->by_attr[s.attr - perfdata_attr(ps->pd, 0)];
		if (tracedat_eh_offset(base->fmt) == UINT32_MAX)
			continue;
		st = model_class_load(base); /* the common scope typed classes share */
		if (st >= 0)
			st = eh_class_of(ps, base, s.raw, s.raw_size, 1, &c->eh, &ec);
	}
	if (st >= 0)
		error_reset();
	ps_cursor_destroy(mc);
	ps->file.released = 0; /* the cursors release the pages they read again */
	if (st < 0)
		return st;
	return model_stream_class_append(src->scs[0], &src->arena, ps->eh.made.data,
					 ps->eh.made.len);
}

/* ---- the model's hooks -------------------------------------------------------------------- */

static void ps_task(const struct tk_event *ev, int64_t *pid, const char **comm)
{
	*pid = ev->has_task ? ev->tid : -1;
	*comm = ev->has_task ? ev->comm : MODEL_TASK_UNKNOWN;
}

static int ps_raw_field(const struct tk_event_class *ec, uint32_t i, struct model_raw_field *out)
{
	return ec->fmt ? ftrace_model_raw_field(ec->fmt, i, out) : 0;
}

static void ps_raw_value(const struct tk_event *ev, uint32_t i, struct model_raw_value *out)
{
	const struct perf_source *ps = ev->stream->source->fmt;

	ftrace_model_raw_value(&ps->ctx, ev->ec->fmt, i, ev->raw, ev->raw ? ev->raw_size : 0, out);
}

/* trace-cmd report's layout for perf.data: "cpus=N" first, as trace-cmd writes it. */
static enum tk_status text_prologue(const struct tk_source *src, struct writer *w)
{
	const struct perf_source *ps = src->fmt;
	char *q = writer_reserve(w, 32);

	memcpy(q, "cpus=", 5);
	q += 5;
	q += fmt_u64(q, (uint64_t) (ps->cpus > 0 ? ps->cpus : 1));
	*q++ = '\n';
	writer_commit_to(w, q);
	return TK_OK;
}

static int text_time_in_ns(const struct tk_source *src)
{
	(void) src;
	return 1;
}

static const char *text_task(const struct tk_event *ev, int64_t *pid)
{
	*pid = ev->has_task ? ev->tid : 0;
	return ev->has_task ? ev->comm : MODEL_TASK_UNKNOWN;
}

static bool text_wants_next(const struct tk_event_class *ec, unsigned int flags)
{
	const struct perf_source *ps = ec->sc->source->fmt;

	return ec->fmt && !(flags & (MODEL_TEXT_RAW | MODEL_TEXT_PERF)) &&
	       ftrace_print_wants_next(&ps->ctx, ec->fmt);
}

/* The attribute's name as perf record wrote it (EVENT_DESC, EVENT_UPDATE), else NULL. */
static const char *text_perf_name(const struct tk_event_class *ec)
{
	const struct perf_source *ps = ec->sc->source->fmt;

	return ps->shown[attr_of(ec)];
}

/* perf script adds the ip, symbol and DSO to samples with call chains: comm is unpadded. */
static bool text_perf_comm_unpadded(const struct tk_event_class *ec)
{
	const struct perf_source *ps = ec->sc->source->fmt;

	return !!(ps->attrs[attr_of(ec)].sample_type & PERF_SAMPLE_CALLCHAIN);
}

/* A typed EventHeader class shows its tracepoint's name in trace-cmd's layout. */
static const char *text_tool_name(const struct tk_event_class *ec)
{
	const struct perf_source *ps = ec->sc->source->fmt;
	const struct ftrace_event *fev = ec->fmt;

	return ec->id >= perfdata_n_attrs(ps->pd) && fev ? fev->name : NULL;
}

static bool text_event(const struct tk_event *ev, const struct tk_event *next, unsigned int flags,
		       struct writer *w)
{
	const struct perf_source *ps = ev->stream->source->fmt;
	const struct ftrace_event *fev = ev->ec->fmt;

	if (!fev)
		return false;
	if (flags & MODEL_TEXT_RAW) {
		ftrace_print_raw(&ps->ctx, fev, ev->raw, ev->raw_size, w);
		return false;
	}
	if (flags & MODEL_TEXT_PERF) {
		ftrace_print_info_plain(&ps->ctx, fev, ev->raw, ev->raw_size, (int) ev->cpu, w);
		return false;
	}
	if (next && next->raw)
		return ftrace_print_info_next(&ps->ctx, fev, ev->raw, ev->raw_size, (int) ev->cpu,
					      (uint64_t) ev->ns, next->raw, next->raw_size, w);
	ftrace_print_info_ts(&ps->ctx, fev, ev->raw, ev->raw_size, (int) ev->cpu, (uint64_t) ev->ns,
			     w);
	/* an EventHeader event's fields after the header its format prints */
	tracedat_eh_text(fev, ev->raw, ev->raw_size, &((struct perf_source *) ps)->text, w);
	return false;
}

/* The members of "meta" that the sample gives: time, CPU, pid and tid. */
static void sample_meta(const struct perf_source *ps, const struct tk_event *ev,
			struct eventheader_sample *m)
{
	const uint64_t billion = UINT64_C(1000000000);
	uint64_t t = (uint64_t) ev->ns;

	memset(m, 0, sizeof(*m));
	m->has_time = ev->has_ts;
	m->sec = (int64_t) (t / billion);
	m->nsec = (uint32_t) (t % billion);
	if (ps->clock_known) {
		m->time_wall = 1;
		m->sec += ps->clock_sec;
		m->nsec += ps->clock_nsec;
		if (m->nsec >= billion) {
			m->sec++;
			m->nsec -= (uint32_t) billion;
		}
	}
	m->has_cpu = ev->cpu >= 0;
	m->cpu = (uint32_t) ev->cpu;
	m->has_tid = ev->has_task;
	m->pid = (uint32_t) ev->pid;
	m->tid = (uint32_t) ev->tid;
}

/* model_text_ops.decode_json: a sample as perf-decode writes it. */
static enum tk_status text_decode_json(const struct tk_event *ev, unsigned int flags,
				       struct vec *out)
{
	const struct perf_source *ps = ev->stream->source->fmt;
	const struct perf_attr *at = perfdata_attr(ps->pd, attr_of(ev->ec));
	unsigned int jf = eventheader_json_flags(flags);
	struct eventheader_sample meta;
	enum tk_status st;

	sample_meta(ps, ev, &meta);
	st = tracedat_eh_json(&ps->ctx, ev->ec->fmt, at && at->name ? at->name : NULL,
			      at && at->name ? strnlen(at->name, at->name_len) : 0, ev->raw,
			      ev->raw_size, &meta, jf, out);
	if (st < 0 && st != TK_ERR_NOMEM)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot decode EventHeader event: offset=%zu",
			       (size_t) (ev->raw - ps->data));
	return st;
}

/* model_source_ops.ftrace_metadata: a tracepoint sample's raw data is the ftrace record */
static const struct tracedat_info *ps_ftrace_metadata(const struct tk_source *src)
{
	const struct perf_source *ps = src->fmt;

	return ps->td ? &ps->td->info : NULL;
}

static const struct model_text_ops ps_text_ops = {
	.decode_json = text_decode_json,
	.tool = MODEL_TEXT_TOOL_PERF_SCRIPT,
	.perf_name = text_perf_name,
	.perf_comm_unpadded = text_perf_comm_unpadded,
	.tool_name = text_tool_name,
	.prologue = text_prologue,
	.time_in_ns = text_time_in_ns,
	.task = text_task,
	.wants_next = text_wants_next,
	.event = text_event,
};

static const struct model_source_ops ps_source_ops = {
	.cursor_open = ps_cursor_open,
	.destroy = ps_source_destroy,
	.task = ps_task,
	.raw_field = ps_raw_field,
	.raw_value = ps_raw_value,
	.text = &ps_text_ops,
	.class_load = ps_class_load,
	.ftrace_metadata = ps_ftrace_metadata,
};
