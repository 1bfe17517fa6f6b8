// SPDX-License-Identifier: MIT
/*
 * Any input to trace.dat (tk_convert() with TK_CONVERT_DAT; one trace.dat file is copied page
 * by page unless the generic path is asked for):
 * events as ftrace records in ring-buffer pages, a file trace-cmd report reads.
 *
 * Three cases:
 *   - A CTF trace tracekit converted from a trace.dat file carries that file's ftrace
 *     metadata in its environment (tracedat-env.c). The file is made again: the same
 *     header_page, formats, printk formats, command lines, kallsyms, options, buffers and
 *     CPUs; each record rebuilt from the event's values at the format's field offsets; the
 *     original version and compression unless told otherwise. tracekit print --style json
 *     of the result equals that of the original file, with the few exceptions of
 *     doc/format-tracedat.md section 9 (bytes a CTF field does not keep: after a string's
 *     NUL, common fields beyond the four, bprint arguments of old formats). A lone
 *     trace.dat input goes the same way (the generic path, when the page copy is not
 *     taken): its reader gives the environment it would keep in CTF (export_env), and
 *     each record is rebuilt from its decoded values, common fields included.
 *   - Any other CTF trace: one ftrace format per event class, synthesized from its
 *     contexts and payload (tracedat-sink-record.c says how each field type maps), system
 *     "ctf" or the provider of a "provider:event" name, ids from 1; common_pid from a
 *     context field named tid, vtid, pid or vpid; a 64-bit little-endian layout in 4 KiB
 *     pages, or the smallest power of two that holds the largest record (kernels since 6.8
 *     record into larger sub-buffers too: buffer_subbuf_size_kb), found by a first pass that
 *     stops writing at the first record too large and measures the rest, with a warning;
 *     version 7 with zstd unless told otherwise, as trace-cmd records; the task names
 *     (saved command lines, which trace-cmd prints instead of "<...>") from a context field
 *     procname, else the trace's procname environment entry (LTTng-UST per-process
 *     traces), for the pid common_pid takes. Several inputs go this way too: an event
 *     class of a trace.dat input keeps its own `format` text instead, renumbered when
 *     another file's format with that ID differs (own_plan(); common_type follows), its
 *     records laid out as that format says; its tasks are named from the file's saved
 *     command lines, its instances become buffers of their names, and the kernel symbols
 *     and printk formats of every trace.dat input are written (each text once), so that
 *     trace-cmd report prints the merged file's events as it prints the inputs'.
 *
 *   - A lone source whose events are whole ftrace records under metadata of its own
 *     (model_source_ops.ftrace_metadata; perf.data's tracepoint samples): the records and
 *     formats are copied as they are (tracedat-sink-raw.c), its events' tasks named as the
 *     source names them.
 *
 * All: an event goes to its CPU (tk_event.cpu where the stream class has CPUs, else its
 * packet context's cpu_id, else 0) in the
 * buffer of its stream class (env case), of its trace.dat instance's name, or the top one; its time is the model's
 * nanoseconds less the offset of the earliest clock, which a DATE option (absolute clocks,
 * in microseconds, and an OFFSET for the nanoseconds left) or an OFFSET option gives back, so
 * times agree to the nanosecond. The losses the iterator reports (struct tk_notice: a CTF
 * packet's events_discarded count grew, or its packet_seq_num skipped packets) go on the page
 * of the stream's next event written, as the kernel flags a page after lost events: their
 * count, or an unknown number when none is known (lost packets). The records of
 * each CPU are encoded into pages as they come (ftrace/page-write.c) and kept in a temporary
 * file until the file is written, CPU after CPU, so memory stays flat.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/error.h"
#include "../ftrace/page-write.h"
#include "../model/sink.h"
#include "source.h"
#include "tracedat-env.h"
#include "tracedat-sink-priv.h"
#include "tracedat-sink-record.h"
#include "tracedat-write.h"

#define SYNTH_PAGE_SIZE 4096

/*
 * The kernel's header_page for a 64-bit ring buffer of @page_size bytes (reference section 5):
 * the data field is the page less its 16-byte header.
 */
static int synth_header_page(char *out, size_t size, uint32_t page_size)
{
	return snprintf(out, size,
			"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
			"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
			"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
			"\tfield: char data;\toffset:16;\tsize:%" PRIu32 ";\tsigned:1;\n",
			page_size - 16);
}
static const char synth_header_event[] = "# compressed entry header\n"
					 "\ttype_len    :    5 bits\n"
					 "\ttime_delta  :   27 bits\n"
					 "\tarray       :   32 bits\n"
					 "\n"
					 "\tpadding     : type == 29\n"
					 "\ttime_extend : type == 30\n"
					 "\ttime_stamp : type == 31\n"
					 "\tdata max type_len  == 28\n";

/* A task name for the saved command lines (synthesized case). */
struct comm {
	int64_t pid;
	const char *name; /* borrowed from the trace's values or environment */
	size_t len;
	char *own; /* a copy, when the name came from an event */
};

/* A synthesized format; its text is made again when written, with the plan's sequence lengths. */
struct synth_format {
	char *system;
	char *name;
	uint32_t id;
	const struct tk_event_class *ec;
	const struct convert_record_plan *plan; /* the class's, kept in c->classes */
	/* a trace.dat source's own format, renumbered (own_plan()); NULL when made up */
	char *text;
	const struct ftrace_event *fev; /* parsed from @text */
};

/* ---- spools ------------------------------------------------------------------------------- */

static enum tk_status spool_emit(const uint8_t *page, size_t size, void *payload)
{
	struct spool *s = payload;
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(s->fd, page + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return TK_FAIL(TK_ERR_IO, "Cannot write temporary file: errno=%s",
				       strerror(errno));
		done += (size_t) n;
	}
	s->bytes += size;
	return TK_OK;
}

/* A temporary file beside @output (its file system has room for it), else in TMPDIR. */
static int temp_fd(const char *output)
{
	char dir[4096];
	const char *slash = strrchr(output, '/');
	int fd = -1;
	FILE *f;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int) (slash - output + (slash == output)),
			 output);
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd >= 0)
		return fd;
	f = tmpfile();
	if (!f)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	return fd;
}

static enum tk_status get_spool(struct dat_conv *c, size_t b, uint32_t cpu, struct spool **out)
{
	struct out_buffer *ob = &c->buffers[b];
	struct spool *s;
	enum tk_status st;

