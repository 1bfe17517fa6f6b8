/* SPDX-License-Identifier: MIT */
/*
 * Shared by the paths of tk_convert() (src/api/convert*.c): the event selection and time
 * window every conversion applies, and the progress report.
 */
#ifndef TK_API_CONVERT_PRIV_H
#define TK_API_CONVERT_PRIV_H

#include <signal.h>
#include <stdint.h>

#include <tracekit/tracekit.h>

#include "../model/filter.h"
#include "../model/model.h"

struct convert_filter {
	const struct tk_convert_opts *o;
	struct tk_filter *tf;		   /* the filter stage (include/tracekit/filter.h) */
	uint64_t events;		   /* events converted so far */
	uint64_t total;			   /* events to convert, if known (0 otherwise) */
	const volatile sig_atomic_t *stop; /* tk_convert_opts.stop, or NULL */
};

/* TK_ERR_CANCELED with its cause when the caller asked to stop, else TK_OK. */
enum tk_status convert_stopped(const volatile sig_atomic_t *stop);

/* 1 when @ev passes the filter stage, 0 when not, or a negative status. */
static inline int convert_keep(const struct convert_filter *f, const struct tk_event *ev)
{
	enum tk_status st;
	int keep;

	if (model_filter_all(f->tf))
		return 1;
	st = tk_filter_match(f->tf, ev, &keep);
	return st < 0 ? (int) st : keep;
}

/*
 * Count one event converted, and tell the progress callback now and then; TK_ERR_CANCELED
 * when the caller asked to stop.
 */
static inline enum tk_status convert_progress(struct convert_filter *f)
{
	if (++f->events % 65536 == 0 && f->o->progress)
		f->o->progress(f->events, f->total, f->o->payload);
	if (__builtin_expect(f->stop && *f->stop, 0))
		return convert_stopped(f->stop);
	return TK_OK;
}

/*
 * Tell the caller's warning callback, if it has one, of a choice that changes the output
 * (convert.c). @fmt gives one line without a newline.
 */
void convert_warn(const struct convert_filter *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* trace.dat to CTF (convert-ctf.c): one trace.dat source into the CTF trace @output. */
enum tk_status convert_dat_to_ctf(struct tk_trace *t, const char *output,
				  struct convert_filter *filter);

/*
 * CTF to CTF (convert-ctf-ctf.c): each source of @t, read from @inputs, into a CTF trace in
 * @output (@output itself for a lone trace, else a directory per source named after its
 * path within its input).
 */
enum tk_status convert_ctf_to_ctf(struct tk_trace *t, const char *const *inputs, size_t n_inputs,
				  const char *output, struct convert_filter *filter);
/* CTF (any input but a trace.dat file) to trace.dat: convert-dat.c. */
enum tk_status convert_ctf_to_dat(struct tk_trace *t, const char *output,
				  struct convert_filter *filter);

#endif /* TK_API_CONVERT_PRIV_H */