	if (cpu >= 65536)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot convert to trace.dat: cpu=%" PRIu32
			       ", reason=more than 65536 CPUs",
			       cpu);
	if (cpu >= ob->n_cpus) {
		size_t n = (size_t) cpu + 1;
		struct spool **v = realloc(ob->cpus, n * sizeof(*v));

		if (!v)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		memset(v + ob->n_cpus, 0, (n - ob->n_cpus) * sizeof(*v));
		ob->cpus = v;
		ob->n_cpus = n;
	}
	if (!ob->cpus[cpu]) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		s->c = c;
		s->fd = temp_fd(c->output);
		if (s->fd < 0) {
			free(s);
			return TK_FAIL(TK_ERR_IO, "Cannot create temporary file: errno=%s",
				       strerror(errno));
		}
		st = ftrace_page_writer_init(&s->pw, &c->ctx.layout, c->bo, c->page_size,
					     spool_emit, s);
		if (st < 0) {
			close(s->fd);
			free(s);
			return st;
		}
		ob->cpus[cpu] = s;
		if (cpu >= c->cpus)
			c->cpus = cpu + 1;
	}
	*out = ob->cpus[cpu];
	return TK_OK;
}

static void buffers_free(struct dat_conv *c)
{
	size_t b, k;

	for (b = 0; c->buffers && b < c->n_buffers; b++) {
		for (k = 0; k < c->buffers[b].n_cpus; k++) {
			struct spool *s = c->buffers[b].cpus[k];

			if (!s)
				continue;
			ftrace_page_writer_fini(&s->pw);
			close(s->fd);
			free(s);
		}
		free(c->buffers[b].cpus);
	}
	free(c->buffers);
}

/* ---- streams and losses ------------------------------------------------------------------- */

/* The value of top-level member @m of the scope @fc whose values start at @v. */
static const struct model_value *member_value(const struct model_fc *fc,
					      const struct model_value *v, int m)
{
	int i;

	for (i = 0; i < m; i++)
		v = model_value_skip(fc->u.st.members[i].fc, v);
	return v;
}

static int is_int(const struct model_fc *fc)
{
	return fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM;
}

/*
 * Synthesized case: the output buffer of a trace.dat source's instance @tb, by its name (the
 * instances of several files of one name are one), made when first met.
 */
static enum tk_status synth_buffer(struct dat_conv *c, const struct tracedat_buffer *tb,
				   size_t *out)
{
	struct out_buffer *b;
	size_t i;

	for (i = 1; i < c->n_buffers; i++)
		if (!strcmp(c->buffers[i].name, tb->name ? tb->name : ""))
			break;
	if (i == c->n_buffers) {
		b = realloc(c->buffers, (c->n_buffers + 1) * sizeof(*b));
		if (!b)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		c->buffers = b;
		memset(&b[i], 0, sizeof(*b));
		b[i].name = tb->name ? tb->name : "";
		b[i].clock = tb->clock;
		c->n_buffers++;
	}
	*out = i;
	return TK_OK;
}

static enum tk_status stream_init(struct dat_conv *c, const struct tk_stream *s,
				  struct in_stream *is)
{
	const struct model_fc *pc = s->sc->packet_context;
	uint32_t i;

	is->known = 1;
	is->cpu_member = -1;
	for (i = 0; pc && pc->kind == MODEL_FC_STRUCT && i < pc->u.st.count && i < INT32_MAX; i++) {
		if (is_int(pc->u.st.members[i].fc) && !strcmp(pc->u.st.members[i].name, "cpu_id")) {
			is->cpu_member = (int) i;
			break;
		}
	}
	is->buffer = 0;
	is->last_pid = -1;
	for (i = 0; i < s->source->n_env; i++)
		if (s->source->env[i].str && !strcmp(s->source->env[i].key, "procname"))
			is->env_comm = s->source->env[i].str;
	if (c->env.present) {
		for (i = 0; i < c->env.n_buffers; i++)
			if (c->env.buffers[i].has_sc && c->env.buffers[i].sc_id == s->sc->id)
				break;
		if (i == c->env.n_buffers)
			return TK_FAIL(
				TK_ERR_FORMAT,
				"Cannot convert to trace.dat: stream=%s, stream-class=%" PRIu64
				", reason=no ftrace buffer in the environment has its events",
				s->path, s->sc->id);
		is->buffer = i;
	} else if (s->sc->instance && tracedat_source_info(s->source)) {
		return synth_buffer(c, s->sc->fmt, &is->buffer);
	}
	return TK_OK;
}

/*
 * The CPU of @ev: the one it carries when its stream class says so (a perf.data stream holds
 * every CPU's samples), else its packet context's cpu_id, 0 without one.
 */
uint32_t tracedat_sink_cpu(const struct tk_event *ev, const struct in_stream *is)
{
	const struct model_fc *pc = ev->stream->sc->packet_context;
	const struct model_value *v = ev->scope[MODEL_SCOPE_PACKET_CONTEXT];

	if (ev->stream->sc->has_cpu && ev->cpu >= 0)
		return (uint32_t) ev->cpu;
	if (!v || !pc || is->cpu_member < 0)
		return 0;
	return (uint32_t) member_value(pc, v, is->cpu_member)->v.u;
}

/*
 * The losses the iterator reported for @is since its last event written (dat_notice()), in
 * the convention of tk_event.missed, and none left: the count of discarded events when one
 * came; else -1 when an unknown number of events or any packet was lost.
 */
int64_t tracedat_sink_take_losses(struct in_stream *is)
{
	int64_t n = is->lost_events;

	if (!n && is->lost_packets)
		n = -1;
	is->lost_events = 0;
	is->lost_packets = 0;
	return n;
}

/* ---- task names --------------------------------------------------------------------------- */

/*
 * Synthesized case: the context members of @ec that name the task: its pid (tid, vtid, pid
 * or vpid, the one common_pid takes) and its procname string.
 */
static void comm_members(const struct tk_event_class *ec, struct in_class *cl)
{
	static const char *const pids[] = {"tid", "vtid", "pid", "vpid"};
	size_t i;
	uint32_t j;
	int k;

	cl->pid_k = cl->comm_k = -1;
	for (i = 0; i < 4 && cl->pid_k < 0; i++)
		for (k = 0; k < 2 && cl->pid_k < 0; k++) {
			const struct model_fc *s = k ? ec->context : ec->sc->event_context;

			for (j = 0; s && s->kind == MODEL_FC_STRUCT && j < s->u.st.count; j++)
				if (!strcmp(s->u.st.members[j].name, pids[i]) &&
				    is_int(s->u.st.members[j].fc)) {
					cl->pid_k = k;
					cl->pid_m = (int) j;
					break;
				}
		}
	for (k = 0; k < 2 && cl->comm_k < 0; k++) {
		const struct model_fc *s = k ? ec->context : ec->sc->event_context;

		for (j = 0; s && s->kind == MODEL_FC_STRUCT && j < s->u.st.count; j++)
			if (!strcmp(s->u.st.members[j].name, "procname") &&
			    s->u.st.members[j].fc->kind == MODEL_FC_STRING) {
				cl->comm_k = k;
				cl->comm_m = (int) j;
				break;
			}
	}
}

/*
 * Synthesized case: note the name of @ev's task (its procname context, else its trace's
 * procname) for the saved command lines, when its stream's task changed. The last name a
 * pid had wins, as in the kernel's table.
 */
static enum tk_status note_comm(struct dat_conv *c, const struct tk_event *ev, struct in_stream *is,
				const struct in_class *cl)
{
	const struct model_fc *pfc = cl->pid_k ? ev->ec->context : ev->ec->sc->event_context;
	const struct model_value *pv = ev->scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT + cl->pid_k];
	const char *name = is->env_comm;
	size_t len;
	int64_t pid;

	if (!pv)
		return TK_OK;
	pid = (int64_t) (int32_t) member_value(pfc, pv, cl->pid_m)->v.u; /* common_pid's size */
	if (pid == is->last_pid || pid < 0)
		return TK_OK;
	if (cl->comm_k >= 0) {
		const struct model_fc *cfc =
			cl->comm_k ? ev->ec->context : ev->ec->sc->event_context;
		const struct model_value *cv =
			ev->scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT + cl->comm_k];

		if (!cv)
			return TK_OK;
		cv = member_value(cfc, cv, cl->comm_m);
		name = cv->v.s;
		len = name ? strnlen(name, (size_t) cv->n) : 0;
	} else {
		len = name ? strlen(name) : 0;
	}
	if (!len || memchr(name, '\n', len))
		return TK_OK;
	is->last_pid = pid;
	return tracedat_sink_keep_comm(c, pid, name, len, cl->comm_k >= 0);
}

/*
 * The name @name (@len bytes) of task @pid for the saved command lines; @copy: a copy is
 * kept, else @name lives as long as the conversion.
 */
enum tk_status tracedat_sink_note_task(struct dat_conv *c, struct in_stream *is, int64_t pid,
				       const char *comm)
{
	if ((pid == is->last_pid && comm == is->last_comm) || pid < 0 ||
	    !strcmp(comm, MODEL_TASK_UNKNOWN))
		return TK_OK;
	is->last_pid = pid;
	is->last_comm = comm;
	return tracedat_sink_keep_comm(c, pid, comm, strlen(comm), 0);
}

enum tk_status tracedat_sink_keep_comm(struct dat_conv *c, int64_t pid, const char *name,
				       size_t len, int copy)
{
	struct comm *e;
	size_t i;

	for (i = 0; i < c->comms.len; i++) {
		e = &VEC_AT(&c->comms, struct comm, i);
		if (e->pid != pid)
			continue;
		if (e->len == len && !memcmp(e->name, name, len))
			return TK_OK;
		break;
	}
	if (i == c->comms.len) {
		e = vec_push(&c->comms, sizeof(*e));
		if (!e)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		memset(e, 0, sizeof(*e));
		e->pid = pid;
	}
	free(e->own);
	e->own = NULL;
	if (copy) {
		e->own = malloc(len + 1);
		if (!e->own)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		memcpy(e->own, name, len);
		e->own[len] = '\0';
		name = e->own;
	}
	e->name = name;
	e->len = len;
	return TK_OK;
}

static int comm_cmp(const void *a, const void *b)
{
	const struct comm *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Synthesized case: the saved command lines, "PID NAME" lines in pid order. */
enum tk_status tracedat_sink_put_comms(struct dat_conv *c)
{
	struct vec text = VEC_INIT;
	enum tk_status st = TK_OK;
	size_t i;

	if (!c->comms.len)
		return TK_OK;
	qsort(c->comms.data, c->comms.len, sizeof(struct comm), comm_cmp);
	for (i = 0; i < c->comms.len && st >= 0; i++) {
		const struct comm *e = &VEC_AT(&c->comms, struct comm, i);
		char num[32];
		int n = snprintf(num, sizeof(num), "%" PRId64 " ", e->pid);
		char *p = vec_reserve(&text, 1, (size_t) n + e->len + 1) < 0
				  ? NULL
				  : (char *) text.data + text.len;

		if (!p) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
			break;
		}
		memcpy(p, num, (size_t) n);
		memcpy(p + n, e->name, e->len);
		p[n + e->len] = '\n';
		text.len += (size_t) n + e->len + 1;
	}
	if (st >= 0)
		st = tracedat_writer_set_cmdlines(c->w, text.data, text.len);
	vec_fini(&text);
	return st;
}

/* ---- formats and plans -------------------------------------------------------------------- */

/* "provider:event" as system and name, each made of letters, digits and '_'. */
static void split_name(const char *full, char *sys, size_t sys_size, char *name, size_t name_size)
{
	const char *colon = full ? strchr(full, ':') : NULL;
	const char *ev = colon ? colon + 1 : full ? full : "";
	size_t i, n;

	snprintf(sys, sys_size, "%.*s", colon ? (int) (colon - full) : 3, colon ? full : "ctf");
	snprintf(name, name_size, "%s", *ev ? ev : "event");
	for (i = 0; sys[i]; i++)
		if (!((sys[i] >= 'a' && sys[i] <= 'z') || (sys[i] >= 'A' && sys[i] <= 'Z') ||
		      (sys[i] >= '0' && sys[i] <= '9') || sys[i] == '_'))
			sys[i] = '_';
	if (!sys[0])
		snprintf(sys, sys_size, "ctf");
	n = strlen(name);
	for (i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			name[i] = '_';
}

/* @text (@len bytes), a `format` text, with the number of its "ID:" line replaced by @id. */
static enum tk_status with_id(const char *text, size_t len, uint32_t id, struct vec *out)
{
	const char *at = NULL, *end;
	char num[16];
	size_t k;

	for (k = 0; k + 4 <= len && !at; k++)
		if ((k == 0 || text[k - 1] == '\n') && !memcmp(text + k, "ID: ", 4))
			at = text + k + 4;
	if (!at)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot renumber event format: reason=no ID line");
	end = memchr(at, '\n', len - (size_t) (at - text));
	if (!end)
		end = text + len;
	snprintf(num, sizeof(num), "%" PRIu32, id);
	out->len = 0;
	if (vec_reserve(out, 1, len + sizeof(num) + 1) < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot renumber event format");
	memcpy(out->data, text, (size_t) (at - text));
	out->len = (size_t) (at - text);
	memcpy((char *) out->data + out->len, num, strlen(num));
	out->len += strlen(num);
	memcpy((char *) out->data + out->len, end, len - (size_t) (end - text));
	out->len += len - (size_t) (end - text);
	((char *) out->data)[out->len] = '\0';
	return TK_OK;
}

/*
 * Synthesized case, for an event class of a trace.dat source: its own format, renumbered so
 * that the formats of several files do not clash (a format met before with the same text,
 * an instance's or another file's of the same kernel, keeps its number), and records laid out
 * as it says. 0 in *@done when the class has no such format (made up then).
 */
static enum tk_status own_plan(struct dat_conv *c, const struct tk_event_class *ec,
			       struct in_class *cl, int *done)
{
	const struct tracedat_info *in = tracedat_source_info(ec->sc->source);
	const struct ftrace_event *orig = in ? ec->fmt : NULL;
	const struct tracedat_blob *b =
		orig ? tracedat_format_text(in, orig->system, orig->id) : NULL;
	struct vec text = VEC_INIT;
	struct synth_format *sf = NULL;
	struct ftrace_event *fev = NULL;
	enum tk_status st = TK_OK;
	size_t i;

	*done = b != NULL;
	if (!b)
		return TK_OK;
	for (i = 0; st >= 0 && i < c->formats.len && !sf; i++) {
		struct synth_format *x = &VEC_AT(&c->formats, struct synth_format, i);

		if (!x->text || strcmp(x->system, orig->system))
			continue;
		st = with_id((const char *) b->data, b->len, x->id, &text);
		if (st >= 0 && !strcmp(text.data, x->text))
			sf = x;
	}
	if (st >= 0 && !sf) {
		uint32_t id = (uint32_t) c->formats.len + 1;

		if (id > UINT16_MAX)
			st = TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot convert to trace.dat: reason=more "
							 "than 65535 event classes");
		if (st >= 0)
			st = with_id((const char *) b->data, b->len, id, &text);
		if (st >= 0)
			st = ftrace_event_parse(&c->ctx, orig->system, text.data, text.len, &fev);
		if (st >= 0 && (fev->flags & FTRACE_EVENT_FAILED))
			st = TK_FAIL(TK_ERR_FORMAT, "Cannot read format: event=%s", orig->name);
		if (st >= 0 && !(sf = vec_push(&c->formats, sizeof(*sf))))
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		if (st >= 0) {
			sf->system = strdup(orig->system);
			sf->name = strdup(orig->name);
			sf->text = strdup(text.data);
			sf->id = id;
			sf->ec = ec;
			sf->fev = fev;
			if (!sf->system || !sf->name || !sf->text)
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		}
	}
	vec_fini(&text);
	if (st >= 0)
		st = convert_record_plan(&cl->plan, ec, sf->fev, CONVERT_RECORD_ENV, c->bo);
	if (st >= 0 && !sf->plan)
		sf->plan = cl->plan;
	if (st >= 0)
		cl->id = sf->id;
	cl->pid_k = cl->comm_k = -1; /* the source names its tasks (put_event()) */
	return st;
}

/* The format of a CTF event class, made up and added to the output's formats. */
static enum tk_status synth_plan(struct dat_conv *c, const struct tk_event_class *ec,
				 struct in_class *cl)
{
	char sys[128], name[256];
	struct vec text = VEC_INIT;
	struct synth_format *sf;
	struct ftrace_event *fev = NULL;
	uint32_t id = (uint32_t) c->formats.len + 1;
	enum tk_status st;
	int done;

	st = own_plan(c, ec, cl, &done);
	if (st < 0 || done)
		return st;
	if (id > UINT16_MAX)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot convert to trace.dat: reason=more than 65535 event classes");
	split_name(ec->name, sys, sizeof(sys), name, sizeof(name));
	comm_members(ec, cl);
	st = convert_record_format(ec, id, name, NULL, &text);
	if (st >= 0)
		st = ftrace_event_parse(&c->ctx, sys, text.data, text.len, &fev);
	if (st >= 0 && (fev->flags & FTRACE_EVENT_FAILED))
		st = TK_FAIL(TK_ERR_FORMAT, "Cannot read synthesized format: event=%s", name);
	if (st >= 0)
		st = convert_record_plan(&cl->plan, ec, fev, CONVERT_RECORD_SYNTH, c->bo);
	if (st >= 0 && !(sf = vec_push(&c->formats, sizeof(*sf))))
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
	if (st >= 0) {
		sf->system = strdup(sys);
		sf->name = strdup(name);
		sf->id = id;
		sf->ec = ec;
		sf->plan = cl->plan;
		if (!sf->system || !sf->name) {
			free(sf->system);
			free(sf->name);
			c->formats.len--;
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		}
	}
	vec_fini(&text);
	cl->id = id;
	return st;
}

/* Env case: the format with @id (binary search of the sorted context), or NULL. */
static const struct ftrace_event *env_format(const struct dat_conv *c, uint32_t id)
{
	return ftrace_event_find(&c->ctx, id);
}

/* Env case: the single format named as @ec, for classes without a common_type. */
static const struct ftrace_event *env_format_named(const struct dat_conv *c,
						   const struct tk_event_class *ec)
{
	const struct ftrace_event *found = NULL;
	size_t i;

	for (i = 0; ec->name && i < c->ctx.n_events; i++)
		if (!strcmp(c->ctx.events[i]->name, ec->name)) {
			if (found)
				return NULL;
			found = c->ctx.events[i];
		}
	return found;
}

/* Env case: the plan of @ev's class for the format of its common_type. */
/* The index of the integer member @name of structure @fc, or -1. */
static int int_member(const struct model_fc *fc, const char *name)
{
	uint32_t i;

	for (i = 0; fc && fc->kind == MODEL_FC_STRUCT && i < fc->u.st.count; i++)
		if (!strcmp(fc->u.st.members[i].name, name) && is_int(fc->u.st.members[i].fc))
			return (int) i;
	return -1;
}

static enum tk_status env_plan(struct dat_conv *c, const struct tk_event *ev, struct in_class *cl)
{
	const struct tk_event_class *ec = ev->ec;
	/* where common_type is: as the shortcut writes it, a trace.dat source's own common
	 * scope, or the class's context (the generic CTF writer may keep common fields there) */
	static const int scopes[] = {MODEL_SCOPE_EVENT_COMMON_CONTEXT, MODEL_SCOPE_COMMON,
				     MODEL_SCOPE_EVENT_CONTEXT};
	const struct ftrace_event *fev;
	uint64_t id = UINT64_MAX;
	size_t i;

	for (i = 0; !cl->has_type_val && i < TK_ARRAY_SIZE(scopes); i++) {
		cl->type_scope = scopes[i];
		cl->type_member = int_member(model_scope_fc(ec, scopes[i]), "common_type");
		if (cl->type_member >= 0)
			break;
	}
	if (cl->type_member >= 0 && ev->scope[cl->type_scope])
		id = member_value(model_scope_fc(ec, cl->type_scope), ev->scope[cl->type_scope],
				  cl->type_member)
			     ->v.u;
	if (cl->has_type_val) {
		if (!cl->plan || cl->raw || id == UINT64_MAX || id == cl->id)
			return TK_OK;
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot convert event to trace.dat: event=%s, common-type=%" PRIu64
			       ", reason=earlier events of its class had %" PRIu32,
			       ec->name ? ec->name : "(unnamed)", id, cl->id);
	}
	cl->has_type_val = 1;
	fev = id <= UINT32_MAX ? env_format(c, (uint32_t) id) : NULL;
	if (!fev && id == UINT64_MAX)
		fev = env_format_named(c, ec);
	if (!fev) {
		/* records of no known format were kept as their bytes */
		cl->plan = convert_record_plan_raw(ec);
		cl->raw = cl->plan != NULL;
		if (cl->plan)
			return TK_OK;
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot convert event to trace.dat: event=%s, common-type=%" PRId64
			       ", reason=no ftrace format in the environment for it",
			       ec->name ? ec->name : "(unnamed)",
			       id == UINT64_MAX ? (int64_t) -1 : (int64_t) id);
	}
	cl->id = fev->id;
	return convert_record_plan(&cl->plan, ec, fev, CONVERT_RECORD_ENV, c->bo);
}

/* ---- events ------------------------------------------------------------------------------- */

/* @size bytes of record at @data for @ev, at its time on CPU @cpu of output buffer @b. */
enum tk_status tracedat_sink_put_record(struct dat_conv *c, const struct tk_event *ev, size_t b,
					uint32_t cpu, const void *data, uint32_t size,
					int64_t missed)
{
	struct spool *s = NULL;
	enum tk_status st = get_spool(c, b, cpu, &s);
	int64_t ns;
	uint64_t ts;

	if (st < 0)
		return st;
	ns = ev->has_ts ? ev->ns : c->origin;
	ts = ns > c->origin ? (uint64_t) ns - (uint64_t) c->origin : 0;
	if (ts < s->last_ts) /* cannot happen with ordered input; pages cannot go back */
		ts = s->last_ts;
	s->last_ts = ts;
	return ftrace_page_writer_add(&s->pw, ts, data, size, missed);
}

/*
 * The task of @ev as its source names it outside the event's values (trace.dat: common_pid
 * and the file's saved command lines; perf.data: the sample's tid and perf's name for it at
 * that sample), for the saved command lines: noted when the stream's task or its name
 * changed, the last name of a pid winning, as in the kernel's table.
 */
static enum tk_status note_source_task(struct dat_conv *c, const struct tk_event *ev,
				       struct in_stream *is)
{
	const char *comm;
	int64_t pid;

	if (!ev->stream->source->ops->task)
		return TK_OK;
	ev->stream->source->ops->task(ev, &pid, &comm);
	return tracedat_sink_note_task(c, is, pid, comm);
}

static enum tk_status put_event(struct dat_conv *c, const struct tk_event *ev)
{
	struct in_stream *is = &c->streams[ev->stream->index];
	struct in_class *cl = &c->classes[ev->ec->index];
	uint32_t cpu;
	int64_t missed;
	enum tk_status st = TK_OK;

	if (!is->known)
		st = stream_init(c, ev->stream, is);
	if (st >= 0 && c->raw)
		return tracedat_sink_raw_event(c, ev, is);
	if (st >= 0)
		st = model_event_values(ev);
	if (st >= 0 && c->env.present)
		st = env_plan(c, ev, cl);
	else if (st >= 0 && !cl->plan)
		st = synth_plan(c, ev->ec, cl);
	if (st < 0)
		return st;
	cpu = tracedat_sink_cpu(ev, is);
	/* events lost just before: notices (CTF packets), a trace.dat source's pages */
	missed = model_missed_add(tracedat_sink_take_losses(is),
				  model_missed_add(is->missed, ev->missed));
	is->missed = 0;
	if (!c->env.present && cl->pid_k >= 0 && (cl->comm_k >= 0 || is->env_comm))
		st = note_comm(c, ev, is, cl);
	else if (!c->env.present)
		st = note_source_task(c, ev, is);
	if (st >= 0)
		st = convert_record_build(cl->plan, ev, &c->rec);
	if (st >= 0 && (c->measure || c->rec.size > c->rec_fits)) {
		/* larger pages are needed: measure the rest, then write again (synthesized case) */
		if (c->rec.size > c->measure)
			c->measure = c->rec.size;
		return TK_OK;
	}
	if (st < 0)
		return st;
	return tracedat_sink_put_record(c, ev, is->buffer, cpu, c->rec.data, (uint32_t) c->rec.size,
					missed);
}

/* ---- the output file ---------------------------------------------------------------------- */

/* The earliest clock offset of the trace, in ns, and whether clocks are absolute. */
static void time_origin(struct dat_conv *c)
{
	int have = 0;
	size_t i;

	for (i = 0; i < c->t->n_streams; i++) {
		const struct tk_clock *k = c->t->streams[i]->sc->clock;

		if (!k)
			continue;
		if (!have || k->base_ns < c->origin)
			c->origin = k->base_ns;
		c->absolute |= k->absolute;
		have = 1;
	}
}

/* The ring-buffer layout, formats and output buffers of the env case. */
static enum tk_status setup_env(struct dat_conv *c)
{
	const struct convert_env *e = &c->env;
	enum tk_status st;
	size_t i;

	c->bo = e->bo;
	c->page_size = e->page_size;
	ftrace_ctx_init(&c->ctx, c->bo);
	st = ftrace_page_layout_parse(e->header_page.data, e->header_page.len, &c->ctx.layout);
	if (st < 0)
		return TK_FAIL(st, "Cannot read ftrace environment: key=ftrace_header_page");
	c->ctx.long_size = e->long_size;
	if (c->ctx.layout.data_offset + 16 > c->page_size)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ftrace environment: key=ftrace_page_size, "
			       "reason=smaller than the page header");
	for (i = 0; i < e->n_formats; i++) {
		const struct convert_env_format *f = &e->formats[i];
		struct ftrace_event *fev = NULL;

		st = ftrace_event_parse(&c->ctx, f->system, f->text.data, f->text.len, &fev);
		if (st < 0 || fev->id != f->id)
			return TK_FAIL(st < 0 ? st : TK_ERR_FORMAT,
				       "Cannot read ftrace environment: key=ftrace_event_%" PRIu32
				       "_format%s",
				       f->id, st < 0 ? "" : ", reason=its ID line says another id");
	}
	st = ftrace_ctx_finish(&c->ctx);
	if (st < 0)
		return st;
	c->buffers = calloc(e->n_buffers, sizeof(*c->buffers));
	if (!c->buffers)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
	c->n_buffers = e->n_buffers;
	for (i = 0; i < e->n_buffers; i++) {
		c->buffers[i].name = e->buffers[i].name;
		c->buffers[i].clock = e->buffers[i].clock;
	}
	return TK_OK;
}

static enum tk_status setup_synth(struct dat_conv *c)
{
	enum tk_status st;

	c->bo = TK_BYTE_ORDER_HOST == TK_BYTE_ORDER_BE ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;
	c->page_size = SYNTH_PAGE_SIZE;
	c->header_page_len =
		(size_t) synth_header_page(c->header_page, sizeof(c->header_page), c->page_size);
	ftrace_ctx_init(&c->ctx, c->bo);
	st = ftrace_page_layout_parse(c->header_page, c->header_page_len, &c->ctx.layout);
	if (st < 0)
		return st;
	c->ctx.long_size = 8;
	c->buffers = calloc(1, sizeof(*c->buffers));
	if (!c->buffers)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
	c->buffers[0].name = "";
	c->n_buffers = 1;
	return TK_OK;
}

static enum tk_status open_output(struct dat_conv *c)
{
	const struct tk_convert_opts *o = c->f->o;
	struct tracedat_write_opts wo = TRACEDAT_WRITE_OPTS_INIT;
	enum tk_status st;

	st = tracedat_write_opts_choose(&wo, o->file_version, o->compression,
					c->env.present ? c->env.file_version : 7,
					c->env.present ? c->env.compression : "zstd");
	if (st < 0)
		return st;
	wo.bo = c->bo;
	wo.long_size = c->env.present ? c->env.long_size : c->raw ? c->ctx.long_size : 8;
	wo.page_size = c->page_size;
	return tracedat_writer_open(&c->w, c->output, &wo);
}

/* The trace clock of the synthesized file: the CTF clock's name when trace-cmd knows it. */
const char *tracedat_sink_clock(const struct dat_conv *c)
{
	static const struct {
		const char *ctf, *ftrace;
	} names[] = {
		{"monotonic", "mono"}, {"monotonic_raw", "mono_raw"},
		{"boot", "boot"},      {"boottime", "boot"},
		{"local", "local"},    {"global", "global"},
		{"mono", "mono"},      {"mono_raw", "mono_raw"},
		{"tai", "tai"},	       {"perf", "perf"},
		{"uptime", "uptime"},
	};
	size_t i, k;

	for (i = 0; i < c->t->n_streams; i++) {
		const struct tk_clock *clk = c->t->streams[i]->sc->clock;

		for (k = 0; clk && clk->name && k < TK_ARRAY_SIZE(names); k++)
			if (!strcmp(clk->name, names[k].ctf))
				return names[k].ftrace;
		if (clk)
			break;
	}
	return "local";
}

/* Source @i's kernel symbols (@printk 0) or printk formats (1), or NULL when not trace.dat. */
static const struct tracedat_blob *source_text(const struct tk_trace *t, size_t i, int printk)
{
	const struct tracedat_info *in = tracedat_source_info(t->sources[i]);

	return !in ? NULL : printk ? &in->printk : &in->kallsyms;
}

/* The texts source_text() gives for every source, each text once, one after the other. */
static enum tk_status sources_text(const struct tk_trace *t, int printk, struct vec *out)
{
	size_t i, j;

	for (i = 0; i < t->n_sources; i++) {
		const struct tracedat_blob *b = source_text(t, i, printk);

		for (j = 0; b && b->len && j < i; j++) {
			const struct tracedat_blob *o = source_text(t, j, printk);

			if (o && o->len == b->len && !memcmp(o->data, b->data, b->len))
				break;
		}
		if (!b || !b->len || j < i)
			continue;
		if (vec_reserve(out, 1, b->len) < 0)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
		memcpy((char *) out->data + out->len, b->data, b->len);
		out->len += b->len;
	}
	return TK_OK;
}

/*
 * Synthesized case: the kernel symbols and printk formats of the trace.dat sources, which
 * their events' formats print with; a text several files share is written once.
 */
static enum tk_status put_sources_texts(struct dat_conv *c)
{
	struct vec ksyms = VEC_INIT, printk = VEC_INIT;
	enum tk_status st;

	st = sources_text(c->t, 0, &ksyms);
	if (st >= 0)
		st = sources_text(c->t, 1, &printk);
	if (st >= 0 && ksyms.len)
		st = tracedat_writer_set_kallsyms(c->w, ksyms.data, ksyms.len);
	if (st >= 0 && printk.len)
		st = tracedat_writer_set_printk(c->w, printk.data, printk.len);
	vec_fini(&ksyms);
	vec_fini(&printk);
	return st;
}

static enum tk_status put_synth_metadata(struct dat_conv *c)
{
	struct tracedat_writer *w = c->w;
	char text[64], uname[512];
	const char *sys = NULL, *host = NULL, *rel = NULL;
	int64_t date = c->origin / 1000, rest = c->origin % 1000;
	enum tk_status st;
	size_t i;

	st = tracedat_writer_set_header_page(w, c->header_page, c->header_page_len);
	if (st >= 0)
		st = tracedat_writer_set_header_event(w, synth_header_event,
						      sizeof(synth_header_event) - 1);
	for (i = 0; st >= 0 && i < c->formats.len; i++) {
		const struct synth_format *sf = &VEC_AT(&c->formats, struct synth_format, i);
		struct vec ftext = VEC_INIT;

		if (sf->text && !strcmp(sf->system, "ftrace"))
			st = tracedat_writer_add_ftrace_format(w, sf->text, strlen(sf->text));
		else if (sf->text)
			st = tracedat_writer_add_event_format(w, sf->system, sf->text,
							      strlen(sf->text));
		else
			st = convert_record_format(sf->ec, sf->id, sf->name, sf->plan, &ftext);
		if (st >= 0 && !sf->text)
			st = tracedat_writer_add_event_format(w, sf->system, ftext.data, ftext.len);
		vec_fini(&ftext);
	}
	snprintf(text, sizeof(text), "[%s]", tracedat_sink_clock(c));
	if (st >= 0)
		st = tracedat_writer_set_trace_clock(w, text, strlen(text));
	/* trace-cmd reads DATE with strtoll: a negative one (printed in hex) would not do */
	if (!c->absolute || c->origin < 0) {
		date = 0;
		rest = c->origin;
	}
	if (st >= 0 && date) {
		snprintf(text, sizeof(text), "0x%" PRIx64, (uint64_t) date);
		st = tracedat_writer_add_option(w, TRACEDAT_OPTION_DATE, text, strlen(text) + 1);
	}
	if (st >= 0 && rest) {
		snprintf(text, sizeof(text), "%" PRId64, rest);
		st = tracedat_writer_add_option(w, TRACEDAT_OPTION_OFFSET, text, strlen(text) + 1);
	}
	/* UNAME from the environment LTTng writes, as trace-cmd report --uname shows it */
	for (i = 0; c->t->n_sources && i < c->t->sources[0]->n_env; i++) {
		const struct model_env *e = &c->t->sources[0]->env[i];

		if (e->str && !strcmp(e->key, "sysname"))
			sys = e->str;
		else if (e->str && !strcmp(e->key, "hostname"))
			host = e->str;
		else if (e->str && !strcmp(e->key, "kernel_release"))
			rel = e->str;
	}
	if (st >= 0 && sys && host && rel) {
		snprintf(uname, sizeof(uname), "%s %s %s", sys, host, rel);
		st = tracedat_writer_add_option(w, TRACEDAT_OPTION_UNAME, uname, strlen(uname) + 1);
	}
	if (st >= 0)
		st = tracedat_sink_put_comms(c);
	if (st >= 0)
		st = put_sources_texts(c);
	return st;
}

static enum tk_status put_env_metadata(struct dat_conv *c)
{
	const struct convert_env *e = &c->env;
	struct tracedat_writer *w = c->w;
	enum tk_status st;
	size_t i;

	st = tracedat_writer_set_header_page(w, e->header_page.data, e->header_page.len);
	if (st >= 0)
		st = tracedat_writer_set_header_event(w, e->header_event.data, e->header_event.len);
	for (i = 0; st >= 0 && i < e->n_formats; i++)
		if (!strcmp(e->formats[i].system, "ftrace"))
			st = tracedat_writer_add_ftrace_format(w, e->formats[i].text.data,
							       e->formats[i].text.len);
	for (i = 0; st >= 0 && i < e->n_formats; i++)
		if (strcmp(e->formats[i].system, "ftrace"))
			st = tracedat_writer_add_event_format(w, e->formats[i].system,
							      e->formats[i].text.data,
							      e->formats[i].text.len);
	if (st >= 0)
		st = tracedat_writer_set_kallsyms(w, e->kallsyms.data, e->kallsyms.len);
	if (st >= 0)
		st = tracedat_writer_set_printk(w, e->printk.data, e->printk.len);
	if (st >= 0)
		st = tracedat_writer_set_cmdlines(w, e->cmdlines.data, e->cmdlines.len);
	if (st >= 0 && e->trace_clock.len)
		st = tracedat_writer_set_trace_clock(w, e->trace_clock.data, e->trace_clock.len);
	for (i = 0; st >= 0 && i < e->n_options; i++)
		st = tracedat_writer_add_option(w, e->options[i].id, e->options[i].data,
						e->options[i].size);
	if (st >= 0 && e->cpus > c->cpus)
		c->cpus = e->cpus;
	return st;
}

/* Every buffer's CPUs, from their temporary files, in increasing order. */
static enum tk_status put_data(struct dat_conv *c)
{
	enum tk_status st;
	size_t b, k;

	st = tracedat_writer_set_cpus(c->w, c->cpus);
	for (b = 0; st >= 0 && b < c->n_buffers; b++) {
		struct out_buffer *ob = &c->buffers[b];

		if (b > 0)
			st = tracedat_writer_buffer_begin(c->w, ob->name, ob->clock);
		for (k = 0; st >= 0 && k < ob->n_cpus; k++) {
			struct spool *s = ob->cpus[k];

			if (!s)
				continue;
			st = ftrace_page_writer_flush(&s->pw);
			if (st >= 0 && lseek(s->fd, 0, SEEK_SET) < 0)
				st = TK_FAIL(TK_ERR_IO, "Cannot read temporary file: errno=%s",
					     strerror(errno));
			if (st >= 0)
				st = tracedat_writer_cpu_begin(c->w, (uint32_t) k);
			if (st >= 0)
				st = tracedat_writer_cpu_fd(c->w, s->fd);
			if (st >= 0)
				st = tracedat_writer_cpu_end(c->w);
		}
	}
	return st;
}

/*
 * Synthesized case, after a pass that met records larger than a page: the smallest power of
 * two that holds the largest, said in a warning, and an output opened again for the events
 * to be written into it (the pipeline gives them again: TK_AGAIN from dat_close()).
 */
static enum tk_status convert_again(struct dat_conv *c)
{
	uint32_t old = c->page_size, p = old;
	enum tk_status st;

	while (p < SYNTH_PAGE_MAX && ftrace_page_max_record(&c->ctx.layout, p) < c->measure)
		p *= 2;
	if (ftrace_page_max_record(&c->ctx.layout, p) < c->measure)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot convert event to trace.dat: size=%" PRIu64
			       ", reason=larger than the largest page (%" PRIu32 " bytes)",
			       c->measure, p);
	sink_warn(c->f,
		  "Writing trace.dat in larger pages: page-size=%" PRIu32
		  ", largest-record=%" PRIu64 ", reason=records larger than a %" PRIu32
		  "-byte page",
		  p, c->measure, old);
	tracedat_writer_destroy(c->w);
	c->w = NULL;
	buffers_free(c);
	c->buffers = NULL;
	c->n_buffers = 0;
	memset(c->streams, 0, (c->t->n_streams + 1) * sizeof(*c->streams));
	c->cpus = 0;
	c->measure = 0;
	/* the formats (in c->ctx) and plans are kept: they do not depend on the page */
	c->page_size = p;
	c->header_page_len =
		(size_t) synth_header_page(c->header_page, sizeof(c->header_page), c->page_size);
	st = ftrace_page_layout_parse(c->header_page, c->header_page_len, &c->ctx.layout);
	if (st < 0)
		return st;
	c->buffers = calloc(1, sizeof(*c->buffers));
	if (!c->buffers)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
	c->buffers[0].name = "";
	c->n_buffers = 1;
	c->rec_fits = ftrace_page_max_record(&c->ctx.layout, c->page_size);
	return open_output(c);
}

static void dat_free(struct dat_conv *c)
{
	size_t i;

	tracedat_writer_destroy(c->w);
	buffers_free(c);
	for (i = 0; c->classes && i < c->t->n_ecs; i++)
		convert_record_plan_destroy(c->classes[i].plan);
	for (i = 0; i < c->formats.len; i++) {
		free(VEC_AT(&c->formats, struct synth_format, i).system);
		free(VEC_AT(&c->formats, struct synth_format, i).name);
		free(VEC_AT(&c->formats, struct synth_format, i).text);
	}
	vec_fini(&c->formats);
	for (i = 0; i < c->comms.len; i++)
		free(VEC_AT(&c->comms, struct comm, i).own);
	vec_fini(&c->comms);
	free(c->classes);
	free(c->streams);
	free(c->rec.data);
	ftrace_ctx_fini(&c->ctx);
	convert_env_fini(&c->env);
	vec_fini(&c->own_env);
	arena_fini(&c->own_env_arena);
	free(c);
}

static enum tk_status own_env_put(void *payload, const char *key, const char *str, int64_t integer)
{
	struct dat_conv *c = payload;
	struct model_env *e;

	if (vec_reserve(&c->own_env, sizeof(*e), 1))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot keep ftrace metadata");
	e = (struct model_env *) c->own_env.data + c->own_env.len;
	e->key = arena_strndup(&c->own_env_arena, key, strlen(key));
	e->str = str ? arena_strndup(&c->own_env_arena, str, strlen(str)) : NULL;
	e->integer = integer;
	if (!e->key || (str && !e->str))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot keep ftrace metadata");
	c->own_env.len++;
	return TK_OK;
}

/*
 * The environment of a lone trace.dat source, as its reader would keep it in a CTF trace
 * (export_env: stream class b is buffer b), so that the env case makes the file again from
 * the decoded events; its time origin is the file's DATE and OFFSET, which the options
 * written back add again.
 */
static enum tk_status own_env(struct dat_conv *c, const struct tk_source *src)
{
	const struct tracedat_info *in = tracedat_source_info(src);
	const struct model_env_out out = {own_env_put, c};
	uint64_t *ids = calloc(src->n_scs + 1, sizeof(*ids));
	enum tk_status st;
	size_t i;

	if (!ids)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
	for (i = 0; i < src->n_scs; i++)
		ids[i] = src->scs[i]->id;
	st = src->ops->export_env(src, ids, NULL, 0, &out);
	free(ids);
	if (st >= 0)
		st = convert_env_read(&c->env, c->own_env.data, c->own_env.len);
	c->origin = (in->has_date ? in->date_offset_ns : 0) + (in->has_offset ? in->offset_ns : 0);
	return st;
}

/* The ftrace metadata of @src's raw records (model_source_ops.ftrace_metadata), or NULL. */
static const struct tracedat_info *raw_metadata(const struct tk_source *src)
{
	return src->ops->ftrace_metadata ? src->ops->ftrace_metadata(src) : NULL;
}

static enum tk_status dat_open(void **state, struct tk_trace *t, const char *output,
			       struct sink_ctx *cx)
{
	const struct tracedat_info *raw;
	struct dat_conv *c;
	enum tk_status st = TK_OK;
	size_t i;

	c = calloc(1, sizeof(*c));
	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
	c->t = t;
	c->f = cx;
	c->output = output;
	arena_init(&c->own_env_arena);
	/* several traces: formats of their own, whatever their environments say */
	if (t->n_sources == 1 && tracedat_source_info(t->sources[0]))
		st = own_env(c, t->sources[0]);
	else if (t->n_sources == 1 && (raw = raw_metadata(t->sources[0])))
		st = tracedat_sink_raw_setup(c, t->sources[0], raw);
	else if (t->n_sources == 1)
		st = convert_env_read(&c->env, t->sources[0]->env, t->sources[0]->n_env);
	if (st >= 0 && !c->raw)
		st = c->env.present ? setup_env(c) : setup_synth(c);
	c->streams = calloc(t->n_streams + 1, sizeof(*c->streams));
	c->classes = calloc(t->n_ecs + 1, sizeof(*c->classes));
	/* a record and its 8-byte header in an empty page, as the kernel allows */
	c->rec_fits = ftrace_page_max_record(&c->ctx.layout, c->page_size);
	/* synthesized case: any record, pages grow to fit (convert_again()) */
	c->rec.max = c->env.present ? c->rec_fits
				    : ftrace_page_max_record(&c->ctx.layout, SYNTH_PAGE_MAX);
	if (st >= 0 && (!c->streams || !c->classes))
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
	for (i = 0; st >= 0 && i < t->n_ecs; i++)
		c->classes[i].pid_field = -2; /* raw case: sought at the class's first event */
	if (!c->own_env.len)
		time_origin(c);
	if (st >= 0)
		st = open_output(c);
	if (st < 0) {
		dat_free(c);
		return TK_FAIL(st, "Cannot write trace.dat: path=%s", output);
	}
	*state = c;
	return TK_OK;
}

static enum tk_status dat_event(void *state, const struct tk_event *ev)
{
	return put_event(state, ev);
}

static void dat_skip(void *state, const struct tk_event *ev)
{
	struct dat_conv *c = state;
	struct in_stream *is = &c->streams[ev->stream->index];

	if (ev->missed)
		is->missed = model_missed_add(is->missed, ev->missed);
}

/*
 * Losses the iterator reports (CTF: a packet's discarded-events counter grew, or its
 * sequence number skipped packets) go to the next event of their stream that is written,
 * whose page the ftrace page writer flags as following lost events.
 */
static void dat_notice(void *state, const struct tk_notice *n)
{
	struct dat_conv *c = state;
	struct in_stream *is;
	int64_t *lost;

	if (!n->stream || n->stream->index >= c->t->n_streams)
		return;
	is = &c->streams[n->stream->index];
	lost = &is->lost_events;
	if (n->kind == TK_NOTICE_DISCARDED_PACKETS)
		is->lost_packets = 1;
	else if (n->count > (uint64_t) INT64_MAX || *lost < 0 ||
		 (int64_t) n->count > INT64_MAX - *lost)
		*lost = -1; /* an unknown count (UINT64_MAX), or more than a count holds */
	else
		*lost += (int64_t) n->count;
}

static enum tk_status dat_close(void *state, enum tk_status st)
{
	struct dat_conv *c = state;
	const char *output = c->output;

	if (st >= 0 && c->measure) {
		st = convert_again(c);
		if (st >= 0)
			return TK_AGAIN;
	}
	if (st >= 0)
		st = c->env.present ? put_env_metadata(c)
		     : c->raw	    ? tracedat_sink_raw_metadata(c)
				    : put_synth_metadata(c);
	if (st >= 0)
		st = put_data(c);
	if (st >= 0) {
		st = tracedat_writer_close(c->w);
		c->w = NULL;
	}
	dat_free(c);
	if (st < 0)
		return TK_FAIL(st, "Cannot write trace.dat: path=%s", output);
	return TK_OK;
}

/*
 * The trace.dat writer as a sink: the file a CTF trace converted from trace.dat came from,
 * else formats made from the event classes (the file comment says how).
 */
const struct sink_class tracedat_sink = {
	.name = "trace.dat",
	.open = dat_open,
	.event = dat_event,
	.skip = dat_skip,
	.notice = dat_notice,
	.close = dat_close,
};
